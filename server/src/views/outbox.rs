//! The outbox report of the dashboard: what each channel sent, failed or holds, the SMS budget, and
//! a message sent again.

use super::time;
use crate::domain::{Channel, Delivery, MessageKind, OutboxStatus};
use crate::models::outbox::{OutboxMessage, OutboxSummary};
use serde::Serialize;
use ts_rs::TS;

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

/// The answer to 'Send again'.
#[derive(Debug, Clone, Serialize, TS)]
pub struct MessageResent {
    /// The e-mail or text, queued again.
    pub message: OutboxMessageView,
    /// The outbox report after it.
    pub outbox: OutboxReport,
}
