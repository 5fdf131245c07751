// One order found by the tracking page: information, timeline, progress bar, status badge.
import { formatDate, formatKsh } from "../lib/format";
import type { TrackedOrder } from "../lib/generated/TrackedOrder";
import { badgeTone, PROGRESS_STEPS, progressStep, statusLabel } from "../lib/tracking";

/** The card. */
export function TrackedOrderCard({ order }: { order: TrackedOrder }) {
  const done = progressStep(order.status);
  return (
    <article className="card tracked-order" aria-labelledby={`order-${order.reference}`}>
      <div className="tracked-order__head">
        <h2 id={`order-${order.reference}`}>Order #{order.reference}</h2>
        <span className={`badge badge--${badgeTone(order.status)}`}>{statusLabel(order.status)}</span>
      </div>
      {done >= 0 && (
        <ol className="progress" aria-label="Progress">
          {PROGRESS_STEPS.map((step, index) => (
            <li
              key={step}
              className={index <= done ? "progress__step is-done" : "progress__step"}
              aria-current={index === done ? "step" : undefined}
            >
              <span className="progress__dot" aria-hidden="true" />
              <span className="progress__label">{step}</span>
            </li>
          ))}
        </ol>
      )}
      <div className="two-columns">
        <section>
          <h3>Order Information</h3>
          <dl className="summary-list">
            <div>
              <dt>Order ID</dt>
              <dd>{order.reference}</dd>
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
            <div>
              <dt>Quantity</dt>
              <dd>{order.quantity} kg</dd>
            </div>
            <div>
              <dt>Total</dt>
              <dd>{formatKsh(order.total)}</dd>
            </div>
          </dl>
        </section>
        <section>
          <h3>Timeline</h3>
          <dl className="summary-list">
            <div>
              <dt>Order placed</dt>
              <dd>{formatDate(order.placedAt)}</dd>
            </div>
            <div>
              <dt>Pickup Date</dt>
              <dd>{order.pickedUpAt ? formatDate(order.pickedUpAt) : "Awaiting pickup"}</dd>
            </div>
            <div>
              <dt>Estimated Completion</dt>
              <dd>{order.estimatedCompletion ? formatDate(order.estimatedCompletion) : "—"}</dd>
            </div>
            <div>
              <dt>Delivery Date</dt>
              <dd>{order.deliveredAt ? formatDate(order.deliveredAt) : "Not yet delivered"}</dd>
            </div>
          </dl>
        </section>
      </div>
    </article>
  );
}
