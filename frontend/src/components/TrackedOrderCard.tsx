// One order found by the tracking page or opened from its own link: information, progress bar (or
// the cancellation), the visit (windows, confirmation, where the valet is), timeline, status badge.
import { formatDayTime, formatKsh, orderMessage, telHref, whatsappHref } from "../lib/format";
import type { Business } from "../lib/generated/Business";
import type { TrackedOrder } from "../lib/generated/TrackedOrder";
import { badgeTone, PROGRESS_STEPS, statusLabel, timeline } from "../lib/tracking";
import { Icon } from "./Icon";
import { OrderLines } from "./OrderLines";
import { VisitDetails } from "./VisitDetails";

/** The five steps, each done exactly when the server found a time for it in the status history. */
function ProgressBar({ order }: { order: TrackedOrder }) {
  const current = order.steps.reduce((last, step, index) => (step.reached ? index : last), -1);
  return (
    <ol className="progress" aria-label="Progress">
      {order.steps.map((step, index) => (
        <li
          key={step.status}
          className={step.reached ? "progress__step is-done" : "progress__step"}
          aria-current={index === current ? "step" : undefined}
        >
          <span className="progress__dot" aria-hidden="true" />
          <span className="progress__label">
            {PROGRESS_STEPS[index]}
            <span className="visually-hidden">{step.reached ? ": done" : ": not yet"}</span>
          </span>
        </li>
      ))}
    </ol>
  );
}

/** Instead of the bar: when the order was cancelled, and whom to ask. */
function Cancelled({ id, at, business }: { id: string; at: string; business: Business }) {
  return (
    <div className="tracked-order__cancelled">
      <p>
        <strong>This order was cancelled</strong> on {formatDayTime(at)}.
      </p>
      <p>Questions, or want it back on? Call or WhatsApp us on {business.phone}.</p>
      <div className="actions">
        <a className="button button--outline" href={telHref(business.phone)}>
          <Icon name="phone" /> Call Us
        </a>
        <a
          className="button button--whatsapp"
          href={whatsappHref(business.whatsapp, orderMessage(business.name, id))}
          target="_blank"
          rel="noopener noreferrer"
        >
          <Icon name="chat" /> WhatsApp Us
        </a>
      </div>
    </div>
  );
}

/** The card. */
export function TrackedOrderCard({ order, business }: { order: TrackedOrder; business: Business }) {
  return (
    <article className="card tracked-order" aria-labelledby={`order-${order.id}`}>
      <div className="tracked-order__head">
        <h2 id={`order-${order.id}`}>{`Order #${order.id}`}</h2>
        <span className={`badge badge--${badgeTone(order.status)}`}>{statusLabel(order.status)}</span>
      </div>
      {order.cancelledAt !== null ? (
        <Cancelled id={order.id} at={order.cancelledAt} business={business} />
      ) : (
        <ProgressBar order={order} />
      )}
      <VisitDetails order={order} />
      <div className="two-columns">
        <section>
          <h3>Order Information</h3>
          <dl className="summary-list">
            <div>
              <dt>Order ID</dt>
              <dd>{order.id}</dd>
            </div>
            <div>
              <dt>Customer</dt>
              <dd>{order.customer}</dd>
            </div>
            <div>
              <dt>Phone</dt>
              <dd>{order.phone}</dd>
            </div>
            <div>
              <dt>Service</dt>
              <dd>{order.service}</dd>
            </div>
            {order.quantity > 0 && (
              <div>
                <dt>Quantity</dt>
                <dd>{order.quantity} kg</dd>
              </div>
            )}
            {order.lines.some((line) => line.kind !== "kg") && (
              <div>
                <dt>Items</dt>
                <dd>
                  <OrderLines lines={order.lines} total={null} />
                </dd>
              </div>
            )}
            <div>
              <dt>Total</dt>
              <dd>{formatKsh(order.total)}</dd>
            </div>
          </dl>
        </section>
        <section>
          <h3>Timeline</h3>
          <dl className="summary-list tracked-order__timeline">
            {timeline(order).map((row) => (
              <div key={row.term}>
                <dt>{row.term}</dt>
                <dd>{row.value}</dd>
              </div>
            ))}
          </dl>
        </section>
      </div>
    </article>
  );
}
