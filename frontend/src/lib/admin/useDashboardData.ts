// The staff dashboard's data once hydrated: the stat cards, both lists and the outbox report, which
// list is loading, the last failure, and the line read out to screen readers; with the calls that
// refresh them from /api/admin/* (asked for, or polled quietly) and the answers to a change made on
// the page.
import { useEffect, useRef, useState } from "react";
import { statusLabel } from "../tracking";
import { adminGet, type Failure, failureOf, SESSION_ENDED } from "./api";
import { replaceItem } from "./display";
import { keepsPaymentFilter } from "./money";
import { LatestRequest } from "./resource";
import type {
  AdminStats,
  AdminTab,
  MessageChanged,
  MessageResent,
  MessagesPage,
  OrderChanged,
  OrdersPage,
  OutboxReport,
  PaymentChanged,
} from "./types";
import { listApiPath, type ListQuery } from "./urls";

/** The tabs that are lists of the dashboard's data (the day board has its own, `useDayRun`, the
 * texts theirs, `useInbox`, and the money its own, `useMoney`). */
type ListTab = Exclude<AdminTab, "run" | "inbox" | "money" | "reports">;

/** What the server rendered the dashboard with. */
export interface DashboardData {
  stats: AdminStats;
  orders: OrdersPage;
  messages: MessagesPage;
  outbox: OutboxReport;
}

/**
 * The dashboard's data, starting from what the server rendered. `onLoaded` is told when a list's
 * new page is shown, so that the page can follow it in the address bar and move the focus to it.
 */
