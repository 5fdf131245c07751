// What the order dialog shows: how the order came in (online, or taken by whom on the phone or
// WhatsApp) and its re-clean links, each opening the other order; everything the customer gave, the
// pickup and delivery windows (and rush), the lines and the total, its money (the ledger, with what staff can do about it) and its M-PESA
// prompts and payments, the status history (when and who) and the e-mails and texts about the order
// with how each went (for a text, what the network reported).
import {
  attemptsText,
  dateTimeOrNA,
  deliveryBadge,
  lineAmount,
  lineQuantity,
  outboxStatusLabel,
  outboxStatusTone,
  recipientText,
  shortOrderId,
  stopWhenText,
} from "../../lib/admin/display";
import type { OrderChanged, OrderDetail } from "../../lib/admin/types";
import { formatDate, formatKsh, telHref } from "../../lib/format";
import { originText } from "../../lib/admin/origin";
import { statusLabel } from "../../lib/tracking";
import { OrderLedger } from "./OrderLedger";
import { OrderMpesaSection } from "./OrderMpesaSection";
import { OrderStatusBadge } from "./OrderStatusBadge";

interface OrderDetailViewProps {
  detail: OrderDetail;
  csrf: string;
  /** Opens another order's detail (a re-clean's, or its original's). */
  onOpen: (id: string) => void;
  /** A change of its money was saved from the ledger. */
  onChanged: (changed: OrderChanged) => void;
  onSessionEnded: () => void;
}

/** The detail's sections. */
export function OrderDetailView({ detail, csrf, onOpen, onChanged, onSessionEnded }: OrderDetailViewProps) {
  return (
    <div className="order-detail">
      <p className="order-detail__status">
        <OrderStatusBadge status={detail.status} /> Placed{" "}
        <time dateTime={detail.createdAt}>{dateTimeOrNA(detail.createdAt)}</time>
      </p>
      <OriginSection detail={detail} onOpen={onOpen} />
      <CustomerSection detail={detail} />
      <VisitSection detail={detail} />
      <LinesSection detail={detail} />
      <OrderLedger detail={detail} csrf={csrf} onChanged={onChanged} onSessionEnded={onSessionEnded} />
      <OrderMpesaSection detail={detail} />
      <HistorySection detail={detail} />
      <MessagesSection detail={detail} />
    </div>
  );
}

