// One order of the dashboard's table: its seven cells (spec section 2; the order ID opens the
// order's detail, the customer cell has the pickup location and landmark, the service a rush badge,
// the amount where its money stands, the date has the time and the pickup and delivery windows), the status dropdown that saves at once, and the payment panel under the row
// when open. An order still pending after the confirmation call's 30 minutes stands out. A re-clean
// carries a badge that opens the order it cleans again; an order taken on the phone or WhatsApp (or
// booked by text) says so.
import { type ChangeEvent, useRef, useState } from "react";
import { type Failure, failureOf, sendPrompt, setOrderStatus } from "../../lib/admin/api";
import { dateTimeOrNA, kgAndItems, shortOrderId, stopWhenText } from "../../lib/admin/display";
import { canPrompt, promptLine } from "../../lib/admin/mpesa";
import type { AdminOrder, OrderChanged, SlotOption } from "../../lib/admin/types";
import { formatKsh, telHref } from "../../lib/format";
import { statusLabel } from "../../lib/tracking";
import { sourceTag } from "../../lib/admin/origin";
import { overdueMinutes, waitingText } from "../../lib/admin/waiting";
import { useFocusReturn } from "../../lib/useFocusReturn";
import { AdminAlert } from "./AdminAlert";
import { OrderStatusBadge } from "./OrderStatusBadge";
import { PaymentPanel } from "./PaymentPanel";
import { SettlementBadge } from "./SettlementBadge";
import { StatusChangePanel } from "./StatusChangePanel";

/** The seven column headers, in order; the phone layout shows them as labels inside each card. */
export const ORDER_COLUMNS = ["Order ID", "Customer", "Service", "Amount", "Status", "Date", "Actions"] as const;

interface OrderRowProps {
  order: AdminOrder;
  statuses: string[];
  /** The racks a ready order hangs on: marking it ready asks for one. */
  racks: string[];
  /** The windows ahead: cancelling collected laundry asks when it goes back. */
  slots: SlotOption[];
  csrf: string;
  /** The server's time of the list's last answer: how long a pending order has waited. */
  now: string;
  /** Whether M-PESA prompts are configured: an order with something to pay offers "Send M-PESA prompt". */
  sendsPrompts: boolean;
  /** Opens the order's detail. */
  onOpen: (id: string) => void;
  onChanged: (changed: OrderChanged) => void;
  onSessionEnded: () => void;
}

/** The id of the button that opens an order's detail (the focus comes back to it). */
export function detailButtonId(id: string): string {
  return `order-details-${id}`;
}

