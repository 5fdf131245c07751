//! What the staff dashboard receives: its page props, its lists, the e-mail report, and the
//! answers of its changes.

use super::awaiting::AwaitingList;
use super::orders::{AdminMessage, AdminOrder};
use super::run::DayRun;
use super::time;
use crate::domain::{MessageKind, MessageStatus, OrderStatus, OutboxStatus, StaffRole, TextEnum};
use crate::mail::MailSettings;
use crate::models::Page;
use crate::models::contact_message::ContactMessage;
use crate::models::order::detail::OrderRecord;
use crate::models::order::{Order, OrderLine, StatusChange};
use crate::models::outbox::{OutboxMessage, OutboxSummary};
use crate::models::stats::Stats;
use serde::Serialize;
use ts_rs::TS;

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
}

/// What the orders list is filtered by; a null status means all.
#[derive(Debug, Clone, Serialize, TS)]
pub struct OrdersFilter {
    /// Only this status.
    pub status: Option<OrderStatus>,
    /// The search, or empty.
    pub q: String,
}

/// What the messages list is filtered by; a null status means all.
#[derive(Debug, Clone, Serialize, TS)]
pub struct MessagesFilter {
    /// Only this status.
    pub status: Option<MessageStatus>,
}

/// One page of orders, newest first, and the filter that made it.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct OrdersPage {
    /// This page's orders.
    pub items: Vec<AdminOrder>,
    /// Orders matching the filter, on all pages.
    pub total: i64,
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
        page: &Page<(Order, Vec<OrderLine>)>,
        filter: OrdersFilter,
        number: i64,
        page_size: i64,
        now: time::PrimitiveDateTime,
    ) -> Self {
        OrdersPage {
            items: page.items.iter().map(|(order, lines)| AdminOrder::new(order, lines)).collect(),
            total: page.total,
            page: number,
            page_size,
            filter,
            now: time(now),
        }
    }
}

/// One page of messages, newest first, and the filter that made it.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct MessagesPage {
    /// This page's messages.
    pub items: Vec<AdminMessage>,
    /// Messages matching the filter, on all pages.
    pub total: i64,
    /// From 1.
    pub page: i64,
    /// Messages per page.
    pub page_size: i64,
    /// The filter.
    pub filter: MessagesFilter,
}

impl MessagesPage {
    /// Page `number` of `page_size` messages of `status` (all when `None`).
    pub fn new(page: &Page<ContactMessage>, status: Option<MessageStatus>, number: i64, page_size: i64) -> Self {
        MessagesPage {
            items: page.items.iter().map(AdminMessage::from).collect(),
            total: page.total,
            page: number,
            page_size,
            filter: MessagesFilter { status },
        }
    }
}

/// One outbox e-mail for staff: what it is, to whom, and how it went (never its parameters).
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "OutboxMessage")]
pub struct OutboxMessageView {
    /// UUID.
    pub id: String,
    /// What it is.
    pub kind: MessageKind,
    /// What staff read for the kind.
    pub label: String,
    /// 'staff', or the customer's address.
    pub to: String,
    /// The order ID of the order it is about (never the database's key).
    pub order_id: Option<String>,
    /// Where it stands.
    pub status: OutboxStatus,
    /// Attempts so far.
    pub attempts: i32,
    /// The last answer that was not a success.
    pub last_error: Option<String>,
    /// When it was written.
    pub created_at: String,
    /// When the last attempt ended.
    pub last_attempt_at: Option<String>,
    /// Not sent before this.
    pub next_attempt_at: String,
}

impl OutboxMessageView {
    /// `email`, naming its order (if any) by the order ID staff and customers read.
    pub fn new(email: &OutboxMessage, order_id: Option<&str>) -> Self {
        OutboxMessageView {
            id: email.id.clone(),
            kind: email.kind,
            label: email.kind.label().to_owned(),
            to: if email.kind.to_staff() {
                "staff".to_owned()
            } else {
                email.to_email.clone().or_else(|| email.to_phone.clone()).unwrap_or_default()
            },
            order_id: order_id.map(str::to_owned),
            status: email.status,
            attempts: email.attempts,
            last_error: email.last_error.clone(),
            created_at: time(email.created_at),
            last_attempt_at: email.last_attempt_at.map(time),
            next_attempt_at: time(email.next_attempt_at),
        }
    }
}

