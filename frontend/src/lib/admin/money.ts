// How staff read an order's money from its ledger: where it stands (unpaid, part-paid, paid, in
// credit, nothing to pay), each entry of the ledger in words, the balance line, a day's cash by
// holder, and the amounts staff type (whole shillings, checked before they are sent).
import { formatKsh } from "../format";
import type { AdminTone } from "./display";
import type { AdminOrder, Balance, CashHolder, LedgerEntryView, Method, OrdersFilter, Settlement } from "./types";

/** The most one entry staff type may move, KSh (the server's `MAX_AMOUNT`). */
export const MAX_AMOUNT = 1_000_000;

/** The settlement as the badge says it. */
export function settlementLabel(settlement: Settlement): string {
  switch (settlement) {
    case "unpaid":
      return "Unpaid";
    case "part-paid":
      return "Part-paid";
    case "paid":
      return "Paid";
    case "in-credit":
      return "In credit";
    case "nothing-to-pay":
      return "Nothing to pay";
  }
}

/** The settlement badge's colour: money to come is a warning, money to give back stands out. */
export function settlementTone(settlement: Settlement): AdminTone {
  switch (settlement) {
    case "unpaid":
      return "warning";
    case "part-paid":
      return "info";
    case "paid":
      return "success";
    case "in-credit":
      return "danger";
    case "nothing-to-pay":
      return "secondary";
  }
}

/** Money received and kept: payments less refunds. */
export function received(balance: Balance): number {
  return balance.paid - balance.refunded;
}

/** How money came or went, as staff read it (the server's `Method::label`). */
export function methodLabel(method: Method): string {
  switch (method) {
    case "prompt":
      return "M-PESA prompt";
    case "till":
      return "M-PESA till";
    case "code":
      return "M-PESA code";
    case "cash":
      return "Cash";
    case "credit":
      return "Store credit";
    case "mpesa-reversal":
      return "M-PESA reversal";
  }
}

/**
 * What an entry is, in the ledger's first column: a charge's line or a bill's change as the server
 * wrote it, 'Payment', 'Refund', 'Discount', or 'Correction of a payment'.
 */
export function entryWhat(entry: Pick<LedgerEntryView, "kind" | "what" | "corrects">): string {
  // Only payments, refunds and discounts are corrected.
  if (entry.corrects !== null) return `Correction of a ${entry.kind}`;
  switch (entry.kind) {
    case "payment":
      return "Payment";
    case "refund":
      return "Refund";
    case "discount":
      return "Discount";
    default:
      return entry.what;
  }
}

/** An entry's note, unless it only repeats what the first column says (a charge's line). */
export function entryNote(entry: Pick<LedgerEntryView, "kind" | "what" | "note" | "corrects">): string {
  return entry.note === entryWhat(entry) ? "" : entry.note;
}

/** Who entered an entry: a staff member's or valet's e-mail, 'M-PESA', or the site itself (none:
 * the order's lines when it was placed, store credit used by a new order). */
export function entryWho(by: string | null): string {
  return by ?? "The site";
}

/** The balance's last word: 'KSh 300 to pay', 'KSh 1,100 owed back', 'Settled', 'Nothing to pay'. */
export function dueText(order: Pick<AdminOrder, "settlement" | "toPay" | "owedBack">): string {
  if (order.toPay > 0) return `${formatKsh(order.toPay)} to pay`;
  if (order.owedBack > 0) return `${formatKsh(order.owedBack)} owed back`;
  return order.settlement === "nothing-to-pay" ? "Nothing to pay" : "Settled";
}

/** Under the ledger: 'Charged KSh 1,500 · Paid KSh 1,200 · Refunded KSh 0 · KSh 300 to pay'. */
export function balanceLine(order: Pick<AdminOrder, "balance" | "settlement" | "toPay" | "owedBack">): string {
  const { charged, paid, refunded } = order.balance;
  return [
    `Charged ${formatKsh(charged)}`,
    `Paid ${formatKsh(paid)}`,
    `Refunded ${formatKsh(refunded)}`,
    dueText(order),
  ].join(" · ");
}

/**
 * Whether a changed order still belongs in the orders list filtered by payment: 'unpaid' lists the
 * orders that owe, 'paid' those that do not; either leaves out cancelled orders unless the status
 * filter asks for them (as the server's filter does).
 */
export function keepsPaymentFilter(
  filter: Pick<OrdersFilter, "status" | "payment">,
  order: Pick<AdminOrder, "toPay" | "status">,
): boolean {
  if (filter.payment === null) return true;
  if (order.status === "cancelled" && filter.status === null) return false;
  return filter.payment === "unpaid" ? order.toPay > 0 : order.toPay === 0;
}

/** An amount staff typed: whole shillings from 1 to [`MAX_AMOUNT`], or what is wrong with it. */
export function parseAmount(text: string): { amount: number } | { error: string } {
  const trimmed = text.replace(/[\s,]/g, "");
  const amount = Number(trimmed);
  if (!/^\d+$/.test(trimmed) || amount < 1 || amount > MAX_AMOUNT)
    return { error: `Enter an amount in whole shillings, from 1 to ${MAX_AMOUNT}.` };
  return { amount };
}

/** What a cash holder still holds, in words: 'Still holds KSh 1,200', 'All handed in', or more. */
export function stillHeldText(holder: Pick<CashHolder, "stillHeld">): string {
  if (holder.stillHeld > 0) return `Still holds ${formatKsh(holder.stillHeld)}`;
  if (holder.stillHeld === 0) return "All handed in";
  return `Handed in ${formatKsh(-holder.stillHeld)} more than collected`;
}