/** The row, and the payment panel's row under it while open. */
export function OrderRow({
  order,
  statuses,
  racks,
  slots,
  csrf,
  now,
  sendsPrompts,
  onOpen,
  onChanged,
  onSessionEnded,
}: OrderRowProps) {
  const [pendingStatus, setPendingStatus] = useState<string | null>(null);
  const [prompting, setPrompting] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [paymentOpen, setPaymentOpen] = useState(false);
  // A cancellation, or taking one back, waits for its panel's confirmation.
  const [confirming, setConfirming] = useState<string | null>(null);
  const { ref: selectRef, remember: rememberFocus } = useFocusReturn<HTMLSelectElement>(pendingStatus !== null);
  const paymentButton = useRef<HTMLButtonElement>(null);
  const panelId = `payment-${order.id}`;
  const [orderId, customer, service, amount, status, date, actions] = ORDER_COLUMNS;
  // An order in a status the list does not know still shows it rather than a wrong one.
  const options = statuses.includes(order.status) ? statuses : [order.status, ...statuses];
  const overdue = overdueMinutes(order, now);
  const original = order.recleanOf;
  const source = sourceTag(order.source);

  async function changeStatus(event: ChangeEvent<HTMLSelectElement>) {
    const next = event.target.value;
    if (pendingStatus !== null || next === order.status) return;
    if (next === "cancelled" || order.status === "cancelled" || next === "ready") {
      setFailure(null);
      setPaymentOpen(false);
      setConfirming(next);
      return;
    }
    rememberFocus();
    setPendingStatus(next);
    setFailure(null);
    try {
      onChanged(await setOrderStatus(order.id, next, csrf));
    } catch (error) {
      const shown = failureOf(error);
      if (shown.sessionEnded) onSessionEnded();
      setFailure(shown);
    } finally {
      // On failure the dropdown falls back to the stored status; on success the new order has it.
      setPendingStatus(null);
    }
  }

  async function prompt() {
    if (prompting) return;
    setPrompting(true);
    setFailure(null);
    try {
      onChanged(await sendPrompt(order.id, csrf));
    } catch (error) {
      const shown = failureOf(error);
      if (shown.sessionEnded) onSessionEnded();
      setFailure(shown);
    } finally {
      setPrompting(false);
    }
  }

  function closeConfirming() {
    setConfirming(null);
    selectRef.current?.focus();
  }

  function closePayment() {
    setPaymentOpen(false);
    paymentButton.current?.focus();
  }

  return (
    <>
      <tr className={overdue === null ? "orders-table__row" : "orders-table__row is-overdue"}>
        <th scope="row" data-label={orderId}>
          <button
            id={detailButtonId(order.id)}
            type="button"
            className="orders-table__id orders-table__open"
            aria-haspopup="dialog"
            onClick={() => onOpen(order.id)}
          >
            <span className="visually-hidden">Details of order </span>
            {shortOrderId(order.id)}
          </button>
          {(original || source) && (
            <span className="orders-table__tags">
              {original && (
                <button
                  type="button"
                  className="badge badge--info orders-table__tag"
                  aria-haspopup="dialog"
                  onClick={() => onOpen(original)}
                >
                  {`Re-clean of ${shortOrderId(original)}`}
                </button>
              )}
              {source && <span className="badge badge--secondary orders-table__tag">{source}</span>}
            </span>
          )}
        </th>
        <td data-label={customer}>
          <span className="orders-table__main">{order.customerName}</span>
          <a className="orders-table__sub" href={telHref(order.phone)}>
            {order.phone}
          </a>
          <small className="orders-table__sub">{`Pickup: ${order.location}`}</small>
          {order.landmark && <small className="orders-table__sub">{`Landmark: ${order.landmark}`}</small>}
        </td>
        <td data-label={service}>
          <span className="orders-table__main">{order.serviceLabel}</span>
          <small className="orders-table__sub">{kgAndItems(order)}</small>
          {order.rush && <span className="badge badge--warning orders-table__tag">Next-day rush</span>}
        </td>
        <td data-label={amount}>
          <span className="orders-table__main">{formatKsh(order.totalAmount)}</span>
          <span className="orders-table__money">
            <SettlementBadge settlement={order.settlement} words={order.moneyWords} />
          </span>
          {order.prompt && order.toPay > 0 && (
            <small className="orders-table__prompt">{promptLine(order.prompt)}</small>
          )}
          {order.paymentsToCheck > 0 && (
            <small className="orders-table__flag">
              {order.paymentsToCheck === 1
                ? "An M-PESA payment to check"
                : `${order.paymentsToCheck} M-PESA payments to check`}
            </small>
          )}
        </td>
        <td data-label={status}>
          <OrderStatusBadge status={order.status} />
          {overdue !== null && <small className="orders-table__overdue">{waitingText(overdue)}</small>}
        </td>
        <td data-label={date}>
          <time dateTime={order.createdAt}>{dateTimeOrNA(order.createdAt)}</time>
          {order.pickup && (
            <small className="orders-table__sub">{`Pickup ${stopWhenText(order.pickup, "pickup")}`}</small>
          )}
          {order.delivery && (
            <small className="orders-table__sub">{`Delivery ${stopWhenText(order.delivery, "delivery")}`}</small>
          )}
        </td>
        <td data-label={actions} className="orders-table__actions">
          <div className="orders-table__controls">
            <select
              ref={selectRef}
              aria-label={`Status of order ${order.id}`}
              value={pendingStatus ?? confirming ?? order.status}
              disabled={pendingStatus !== null}
              onChange={changeStatus}
            >
              {options.map((value) => (
                <option key={value} value={value}>
                  {statusLabel(value)}
                </option>
              ))}
            </select>
            <button
              ref={paymentButton}
              type="button"
              className="button button--outline button--small"
              aria-label={`Payment of order ${order.id}`}
              aria-expanded={paymentOpen}
              aria-controls={paymentOpen ? panelId : undefined}
              onClick={() => setPaymentOpen((open) => !open)}
            >
              Payment
            </button>
            {canPrompt(order, sendsPrompts) && (
              <button
                type="button"
                className="button button--outline button--small"
                aria-label={`Send M-PESA prompt for order ${order.id}`}
                onClick={() => void prompt()}
              >
                {prompting ? "Sending…" : "Send M-PESA prompt"}
              </button>
            )}
          </div>
          {failure && <AdminAlert failure={failure} />}
        </td>
      </tr>
      {confirming !== null && (
        <tr className="orders-table__panel">
          <td colSpan={ORDER_COLUMNS.length}>
            <StatusChangePanel
              id={`status-${order.id}`}
              order={order}
              next={confirming}
              racks={racks}
              slots={slots}
              csrf={csrf}
              onSaved={(changed) => {
                onChanged(changed);
                closeConfirming();
              }}
              onSessionEnded={onSessionEnded}
              onClose={closeConfirming}
            />
          </td>
        </tr>
      )}
      {paymentOpen && (
        <tr className="orders-table__panel">
          <td colSpan={ORDER_COLUMNS.length}>
            <PaymentPanel
              id={panelId}
              order={order}
              csrf={csrf}
              onSaved={(changed) => {
                onChanged(changed);
                closePayment();
              }}
              onSessionEnded={onSessionEnded}
              onClose={closePayment}
            />
          </td>
        </tr>
      )}
    </>
  );
}