export function useDashboardData(
  initial: DashboardData,
  onLoaded: (list: AdminTab, query: ListQuery, moveFocus: boolean) => void,
) {
  const [stats, setStats] = useState(initial.stats);
  const [orders, setOrders] = useState(initial.orders);
  const [messages, setMessages] = useState(initial.messages);
  const [outbox, setOutbox] = useState(initial.outbox);
  const [loading, setLoading] = useState<Record<ListTab, boolean>>({ orders: false, messages: false });
  const [failure, setFailure] = useState<Failure | null>(null);
  const [announcement, setAnnouncement] = useState("");
  // Each list's request in flight. A change staff make cancels a poll in flight, whose answer may
  // predate the change and would put the old status back on screen.
  const [requests] = useState<Record<ListTab, LatestRequest>>(() => ({
    orders: new LatestRequest(),
    messages: new LatestRequest(),
  }));
  // The lists as shown now, for a poll that starts from a timer.
  const shown = useRef({ orders, messages });
  useEffect(() => {
    shown.current = { orders, messages };
  });

  useEffect(() => () => Object.values(requests).forEach((request) => request.abort()), [requests]);

  /**
   * Fetches a page of one list (with fresh stats and the outbox report); a newer request for the
   * same list cancels this one. A `quiet` one (a poll) shows no spinner and gives way: it is not
   * sent while the list is loading already.
   */
  async function load<Page>(
    list: ListTab,
    query: ListQuery,
    show: (page: Page) => void,
    moveFocus: boolean,
    quiet = false,
  ) {
    const request = quiet ? requests[list].startPoll() : requests[list].start();
    if (!request) return;
    if (!quiet) setLoading((current) => ({ ...current, [list]: true }));
    try {
      const [page, fresh, report] = await Promise.all([
        adminGet<Page>(listApiPath(list, query), request.signal),
        adminGet<AdminStats>("/api/admin/stats", request.signal),
        adminGet<OutboxReport>("/api/admin/outbox", request.signal),
      ]);
      show(page);
      setStats(fresh);
      setOutbox(report);
      setFailure(null);
      onLoaded(list, query, moveFocus);
    } catch (error) {
      if (request.signal.aborted) return;
      setFailure(failureOf(error));
    } finally {
      if (requests[list].end(request) && !quiet) setLoading((current) => ({ ...current, [list]: false }));
    }
  }

  /** The polled page of orders (same filter as shown): says how many orders arrived since the last answer, if any. */
  function showPolledOrders(page: OrdersPage) {
    const arrived = page.total - shown.current.orders.total;
    if (arrived > 0) setAnnouncement(arrived === 1 ? "1 new order." : `${arrived} new orders.`);
    setOrders(page);
  }

  /** The poll: the shown tab's list as it is now (same filter, same page), the stats and the outbox report. */
  function refresh(tab: AdminTab): Promise<void> {
    // The day board is not polled (it holds runs being arranged), and the texts and the money poll
    // themselves (`useInbox`, `useMoney`); the stats and the outbox are polled here.
    if (tab === "run" || tab === "inbox" || tab === "money")
      return Promise.all([adminGet<AdminStats>("/api/admin/stats"), adminGet<OutboxReport>("/api/admin/outbox")]).then(
        ([fresh, report]) => {
          setStats(fresh);
          setOutbox(report);
        },
      );
    const { orders: current, messages: currentMessages } = shown.current;
    return tab === "orders"
      ? load<OrdersPage>("orders", { ...current.filter, page: current.page }, showPolledOrders, false, true)
      : load<MessagesPage>(
          "messages",
          { ...currentMessages.filter, page: currentMessages.page },
          setMessages,
          false,
          true,
        );
  }

  const loadOrders = (query: ListQuery, moveFocus = false) =>
    void load<OrdersPage>("orders", query, setOrders, moveFocus);
  const loadMessages = (query: ListQuery, moveFocus = false) =>
    void load<MessagesPage>("messages", query, setMessages, moveFocus);
  const sessionEnded = () => setFailure({ text: SESSION_ENDED, sessionEnded: true });

  /** Cancels a poll of `list` in flight (its answer may be older than a change just made). */
  const cancelPoll = (list: ListTab) => requests[list].abortPoll();

  function orderChanged({ order, stats: fresh }: OrderChanged) {
    cancelPoll("orders");
    setOrders((current) => ({ ...current, items: replaceItem(current.items, order) }));
    // Filtered by status or payment, the changed order may no longer belong on this page: fetch it anew.
    const leftFilter =
      (orders.filter.status && orders.filter.status !== order.status) || !keepsPaymentFilter(orders.filter, order);
    if (leftFilter) loadOrders({ ...orders.filter, page: orders.page });
    setStats(fresh);
    setAnnouncement(`Order ${order.id}: ${statusLabel(order.status)}, ${order.moneyWords}.`);
    // A status change may have queued the customer's e-mail and text; a failed refresh leaves the old report.
    adminGet<OutboxReport>("/api/admin/outbox").then(setOutbox, () => undefined);
  }

  /** A payment to check was matched or checked: the stats follow, and the orders list shows the order paid. */
  function paymentChanged({ stats: fresh }: PaymentChanged) {
    cancelPoll("orders");
    setStats(fresh);
    loadOrders({ ...orders.filter, page: orders.page });
    adminGet<OutboxReport>("/api/admin/outbox").then(setOutbox, () => undefined);
  }

  function messageChanged({ message, stats: fresh }: MessageChanged) {
    cancelPoll("messages");
    setMessages((current) => ({ ...current, items: replaceItem(current.items, message) }));
    setStats(fresh);
    setAnnouncement(`Message "${message.subject}" marked ${message.status}.`);
  }

  function messageResent({ message, outbox: fresh }: MessageResent) {
    setOutbox(fresh);
    setAnnouncement(message.channel === "sms" ? "Text queued again." : "E-mail queued again.");
  }

  return {
    stats,
    orders,
    messages,
    outbox,
    loading,
    failure,
    announcement,
    loadOrders,
    loadMessages,
    refresh,
    sessionEnded,
    orderChanged,
    paymentChanged,
    messageChanged,
    messageResent,
  };
}