/// What staff see of the e-mail outbox: configuration, counts, the last error, the e-mails that
/// need a look.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct MailReport {
    /// Whether e-mails can be sent.
    pub configured: bool,
    /// The variables still missing.
    pub missing: Vec<String>,
    /// Pending e-mails.
    pub waiting: i64,
    /// Given up.
    pub failed: i64,
    /// Refused for the account.
    pub blocked: i64,
    /// Sent.
    pub sent: i64,
    /// The newest error of an e-mail not sent.
    pub last_error: Option<String>,
    /// When it happened.
    pub last_error_at: Option<String>,
    /// The e-mails that need a look, newest first.
    pub problems: Vec<OutboxMessageView>,
}

impl MailReport {
    /// The report of `summary` and `problems` under `settings`.
    pub fn new(settings: &MailSettings, summary: &OutboxSummary, problems: &[(OutboxMessage, Option<String>)]) -> Self {
        MailReport {
            configured: settings.is_configured(),
            missing: settings.missing().into_iter().map(str::to_owned).collect(),
            waiting: summary.waiting,
            failed: summary.failed,
            blocked: summary.blocked,
            sent: summary.sent,
            last_error: summary.last_error.as_ref().map(|(error, _)| error.clone()),
            last_error_at: summary.last_error.as_ref().map(|(_, at)| time(*at)),
            problems: problems
                .iter()
                .map(|(email, order_id)| OutboxMessageView::new(email, order_id.as_deref()))
                .collect(),
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
    /// The e-mail outbox.
    pub mail: MailReport,
    /// The pickups awaiting slot confirmation.
    pub unconfirmed: AwaitingList,
    /// The day board, when its tab is the one open (otherwise it is fetched when opened).
    pub run: Option<DayRun>,
}

impl DashboardProps {
    /// Every order status, for the status menus.
    pub fn statuses() -> Vec<OrderStatus> {
        OrderStatus::ALL.to_vec()
    }
}

/// The answer to a change of an order (status or payment).
#[derive(Debug, Clone, Serialize, TS)]
pub struct OrderChanged {
    /// The order as it now is.
    pub order: AdminOrder,
    /// The stat cards after the change.
    pub stats: Stats,
}

/// One change of an order's status as staff see it: what, when, and who.
#[derive(Debug, Clone, Serialize, TS)]
#[ts(rename = "StatusChange")]
pub struct StatusChangeView {
    /// The new status.
    pub status: OrderStatus,
    /// When, RFC 3339.
    pub at: String,
    /// The staff member's e-mail; null for the change that placed the order.
    pub by: Option<String>,
}

impl From<&StatusChange> for StatusChangeView {
    fn from(change: &StatusChange) -> Self {
        StatusChangeView { status: change.status, at: time(change.changed_at), by: change.changed_by.clone() }
    }
}

/// `GET /api/admin/orders/{orderId}`: one order with everything the customer gave, its lines,
/// its status and payment, and what happened to it: the status history and the e-mails about it.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct OrderDetail {
    /// The order as the table shows it (with its payment).
    #[serde(flatten)]
    pub order: AdminOrder,
    /// The staff member who recorded the payment.
    pub payment_recorded_by: Option<String>,
    /// Every status change, oldest first; the first is the order being placed.
    pub history: Vec<StatusChangeView>,
    /// The e-mails written about the order (to staff and to the customer), oldest first.
    pub emails: Vec<OutboxMessageView>,
}

impl From<&OrderRecord> for OrderDetail {
    fn from(record: &OrderRecord) -> Self {
        let order = AdminOrder::new(&record.order, &record.lines);
        OrderDetail {
            payment_recorded_by: record.order.payment_recorded_by.clone(),
            history: record.history.iter().map(StatusChangeView::from).collect(),
            emails: record
                .emails
                .iter()
                .map(|email| OutboxMessageView::new(email, Some(&record.order.reference)))
                .collect(),
            order,
        }
    }
}

/// The answer to a change of a message's status.
#[derive(Debug, Clone, Serialize, TS)]
pub struct MessageChanged {
    /// The message as it now is.
    pub message: AdminMessage,
    /// The stat cards after the change.
    pub stats: Stats,
}

/// The answer to 'Send again'.
#[derive(Debug, Clone, Serialize, TS)]
pub struct MailResent {
    /// The e-mail, queued again.
    pub email: OutboxMessageView,
    /// The outbox report after it.
    pub mail: MailReport,
}
