// The staff dashboard's data: the shapes the server sends, what the page shows of them, and the
// typed calls to /api/admin/*. Pure functions here are unit-tested; the page only wires them up.
import type { IconName } from "../components/Icon";
import { formatDate } from "./format";

/** The dashboard's two tabs. */
export type AdminTab = "orders" | "messages";

/** The four stat cards' figures. */
export interface AdminStats {
  totalRevenue: number;
  paidRevenue: number;
  totalOrders: number;
  pendingOrders: number;
  messages: number;
  newMessages: number;
}

/** An order as staff see it. Times are RFC 3339, UTC. */
export interface AdminOrder {
  id: string;
  reference: string;
  customerName: string;
  phone: string;
  email: string | null;
  location: string;
  serviceType: string;
  serviceLabel: string;
  quantity: number;
  paymentMethod: "pay-now" | "pay-delivery";
  specialInstructions: string;
  pricePerKg: number;
  totalAmount: number;
  status: string;
  createdAt: string | null;
  updatedAt: string;
  paymentStatus: "unpaid" | "paid";
  paidVia: "mpesa" | "cash" | null;
  mpesaCode: string | null;
  paidAt: string | null;
}

/** A contact message as staff see it. */
export interface AdminMessage {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  subject: string;
  message: string;
  status: "new" | "handled";
  createdAt: string;
  handledAt: string | null;
  handledBy: string | null;
}

/** What the orders list is filtered by; a null status means all. */
export interface OrdersFilter {
  status: string | null;
  q: string;
}

/** What the messages list is filtered by; a null status means all. */
export interface MessagesFilter {
  status: string | null;
}

/** One page of a list, newest first, and the filter that made it. */
export interface ListPage<Item, Filter> {
  items: Item[];
  total: number;
  page: number;
  pageSize: number;
  filter: Filter;
}

/** One page of orders. */
export type OrdersPage = ListPage<AdminOrder, OrdersFilter>;

/** One page of messages. */
export type MessagesPage = ListPage<AdminMessage, MessagesFilter>;

/** One e-mail of the outbox as staff see it: what it is, to whom, how it went (never its contents). Times are RFC 3339, UTC. */
export interface OutboxEmail {
  id: string;
  kind: "order-admin" | "order-customer" | "contact-admin" | "order-status";
  /** What it is, for people: 'Order confirmation (to the customer)'. */
  label: string;
  /** 'staff', or the customer's address. */
  to: string;
  orderId: string | null;
  status: "pending" | "sent" | "failed" | "blocked";
  attempts: number;
  lastError: string | null;
  createdAt: string;
  nextAttemptAt: string;
}

/** The e-mail outbox on the dashboard: whether it can send, its counts, and the e-mails that need a look. */
export interface MailReport {
  /** False while any of the EMAILJS_* variables or ADMIN_NOTIFY_EMAIL is unset; e-mails then wait. */
  configured: boolean;
  /** The names of the variables still unset. */
  missing: string[];
  /** Queued or being retried. */
  waiting: number;
  /** Given up. */
  failed: number;
  /** Refused by the mail account (401, 403, 412); retried every 30 minutes. */
  blocked: number;
  sent: number;
  /** The newest error of an e-mail not sent, and when. */
  lastError: string | null;
  lastErrorAt: string | null;
  /** Up to 20, newest first: failed, blocked, or pending after a failed attempt. */
  problems: OutboxEmail[];
}

/** A badge colour of the dashboard. */
export type AdminTone = "danger" | "warning" | "info" | "primary" | "success" | "secondary";

/** Spec section 4: pending warning, picked-up info, in-progress primary, ready and delivered success, anything else secondary. */
export function statusTone(status: string): AdminTone {
  switch (status) {
    case "pending":
      return "warning";
    case "picked-up":
      return "info";
    case "in-progress":
      return "primary";
    case "ready":
    case "delivered":
      return "success";
    default:
      return "secondary";
  }
}

