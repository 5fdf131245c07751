// The money tab's balances, from the ledgers: the orders that still owe money (the oldest 50, with
// how many owe what in all, and a link to the unpaid list when there are more), the refunds due
// (orders that owe money back), and the store credit phone numbers hold. Each order ID opens the order's detail, where its money is settled.
import { dateOrNA, shortOrderId } from "../../lib/admin/display";
import type { Balances, OrderBalance } from "../../lib/admin/types";
import { adminHref } from "../../lib/admin/urls";
import { formatKsh } from "../../lib/format";
import { statusLabel } from "../../lib/tracking";

/** One list of orders with their amounts; `empty` when there are none. */
function OrderBalances({
  orders,
  empty,
  onOpen,
}: {
  orders: readonly OrderBalance[];
  empty: string;
  onOpen: (id: string) => void;
}) {
  if (orders.length === 0) return <p className="balances__empty">{empty}</p>;
  return (
    <ul className="balances__list">
      {orders.map((order) => (
        <li key={order.orderId} className="balances__item">
          <span className="balances__who">
            <button
              type="button"
              className="order-detail__link"
              aria-haspopup="dialog"
              onClick={() => onOpen(order.orderId)}
            >
              <span className="visually-hidden">Details of order </span>
              {shortOrderId(order.orderId)}
            </button>{" "}
            {order.customerName}
            <small className="order-detail__who">
              {`${order.phone} · ${statusLabel(order.status)} · placed `}
              <time dateTime={order.createdAt}>{dateOrNA(order.createdAt)}</time>
            </small>
          </span>
          <strong className="balances__amount">{formatKsh(order.amount)}</strong>
        </li>
      ))}
    </ul>
  );
}

/** The section; `balances` is null until loaded. */
export function BalancesSection({ balances, onOpen }: { balances: Balances | null; onOpen: (id: string) => void }) {
  return (
    <section className="balances" aria-labelledby="balances-heading">
      <h2 id="balances-heading">Balances</h2>
      {!balances ? (
        <p className="admin-empty">Loading the balances…</p>
      ) : (
        <div className="balances__grid">
          <section className="card" aria-labelledby="balances-owing">
            <h3 id="balances-owing">Orders owing</h3>
            <OrderBalances orders={balances.owing} empty="No order owes money." onOpen={onOpen} />
            {balances.owingCount > balances.owing.length && (
              <p className="balances__more">
                {`Showing the ${balances.owing.length} oldest of ${balances.owingCount} orders owing. See them all in `}
                <a href={adminHref("orders", { status: null, payment: "unpaid", page: 1 })}>Unpaid orders</a>.
              </p>
            )}
            {balances.owing.length > 0 && (
              <p className="balances__total">
                <span>{`Owed in all (${balances.owingCount} ${balances.owingCount === 1 ? "order" : "orders"})`}</span>{" "}
                <strong>{formatKsh(balances.owingTotal)}</strong>
              </p>
            )}
          </section>
          <section className="card" aria-labelledby="balances-refunds">
            <h3 id="balances-refunds">Refunds due</h3>
            <OrderBalances orders={balances.owedBack} empty="No money is owed back." onOpen={onOpen} />
          </section>
          <section className="card" aria-labelledby="balances-credit">
            <h3 id="balances-credit">Store credit held</h3>
            {balances.credit.length === 0 ? (
              <p className="balances__empty">No phone number holds store credit.</p>
            ) : (
              <ul className="balances__list">
                {balances.credit.map((credit) => (
                  <li key={credit.phone} className="balances__item">
                    <span className="balances__who">
                      {credit.name ? `${credit.name} · ${credit.phone}` : credit.phone}
                    </span>
                    <strong className="balances__amount">{formatKsh(credit.amount)}</strong>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </div>
      )}
    </section>
  );
}
