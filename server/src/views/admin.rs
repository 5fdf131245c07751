//! What the staff dashboard receives: its page props, its lists, the outbox report, and the
//! answers of its changes.

use super::awaiting::AwaitingList;
use super::order_links::RecleanedIn;
use super::orders::{AdminMessage, AdminOrder};
use super::payments::{MpesaPayment, PaymentsToCheck, PromptView};
use super::run::DayRun;
use super::time;
use crate::domain::{
    Channel, Delivery, EntryKind, MessageKind, MessageStatus, Method, OrderStatus, OutboxStatus, PaymentStatus,
    StaffRole, TextEnum,
};
use crate::models::Page;
use crate::models::contact_message::ContactMessage;
use crate::models::ledger::Entry;
use crate::models::mpesa::{MpesaPrompt, MpesaReceipt};
use crate::models::order::StatusChange;
use crate::models::order_detail::OrderRecord;
use crate::models::order_list::{ListedOrder, MoneyFacts};
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

/// One outbox message for staff, e-mail or text: what it is, to whom, how it went, and for a
/// text what the network reported (never its parameters or its words).
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "OutboxMessage")]
pub struct OutboxMessageView {
    /// UUID.
    pub id: String,
    /// E-mail or SMS.
    pub channel: Channel,
    /// What it is.
    pub kind: MessageKind,
    /// What staff read for the kind.
    pub label: String,
    /// 'staff', the customer's address, for a text the customer's phone (E.164), or 'the customer'
    /// (a message summarised by the retention job keeps no recipient).
    pub to: String,
    /// The order ID of the order it is about (never the database's key).
    pub order_id: Option<String>,
    /// Where it stands.
    pub status: OutboxStatus,
    /// Attempts so far.
    pub attempts: i32,
    /// The last answer that was not a success (for a skipped text: why it was skipped).
    pub last_error: Option<String>,
    /// When it was written.
    pub created_at: String,
    /// When the last attempt ended.
    pub last_attempt_at: Option<String>,
    /// Not sent before this.
    pub next_attempt_at: String,
    /// When it was sent.
    pub sent_at: Option<String>,
    /// A text: what the network's last delivery report said (null before any report).
    pub delivery: Option<Delivery>,
    /// Its words: status, network, failure reason ('Failed (network 63902): UserInBlacklist').
    pub delivery_detail: Option<String>,
    /// When the report came.
    pub delivery_at: Option<String>,
}

impl OutboxMessageView {
    /// `message`, naming its order (if any) by the order ID staff and customers read.
    pub fn new(message: &OutboxMessage, order_id: Option<&str>) -> Self {
        OutboxMessageView {
            id: message.id.clone(),
            channel: message.channel,
            kind: message.kind,
            label: message.kind.label_of(message.dedupe_key.as_deref()).to_owned(),
            to: if message.kind.to_staff() {
                "staff".to_owned()
            } else {
                // A message the retention job summarised keeps no recipient.
                message
                    .to_email
                    .clone()
                    .or_else(|| message.to_phone.clone())
                    .unwrap_or_else(|| "the customer".to_owned())
            },
            order_id: order_id.map(str::to_owned),
            status: message.status,
            attempts: message.attempts,
            last_error: message.last_error.clone(),
            created_at: time(message.created_at),
            last_attempt_at: message.last_attempt_at.map(time),
            next_attempt_at: time(message.next_attempt_at),
            sent_at: message.sent_at.map(time),
            delivery: message.delivery,
            delivery_detail: message.delivery_detail.clone(),
            delivery_at: message.delivery_at.map(time),
        }
    }
}

/// What staff see of one channel of the outbox: whether it can send, its counts and its newest
/// problem.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ChannelReport {
    /// E-mail or SMS.
    pub channel: Channel,
    /// Whether its messages can be sent.
    pub configured: bool,
    /// The variables still missing (its messages wait in the outbox meanwhile).
    pub missing: Vec<String>,
    /// Waiting to be sent.
    pub waiting: i64,
    /// Given up.
    pub failed: i64,
    /// Refused for the account.
    pub blocked: i64,
    /// Sent.
    pub sent: i64,
    /// Not sent on purpose: a text to a number that opted out, of a kind switched off, or held
    /// back by a limit per phone.
    pub skipped: i64,
    /// Texts sent but reported not delivered by the network.
    pub undelivered: i64,
    /// The newest error of a message not sent, or report of a text not delivered.
    pub last_error: Option<String>,
    /// When it happened.
    pub last_error_at: Option<String>,
}

impl ChannelReport {
    /// The report of `channel` from its `summary`, `missing` the variables it still needs.
    pub fn new(channel: Channel, missing: &[&str], summary: &OutboxSummary) -> Self {
        ChannelReport {
            channel,
            configured: missing.is_empty(),
            missing: missing.iter().map(|name| (*name).to_owned()).collect(),
            waiting: summary.waiting,
            failed: summary.failed,
            blocked: summary.blocked,
            sent: summary.sent,
            skipped: summary.skipped,
            undelivered: summary.undelivered,
            last_error: summary.last_error.as_ref().map(|(error, _)| error.clone()),
            last_error_at: summary.last_error.as_ref().map(|(_, at)| time(*at)),
        }
    }
}