/** The icon beside a status badge's text; the text carries the meaning, the icon only helps the eye. */
export function statusIcon(status: string): IconName {
  switch (status) {
    case "pending":
      return "clock";
    case "picked-up":
      return "truck";
    case "in-progress":
      return "sparkle";
    case "ready":
      return "shield";
    case "delivered":
      return "pin";
    default:
      return "close";
  }
}

/** Spec section 9: '#' and the last 8 characters of the order's id. */
export function shortOrderId(id: string): string {
  return `#${id.slice(-8)}`;
}

/** The line under an order's amount: whether it is paid, and how. */
export function paymentLine(order: Pick<AdminOrder, "paymentStatus" | "paidVia" | "mpesaCode" | "paymentMethod">): string {
  if (order.paymentStatus === "paid") {
    if (order.paidVia === "cash") return "Paid · Cash";
    if (order.paidVia === "mpesa") return order.mpesaCode ? `Paid · M-PESA ${order.mpesaCode}` : "Paid · M-PESA";
    return "Paid";
  }
  return order.paymentMethod === "pay-delivery" ? "Unpaid · Pay on delivery" : "Unpaid · M-PESA till";
}

/** Spec section 2: an order's creation date, or 'N/A' when it has none or it cannot be read. */
export function dateOrNA(iso: string | null): string {
  return (iso && formatDate(iso)) || "N/A";
}

/** How the e-mail block looks: ok, one quiet line; warning, not configured or e-mails being retried; problem, e-mails failed or blocked. */
export type MailTone = "ok" | "warning" | "problem";

/** The e-mail block's tone: the worst thing in the report. */
export function mailTone(report: MailReport): MailTone {
  if (report.failed > 0 || report.blocked > 0) return "problem";
  if (!report.configured || report.problems.length > 0) return "warning";
  return "ok";
}

/** '2 failed · 1 blocked · 3 waiting'. */
export function mailCounts(report: Pick<MailReport, "failed" | "blocked" | "waiting">): string {
  return `${report.failed} failed · ${report.blocked} blocked · ${report.waiting} waiting`;
}

/** The e-mail block's first line: the missing settings, the quiet line when all is well, or the counts. */
export function mailSummaryText(report: MailReport): string {
  if (!report.configured) {
    const missing = report.missing.length > 0 ? `: ${report.missing.join(", ")}` : "";
    return `E-mail is not configured${missing}. Notifications wait in the outbox and are sent once it is.`;
  }
  if (mailTone(report) === "ok") return `E-mail: ${report.sent} sent, ${report.waiting} waiting.`;
  return `E-mail: ${mailCounts(report)}.`;
}

/** Whether staff may send an e-mail again: given up, blocked, or waiting after a failed attempt. */
export function canSendAgain(email: Pick<OutboxEmail, "status" | "lastError">): boolean {
  return email.status === "failed" || email.status === "blocked" || (email.status === "pending" && email.lastError !== null);
}

/** An outbox e-mail's badge colour: failed danger, blocked warning, sent success, waiting secondary. */
export function emailStatusTone(status: OutboxEmail["status"]): AdminTone {
  switch (status) {
    case "failed":
      return "danger";
    case "blocked":
      return "warning";
    case "sent":
      return "success";
    default:
      return "secondary";
  }
}

/** An outbox e-mail's badge text; pending reads 'Waiting', as in the counts. */
export function emailStatusLabel(status: OutboxEmail["status"]): string {
  switch (status) {
    case "failed":
      return "Failed";
    case "blocked":
      return "Blocked";
    case "sent":
      return "Sent";
    default:
      return "Waiting";
  }
}

/** '1 attempt', '3 attempts'. */
export function attemptsText(attempts: number): string {
  return attempts === 1 ? "1 attempt" : `${attempts} attempts`;
}

/** How many pages a list of `total` items has; at least one. */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / Math.max(1, pageSize)));
}

/** 'Showing 21–40 of 57'. */
export function pageSummary(page: number, pageSize: number, total: number): string {
  if (total <= 0) return "Showing 0 of 0";
  const first = Math.min((page - 1) * pageSize + 1, total);
  const last = Math.min(page * pageSize, total);
  return `Showing ${first}–${last} of ${total}`;
}

