// Under the booking's phone number: what is known of the caller, their earlier orders newest first
// (each opens its detail, as in the orders list), or that the number has not ordered before.
import { dateTimeOrNA } from "../../lib/admin/display";
import type { CustomerLookup } from "../../lib/admin/booking";
import { sourceLabel } from "../../lib/admin/origin";
import { formatKsh } from "../../lib/format";
import { statusLabel } from "../../lib/tracking";

interface CallerOrdersProps {
  /** The last look-up, if a whole number was typed. */
  caller: CustomerLookup | null;
  /** A look-up is under way. */
  looking: boolean;
  onOpen: (id: string) => void;
}

/** The caller's earlier orders, or a line saying there are none. */
export function CallerOrders({ caller, looking, onOpen }: CallerOrdersProps) {
  return (
    <div className="caller-orders" aria-live="polite">
      {looking ? (
        <p className="caller-orders__state">Looking up this number…</p>
      ) : caller === null ? null : !caller.found ? (
        <p className="caller-orders__state">No earlier orders from {caller.phone}: a new customer.</p>
      ) : (
        <>
          <p className="caller-orders__state">
            Earlier orders from {caller.phone} ({caller.orders.length}). Details filled in from the last one.
          </p>
          <ul className="caller-orders__list">
            {caller.orders.map((order) => (
              <li key={order.id} className="caller-orders__order">
                <button
                  type="button"
                  className="orders-table__id orders-table__open"
                  aria-haspopup="dialog"
                  onClick={() => onOpen(order.id)}
                >
                  <span className="visually-hidden">Details of order </span>
                  {order.id}
                </button>
                <span>{`${dateTimeOrNA(order.placedAt)} · ${statusLabel(order.status)} · ${formatKsh(order.totalAmount)}`}</span>
                <small>{`${order.summary} · ${sourceLabel(order.source)}`}</small>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
