// /admin, 'Admin Dashboard' (spec section 2), for signed-in staff only; the server rendered the
// first page of both lists. Once hydrated, filters, searches and page changes fetch the list from
// /api/admin/* instead of reloading, and the address bar follows (history.replaceState), so a
// reload shows the same thing. Without JavaScript the tabs, filters and pages are plain links and
// GET forms to /admin.
import { type KeyboardEvent, type MouseEvent, useEffect, useRef, useState } from "react";
import { AdminAlert } from "../components/AdminAlert";
import { MailStatus } from "../components/MailStatus";
import { MessagesPanel } from "../components/MessagesPanel";
import { OrdersPanel } from "../components/OrdersPanel";
import { StatCards } from "../components/StatCards";
import {
  adminGet,
  adminHref,
  type AdminStats,
  type AdminTab,
  type Failure,
  failureOf,
  type ListQuery,
  listApiPath,
  type MailReport,
  type MailResent,
  type MessageChanged,
  type MessagesPage,
  type OrderChanged,
  type OrdersPage,
  paymentLine,
  replaceItem,
  SESSION_ENDED,
} from "../lib/admin";
import { statusLabel } from "../lib/tracking";
import type { SharedProps } from "../lib/types";
import type { PageMeta } from "../routes";

/** Props of the dashboard, rendered per request for the signed-in staff member. */
export interface AdminProps extends SharedProps {
  staff: { email: string };
  /** Sent back as `X-CSRF-Token` on every POST, and in the sign-out form. */
  csrf: string;
  tab: AdminTab;
  stats: AdminStats;
  orders: OrdersPage;
  messages: MessagesPage;
  /** Every order status, in their usual order. */
  statuses: string[];
  /** The e-mail outbox: whether it can send, its counts, and the e-mails that need a look. */
  mail: MailReport;
}

const TABS: readonly { id: AdminTab; label: string }[] = [
  { id: "orders", label: "Orders" },
  { id: "messages", label: "Messages" },
];

/** Title and description for the document shell; the server keeps /admin out of search engines. */
export function meta(props: AdminProps): PageMeta {
  return {
    title: `Admin Dashboard | ${props.business.name}`,
    description: "Manage orders and customer inquiries",
  };
}

