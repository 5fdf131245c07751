// What the staff dashboard shows of its data: badge colours and icons, the short forms of ids,
// dates, the outbox's counts and pages, and the small pure helpers its components share.
import type { IconName } from "../../components/Icon";
import { formatCount, formatDate, formatDateTime, formatKsh } from "../format";
import { formatQuantity } from "../order";
import type { AdminOrder, Channel, ChannelReport, OrderLine, OutboxMessage, OutboxReport, StopWhen } from "./types";

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

/** Spec section 2: an order's creation date, or 'N/A' when it has none or it cannot be read. */
export function dateOrNA(iso: string | null): string {
  return (iso && formatDate(iso)) || "N/A";
}

/** An order's creation date and time in Nairobi, 'Tue, 24 Nov 2026 at 19:40', or 'N/A'. */
export function dateTimeOrNA(iso: string | null): string {
  return (iso && formatDateTime(iso)) || "N/A";
}

/** How far a pickup or delivery has got, as staff read it beside its window: a pickup waits for its
 * slot to be confirmed with the customer; a planned delivery needs no word. */
function stopStateText(stop: StopWhen, pickup: boolean): string | null {
  switch (stop.state) {
    case "planned":
      return pickup ? (stop.confirmed ? "confirmed" : "to confirm") : null;
    case "on-the-way":
      return "valet on the way";
    case "done":
      return pickup ? "picked up" : "delivered";
    case "missed":
      return "missed";
    case "cancelled":
      return "cancelled";
  }
}

/** An order's pickup or delivery: 'Thu 26 Nov, 19:00-20:00 · to confirm'. */
export function stopWhenText(stop: StopWhen, kind: "pickup" | "delivery"): string {
  const state = stopStateText(stop, kind === "pickup");
  return state ? `${stop.window} · ${state}` : stop.window;
}

/** Under the service in the table: '3 kg', '3 kg + 2 items', or '2 items' for pieces alone. */
export function kgAndItems(order: Pick<AdminOrder, "quantity" | "lines">): string {
  const items = order.lines.filter((line) => line.kind === "piece").length;
  const kg = order.quantity > 0 ? `${order.quantity} kg` : null;
  const pieces = items === 0 ? null : items === 1 ? "1 item" : `${items} items`;
  return [kg, pieces].filter(Boolean).join(" + ");
}

/** A line's quantity: '3 kg', '1 piece', '2 pieces'; none for a discount or a surcharge (rush). */
export function lineQuantity(line: Pick<OrderLine, "kind" | "quantity" | "unit">): string {
  return line.kind === "discount" || line.kind === "surcharge" ? "" : formatQuantity(line.quantity, line.unit);
}

/** A line's amount: 'KSh 1,400', or '− KSh 200' for money off. */
export function lineAmount(amount: number): string {
  return amount < 0 ? `− ${formatKsh(-amount)}` : formatKsh(amount);
}

/** How the outbox block looks: ok, one quiet line a channel; warning, a channel not configured or messages being retried; problem, messages failed, blocked or texts not delivered. */
export type OutboxTone = "ok" | "warning" | "problem";

/** The channel's name in the block: 'E-mail', 'SMS'. */
export function channelName(channel: Channel): string {
  return channel === "sms" ? "SMS" : "E-mail";
}

/** The messages of `report`'s channel among the outbox's problems. */
function problemsOf(report: Pick<ChannelReport, "channel">, problems: readonly OutboxMessage[]): OutboxMessage[] {
  return problems.filter((message) => message.channel === report.channel);
}

/** One channel's tone: the worst thing in its report. */
export function channelTone(report: ChannelReport, problems: readonly OutboxMessage[]): OutboxTone {
  if (report.failed > 0 || report.blocked > 0 || report.undelivered > 0) return "problem";
  if (!report.configured || problemsOf(report, problems).length > 0) return "warning";
  return "ok";
}

/** The block's tone: the worse of its channels'. */
export function outboxTone(outbox: OutboxReport): OutboxTone {
  const tones = [outbox.email, outbox.sms].map((report) => channelTone(report, outbox.problems));
  if (outbox.textBudget) tones.push(outbox.textBudget.usedUp ? "problem" : "warning");
  if (tones.includes("problem")) return "problem";
  return tones.includes("warning") ? "warning" : "ok";
}

