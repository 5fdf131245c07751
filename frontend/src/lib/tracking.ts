// What the tracking page shows of an order (spec section 2): the status badge, the progress bar
// and the timeline. The server reads when each step was reached from the status history
// (server/src/views/tracking/timeline.rs); this module only words it.
import { formatDay, formatDayTime } from "./format";
import type { StepReached } from "./generated/StepReached";
import type { TrackedOrder } from "./generated/TrackedOrder";

/** The five steps of the progress bar. */
export const PROGRESS_STEPS = ["Order Placed", "Picked Up", "In Progress", "Ready for Delivery", "Delivered"] as const;

const STEP_OF_STATUS: Record<string, number> = {
  pending: 0,
  "picked-up": 1,
  "in-progress": 2,
  ready: 3,
  delivered: 4,
};

/** The step of the progress bar a status stands for; -1 for a cancelled or unknown one. */
export function progressStep(status: string): number {
  return STEP_OF_STATUS[status] ?? -1;
}

/** The badge's text. */
export function statusLabel(status: string): string {
  if (status === "cancelled") return "Cancelled";
  if (status === "pending") return "Pending";
  return PROGRESS_STEPS[progressStep(status)] ?? status;
}

/**
 * Spec section 2: warning for 'In Progress', success for 'Delivered', primary otherwise; and
 * danger (red) for 'Cancelled', which the spec does not know: it must not read as under way.
 */
export function badgeTone(status: string): "warning" | "success" | "primary" | "danger" {
  if (status === "in-progress") return "warning";
  if (status === "delivered") return "success";
  if (status === "cancelled") return "danger";
  return "primary";
}

/** A step's time: 'Mon 23 Nov, 19:40', or 'Picked up by Mon 23 Nov, 19:40' when staff skipped it. */
function when(reached: StepReached, skippedPrefix: string): string {
  const at = formatDayTime(reached.at);
  return reached.exact ? at : `${skippedPrefix} by ${at}`;
}

/** One line of the timeline. */
export interface TimelineRow {
  term: string;
  value: string;
}

/**
 * The timeline: when the order was placed and picked up, when it should be (or was) ready, and
 * when it was delivered; for a cancelled order, when it was cancelled instead of what would come.
 */
export function timeline(order: TrackedOrder): TimelineRow[] {
  const [, pickedUp, , ready, delivered] = order.steps.map((step) => step.reached);
  const cancelled = order.cancelledAt !== null;
  const rows: TimelineRow[] = [
    { term: "Order placed", value: formatDayTime(order.placedAt) },
    {
      term: "Pickup Date",
      value: pickedUp ? when(pickedUp, "Picked up") : cancelled ? "Not picked up" : "Awaiting pickup",
    },
  ];
  if (order.cancelledAt !== null) {
    return [...rows, { term: "Cancelled", value: formatDayTime(order.cancelledAt) }];
  }
  if (ready) {
    rows.push({ term: "Completed", value: when(ready, "Ready") });
  } else {
    const estimate = order.estimatedCompletion;
    const turnaround = order.visit?.rush ? "The day after pickup (next-day rush)" : "3-4 days after pickup";
    rows.push({ term: "Estimated Completion", value: estimate ? formatDay(estimate) : turnaround });
  }
  rows.push({ term: "Delivery Date", value: delivered ? when(delivered, "Delivered") : "Not yet delivered" });
  return rows;
}
