// The dashboard's "Money" tab: the cash-up of a day (its takings, and the cash each valet or staff
// member holds, with "Cash handed in"), and the balances across orders (who owes what, refunds
// due, store credit held).
import type { Failure } from "../../lib/admin/api";
import type { Balances, CashUp } from "../../lib/admin/types";
import { AdminAlert } from "./AdminAlert";
import { BalancesSection } from "./BalancesSection";
import { CashUpSection } from "./CashUpSection";

interface MoneyPanelProps {
  cashUp: CashUp | null;
  balances: Balances | null;
  loading: boolean;
  failure: Failure | null;
  announcement: string;
  today: string;
  csrf: string;
  onDay: (day: string) => void;
  onOpen: (id: string) => void;
  onHandedIn: (cashUp: CashUp, holder: string, amount: number) => void;
  onSessionEnded: () => void;
}

/** The tab's content. */
export function MoneyPanel(props: MoneyPanelProps) {
  return (
    <div className="money-tab">
      {props.failure && <AdminAlert failure={props.failure} />}
      <p className="payments__said" role="status">
        {props.announcement}
      </p>
      <CashUpSection
        cashUp={props.cashUp}
        loading={props.loading}
        today={props.today}
        csrf={props.csrf}
        onDay={props.onDay}
        onOpen={props.onOpen}
        onHandedIn={props.onHandedIn}
        onSessionEnded={props.onSessionEnded}
      />
      <BalancesSection balances={props.balances} onOpen={props.onOpen} />
    </div>
  );
}