/// What staff see of the outbox: each channel, and the messages of either that need a look.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct OutboxReport {
    /// The e-mails.
    pub email: ChannelReport,
    /// The texts.
    pub sms: ChannelReport,
    /// Failed, blocked, retried after an error, held back by a limit per phone, or texts reported
    /// not delivered; newest first.
    pub problems: Vec<OutboxMessageView>,
    /// The owner's warning about today's budget of texts: from 80% of it, and to the owner only.
    pub text_budget: Option<TextBudgetView>,
}

/// The owner's warning about the shop's daily budget of texts (`LAUNDRY_SMS_DAILY_BUDGET`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TextBudgetView {
    /// Texts sent today (Nairobi).
    pub sent: i64,
    /// The day's budget.
    pub budget: u32,
    /// Whether it is used up: new texts wait for tomorrow.
    pub used_up: bool,
    /// What the owner reads.
    pub message: String,
}

impl TextBudgetView {
    /// The warning for `sent` texts of `budget` today; none below 80% of it.
    pub fn new(sent: i64, budget: u32) -> Option<Self> {
        let percent = u32::try_from(sent.max(0)).unwrap_or(u32::MAX).saturating_mul(100);
        if percent < budget.saturating_mul(crate::domain::SmsLimits::WARN_AT_PERCENT) {
            return None;
        }
        let used_up = sent >= i64::from(budget);
        let message = if used_up {
            format!(
                "Texts today: {sent} of {budget}. The daily budget is used up: new texts wait in the outbox and go out \
                 tomorrow (Nairobi time), order texts first, or once LAUNDRY_SMS_DAILY_BUDGET is raised."
            )
        } else {
            format!(
                "Texts today: {sent} of {budget}. At {budget}, new texts wait in the outbox until tomorrow (Nairobi \
                 time); raise LAUNDRY_SMS_DAILY_BUDGET to send more."
            )
        };
        Some(TextBudgetView { sent, budget, used_up, message })
    }
}

