// Takings as staff read them, from the ledger: the money received by each method, the refunds
// beneath it (each as money going out), and the total kept. Store credit is not takings (it moved
// between a customer's orders), so the server leaves it out.
import type { Takings } from "../../lib/admin/types";
import { formatKsh } from "../../lib/format";
import { lineAmount } from "../../lib/admin/display";

/** The list; `totalLabel` names the total ('Total today'). */
export function TakingsList({ takings, totalLabel }: { takings: Takings; totalLabel: string }) {
  return (
    <dl className="takings__list">
      {takings.received.length === 0 && takings.refunded.length === 0 && (
        <div className="takings__row takings__row--none">
          <dt>Received</dt>
          <dd>None yet</dd>
        </div>
      )}
      {takings.received.map((sum) => (
        <div key={sum.method} className="takings__row">
          <dt>{sum.label}</dt>
          <dd>{formatKsh(sum.amount)}</dd>
        </div>
      ))}
      {takings.refunded.map((sum) => (
        <div key={sum.method} className="takings__row takings__row--refund">
          <dt>{`Refunded · ${sum.label}`}</dt>
          <dd>{lineAmount(-sum.amount)}</dd>
        </div>
      ))}
      <div className="takings__row takings__row--total">
        <dt>{totalLabel}</dt>
        <dd>{formatKsh(takings.total)}</dd>
      </div>
    </dl>
  );
}
