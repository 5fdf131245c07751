// What the customer reads of an order's payment: the M-PESA prompt on the phone (the order's page and
// the confirmation), the payments and refunds of its ledger (those and the receipt). The balance's
// own words ("Paid KSh 1,200 · KSh 300 to pay") come from the server. Plain functions, so that the
// words are tested.
import { formatDateTime, formatKsh } from "./format";
import type { CustomerPayment } from "./generated/CustomerPayment";
import type { PaidView } from "./generated/PaidView";
import type { PromptView } from "./generated/PromptView";
import { formatAmount } from "./order";

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

/** One payment or refund as the order's page and the receipt list it. */
export interface MoneyLine {
  /** How: "M-PESA prompt", "Cash", "Refund (M-PESA reversal)", "Kept as store credit". */
  what: string;
  /** "KSh 1,100"; a refund, or a payment taken back, is "−KSh 300". */
  amount: string;
  /** The M-PESA code, when known, and when: "code QKH94M1Z11 · Tue, 24 Nov 2026 at 19:30". */
  detail: string;
}

/** The line of `view`: money in counts up, money given back (or a payment taken back) down. */
export function moneyLine(view: PaidView): MoneyLine {
  const refund = view.kind === "refund";
  const how = refund ? (view.method === "credit" ? "Kept as store credit" : `Refund (${view.label})`) : view.label;
  // A correction is an entry of the same kind with the opposite amount.
  const corrected = view.amount < 0 ? `${how}, corrected` : how;
  const when = formatDateTime(view.at);
  return {
    what: corrected,
    amount: formatAmount(refund ? -view.amount : view.amount),
    detail: view.code ? `code ${view.code}${when ? ` · ${when}` : ""}` : when,
  };
}

/** Whether the card shows the newest prompt's state: while it is on the phone, or when the one
 * that asked for what is still to pay failed (its words say why). A paid prompt shows as a
 * payment; a prompt held by the limits per phone never reached it. */
export function showsPrompt(payment: CustomerPayment): boolean {
  const prompt = payment.prompt;
  if (!prompt || payment.due <= 0 || payment.payAtTill || prompt.state === "paid") return false;
  const onThePhone = prompt.state === "sending" || prompt.state === "waiting" || prompt.state === "checking";
  return onThePhone || prompt.amount === payment.due;
}

/** The words of the button that asks for a prompt: again for the one the phone had, or for what is
 * still to pay. */
export function askLabel(payment: CustomerPayment): string {
  return showsPrompt(payment) ? "Send the M-PESA prompt again" : `Pay ${formatKsh(payment.due)} by M-PESA`;
}

/** Whether a prompt is on its way though none is known here: a Pay Now order on a site that sends
 * prompts, nothing paid, none held (the confirmation shown by order ID alone, without the prompt). */
export function promptComing(payment: CustomerPayment): boolean {
  return (
    payment.prompts &&
    payment.method === "pay-now" &&
    payment.settlement === "unpaid" &&
    !payment.prompt &&
    !payment.payAtTill
  );
}

/** Whether the customer pays the valet at the door: on delivery, and nothing received yet. */
export function paysAtDoor(payment: CustomerPayment): boolean {
  return payment.method === "pay-delivery" && payment.settlement === "unpaid";
}

/** Why the till's steps show where a prompt was expected. */
export const HELD_PROMPT =
  "No M-PESA prompt is coming: this phone number has had as many as we send for now. Please pay to the till instead:";
