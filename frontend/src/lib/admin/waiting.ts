// Orders still pending after the confirmation call's promise (spec section 2: a call within 30
// minutes of placing the order) stand out on the dashboard. The time is counted to the server's
// clock as of its last answer, so that a phone with a wrong clock shows the same thing.

/** Spec section 2 (/confirmation): staff call to confirm within 30 minutes of the order. */
export const CONFIRMATION_CALL_MINUTES = 30;

/** Whole minutes an order has waited for its confirmation call at `now`, once past the promise; null otherwise. */
export function overdueMinutes(order: { status: string; createdAt: string }, now: string): number | null {
  if (order.status !== "pending") return null;
  const waited = Math.floor((Date.parse(now) - Date.parse(order.createdAt)) / 60_000);
  return Number.isFinite(waited) && waited >= CONFIRMATION_CALL_MINUTES ? waited : null;
}

/** 'Waiting 42 min', 'Waiting 2 h 5 min'. */
export function waitingText(minutes: number): string {
  if (minutes < 60) return `Waiting ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `Waiting ${hours} h` : `Waiting ${hours} h ${rest} min`;
}
