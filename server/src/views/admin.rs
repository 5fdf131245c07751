//! What the staff dashboard receives: its page props, its tabs and the orders tab's list. The
//! messages tab, the outbox report, the backup status and an order's detail each have their own
//! file beside this one.

use super::awaiting::AwaitingList;
use super::orders::AdminOrder;
use super::outbox::OutboxReport;
use super::payments::PaymentsToCheck;
use super::run::DayRun;
use super::time;
use crate::domain::{OrderStatus, PaymentStatus, StaffRole, TextEnum};
use crate::models::Page;
use crate::models::order_list::ListedOrder;
use crate::models::stats::Stats;
use serde::Serialize;
use ts_rs::TS;

use super::backups::BackupStatus;
use super::messages::MessagesPage;

/// The dashboard's tabs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum AdminTab {
    /// The orders table.
    Orders,
    /// The contact messages.
    Messages,
    /// The day board: a day's stops by window, and the valets' runs.
    Run,
    /// Texts customers sent to the shop's number.
    Inbox,
    /// The money across orders: a day's cash-up, and the balances not settled.
    Money,
    /// The owner's reports over a period.
    Reports,
}

/// What the orders list is filtered by; a null status or payment means all.
#[derive(Debug, Clone, Serialize, TS)]
pub struct OrdersFilter {
    /// Only this status.
    pub status: Option<OrderStatus>,
    /// Only paid, or only unpaid orders (cancelled ones only when `status` asks for them).
    pub payment: Option<PaymentStatus>,
    /// The search, or empty.
    pub q: String,
}

/// One page of orders, newest first, and the filter that made it.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct OrdersPage {
    /// This page's orders.
    pub items: Vec<AdminOrder>,
    /// Orders matching the filter, on all pages; with `more`, as many as were counted.
    pub total: i64,
    /// More orders match than `total` (a search of a common word is counted to the next
    /// thousand past the page's end): "Showing 1–20 of more than 1,000".
    pub more: bool,
    /// From 1.
    pub page: i64,
    /// Orders per page.
    pub page_size: i64,
    /// The filter.
    pub filter: OrdersFilter,
    /// The server's time when it answered: how long an order has waited is counted to it, by the
    /// server's clock rather than a phone's.
    pub now: String,
}

impl OrdersPage {
    /// Page `number` of `page_size` orders matching `filter`, answered at `now`.
    pub fn new(
        page: &Page<ListedOrder>,
        filter: OrdersFilter,
        number: i64,
        page_size: i64,
        now: time::PrimitiveDateTime,
    ) -> Self {
        OrdersPage {
            items: page.items.iter().map(AdminOrder::listed).collect(),
            total: page.total,
            more: page.more,
            page: number,
            page_size,
            filter,
            now: time(now),
        }
    }
}

/// The signed-in staff member.
#[derive(Debug, Clone, Serialize, TS)]
pub struct StaffView {
    /// Their e-mail.
    pub email: String,
    /// What their account may do.
    pub role: StaffRole,
}

/// The dashboard's own props (besides the shared ones).
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DashboardProps {
    /// Who is signed in.
    pub staff: StaffView,
    /// The session's CSRF token, sent back with every change.
    pub csrf: String,
    /// The open tab.
    pub tab: AdminTab,
    /// The stat cards.
    pub stats: Stats,
    /// The orders tab's page.
    pub orders: OrdersPage,
    /// The messages tab's page.
    pub messages: MessagesPage,
    /// Every order status, in the order of the work.
    pub statuses: Vec<OrderStatus>,
    /// The racks a ready order hangs on (`LAUNDRY_RACKS`): marking an order ready asks for one.
    pub racks: Vec<String>,
    /// The outbox: e-mails and texts.
    pub outbox: OutboxReport,
    /// The pickups awaiting slot confirmation.
    pub unconfirmed: AwaitingList,
    /// The day board, when its tab is the one open (otherwise it is fetched when opened).
    pub run: Option<DayRun>,
    /// The inbox's page, when its tab is the one open (otherwise it is fetched when opened).
    pub inbox: Option<super::inbox::InboxPage>,
    /// The M-PESA payments staff must look at (unmatched, or flagged).
    pub payments: PaymentsToCheck,
    /// The cash-up of the day asked for, when the money tab is the one open (otherwise it is
    /// fetched when opened).
    pub cash_up: Option<super::money::CashUp>,
    /// The balances not settled, when the money tab is the one open.
    pub balances: Option<super::money::Balances>,
    /// Whether M-PESA prompts are configured: staff can send one to an unpaid order's phone.
    pub sends_prompts: bool,
    /// The backups, for owners (none for other staff, and on PostgreSQL, which `pg_dump` backs up).
    pub backups: Option<BackupStatus>,
    /// The Reports tab's figures (on that tab; staff see the sections the owner shares).
    pub reports: Option<super::reports::Reports>,
    /// Whether the reader has a Reports tab: owners, and staff when the owner shares a section.
    pub reports_tab: bool,
}

impl DashboardProps {
    /// Every order status, for the status menus.
    pub fn statuses() -> Vec<OrderStatus> {
        OrderStatus::ALL.to_vec()
    }
}