/** The dashboard. */
export default function AdminPage(props: AdminProps) {
  const [tab, setTab] = useState<AdminTab>(props.tab);
  const [stats, setStats] = useState(props.stats);
  const [orders, setOrders] = useState(props.orders);
  const [messages, setMessages] = useState(props.messages);
  const [mail, setMail] = useState(props.mail);
  const [loading, setLoading] = useState<Record<AdminTab, boolean>>({ orders: false, messages: false });
  const [failure, setFailure] = useState<Failure | null>(null);
  const [announcement, setAnnouncement] = useState("");
  // Before hydration both tabs stay in the Tab order, so that the links work from the keyboard
  // without JavaScript; once hydrated, the tablist's arrow keys take over (one Tab stop).
  const [hydrated, setHydrated] = useState(false);
  const requests = useRef<Partial<Record<AdminTab, AbortController>>>({});
  const shownTab = useRef(tab);
  shownTab.current = tab;
  const tabElements = useRef<Partial<Record<AdminTab, HTMLAnchorElement | null>>>({});
  const panelElements = useRef<Partial<Record<AdminTab, HTMLDivElement | null>>>({});

  useEffect(() => {
    setHydrated(true);
    const pending = requests.current;
    return () => Object.values(pending).forEach((request) => request?.abort());
  }, []);

  /** Fetches a page of one list (with fresh stats and the e-mail report); a newer request for the same list cancels this one. */
  async function load<Page>(list: AdminTab, query: ListQuery, show: (page: Page) => void, moveFocus: boolean) {
    requests.current[list]?.abort();
    const request = new AbortController();
    requests.current[list] = request;
    setLoading((current) => ({ ...current, [list]: true }));
    try {
      const [page, fresh, report] = await Promise.all([
        adminGet<Page>(listApiPath(list, query), request.signal),
        adminGet<AdminStats>("/api/admin/stats", request.signal),
        adminGet<MailReport>("/api/admin/mail", request.signal),
      ]);
      show(page);
      setStats(fresh);
      setMail(report);
      setFailure(null);
      if (shownTab.current === list) window.history.replaceState(null, "", adminHref(list, query));
      if (moveFocus) panelElements.current[list]?.focus();
    } catch (error) {
      if (request.signal.aborted) return;
      setFailure(failureOf(error));
    } finally {
      if (requests.current[list] === request) {
        delete requests.current[list];
        setLoading((current) => ({ ...current, [list]: false }));
      }
    }
  }

  const loadOrders = (query: ListQuery, moveFocus = false) => void load<OrdersPage>("orders", query, setOrders, moveFocus);
  const loadMessages = (query: ListQuery, moveFocus = false) => void load<MessagesPage>("messages", query, setMessages, moveFocus);
  const sessionEnded = () => setFailure({ text: SESSION_ENDED, sessionEnded: true });

  function orderChanged({ order, stats: fresh }: OrderChanged) {
    setOrders((current) => ({ ...current, items: replaceItem(current.items, order) }));
    // Filtered by status, the changed order no longer belongs on this page: fetch it anew.
    if (orders.filter.status && orders.filter.status !== order.status) loadOrders({ ...orders.filter, page: orders.page });
    setStats(fresh);
    setAnnouncement(`Order ${order.reference}: ${statusLabel(order.status)}, ${paymentLine(order)}.`);
    // A status change may have queued the customer's e-mail; a failed refresh leaves the old report.
    adminGet<MailReport>("/api/admin/mail").then(setMail, () => undefined);
  }

  function messageChanged({ message, stats: fresh }: MessageChanged) {
    setMessages((current) => ({ ...current, items: replaceItem(current.items, message) }));
    setStats(fresh);
    setAnnouncement(`Message "${message.subject}" marked ${message.status}.`);
  }

  function mailResent({ mail: fresh }: MailResent) {
    setMail(fresh);
    setAnnouncement("E-mail queued again.");
  }

  function showTab(next: AdminTab, focus: boolean) {
    setTab(next);
    const list = next === "orders" ? orders : messages;
    window.history.replaceState(null, "", adminHref(next, { ...list.filter, page: list.page }));
    if (focus) tabElements.current[next]?.focus();
  }

  function onTabClick(event: MouseEvent<HTMLAnchorElement>, next: AdminTab) {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    showTab(next, false);
  }

  function onTabKey(event: KeyboardEvent<HTMLDivElement>) {
    const index = TABS.findIndex((entry) => entry.id === tab);
    const last = TABS.length - 1;
    const targets: Record<string, number> = { ArrowRight: index === last ? 0 : index + 1, ArrowLeft: index === 0 ? last : index - 1, Home: 0, End: last };
    const target = targets[event.key];
    const next = target === undefined ? undefined : TABS[target];
    if (!next) return;
    event.preventDefault();
    showTab(next.id, true);
  }

  const counts: Record<AdminTab, number> = { orders: stats.totalOrders, messages: stats.messages };
  return (
    <>
      <section className="admin-head">
        <div className="container admin-head__inner">
          <div>
            <h1>Admin Dashboard</h1>
            <p className="admin-head__lead">Manage orders and customer inquiries</p>
          </div>
          <form className="admin-head__account" method="post" action="/admin/logout">
            <input type="hidden" name="csrf" value={props.csrf} />
            <span className="admin-head__staff">
              Signed in as <strong>{props.staff.email}</strong>
            </span>
            <button type="submit" className="button button--outline button--small">
              Sign out
            </button>
          </form>
        </div>
      </section>
      <section className="section section--admin">
        <div className="container">
          {failure && <AdminAlert failure={failure} />}
          <StatCards stats={stats} />
          <MailStatus mail={mail} csrf={props.csrf} onResent={mailResent} onSessionEnded={sessionEnded} />
          <div className="tabs" role="tablist" aria-label="Dashboard" onKeyDown={onTabKey}>
            {TABS.map((entry) => (
              <a
                key={entry.id}
                ref={(element) => {
                  tabElements.current[entry.id] = element;
                }}
                id={`tab-${entry.id}`}
                className="tabs__tab"
                href={adminHref(entry.id, { status: null, page: 1 })}
                role="tab"
                aria-selected={tab === entry.id}
                aria-controls={`panel-${entry.id}`}
                tabIndex={hydrated && tab !== entry.id ? -1 : undefined}
                onClick={(event) => onTabClick(event, entry.id)}
              >
                {entry.label} <span className="tabs__count">{counts[entry.id]}</span>
              </a>
            ))}
          </div>
          <div className="admin-loading" role="status">
            {loading[tab] && (
              <>
                <span className="spinner" aria-hidden="true" /> Loading admin dashboard...
              </>
            )}
          </div>
          <p className="visually-hidden" aria-live="polite">
            {announcement}
          </p>
          {TABS.map((entry) => (
            <div
              key={entry.id}
              ref={(element) => {
                panelElements.current[entry.id] = element;
              }}
              id={`panel-${entry.id}`}
              className={loading[entry.id] ? "tab-panel is-loading" : "tab-panel"}
              role="tabpanel"
              aria-labelledby={`tab-${entry.id}`}
              aria-busy={loading[entry.id] || undefined}
              tabIndex={-1}
              hidden={tab !== entry.id}
            >
              {/* Only the shown tab's list is rendered: half the server's render time (DESIGN.md budget). */}
              {tab !== entry.id ? null : entry.id === "orders" ? (
                <OrdersPanel
                  orders={orders}
                  statuses={props.statuses}
                  csrf={props.csrf}
                  onQuery={loadOrders}
                  onChanged={orderChanged}
                  onSessionEnded={sessionEnded}
                />
              ) : (
                <MessagesPanel messages={messages} csrf={props.csrf} onQuery={loadMessages} onChanged={messageChanged} onSessionEnded={sessionEnded} />
              )}
            </div>
          ))}
        </div>
      </section>
    </>
  );
}