/** How it came in, and the re-cleans: the order it cleans again, or those asked of it. */
function OriginSection({ detail, onOpen }: { detail: OrderDetail; onOpen: (id: string) => void }) {
  const original = detail.recleanOf;
  const link = (id: string) => (
    <button type="button" className="order-detail__link" aria-haspopup="dialog" onClick={() => onOpen(id)}>
      {shortOrderId(id)}
    </button>
  );
  return (
    <section aria-labelledby="order-detail-origin">
      <h3 id="order-detail-origin">How it came in</h3>
      <ul className="order-detail__origin">
        <li>{originText(detail.source, detail.takenBy)}</li>
        {original && (
          <li className="order-detail__reclean">
            <span>
              <span className="badge badge--info">Free re-clean</span> of order {link(original)}
            </span>
            {detail.recleanProblem && <q className="order-detail__text">{detail.recleanProblem}</q>}
          </li>
        )}
        {detail.recleans.map((reclean) => (
          <li key={reclean.orderId} className="order-detail__reclean">
            <span>
              Re-cleaned in order {link(reclean.orderId)} (asked{" "}
              <time dateTime={reclean.requestedAt}>{formatDate(reclean.requestedAt) || "N/A"}</time>):{" "}
              {reclean.items.join(", ")}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function CustomerSection({ detail }: { detail: OrderDetail }) {
  return (
    <section aria-labelledby="order-detail-customer">
      <h3 id="order-detail-customer">Customer</h3>
      <dl className="order-detail__facts">
        <dt>Name</dt>
        <dd>{detail.customerName}</dd>
        <dt>Phone</dt>
        <dd>
          <a href={telHref(detail.phone)}>{detail.phone}</a>
        </dd>
        <dt>E-mail</dt>
        <dd>{detail.email ? <a href={`mailto:${detail.email}`}>{detail.email}</a> : "Not given"}</dd>
        <dt>Pickup location</dt>
        <dd>{detail.location}</dd>
        <dt>Landmark</dt>
        <dd>{detail.landmark || "Not given"}</dd>
        <dt>Special instructions</dt>
        <dd className="order-detail__text">{detail.specialInstructions.trim() || "None"}</dd>
      </dl>
    </section>
  );
}

/** When the valet comes: the pickup and delivery windows, how far each has got, and rush. */
function VisitSection({ detail }: { detail: OrderDetail }) {
  return (
    <section aria-labelledby="order-detail-visit">
      <h3 id="order-detail-visit">Pickup and delivery</h3>
      <dl className="order-detail__facts">
        <dt>Pickup</dt>
        <dd>{detail.pickup ? stopWhenText(detail.pickup, "pickup") : "Not booked"}</dd>
        <dt>Delivery</dt>
        <dd>{detail.delivery ? stopWhenText(detail.delivery, "delivery") : "Not booked"}</dd>
        <dt>Next-day rush</dt>
        <dd>{detail.rush ? "Yes: delivered the day after pickup" : "No"}</dd>
      </dl>
    </section>
  );
}

function LinesSection({ detail }: { detail: OrderDetail }) {
  return (
    <section aria-labelledby="order-detail-lines">
      <h3 id="order-detail-lines">Order</h3>
      <table className="order-detail__lines">
        <caption className="visually-hidden">What the customer ordered</caption>
        <thead>
          <tr>
            <th scope="col">Item</th>
            <th scope="col">Quantity</th>
            <th scope="col">Amount</th>
          </tr>
        </thead>
        <tbody>
          {detail.lines.map((line, index) => (
            <tr key={index}>
              <th scope="row">{line.label}</th>
              <td>{lineQuantity(line)}</td>
              <td>{lineAmount(line.amount)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={2}>
              Total
            </th>
            <td>{formatKsh(detail.totalAmount)}</td>
          </tr>
        </tfoot>
      </table>
      <p>
        <a className="button button--outline button--small" href={`/admin/orders/${detail.id}/items`}>
          Items, tags and photos
        </a>
      </p>
    </section>
  );
}

function HistorySection({ detail }: { detail: OrderDetail }) {
  return (
    <section aria-labelledby="order-detail-history">
      <h3 id="order-detail-history">Status history</h3>
      <ol className="order-detail__history">
        {detail.history.map((change, index) => (
          <li key={index}>
            <strong>{statusLabel(change.status)}</strong> <time dateTime={change.at}>{dateTimeOrNA(change.at)}</time>
            <span className="order-detail__who">{change.by ? `by ${change.by}` : "placed by the customer"}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}

function MessagesSection({ detail }: { detail: OrderDetail }) {
  return (
    <section aria-labelledby="order-detail-messages">
      <h3 id="order-detail-messages">E-mails and texts</h3>
      {detail.messages.length === 0 ? (
        <p>No e-mails or texts about this order.</p>
      ) : (
        <ul className="order-detail__emails">
          {detail.messages.map((message) => {
            const delivery = message.delivery && deliveryBadge(message.delivery);
            return (
              <li key={message.id}>
                <span className="order-detail__email-head">
                  <strong>{message.label}</strong>
                  <span className={`badge badge--${outboxStatusTone(message.status)}`}>
                    {outboxStatusLabel(message.status)}
                  </span>
                  {delivery && <span className={`badge badge--${delivery.tone}`}>{delivery.label}</span>}
                </span>
                <span className="order-detail__who">
                  {recipientText(message)} · written{" "}
                  <time dateTime={message.createdAt}>{dateTimeOrNA(message.createdAt)}</time> ·{" "}
                  {attemptsText(message.attempts)}
                </span>
                {message.deliveryDetail && (
                  <span className="order-detail__who">Network report: {message.deliveryDetail}</span>
                )}
                {message.status !== "sent" && message.lastError && (
                  <span className="order-detail__who">
                    {message.status === "skipped" ? "Not sent: " : "Last error: "}
                    {message.lastError}
                  </span>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