/** M-PESA transaction codes are 10 letters and digits, written in capitals. */
export function normaliseMpesaCode(text: string): string {
  return text.replace(/\s+/g, "").toUpperCase();
}

/** Whether a (normalised) M-PESA code has the right shape. */
export function isMpesaCode(code: string): boolean {
  return /^[A-Z0-9]{10}$/.test(code);
}

/** What a list is asked for: its filter and its page. */
export type ListQuery = { status: string | null; q?: string; page: number };

/**
 * A query string from named values, leaving out empty ones and page 1. Written by hand because
 * the server's engine has no URLSearchParams and the pagination links are rendered there.
 */
export function queryString(values: Record<string, string | number | null | undefined>): string {
  const parts = Object.entries(values)
    .filter(([name, value]) => value !== null && value !== undefined && value !== "" && !(name === "page" && value === 1))
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`);
  return parts.length > 0 ? `?${parts.join("&")}` : "";
}

/** The dashboard's address for a tab and its list's filter and page: links, and the address bar. */
export function adminHref(tab: AdminTab, query: ListQuery): string {
  return `/admin${queryString({ tab, status: query.status, q: query.q?.trim(), page: query.page })}`;
}

/** The API address of a list. */
export function listApiPath(tab: AdminTab, query: ListQuery): string {
  return `/api/admin/${tab}${queryString({ status: query.status, q: query.q?.trim(), page: query.page })}`;
}

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
    const message = body && typeof body.error === "string" && body.error ? body.error : `The request failed (HTTP ${response.status}). Please try again.`;
    const fields = body && typeof body.fields === "object" && body.fields !== null ? (body.fields as Record<string, string>) : {};
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

/** POSTs JSON to an admin API path with the session's CSRF token. */
export function adminPost<T>(path: string, body: unknown, csrf: string): Promise<T> {
  return adminFetch<T>(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": csrf },
    body: JSON.stringify(body),
  });
}

/** What a change of payment sends. */
export type PaymentChange =
  | { paymentStatus: "paid"; paidVia: "mpesa"; mpesaCode: string }
  | { paymentStatus: "paid"; paidVia: "cash" }
  | { paymentStatus: "unpaid" };

/** What the server answers to a change of an order. */
export interface OrderChanged {
  order: AdminOrder;
  stats: AdminStats;
}

/** What the server answers to a change of a message. */
export interface MessageChanged {
  message: AdminMessage;
  stats: AdminStats;
}

/** What the server answers when an e-mail is sent again: the e-mail, queued, and the new report. */
export interface MailResent {
  email: OutboxEmail;
  mail: MailReport;
}

/** Sets an order's status. */
export function setOrderStatus(id: string, status: string, csrf: string): Promise<OrderChanged> {
  return adminPost<OrderChanged>(`/api/admin/orders/${encodeURIComponent(id)}/status`, { status }, csrf);
}

/** Records an order as paid (and how) or unpaid. */
export function setOrderPayment(id: string, change: PaymentChange, csrf: string): Promise<OrderChanged> {
  return adminPost<OrderChanged>(`/api/admin/orders/${encodeURIComponent(id)}/payment`, change, csrf);
}

/** Marks a message handled or new again. */
export function setMessageStatus(id: string, status: AdminMessage["status"], csrf: string): Promise<MessageChanged> {
  return adminPost<MessageChanged>(`/api/admin/messages/${encodeURIComponent(id)}/status`, { status }, csrf);
}

/** Puts a failed, blocked or waiting e-mail back in the queue, due now; 404 when it was sent meanwhile. */
export function resendEmail(id: string, csrf: string): Promise<MailResent> {
  return adminPost<MailResent>(`/api/admin/mail/${encodeURIComponent(id)}/resend`, {}, csrf);
}

/** The items with the one of the same id as `item` replaced by it, in place. */
export function replaceItem<T extends { id: string }>(items: readonly T[], item: T): T[] {
  return items.map((existing) => (existing.id === item.id ? item : existing));
}
