// The "Awaiting confirmation" panel's texts: how long a booking has waited, and the windows a
// pickup can be moved to.
import type { SlotOption } from "./types";

/** 'Booked just now', 'Booked 12 min ago', 'Booked 2 h 5 min ago'. */
export function sinceBooking(minutes: number): string {
  if (minutes < 1) return "Booked just now";
  if (minutes < 60) return `Booked ${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `Booked ${hours} h ago` : `Booked ${hours} h ${rest} min ago`;
}

/** A window in the Move list: 'Wed 25 Nov, 19:00-20:00 (3 left)', or '(full)'. */
export function slotOptionLabel(option: SlotOption): string {
  return `${option.label} (${option.remaining > 0 ? `${option.remaining} left` : "full"})`;
}

/** The windows a pickup now in `current` can be moved to: every bookable window but its own. */
export function moveChoices(slots: readonly SlotOption[], current: string): SlotOption[] {
  return slots.filter((option) => option.value !== current);
}

/** The first window with room among `choices`, to preselect in the Move list; '' when all are full. */
export function firstWithRoom(choices: readonly SlotOption[]): string {
  return choices.find((option) => option.remaining > 0)?.value ?? "";
}
