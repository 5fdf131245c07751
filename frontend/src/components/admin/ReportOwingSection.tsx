// The Reports tab's money owed after delivery: now, by days since the order was delivered.
import type { OwingBucket } from "../../lib/generated/OwingBucket";
import { formatKsh } from "../../lib/format";

/** The section: each span of days opens to its orders. */
export function ReportOwingSection({ owing }: { owing: OwingBucket[] }) {
  const owingTotal = owing.reduce((total, bucket) => total + bucket.due, 0);
  return (
    <section className="reports__section" aria-labelledby="reports-owing">
      <h2 id="reports-owing">{`Owed after delivery: ${formatKsh(owingTotal)}`}</h2>
      <p className="reports__note">Now, whatever the period: by days since the order was delivered.</p>
      {owing.map((bucket) => (
        <details key={bucket.label} className="reports__owing">
          <summary>
            {`${bucket.label}: ${formatKsh(bucket.due)} (${bucket.orders.length} ${bucket.orders.length === 1 ? "order" : "orders"})`}
          </summary>
          {bucket.orders.length > 0 && (
            <ul>
              {bucket.orders.map((order) => (
                <li key={order.reference}>
                  {`#${order.reference} ${order.name}: ${formatKsh(order.due)}, delivered ${order.delivered} (${order.days} ${order.days === 1 ? "day" : "days"} ago)`}
                </li>
              ))}
            </ul>
          )}
        </details>
      ))}
    </section>
  );
}
