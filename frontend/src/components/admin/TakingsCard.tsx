// Today's takings (Nairobi's day, by the server's clock): the orders paid today by how they were
// paid (a prompt on the phone, the till by hand, cash), and apart from them the M-PESA money that
// arrived today without paying an order (unmatched, or flagged).
import { tallyText } from "../../lib/admin/mpesa";
import type { Takings } from "../../lib/admin/types";
import { formatDay } from "../../lib/format";

/** The card. */
export function TakingsCard({ takings }: { takings: Takings }) {
  const rows: [string, string][] = [
    ["M-PESA prompt", tallyText(takings.mpesaPrompt, "order")],
    ["M-PESA till", tallyText(takings.mpesaTill, "order")],
    ["Cash", tallyText(takings.cash, "order")],
  ];
  const apart = takings.unmatched.count + takings.flagged.count > 0;
  return (
    <section className="card takings" aria-labelledby="takings-heading">
      <h2 id="takings-heading">
        Today&apos;s takings{" "}
        <time className="takings__day" dateTime={takings.day}>
          {formatDay(`${takings.day}T12:00:00+03:00`) || takings.day}
        </time>
      </h2>
      <dl className="takings__list">
        {rows.map(([label, value]) => (
          <div key={label} className="takings__row">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
        <div className="takings__row takings__row--total">
          <dt>Total paid today</dt>
          <dd>{tallyText(takings.total, "order")}</dd>
        </div>
      </dl>
      {apart && (
        <dl className="takings__list takings__list--apart">
          {takings.unmatched.count > 0 && (
            <div className="takings__row">
              <dt>Received, not matched to an order</dt>
              <dd>{tallyText(takings.unmatched, "payment")}</dd>
            </div>
          )}
          {takings.flagged.count > 0 && (
            <div className="takings__row">
              <dt>Received, flagged (did not pay its order)</dt>
              <dd>{tallyText(takings.flagged, "payment")}</dd>
            </div>
          )}
        </dl>
      )}
    </section>
  );
}