/** '2 failed · 1 blocked · 3 waiting'; texts add '· 1 not delivered' before the waiting ones. */
export function channelCounts(
  report: Pick<ChannelReport, "channel" | "failed" | "blocked" | "undelivered" | "waiting">,
): string {
  const undelivered = report.channel === "sms" ? ` · ${report.undelivered} not delivered` : "";
  return `${report.failed} failed · ${report.blocked} blocked${undelivered} · ${report.waiting} waiting`;
}

/** A channel's first line: the missing settings, the quiet line when all is well, or the counts. */
export function channelSummaryText(report: ChannelReport, problems: readonly OutboxMessage[]): string {
  const name = channelName(report.channel);
  if (!report.configured) {
    const missing = report.missing.length > 0 ? `: ${report.missing.join(", ")}` : "";
    const what = report.channel === "sms" ? "Texts" : "Notifications";
    return `${name} is not configured${missing}. ${what} wait in the outbox and are sent once it is.`;
  }
  if (channelTone(report, problems) === "ok") {
    const skipped = report.skipped > 0 ? `, ${report.skipped} not sent (opted out, switched off or over a limit)` : "";
    return `${name}: ${report.sent} sent, ${report.waiting} waiting${skipped}.`;
  }
  return `${name}: ${channelCounts(report)}.`;
}

/** The start of the reason of a text held back by a limit per phone (the server's `OVER_LIMIT`). */
export const OVER_LIMIT = "Not sent: over the limit";

/** Whether staff may send a message again: given up, blocked, waiting after a failed attempt, held back by a limit per phone, or a text reported not delivered. */
export function canSendAgain(message: Pick<OutboxMessage, "status" | "lastError" | "delivery">): boolean {
  return (
    message.status === "failed" ||
    (message.status === "skipped" && (message.lastError ?? "").startsWith(OVER_LIMIT)) ||
    message.status === "blocked" ||
    (message.status === "pending" && message.lastError !== null) ||
    message.delivery === "failed"
  );
}

/** An outbox message's badge colour: failed danger, blocked warning, sent success, waiting and skipped secondary. */
export function outboxStatusTone(status: OutboxMessage["status"]): AdminTone {
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

/** An outbox message's badge text; pending reads 'Waiting', as in the counts. */
export function outboxStatusLabel(status: OutboxMessage["status"]): string {
  switch (status) {
    case "failed":
      return "Failed";
    case "blocked":
      return "Blocked";
    case "sent":
      return "Sent";
    case "skipped":
      return "Not sent";
    default:
      return "Waiting";
  }
}

/** What the network reported of a text: its badge's colour and words. */
export function deliveryBadge(delivery: NonNullable<OutboxMessage["delivery"]>): { tone: AdminTone; label: string } {
  switch (delivery) {
    case "delivered":
      return { tone: "success", label: "Delivered" };
    case "failed":
      return { tone: "danger", label: "Not delivered" };
    default:
      return { tone: "info", label: "On its way" };
  }
}

/** To whom, as the lists say it: 'E-mail to staff', 'Text to +254712345678'. */
export function recipientText(message: Pick<OutboxMessage, "channel" | "to">): string {
  return `${message.channel === "sms" ? "Text" : "E-mail"} to ${message.to}`;
}

/** '1 attempt', '3 attempts'. */
export function attemptsText(attempts: number): string {
  return attempts === 1 ? "1 attempt" : `${attempts} attempts`;
}

/** How many pages a list of `total` items has; at least one. */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / Math.max(1, pageSize)));
}

/** 'Showing 21–40 of 57'; with `more` (the count stopped at `total`), 'Showing 1–20 of more than 1,000'. */
export function pageSummary(page: number, pageSize: number, total: number, more = false): string {
  if (total <= 0) return "Showing 0 of 0";
  const first = formatCount(Math.min((page - 1) * pageSize + 1, total));
  const last = formatCount(Math.min(page * pageSize, total));
  return `Showing ${first}–${last} of ${more ? "more than " : ""}${formatCount(total)}`;
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
