// Where an order's money stands, from its ledger: unpaid, part-paid, paid, in credit, or nothing to
// pay, as a badge, beside the words that say how much ("Paid KSh 1,200 · KSh 300 to pay"), unless
// they would only repeat it.
import { settlementLabel, settlementTone } from "../../lib/admin/money";
import type { Settlement } from "../../lib/admin/types";

/** The badge and the words. */
export function SettlementBadge({ settlement, words }: { settlement: Settlement; words: string }) {
  const label = settlementLabel(settlement);
  return (
    <>
      <span className={`badge badge--${settlementTone(settlement)}`}>{label}</span>
      {words !== label && <> {words}</>}
    </>
  );
}
