// Where an order's money stands, from its ledger: unpaid, part-paid, paid, in credit, or nothing to
// pay, as a badge beside the words that say how much.
import { settlementLabel, settlementTone } from "../../lib/admin/money";
import type { Settlement } from "../../lib/admin/types";

/** The badge. */
export function SettlementBadge({ settlement }: { settlement: Settlement }) {
  return <span className={`badge badge--${settlementTone(settlement)}`}>{settlementLabel(settlement)}</span>;
}