impl OutboxReport {
    /// The report of both channels and the `problems` (each with its order ID).
    pub fn new(
        email: ChannelReport,
        sms: ChannelReport,
        problems: &[(OutboxMessage, Option<String>)],
        text_budget: Option<TextBudgetView>,
    ) -> Self {
        OutboxReport {
            email,
            sms,
            text_budget,
            problems: problems
                .iter()
                .map(|(message, order_id)| OutboxMessageView::new(message, order_id.as_deref()))
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

/// How the daily backup stands, as the owner's dashboard says it.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct BackupStatus {
    /// The newest copy in the folder, if any.
    pub newest: Option<BackupCopy>,
    /// What needs the owner: no backup scheduled, none made, or the newest older than two days.
    pub warning: Option<String>,
}

/// One copy of the database.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct BackupCopy {
    /// When it was written, RFC 3339.
    pub written_at: String,
    /// Its size in bytes.
    #[ts(type = "number")]
    pub bytes: u64,
}

impl BackupStatus {
    /// The status of the copies in `dir` (none: no folder configured) at `now`; `newest` is the
    /// newest copy's time of writing and size.
    pub fn new(
        dir: Option<&std::path::Path>,
        newest: Option<(time::OffsetDateTime, u64)>,
        now: time::OffsetDateTime,
    ) -> Self {
        let warning = match (dir, newest) {
            (None, _) => Some(
                "No daily backup is scheduled: a dead disk would lose every order. Set LAUNDRY_BACKUP_DIR (docs/backups.md)."
                    .to_owned(),
            ),
            (Some(dir), None) => Some(format!(
                "No backup has been made in {} yet: the first is made at the time LAUNDRY_BACKUP_AT gives.",
                dir.display()
            )),
            (Some(_), Some((written, _))) if now - written > time::Duration::days(2) => Some(
                "The newest backup is more than two days old: check the server's log and the backup folder's disk."
                    .to_owned(),
            ),
            _ => None,
        };
        let newest = newest.map(|(written, bytes)| BackupCopy {
            written_at: written.format(&time::format_description::well_known::Rfc3339).unwrap_or_default(),
            bytes,
        });
        BackupStatus { newest, warning }
    }
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

/// One entry of an order's ledger, as staff read it.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct LedgerEntryView {
    /// The entry's number (a correction names it).
    #[ts(type = "number")]
    pub id: i64,
    /// Charge, adjustment, discount, payment or refund.
    pub kind: EntryKind,
    /// How money came or went.
    pub method: Option<Method>,
    /// What staff read: the line, "M-PESA prompt", "Cash", "Store credit".
    pub what: String,
    /// KSh, as entered (a discount and a correction are negative).
    pub amount: i32,
    /// The M-PESA code, or a refund's reference.
    pub reference: Option<String>,
    /// Why (a discount's reason, a correction's).
    pub note: String,
    /// Who entered it: a staff member's or valet's e-mail, "M-PESA", or none (the customer, the
    /// site).
    pub by: Option<String>,
    /// When, RFC 3339.
    pub at: String,
    /// The entry this one corrects.
    #[ts(type = "number | null")]
    pub corrects: Option<i64>,
    /// Whether staff may correct it (a payment, refund or discount not corrected yet).
    pub correctable: bool,
}

impl LedgerEntryView {
    /// The view of `entry`; `corrected` when a later entry corrects it.
    pub fn new(entry: &Entry, corrected: bool) -> Self {
        let what = match (entry.kind, entry.method) {
            (_, Some(method)) if entry.corrects.is_some() => format!("Correction: {}", method.label()),
            (EntryKind::Refund, Some(method)) => format!("Refund: {}", method.label()),
            (_, Some(method)) => method.label().to_owned(),
            (EntryKind::Discount, None) if entry.corrects.is_some() => "Correction: discount".to_owned(),
            (EntryKind::Discount, None) => "Discount".to_owned(),
            (_, None) => entry.note.clone(),
        };
        let correctable = matches!(entry.kind, EntryKind::Payment | EntryKind::Refund | EntryKind::Discount)
            && entry.corrects.is_none()
            && !corrected;
        LedgerEntryView {
            id: entry.id,
            kind: entry.kind,
            method: entry.method,
            what,
            amount: entry.amount,
            reference: entry.reference.clone(),
            note: entry.note.clone(),
            by: entry.recorded_by.clone(),
            at: time(entry.recorded_at),
            corrects: entry.corrects,
            correctable,
        }
    }
}

/// `GET /api/admin/orders/{orderId}`: one order with everything the customer gave, its lines,
/// its status and payment, and what happened to it: the status history and the e-mails and texts
/// about it.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct OrderDetail {
    /// The order as the table shows it (with its payment).
    #[serde(flatten)]
    pub order: AdminOrder,
    /// Its ledger: every charge, payment and refund, oldest first.
    pub ledger: Vec<LedgerEntryView>,
    /// Every status change, oldest first; the first is the order being placed.
    pub history: Vec<StatusChangeView>,
    /// The e-mails and texts written about the order (to staff and to the customer), oldest first.
    pub messages: Vec<OutboxMessageView>,
    /// The M-PESA prompts sent to the customer's phone, newest first.
    pub prompts: Vec<PromptView>,
    /// The M-PESA payments matched to the order, oldest first.
    pub payments: Vec<MpesaPayment>,
    /// The staff member who took the order on the phone or WhatsApp (the author of its first
    /// history entry); null when the customer placed it.
    pub taken_by: Option<String>,
    /// A re-clean: what the customer said was wrong (the order it cleans again is `recleanOf`).
    pub reclean_problem: Option<String>,
    /// The re-cleans asked of this order, oldest first.
    pub recleans: Vec<RecleanedIn>,
}

impl OrderDetail {
    /// The order of `record` with its M-PESA: its `prompts` (newest first) and the `payments`
    /// matched to it.
    pub fn new(record: &OrderRecord, prompts: &[MpesaPrompt], payments: &[MpesaReceipt]) -> Self {
        let balance = Entry::sum(&record.entries);
        let facts = MoneyFacts {
            balance,
            prompt: prompts.first().cloned(),
            to_check: payments.iter().filter(|p| p.problem.is_some() && p.checked_at.is_none()).count() as i64,
        };
        let original = record.links.of.as_ref().map(|(reference, _)| reference.clone());
        let order =
            AdminOrder::new(&record.order, &record.lines, &record.stops, Some(&facts)).with_reclean_of(original);
        let references = std::iter::once((record.order.id.clone(), record.order.reference.clone())).collect();
        OrderDetail {
            prompts: prompts.iter().map(PromptView::from).collect(),
            payments: payments.iter().map(|payment| MpesaPayment::new(payment, &references)).collect(),
            ledger: record
                .entries
                .iter()
                .map(|entry| LedgerEntryView::new(entry, record.entries.iter().any(|e| e.corrects == Some(entry.id))))
                .collect(),
            history: record.history.iter().map(StatusChangeView::from).collect(),
            taken_by: record.history.first().and_then(|placed| placed.changed_by.clone()),
            reclean_problem: record.links.of.as_ref().map(|(_, problem)| problem.clone()),
            recleans: record.links.recleans.iter().map(RecleanedIn::new).collect(),
            messages: record
                .messages
                .iter()
                .map(|message| OutboxMessageView::new(message, Some(&record.order.reference)))
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
pub struct MessageResent {
    /// The e-mail or text, queued again.
    pub message: OutboxMessageView,
    /// The outbox report after it.
    pub outbox: OutboxReport,
}
