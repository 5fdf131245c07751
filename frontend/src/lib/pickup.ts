// The order form's pickup choice: how a window reads in the list, which one is chosen at first,
// the delivery that follows it and the rush line it adds. The server works out every window, its
// places and its delivery (server/src/views/slots.rs); this only reads them.
import { formatKsh } from "./format";
import type { OrderLine } from "./generated/OrderLine";
import type { PickupChoices } from "./generated/PickupChoices";
import type { PickupOption } from "./generated/PickupOption";
import type { SlotsAnswer } from "./generated/SlotsAnswer";
import type { OrderQuote } from "./order";

/** 'Thu 26 Nov, 19:00-20:00 (3 left)', or '… (full)': with its day, because a closed select shows
 * the chosen option alone, without the day of its group. */
export function optionLabel(option: PickupOption): string {
  return `${option.label} (${option.remaining > 0 ? `${option.remaining} left` : "full"})`;
}

/** The window with this form value, if it is offered (full or not). */
export function findOption(choices: PickupChoices, value: string | null | undefined): PickupOption | null {
  if (!value) return null;
  for (const day of choices.days) {
    const found = day.windows.find((option) => option.value === value);
    if (found) return found;
  }
  return null;
}

/** The window chosen when the form opens: the one sent back, if it can still be chosen; the first
 * open one when none was sent; none ('') when the one sent back is full or gone, so that the
 * customer picks another rather than being given one they did not see. */
export function initialPickup(choices: PickupChoices, sent: string | null | undefined): string {
  if (sent) {
    const option = findOption(choices, sent);
    return option && option.remaining > 0 ? option.value : "";
  }
  for (const day of choices.days) {
    const open = day.windows.find((option) => option.remaining > 0);
    if (open) return open.value;
  }
  return "";
}

/** When the laundry comes back after a pickup in `option`: 'Sat 28 Nov, 19:00-20:00'. */
export function deliveryOf(option: PickupOption, rush: boolean): string {
  return rush ? option.rushDelivery : option.delivery;
}

/** Whether the rush checkbox's form value means it is ticked. */
export function isRush(value: string | null | undefined): boolean {
  return value === "on";
}

/** The checkbox's label: 'Next-day rush (+KSh 300)'. */
export function rushLabel(line: OrderLine): string {
  return line.amount > 0 ? `${line.label} (+${formatKsh(line.amount)})` : line.label;
}

/** 'Delivered in 3 days', the standard turnaround. */
export function turnaroundText(days: number): string {
  return `Delivered in ${days} ${days === 1 ? "day" : "days"}`;
}

/** The quote with the rush line after the others, its amount in the total; as it was without rush,
 * without a quote, or when the surcharge is nothing. */
export function withRush(quote: OrderQuote | null, rushLine: OrderLine, rush: boolean): OrderQuote | null {
  if (!quote || !rush || rushLine.amount === 0) return quote;
  const total = quote.total === null ? null : quote.total + rushLine.amount;
  return { ...quote, lines: [...quote.lines, rushLine], total };
}

/** `choices` with one day's windows as `/api/slots` now answers them: places left brought up to
 * date, full windows kept as full, windows that closed otherwise (past their cut-off) left out. */
export function withSlots(choices: PickupChoices, answer: SlotsAnswer): PickupChoices {
  const days = choices.days.map((day) => {
    if (day.date !== answer.date) return day;
    const windows = day.windows.flatMap((option): PickupOption[] => {
      const now = answer.windows.find((window) => window.value === option.value);
      if (!now || (!now.open && !now.full)) return [];
      return [{ ...option, remaining: now.open ? now.remaining : 0 }];
    });
    return { ...day, windows };
  });
  return { ...choices, days: days.filter((day) => day.windows.length > 0) };
}

/** The day of a form value: '2026-11-25T19:00' → '2026-11-25'. */
export function dayOf(value: string): string {
  return value.split("T")[0] ?? "";
}
