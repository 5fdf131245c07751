// What the customer reads of an order's payment: the M-PESA prompt on the phone (the order's page and
// the confirmation), how it was paid (the receipt). Plain functions, so that the words are tested.
import { formatDateTime, formatKsh } from "./format";
import type { CustomerPayment } from "./generated/CustomerPayment";
import type { PromptView } from "./generated/PromptView";

/** How often the pages ask for the payment while a prompt is on the phone. */
export const POLL_MS = 4000;

/** The state of the newest prompt in words: a heading, and what to do or what happened. */
export interface PromptWords {
  /** One of "waiting", "checking", "paid", "failed", "cancelled": the block's look. */
  tone: "waiting" | "checking" | "paid" | "failed" | "cancelled";
  title: string;
  text: string;
}

/** The words of `prompt`, whose order still has `due` to pay. */
export function promptWords(prompt: PromptView): PromptWords {
  const amount = formatKsh(prompt.amount);
  switch (prompt.state) {
    case "sending":
    case "waiting":
      return {
        tone: "waiting",
        title: "Check your phone",
        text: `Check your phone: enter your M-PESA PIN to pay ${amount}.`,
      };
    case "checking":
      return {
        tone: "checking",
        title: "Checking with M-PESA",
        text: `We have not heard back from M-PESA yet, so we are checking with M-PESA whether your ${amount} went through. If M-PESA took the money, do not pay again: we will see it.`,
      };
    case "paid":
      return {
        tone: "paid",
        title: "Paid",
        text: prompt.receipt ? `Paid ${amount}. M-PESA code: ${prompt.receipt}.` : `Paid ${amount}.`,
      };
    case "cancelled":
      return {
        tone: "cancelled",
        title: "Prompt cancelled",
        text: "The M-PESA prompt was cancelled on the phone. Nothing was paid.",
      };
    case "failed":
      return {
        tone: "failed",
        title: "No payment yet",
        text: prompt.detail ?? "The M-PESA payment did not go through.",
      };
  }
}

/** How a paid order was paid, for the order's page and the receipt: 'M-PESA, code QKH94M1Z11'. */
export function paidHow(payment: CustomerPayment): string {
  const paid = payment.paid;
  if (!paid) return "Not paid yet";
  const how = paid.via === "cash" ? "Cash" : paid.via === "mpesa" ? "M-PESA" : "Paid";
  const code = paid.code ? `, code ${paid.code}` : "";
  const when = paid.at ? `, ${formatDateTime(paid.at)}` : "";
  return `${how}${code}${when}`;
}

/** Whether the pages show the prompt's state rather than the till instructions (not when the
 * prompt was held by the limits per phone: none is coming). */
export function showsPrompt(payment: CustomerPayment): boolean {
  return payment.prompts && payment.method === "pay-now" && !payment.paid && !payment.payAtTill;
}

/** Why the till's steps show where a prompt was expected. */
export const HELD_PROMPT =
  "No M-PESA prompt is coming: this phone number has had as many as we send for now. Please pay to the till instead:";
