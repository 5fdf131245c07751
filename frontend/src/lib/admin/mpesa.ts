// How staff read M-PESA: a prompt's state in a few words, a payment's source and problem, and an
// order's payment line with them.
import { formatKsh } from "../format";
import type { AdminOrder, MpesaPayment, MpesaPromptView, Tally } from "./types";

/** A prompt's state as the table and the valet page say it: 'waiting for the customer's PIN'. */
export function promptStateText(prompt: Pick<MpesaPromptView, "state" | "detail">): string {
  switch (prompt.state) {
    case "queued":
    case "sending":
      return "sending to the phone";
    case "waiting":
      return "waiting for the customer's PIN";
    case "paid":
      return "paid";
    case "cancelled":
      return "cancelled on the phone";
    case "failed":
      return prompt.detail ? `failed: ${prompt.detail}` : "failed";
  }
}

/** The line about the newest prompt: 'M-PESA prompt: failed: The M-PESA PIN was wrong.' */
export function promptLine(prompt: Pick<MpesaPromptView, "state" | "detail">): string {
  return `M-PESA prompt: ${promptStateText(prompt)}`;
}

/** Whether staff may send a prompt for the order now (prompts on, something to pay, not cancelled);
 * the prompt asks for what is still to pay. */
export function canPrompt(order: Pick<AdminOrder, "toPay" | "status">, sendsPrompts: boolean): boolean {
  return sendsPrompts && order.toPay > 0 && order.status !== "cancelled";
}

/** Where a payment came from, in words. */
export function paymentSource(payment: Pick<MpesaPayment, "source">): string {
  return payment.source === "prompt" ? "Prompt on the phone" : "Paid to the till";
}

/** Who matched a payment to its order, in words. */
export function matchedByText(matchedBy: string | null): string | null {
  switch (matchedBy) {
    case null:
      return null;
    case "prompt":
      return "its prompt";
    case "order-id":
      return "the order ID typed at the till";
    case "phone-and-amount":
      return "the phone number and amount";
    default:
      return matchedBy;
  }
}

/** A tally as the takings show it: 'KSh 1,200 · 2 payments'. */
export function tallyText(tally: Tally): string {
  const count = tally.count === 1 ? "1 payment" : `${tally.count} payments`;
  return `${formatKsh(tally.amount)} · ${count}`;
}
