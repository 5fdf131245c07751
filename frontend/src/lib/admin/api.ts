// The staff dashboard's typed calls to /api/admin/*, with a time limit, and how their failures read.
import type { ErrorBody } from "../generated/ErrorBody";
import type { RunSave } from "./run";
import type {
  AdminMessage,
  AwaitingList,
  Balances,
  CashUp,
  DayRun,
  DiscountBody,
  HandoverBody,
  MessageChanged,
  MessageResent,
  OrderChanged,
  OrderDetail,
  PaymentBody,
  PaymentChanged,
  PaymentsToCheck,
  RefundBody,
  SlotConfirmed,
} from "./types";
import { queryString, type RunPart } from "./urls";

/** How long a dashboard call may take before it is given up. */
export const ADMIN_TIMEOUT_MS = 15_000;

/** Shown when a call answers 401: the session expired, or was ended elsewhere. */
export const SESSION_ENDED = "Your session has ended. Please sign in again.";
/** Texts for failures that came with no word from the server. */
const UNREADABLE = "The server's answer could not be read. Please try again.";
const UNREACHABLE = "The server could not be reached. Please check your connection and try again.";
const TIMED_OUT = "The server took too long to answer. Please try again.";

/** A failed dashboard call: the server's `error` text, its status (0 when no answer came), and its field messages. */
export class AdminError extends Error {
  readonly status: number;
  readonly fields: Record<string, string>;

  constructor(message: string, status: number, fields: Record<string, string> = {}) {
    super(message);
    this.name = "AdminError";
    this.status = status;
    this.fields = fields;
  }

  /** 401: the session expired or was ended elsewhere; the staff member must sign in again. */
  get sessionEnded(): boolean {
    return this.status === 401;
  }
}

/** A failure as the dashboard shows it. */
export interface Failure {
  text: string;
  /** 401: the page offers the way back to the sign-in. */
  sessionEnded: boolean;
}

/** What to show for any failure of a dashboard call. */
export function failureOf(error: unknown): Failure {
  if (error instanceof AdminError && error.sessionEnded) return { text: SESSION_ENDED, sessionEnded: true };
  return { text: error instanceof Error && error.message ? error.message : UNREACHABLE, sessionEnded: false };
}

/** Splits a failed call into the messages of the form's own `fields` and a failure for the rest. */
export function splitFailure(
  error: unknown,
  fields: readonly string[],
): { errors: Record<string, string>; failure: Failure | null } {
  const found = error instanceof AdminError ? error.fields : {};
  const errors: Record<string, string> = {};
  const others: string[] = [];
  for (const [field, message] of Object.entries(found)) {
    if (fields.includes(field)) errors[field] = message;
    else others.push(message);
  }
  if (Object.keys(errors).length > 0 && others.length === 0) return { errors, failure: null };
  // A field the form does not have (or none at all): its message is the failure itself.
  const failure = failureOf(error);
  return { errors, failure: others.length > 0 ? { ...failure, text: others.join(" ") } : failure };
}

/**
 * One call to the admin API with a time limit. `signal` lets the caller give up early (a newer
 * search replaced this one); that rejects with the signal's reason, which callers ignore.
 */
async function adminFetch<T>(path: string, init: RequestInit, signal?: AbortSignal): Promise<T> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, ADMIN_TIMEOUT_MS);
  const cancel = () => controller.abort();
  signal?.addEventListener("abort", cancel);
  try {
    let response: Response;
    try {
      response = await fetch(path, { ...init, credentials: "same-origin", signal: controller.signal });
    } catch (cause) {
      if (signal?.aborted) throw cause;
      throw new AdminError(timedOut ? TIMED_OUT : UNREACHABLE, 0);
    }
    const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
    if (response.status === 401) throw new AdminError(SESSION_ENDED, 401);
    if (response.ok) {
      if (body === null) throw new AdminError(UNREADABLE, response.status);
      return body as T;
    }
    // The server answers an ErrorBody; a proxy in between may answer anything, so it is checked.
    const failure = body as Partial<ErrorBody> | null;
    const message =
      failure && typeof failure.error === "string" && failure.error
        ? failure.error
        : `The request failed (HTTP ${response.status}). Please try again.`;
    const fields = failure && typeof failure.fields === "object" && failure.fields !== null ? failure.fields : {};
    throw new AdminError(message, response.status, fields);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", cancel);
  }
}

/** GETs an admin API path. */
export function adminGet<T>(path: string, signal?: AbortSignal): Promise<T> {
  return adminFetch<T>(path, { headers: { Accept: "application/json" } }, signal);
}

/** POSTs JSON to an admin API path with the session's CSRF token (and any other `headers`). */
export function adminPost<T>(
  path: string,
  body: unknown,
  csrf: string,
  headers: Record<string, string> = {},
): Promise<T> {
  return adminFetch<T>(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": csrf, ...headers },
    body: JSON.stringify(body),
  });
}

/** One order with its lines, history and e-mails; `signal` gives it up (the panel closed). */
export function getOrderDetail(id: string, signal?: AbortSignal): Promise<OrderDetail> {
  return adminGet<OrderDetail>(`/api/admin/orders/${encodeURIComponent(id)}`, signal);
}

/** Sets an order's status. */
export function setOrderStatus(
  id: string,
  status: string,
  csrf: string,
  extra: { reason?: string; notifyCustomer?: boolean; rack?: string; returnStop?: string } = {},
): Promise<OrderChanged> {
  return adminPost<OrderChanged>(`/api/admin/orders/${encodeURIComponent(id)}/status`, { status, ...extra }, csrf);
}

