// What the visit block of a tracked order says (issue 16): the pickup and delivery windows, whether
// the slot is confirmed, the estimate beside the bill, and on the day of the run where the valet is.
// The server sends the windows and the ETA (computed once, in server/src/domain/schedule.rs); this
// module only words them.
import { formatKsh } from "./format";
import type { PickupChoice } from "./generated/PickupChoice";
import type { RunProgress } from "./generated/RunProgress";
import type { TrackedStop } from "./generated/TrackedStop";

/** The pickup slot, once staff confirmed it. */
export const CONFIRMED = "Confirmed";

/** The pickup slot, until staff confirm it (the home page promises 30 minutes). */
export const AWAITING_CONFIRMATION = "Waiting for confirmation (we confirm within 30 minutes)";

/**
 * Where the valet is, for a stop in today's run: "2 stops before you, expected 19:30-20:00",
 * "1 stop before you, …", "You are next, …", or "Your valet is on the way, …" once they set off
 * for this stop.
 */
export function runText(run: RunProgress): string {
  if (run.onTheWay) return `Your valet is on the way, expected ${run.eta}`;
  if (run.stopsBefore === 0) return `You are next, expected ${run.eta}`;
  const stops = run.stopsBefore === 1 ? "1 stop" : `${run.stopsBefore} stops`;
  return `${stops} before you, expected ${run.eta}`;
}

/** A stop's day and window, and what became of it: "Wed 25 Nov, 19:00-20:00 · Picked up". */
export function stopText(stop: TrackedStop, kind: "pickup" | "delivery"): string {
  if (stop.state === "done") return `${stop.window} · ${kind === "pickup" ? "Picked up" : "Delivered"}`;
  if (stop.state === "cancelled") return `${stop.window} · Cancelled`;
  if (stop.state === "missed") return `${stop.window} · Missed: please choose a new time`;
  return stop.window;
}

/** Whether the slot's confirmation still matters: the pickup is still to come. */
export function awaitsPickup(stop: TrackedStop | null): boolean {
  return stop !== null && (stop.state === "planned" || stop.state === "on-the-way");
}

/** The customer's estimate beside the bill: "Estimate KSh 450 · Bill after weighing KSh 600". */
export function billText(estimate: number, bill: number): string {
  return `Estimate ${formatKsh(estimate)} · Bill after weighing ${formatKsh(bill)}`;
}

/** A window the pickup can move to, as its option reads: "19:00-20:00 (3 places left)". */
export function choiceLabel(choice: PickupChoice): string {
  return `${choice.window} (${choice.remaining === 1 ? "1 place" : `${choice.remaining} places`} left)`;
}

/** The choices by day, in the order the server gave them, for the select's groups. */
export function choicesByDay(choices: readonly PickupChoice[]): { day: string; choices: PickupChoice[] }[] {
  const days: { day: string; choices: PickupChoice[] }[] = [];
  for (const choice of choices) {
    const last = days.at(-1);
    if (last && last.day === choice.day) last.choices.push(choice);
    else days.push({ day: choice.day, choices: [choice] });
  }
  return days;
}
