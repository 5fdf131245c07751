// The free re-clean's words (issue 19), as the order's page and the receipt write them. Plain
// functions, so that the words are tested.
import { formatQuantity } from "./order";
import type { RecleanLine } from "./generated/RecleanLine";

/** "7 days", "1 day". */
export function daysWords(days: number): string {
  return days === 1 ? "1 day" : `${days} days`;
}

/** "We re-clean it free within 7 days of delivery: until Mon 30 Nov." */
export function guaranteeWords(days: number, until: string): string {
  return `We re-clean it free within ${daysWords(days)} of delivery: until ${until}.`;
}

/** A line as its checkbox names it: "Shirt (2 pieces)", "Wash & Fold (3 kg)". */
export function lineChoiceLabel(line: RecleanLine): string {
  return `${line.line.label} (${formatQuantity(line.line.quantity, line.line.unit)})`;
}