/** The path of an order's money change: `payment`, `refund`, `discount`, `credit`. */
function moneyPath(id: string, change: string): string {
  return `/api/admin/orders/${encodeURIComponent(id)}/${change}`;
}

/** Records a payment taken by hand (cash, or an M-PESA code): an entry in the order's ledger. */
export function recordPayment(id: string, payment: PaymentBody, csrf: string): Promise<OrderChanged> {
  return adminPost<OrderChanged>(moneyPath(id, "payment"), payment, csrf);
}

/** Records money given back (at most what the order owes back). */
export function recordRefund(id: string, refund: RefundBody, csrf: string): Promise<OrderChanged> {
  return adminPost<OrderChanged>(moneyPath(id, "refund"), refund, csrf);
}

/** Gives a discount with its reason. */
export function giveDiscount(id: string, discount: DiscountBody, csrf: string): Promise<OrderChanged> {
  return adminPost<OrderChanged>(moneyPath(id, "discount"), discount, csrf);
}

/** Keeps what the order owes back as store credit for the customer's phone number. */
export function keepAsCredit(id: string, csrf: string): Promise<OrderChanged> {
  return adminPost<OrderChanged>(moneyPath(id, "credit"), {}, csrf);
}

/** Corrects an entry entered by mistake (a payment, refund or discount), with the reason. */
export function correctEntry(id: string, entry: number, reason: string, csrf: string): Promise<OrderChanged> {
  return adminPost<OrderChanged>(`${moneyPath(id, "entries")}/${entry}/correct`, { reason }, csrf);
}

/** The cash-up of `day` (YYYY-MM-DD): its takings, and its cash by who holds it. */
export function getCashUp(day: string, signal?: AbortSignal): Promise<CashUp> {
  return adminGet<CashUp>(`/api/admin/cash-up?day=${encodeURIComponent(day)}`, signal);
}

/**
 * Records cash handed in by a holder for a day; answers the day's cash-up after it. The same `key`
 * again (a double click, a retry) is the same handover.
 */
export function recordHandover(handover: HandoverBody, key: string, csrf: string): Promise<CashUp> {
  return adminPost<CashUp>("/api/admin/cash-up", handover, csrf, { "Idempotency-Key": key });
}

/** The orders owing, the refunds due and the store credit held. */
export function getBalances(signal?: AbortSignal): Promise<Balances> {
  return adminGet<Balances>("/api/admin/balances", signal);
}

/** Sends the M-PESA prompt for the order's bill to the customer's phone (refused with the reason). */
export function sendPrompt(id: string, csrf: string): Promise<OrderChanged> {
  return adminPost<OrderChanged>(`/api/admin/orders/${encodeURIComponent(id)}/prompt`, {}, csrf);
}

/** The M-PESA payments to check, searched by phone, code or amount (`q`, empty for all). */
export function getPaymentsToCheck(q: string, signal?: AbortSignal): Promise<PaymentsToCheck> {
  return adminGet<PaymentsToCheck>(`/api/admin/payments${queryString({ q: q.trim() })}`, signal);
}

/** Matches an M-PESA payment to the order with this order ID. */
export function matchPayment(receipt: string, orderId: string, csrf: string): Promise<PaymentChanged> {
  return adminPost<PaymentChanged>(`/api/admin/payments/${encodeURIComponent(receipt)}/match`, { orderId }, csrf);
}

/** Marks a flagged M-PESA payment checked. */
export function markPaymentChecked(receipt: string, csrf: string): Promise<PaymentChanged> {
  return adminPost<PaymentChanged>(`/api/admin/payments/${encodeURIComponent(receipt)}/checked`, {}, csrf);
}

/** Marks a message handled or new again. */
export function setMessageStatus(id: string, status: AdminMessage["status"], csrf: string): Promise<MessageChanged> {
  return adminPost<MessageChanged>(`/api/admin/messages/${encodeURIComponent(id)}/status`, { status }, csrf);
}

/**
 * Puts a failed, blocked or waiting e-mail or text, or a text reported not delivered, back in the
 * queue, due now; 404 when it was sent meanwhile.
 */
export function resendMessage(id: string, csrf: string): Promise<MessageResent> {
  return adminPost<MessageResent>(`/api/admin/outbox/${encodeURIComponent(id)}/resend`, {}, csrf);
}

/** The pickups awaiting slot confirmation, and the windows they can be moved to. */
export function getAwaiting(signal?: AbortSignal): Promise<AwaitingList> {
  return adminGet<AwaitingList>("/api/admin/unconfirmed", signal);
}

/** Confirms an order's pickup slot, or moves it to `pickup` ('2026-11-25T20:00') and confirms that. */
export function changeSlot(
  id: string,
  change: { action: "confirm" } | { action: "move"; pickup: string } | { action: "move-delivery"; delivery: string },
  csrf: string,
): Promise<SlotConfirmed> {
  return adminPost<SlotConfirmed>(`/api/admin/orders/${encodeURIComponent(id)}/slot`, change, csrf);
}

/** The day board of `date` (YYYY-MM-DD). */
export function getDayRun(date: string, part: RunPart, signal?: AbortSignal): Promise<DayRun> {
  return adminGet<DayRun>(`/api/admin/run${queryString({ date, window: part.window, part: part.part })}`, signal);
}

/** Saves the changed stops of a day's runs; answers the board as saved. */
export function saveDayRun(save: RunSave, csrf: string): Promise<DayRun> {
  return adminPost<DayRun>("/api/admin/run", save, csrf);
}
