// What the staff dashboard shows of its data: badge colours and icons, the short forms of ids,
// payments, dates, e-mail counts and pages, and the small pure helpers its components share.
import type { IconName } from "../../components/Icon";
import { formatDate, formatDateTime, formatKsh } from "../format";
import { formatQuantity } from "../order";
import type { AdminOrder, MailReport, OrderLine, OutboxMessage } from "./types";

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
export function paymentLine(
  order: Pick<AdminOrder, "paymentStatus" | "paidVia" | "mpesaCode" | "paymentMethod">,
): string {
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

/** An order's creation date and time in Nairobi, 'Tue, 24 Nov 2026 at 19:40', or 'N/A'. */
export function dateTimeOrNA(iso: string | null): string {
  return (iso && formatDateTime(iso)) || "N/A";
}

/** Under the service in the table: '3 kg', '3 kg + 2 items', or '2 items' for pieces alone. */
export function kgAndItems(order: Pick<AdminOrder, "quantity" | "lines">): string {
  const items = order.lines.filter((line) => line.kind === "piece").length;
  const kg = order.quantity > 0 ? `${order.quantity} kg` : null;
  const pieces = items === 0 ? null : items === 1 ? "1 item" : `${items} items`;
  return [kg, pieces].filter(Boolean).join(" + ");
}

/** A line's quantity: '3 kg', '1 piece', '2 pieces'; none for a discount. */
export function lineQuantity(line: Pick<OrderLine, "kind" | "quantity" | "unit">): string {
  return line.kind === "discount" ? "" : formatQuantity(line.quantity, line.unit);
}

/** A line's amount: 'KSh 1,400', or '− KSh 200' for money off. */
export function lineAmount(amount: number): string {
  return amount < 0 ? `− ${formatKsh(-amount)}` : formatKsh(amount);
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
export function canSendAgain(email: Pick<OutboxMessage, "status" | "lastError">): boolean {
  return (
    email.status === "failed" || email.status === "blocked" || (email.status === "pending" && email.lastError !== null)
  );
}

/** An outbox e-mail's badge colour: failed danger, blocked warning, sent success, waiting secondary. */
export function emailStatusTone(status: OutboxMessage["status"]): AdminTone {
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
export function emailStatusLabel(status: OutboxMessage["status"]): string {
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

/** The items with the one of the same id as `item` replaced by it, in place. */
export function replaceItem<T extends { id: string }>(items: readonly T[], item: T): T[] {
  return items.map((existing) => (existing.id === item.id ? item : existing));
}
