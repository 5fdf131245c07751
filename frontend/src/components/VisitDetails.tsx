// The visit block of a tracked order (issue 16): where the valet is on the day of the run, the
// pickup and delivery windows, whether the slot is confirmed, next-day rush, the landmark, and the
// estimate beside the bill once weighing changed it.
import type { TrackedOrder } from "../lib/generated/TrackedOrder";
import type { TrackedVisit } from "../lib/generated/TrackedVisit";
import { AWAITING_CONFIRMATION, awaitsPickup, billText, CONFIRMED, runText, stopText } from "../lib/visit";

/** Today's run, for the stop that is in one: the pickup's, or else the delivery's. */
function RunStatus({ visit }: { visit: TrackedVisit }) {
  const run = visit.pickup?.run ?? visit.delivery?.run ?? null;
  if (!run) return null;
  return (
    <p className="visit__run" role="status">
      {runText(run)}
    </p>
  );
}

/** The block; nothing for an order from before pickup windows, unless its bill changed. */
export function VisitDetails({ order }: { order: TrackedOrder }) {
  const { visit, estimate } = order;
  if (!visit && estimate === null) return null;
  return (
    <section className="visit" aria-label="Pickup and delivery">
      {visit && <RunStatus visit={visit} />}
      <dl className="summary-list">
        {visit?.pickup && (
          <div>
            <dt>Pickup</dt>
            <dd>
              {stopText(visit.pickup, "pickup")}
              {order.status === "pending" && awaitsPickup(visit.pickup) && (
                <span className={visit.confirmed ? "visit__confirmed" : "visit__waiting"}>
                  {visit.confirmed ? CONFIRMED : AWAITING_CONFIRMATION}
                </span>
              )}
            </dd>
          </div>
        )}
        {visit?.delivery && (
          <div>
            <dt>Delivery</dt>
            <dd>
              {stopText(visit.delivery, "delivery")}
              {visit.rush && <span className="visit__rush">Next-day rush</span>}
            </dd>
          </div>
        )}
        {visit?.landmark && (
          <div>
            <dt>Landmark</dt>
            <dd>{visit.landmark}</dd>
          </div>
        )}
        {estimate !== null && (
          <div>
            <dt>Bill</dt>
            <dd>{billText(estimate, order.total)}</dd>
          </div>
        )}
      </dl>
    </section>
  );
}
