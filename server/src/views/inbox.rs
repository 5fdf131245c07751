//! What the dashboard's inbox receives: the texts customers sent to the shop's number, what each
//! led to, the customer's order, staff's answers, and how long an answer may be.

use super::time;
use crate::domain::{AutoReply, InboxStatus, IncomingOutcome, OrderStatus, OutboxStatus};
use crate::models::Page;
use crate::models::inbox::InboxEntry;
use serde::Serialize;
use ts_rs::TS;

/// The most SMS segments an answer may take: 459 characters of the GSM alphabet (3 × 153), or
/// 201 when one character is outside it (3 × 67).
pub const ANSWER_SEGMENTS: usize = 3;
/// [`ANSWER_SEGMENTS`] in GSM characters.
pub const ANSWER_GSM_CHARS: usize = ANSWER_SEGMENTS * 153;
/// [`ANSWER_SEGMENTS`] in UCS-2 characters (an emoji takes two).
pub const ANSWER_UNICODE_CHARS: usize = ANSWER_SEGMENTS * 67;

/// How long an answer may be.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AnswerLimit {
    /// SMS segments.
    pub segments: usize,
    /// Characters of the GSM alphabet (letters, digits, common punctuation).
    pub gsm_chars: usize,
    /// Characters when one is outside that alphabet (an emoji, a curly quote).
    pub unicode_chars: usize,
}

impl AnswerLimit {
    /// The limit.
    pub fn new() -> Self {
        AnswerLimit { segments: ANSWER_SEGMENTS, gsm_chars: ANSWER_GSM_CHARS, unicode_chars: ANSWER_UNICODE_CHARS }
    }
}

impl Default for AnswerLimit {
    fn default() -> Self {
        Self::new()
    }
}

/// The customer's order beside a text: the one it booked or named, otherwise the number's latest.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct InboxOrder {
    /// The order ID (8 characters).
    pub reference: String,
    /// Where it stands.
    pub status: OrderStatus,
    /// The customer's name.
    pub customer_name: String,
    /// When it was placed.
    pub created_at: String,
}

/// Staff's answer to a text.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct InboxAnswer {
    /// What it says.
    pub text: String,
    /// The staff member's e-mail.
    pub by: String,
    /// When.
    pub at: String,
    /// Where its text stands in the outbox.
    pub sending: OutboxStatus,
}

/// A text to the shop's number as staff see it.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct InboxText {
    /// The provider's id.
    pub id: String,
    /// Who sent it, E.164.
    pub from: String,
    /// When it came.
    pub received_at: String,
    /// What it says (shown as text, never as HTML).
    pub text: String,
    /// What it led to.
    pub outcome: IncomingOutcome,
    /// That, in words.
    pub outcome_label: String,
    /// What became of the automatic reply.
    pub reply: AutoReply,
    /// That, in words.
    pub reply_label: String,
    /// New (not opened), read, or handled.
    pub status: InboxStatus,
    /// Who changed that last.
    pub status_by: Option<String>,
    /// When.
    pub status_at: Option<String>,
    /// Whether the number opted out of texts: it cannot be answered by text.
    pub opted_out: bool,
    /// The customer's order, if any.
    pub order: Option<InboxOrder>,
    /// Staff's answers, oldest first.
    pub answers: Vec<InboxAnswer>,
}

impl From<&InboxEntry> for InboxText {
    fn from(entry: &InboxEntry) -> Self {
        let text = &entry.text;
        InboxText {
            id: text.id.clone(),
            from: text.from_phone.clone(),
            received_at: time(text.received_at),
            text: text.text.clone(),
            outcome: text.outcome,
            outcome_label: text.outcome.label().to_owned(),
            reply: text.reply,
            reply_label: text.reply.label().to_owned(),
            status: text.status,
            status_by: text.status_by.clone(),
            status_at: text.status_at.map(time),
            opted_out: entry.opted_out,
            order: entry.order.as_ref().map(|order| InboxOrder {
                reference: order.reference.clone(),
                status: order.status,
                customer_name: order.customer_name.clone(),
                created_at: time(order.created_at),
            }),
            answers: entry
                .answers
                .iter()
                .map(|(answer, sending)| InboxAnswer {
                    text: answer.text.clone(),
                    by: answer.answered_by.clone(),
                    at: time(answer.answered_at),
                    sending: *sending,
                })
                .collect(),
        }
    }
}

/// What the inbox list is filtered by; a null status means all.
#[derive(Debug, Clone, Serialize, TS)]
pub struct InboxFilter {
    /// Only this status.
    pub status: Option<InboxStatus>,
}

/// One page of texts, newest first.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct InboxPage {
    /// This page's texts.
    pub items: Vec<InboxText>,
    /// Texts matching the filter, on all pages.
    pub total: i64,
    /// From 1.
    pub page: i64,
    /// Texts per page.
    pub page_size: i64,
    /// The filter.
    pub filter: InboxFilter,
    /// Texts nobody opened yet (all of them, whatever the filter).
    pub unread: i64,
    /// How long an answer may be.
    pub answer_limit: AnswerLimit,
}

impl InboxPage {
    /// Page `number` of `page_size` texts of `status` (all when `None`).
    pub fn new(page: &Page<InboxEntry>, status: Option<InboxStatus>, number: i64, page_size: i64, unread: i64) -> Self {
        InboxPage {
            items: page.items.iter().map(InboxText::from).collect(),
            total: page.total,
            page: number,
            page_size,
            filter: InboxFilter { status },
            unread,
            answer_limit: AnswerLimit::new(),
        }
    }
}

/// The answer to a change of a text (opened, handled, answered).
#[derive(Debug, Clone, Serialize, TS)]
pub struct InboxChanged {
    /// The text as it now is.
    pub text: InboxText,
    /// Texts nobody opened yet.
    pub unread: i64,
}
