// What the valet page writes about a stop: its lines and state in a few words, and the form the
// server sent back for it, if any. (What to collect is the ledger's words, from the server.)
import type { OrderLine } from "./generated/OrderLine";
import type { StopFormError } from "./generated/StopFormError";
import type { ValetAction } from "./generated/ValetAction";
import type { ValetStop } from "./generated/ValetStop";

/** A line of the bill: '5 kg Wash & Fold', '2 × Shirt', 'Next-day rush'. */
export function lineText(line: OrderLine): string {
  if (line.kind === "discount" || line.kind === "surcharge") return line.label;
  return line.unit === "kg" ? `${line.quantity} kg ${line.label}` : `${line.quantity} × ${line.label}`;
}

/** Where the stop stands: 'Planned', 'On the way', 'Picked up at 19:42'. */
export function stateText(stop: Pick<ValetStop, "kind" | "state" | "doneAt" | "missedReason">): string {
  switch (stop.state) {
    case "missed":
      return stop.missedReason ? `Missed: ${stop.missedReason}` : "Missed";
    case "planned":
      return "Planned";
    case "on-the-way":
      return "On the way";
    case "cancelled":
      return "Cancelled";
    case "done": {
      const done = stop.kind === "pickup" ? "Picked up" : "Delivered";
      return stop.doneAt ? `${done} at ${stop.doneAt}` : done;
    }
  }
}

/** What the server sent back for this stop's `action` form: its messages and the values entered. */
export interface SentBack {
  errors: Partial<Record<string, string>>;
  message: string | null;
  values: Partial<Record<string, string>>;
}

/** The form `action` of stop `stopId` as the server sent it back, or an empty one. */
export function sentBack(formError: StopFormError | null, stopId: string, action: ValetAction): SentBack {
  if (formError?.stopId !== stopId || formError.action !== action) return { errors: {}, message: null, values: {} };
  return { errors: formError.errors, message: formError.message, values: formError.values };
}

/** "1 bag", "2 bags": our own rule (the render engine has no real `Intl`). */
const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;

/** The count to hand over at the door: "Hand over 2 items in 1 bag", or without bags when none
 * were counted at intake. */
export function handOverText(items: number, bags: number | null): string {
  return `Hand over ${plural(items, "item")}${bags !== null ? ` in ${plural(bags, "bag")}` : ""}`;
}
