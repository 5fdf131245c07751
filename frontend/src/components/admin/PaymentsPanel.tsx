// The dashboard's "M-PESA payments to check": money M-PESA reported that no order could be found
// for (a till payment without the order ID, from a masked number), and money that reached an order
// without paying it (another amount than the bill, an order paid already). Staff search them by
// phone, code or amount, match one to its order, or mark a flagged one checked.
import { type FormEvent, useState } from "react";
import { getPaymentsToCheck } from "../../lib/admin/api";
import type { PaymentChanged, PaymentsToCheck } from "../../lib/admin/types";
import { useResource } from "../../lib/admin/useResource";
import { AdminAlert } from "./AdminAlert";
import { PaymentToCheckRow } from "./PaymentToCheckRow";

interface PaymentsPanelProps {
  initial: PaymentsToCheck;
  csrf: string;
  /** A payment was matched or checked: the stats and the orders list follow. */
  onChanged: (answer: PaymentChanged) => void;
  onSessionEnded: () => void;
}

/** The panel; a line saying so when nothing waits. */
export function PaymentsPanel({ initial, csrf, onChanged, onSessionEnded }: PaymentsPanelProps) {
  const payments = useResource({
    fetch: (signal, search: string) => getPaymentsToCheck(search, signal),
    initial,
    onSessionEnded,
  });
  const { data: list, failure } = payments;
  const [q, setQ] = useState(initial.q);
  const [announcement, setAnnouncement] = useState("");

  function onSearch(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void payments.load(q);
  }

  function changed(answer: PaymentChanged) {
    setAnnouncement(answer.message);
    onChanged(answer);
    void payments.load(list.q);
  }

  return (
    <section className="card awaiting payments" aria-labelledby="payments-heading">
      <div className="awaiting__head">
        <h2 id="payments-heading">M-PESA payments to check</h2>
        <span className={list.total === 0 ? "badge badge--success" : "badge badge--warning"}>{list.total}</span>
      </div>
      <p className="payments__said" role="status">
        {announcement}
      </p>
      {(list.total > 0 || list.q) && (
        <form
          className="awaiting__move payments__search"
          role="search"
          aria-label="Search the payments to check"
          onSubmit={onSearch}
        >
          <div className="field">
            <label htmlFor="payments-q">Search phone, M-PESA code or amount</label>
            <input
              id="payments-q"
              type="search"
              autoComplete="off"
              maxLength={40}
              placeholder="e.g. 0712 345 678, QKH94M1Z11 or 1200"
              value={q}
              onChange={(event) => setQ(event.target.value)}
            />
          </div>
          <button type="submit" className="button button--outline button--small">
            Search payments
          </button>
        </form>
      )}
      {failure && <AdminAlert failure={failure} />}
      {list.items.length === 0 ? (
        <p className="awaiting__empty">
          {list.q ? "No payment to check matches." : "Every M-PESA payment is matched to its order."}
        </p>
      ) : (
        <ul className="awaiting__list">
          {list.items.map((payment) => (
            <PaymentToCheckRow
              key={payment.receipt}
              payment={payment}
              csrf={csrf}
              onChanged={changed}
              onSessionEnded={onSessionEnded}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
