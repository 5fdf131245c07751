// Today's takings (Nairobi's day, by the server's clock), from the ledger: the money received by
// each method, the refunds beneath, the total; and apart from them the M-PESA money that arrived
// today for no order (it waits in "M-PESA payments to check" and is not takings until matched).
import { tallyText } from "../../lib/admin/mpesa";
import type { DayTakings } from "../../lib/admin/types";
import { formatDay } from "../../lib/format";
import { TakingsList } from "./TakingsList";

/** The card. */
export function TakingsCard({ takings }: { takings: DayTakings }) {
  return (
    <section className="card takings" aria-labelledby="takings-heading">
      <h2 id="takings-heading">
        Today&apos;s takings{" "}
        <time className="takings__day" dateTime={takings.day}>
          {formatDay(`${takings.day}T12:00:00+03:00`) || takings.day}
        </time>
      </h2>
      <TakingsList takings={takings.takings} totalLabel="Total today" />
      {takings.unmatched.count > 0 && (
        <dl className="takings__list takings__list--apart">
          <div className="takings__row">
            <dt>Received, not matched to an order</dt>
            <dd>{tallyText(takings.unmatched)}</dd>
          </div>
        </dl>
      )}
    </section>
  );
}
