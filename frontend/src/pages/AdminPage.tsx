// /admin, 'Admin Dashboard' (spec section 2), for signed-in staff only; the server rendered the
// open tab's first page (a list, the day board, or the money tab's cash-up and balances). Once
// hydrated, filters, searches and page changes fetch the list from /api/admin/* instead of
// reloading, and the address bar follows (history.replaceState), so a reload shows the same thing;
// every 30 seconds while the tab is shown the list is polled as it is (same filter and page, open
// panels stay open), so that new orders appear. An order's ID opens its detail in a dialog. Without
// JavaScript the tabs, filters and pages are plain links and GET forms to /admin.
import { useEffect, useRef, useState } from "react";
import { AdminAlert } from "../components/admin/AdminAlert";
import { AdminHead } from "../components/admin/AdminHead";
import { AwaitingPanel } from "../components/admin/AwaitingPanel";
import { DashboardTabs, OWNER_TABS, TABS } from "../components/admin/DashboardTabs";
import { InboxPanel } from "../components/admin/InboxPanel";
import { MessagesPanel } from "../components/admin/MessagesPanel";
import { MoneyPanel } from "../components/admin/MoneyPanel";
import { NewBooking } from "../components/admin/NewBooking";
import { OrderDetailDialog } from "../components/admin/OrderDetailDialog";
import { OrdersPanel } from "../components/admin/OrdersPanel";
import { ReportsPanel } from "../components/admin/ReportsPanel";
import { BackupNotice } from "../components/admin/BackupNotice";
import { OutboxBlock } from "../components/admin/OutboxBlock";
import { PaymentsPanel } from "../components/admin/PaymentsPanel";
import { RunPanel } from "../components/admin/RunPanel";
import { StatCards } from "../components/admin/StatCards";
import { TakingsCard } from "../components/admin/TakingsCard";
import { TextSwitchesPanel } from "../components/admin/TextSwitchesPanel";
import { WaitingPanel } from "../components/admin/WaitingPanel";
import type { AdminTab } from "../lib/admin/types";
import { usePolling } from "../lib/admin/polling";
import { nairobiToday } from "../lib/admin/run";
import { useAwaiting } from "../lib/admin/useAwaiting";
import { useDashboardData } from "../lib/admin/useDashboardData";
import { useDayRun } from "../lib/admin/useDayRun";
import { useInbox } from "../lib/admin/useInbox";
import { useMoney } from "../lib/admin/useMoney";
import { adminHref, type ListQuery, moneyHref, type RunPart, runHref, tabHref } from "../lib/admin/urls";
import type { OrderChanged } from "../lib/admin/types";
import type { DashboardProps } from "../lib/generated/DashboardProps";
import type { SharedProps } from "../lib/types";
import type { PageMeta } from "../routes";

