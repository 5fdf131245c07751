// What the tracking page shows of an order's status (spec section 2: progress bar and badge).

/** The five steps of the progress bar. */
export const PROGRESS_STEPS = ["Order Placed", "Picked Up", "In Progress", "Ready for Delivery", "Delivered"] as const;

const STEP_OF_STATUS: Record<string, number> = {
  pending: 0,
  "picked-up": 1,
  "in-progress": 2,
  ready: 3,
  delivered: 4,
};

/** How many steps are done for a status; -1 for a cancelled or unknown one. */
export function progressStep(status: string): number {
  return STEP_OF_STATUS[status] ?? -1;
}

/** The badge's text. */
export function statusLabel(status: string): string {
  if (status === "cancelled") return "Cancelled";
  if (status === "pending") return "Pending";
  return PROGRESS_STEPS[progressStep(status)] ?? status;
}

/** Spec section 2: warning for 'In Progress', success for 'Delivered', primary otherwise. */
export function badgeTone(status: string): "warning" | "success" | "primary" {
  if (status === "in-progress") return "warning";
  if (status === "delivered") return "success";
  return "primary";
}