/** Props of the dashboard, rendered per request for the signed-in staff member. */
export type AdminProps = SharedProps & DashboardProps;

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
  const tabs = props.reportsTab ? OWNER_TABS : TABS;
  // Once hydrated, the tablist's arrow keys take over from its links, and "New booking" shows.
  const [hydrated, setHydrated] = useState(false);
  // The order whose detail is open, by its order ID.
  const [openOrder, setOpenOrder] = useState<string | null>(null);
  // The tab shown now, for a list that finishes loading later: only the shown tab's list moves the address bar.
  const shownTab = useRef(tab);
  const panelElements = useRef<Partial<Record<AdminTab, HTMLDivElement | null>>>({});
  const {
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
  } = useDashboardData(props, listLoaded);
  const awaiting = useAwaiting(props.unconfirmed);
  const dayRun = useDayRun(props.run, sessionEnded);
  const inbox = useInbox(props.inbox, sessionEnded);
  const money = useMoney({ cashUp: props.cashUp, balances: props.balances }, sessionEnded);
  // Today in Nairobi by the server's clock, so that the server and the browser render the same day.
  const today = nairobiToday(Date.parse(props.unconfirmed.now));
  usePolling(() =>
    Promise.all([
      refresh(shownTab.current),
      awaiting.refresh(),
      shownTab.current === "inbox" ? inbox.refresh() : undefined,
      shownTab.current === "money" ? money.refresh() : undefined,
    ]),
  );

  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the second pass of a two-pass render (see `hydrated`)
    setHydrated(true);
  }, []);

  /** A list shows its new page: the address bar follows it if its tab is shown, and the focus moves to it if asked. */
  function listLoaded(list: AdminTab, query: ListQuery, moveFocus: boolean) {
    if (shownTab.current === list) window.history.replaceState(null, "", adminHref(list, query));
    if (moveFocus) panelElements.current[list]?.focus();
  }

  /** Loads a page of texts and follows it in the address bar while its tab is shown. */
  async function showTexts(query: ListQuery, moveFocus = false) {
    const page = await inbox.load(query);
    if (page) listLoaded("inbox", { status: page.filter.status, page: page.page }, moveFocus);
    // The tab's unread count is in the stats.
    void refresh("inbox");
  }

  /** Loads the board of `date` and follows it in the address bar while its tab is shown. */
  async function showDay(date: string, part: RunPart = {}) {
    const board = await dayRun.load(date, part);
    if (board && shownTab.current === "run")
      window.history.replaceState(null, "", runHref(board.date, board.page ?? {}));
  }

  /** Loads the money tab's cash-up of `date` (and the balances) and follows it in the address bar. */
  async function showMoney(date: string) {
    const cashUp = await money.load(date);
    if (cashUp && shownTab.current === "money") window.history.replaceState(null, "", moneyHref(cashUp.day));
  }

  /** An order's money or status changed in its detail: the table, the stats and the money tab follow. */
  function detailChanged(changed: OrderChanged) {
    orderChanged(changed);
    if (shownTab.current === "money") void money.refresh();
  }

  /** Shows a tab, the address bar following it; false when it is a page of its own. */
  function showTab(next: AdminTab): boolean {
    // The reports are read on the server for their period: the tab is a page of its own.
    if (next === "reports" && !props.reports) {
      window.location.assign(tabHref("reports"));
      return false;
    }
    setTab(next);
    shownTab.current = next;
    if (next === "run") {
      window.history.replaceState(null, "", runHref(dayRun.board?.date ?? null, dayRun.board?.page ?? {}));
      if (!dayRun.board && !dayRun.loading) void showDay(today);
    } else if (next === "money") {
      window.history.replaceState(null, "", moneyHref(money.cashUp?.day ?? null));
      if (!money.cashUp && !money.loading) void showMoney(today);
    } else if (next === "inbox") {
      const shown = { status: inbox.page?.filter.status ?? null, page: inbox.page?.page ?? 1 };
      window.history.replaceState(null, "", adminHref("inbox", shown));
      if (!inbox.loading) void showTexts(shown);
    } else {
      const list = next === "orders" ? orders : messages;
      window.history.replaceState(null, "", adminHref(next, { ...list.filter, page: list.page }));
    }
    return true;
  }

  const runStops = dayRun.board?.windows.reduce((sum, window) => sum + window.pickups + window.deliveries, 0);
  const counts: Record<AdminTab, number | undefined> = {
    orders: stats.totalOrders,
    messages: stats.messages,
    inbox: stats.unreadTexts,
    run: runStops,
    money: undefined,
    reports: undefined,
  };
  const tabLoading =
    tab === "run"
      ? dayRun.loading
      : tab === "inbox"
        ? inbox.loading
        : tab === "money"
          ? money.loading
          : tab === "reports"
            ? false
            : loading[tab];
  // The open order as the table last showed it: when it changes, the dialog loads it again.
  const openInList = orders.items.find((order) => order.id === openOrder);
  const openVersion = openInList
    ? `${openInList.updatedAt} ${openInList.balance.charged} ${openInList.balance.paid} ${openInList.balance.refunded}`
    : "";
  return (
    <>
      <AdminHead staff={props.staff} csrf={props.csrf} />
      <section className="section section--admin">
        <div className="container">
          {failure && <AdminAlert failure={failure} />}
          <WaitingPanel
            list={awaiting.list}
            csrf={props.csrf}
            onChanged={awaiting.changed}
            onSessionEnded={sessionEnded}
          />
          <AwaitingPanel
            list={awaiting.list}
            csrf={props.csrf}
            announcement={awaiting.announcement}
            onChanged={awaiting.changed}
            onSessionEnded={sessionEnded}
          />
          <StatCards stats={stats} />
          <div className="dashboard-money">
            <TakingsCard takings={stats.takings} />
            <PaymentsPanel
              initial={props.payments}
              csrf={props.csrf}
              onChanged={paymentChanged}
              onSessionEnded={sessionEnded}
            />
          </div>
          <OutboxBlock outbox={outbox} csrf={props.csrf} onResent={messageResent} onSessionEnded={sessionEnded} />
          <TextSwitchesPanel csrf={props.csrf} onSessionEnded={sessionEnded} />
          <BackupNotice status={props.backups ?? null} />
          <DashboardTabs tabs={tabs} tab={tab} hydrated={hydrated} counts={counts} onShow={showTab} />
          <div className="admin-loading" role="status">
            {tabLoading && (
              <>
                <span className="spinner" aria-hidden="true" /> Loading admin dashboard...
              </>
            )}
          </div>
          <p className="visually-hidden" aria-live="polite">
            {announcement}
          </p>
          {tabs.map((entry) => (
            <div
              key={entry.id}
              ref={(element) => {
                panelElements.current[entry.id] = element;
              }}
              id={`panel-${entry.id}`}
              className={tab === entry.id && tabLoading ? "tab-panel is-loading" : "tab-panel"}
              role="tabpanel"
              aria-labelledby={`tab-${entry.id}`}
              aria-busy={(tab === entry.id && tabLoading) || undefined}
              tabIndex={-1}
              hidden={tab !== entry.id}
            >
              {/* Only the shown tab's list is rendered: half the server's render time (DESIGN.md budget). */}
              {tab !== entry.id ? null : entry.id === "run" ? (
                <RunPanel
                  board={dayRun.board}
                  runs={dayRun.runs}
                  loading={dayRun.loading}
                  saving={dayRun.saving}
                  changed={dayRun.changed}
                  failure={dayRun.failure}
                  announcement={dayRun.announcement}
                  today={today}
                  onDate={(date) => void showDay(date)}
                  onPart={(part) => dayRun.board && void showDay(dayRun.board.date, part)}
                  onAssign={dayRun.assign}
                  onMove={dayRun.move}
                  onSave={() => void dayRun.save(props.csrf)}
                />
              ) : entry.id === "money" ? (
                <MoneyPanel
                  cashUp={money.cashUp}
                  balances={money.balances}
                  loading={money.loading}
                  failure={money.failure}
                  announcement={money.announcement}
                  today={today}
                  csrf={props.csrf}
                  onDay={(date) => void showMoney(date)}
                  onOpen={setOpenOrder}
                  onHandedIn={money.handedIn}
                  onSessionEnded={sessionEnded}
                />
              ) : entry.id === "reports" ? (
                props.reports && <ReportsPanel reports={props.reports} csrf={props.csrf} />
              ) : entry.id === "inbox" ? (
                <InboxPanel
                  page={inbox.page}
                  failure={inbox.failure}
                  announcement={inbox.announcement}
                  csrf={props.csrf}
                  onQuery={(query, moveFocus) => void showTexts(query, moveFocus)}
                  onChanged={(changed, what) => {
                    inbox.changed(changed, what);
                    void refresh("inbox");
                  }}
                  onOpenOrder={setOpenOrder}
                  onSessionEnded={sessionEnded}
                />
              ) : entry.id === "orders" ? (
                <>
                  <NewBooking
                    hydrated={hydrated}
                    csrf={props.csrf}
                    priceList={props.priceList}
                    business={props.business}
                    onPlaced={() => void refresh("orders")}
                    onOpen={setOpenOrder}
                    onSessionEnded={sessionEnded}
                  />
                  <OrdersPanel
                    orders={orders}
                    statuses={props.statuses}
                    racks={props.racks}
                    slots={awaiting.list.slots}
                    csrf={props.csrf}
                    sendsPrompts={props.sendsPrompts}
                    onQuery={loadOrders}
                    onOpen={setOpenOrder}
                    onChanged={orderChanged}
                    onSessionEnded={sessionEnded}
                  />
                </>
              ) : (
                <MessagesPanel
                  messages={messages}
                  csrf={props.csrf}
                  onQuery={loadMessages}
                  onChanged={messageChanged}
                  onSessionEnded={sessionEnded}
                />
              )}
            </div>
          ))}
        </div>
      </section>
      {openOrder && (
        <OrderDetailDialog
          key={openOrder}
          id={openOrder}
          version={openVersion}
          csrf={props.csrf}
          onClose={() => setOpenOrder(null)}
          onChanged={detailChanged}
          onSessionEnded={sessionEnded}
          onOpen={setOpenOrder}
        />
      )}
    </>
  );
}
