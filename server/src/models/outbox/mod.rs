//! The outbox of every message, e-mail and SMS: rows written with the order or message they belong
//! to (`notify` words the texts and builds the e-mails), claimed per channel by the outbox workers
//! under a lease ([`queue`]), what staff see of it ([`report`]), and the SMS side: opt-outs, kinds
//! switched off, delivery reports ([`sms`]), and what is kept of old messages ([`retention`]).

mod queue;
mod report;
mod retention;
mod sms;

pub use queue::{DayBudget, Finish, Pace};
pub use report::OutboxSummary;
pub use retention::ArchivedMessage;
pub use sms::{DeliveryReport, Enqueued, MessageSwitch, OVER_LIMIT, OptOut};

use crate::db::DbConnection;
use crate::db::schema::outbox;
use crate::domain::{Channel, Delivery, MessageKind, OutboxStatus};
use diesel::prelude::*;
use serde_json::Value;
use time::PrimitiveDateTime;

/// One message to send: an e-mail or an SMS.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = outbox)]
pub struct OutboxMessage {
    /// UUID v4.
    pub id: String,
    /// E-mail or SMS (the kind's channel).
    pub channel: Channel,
    /// What it is.
    pub kind: MessageKind,
    /// The order it is about.
    pub order_id: Option<String>,
    /// The contact message it is about.
    pub contact_message_id: Option<String>,
    /// The recipient; `None` for staff e-mails (`ADMIN_NOTIFY_EMAIL` when sent).
    pub to_email: Option<String>,
    /// SMS: the recipient, E.164.
    pub to_phone: Option<String>,
    /// E-mail: the template parameters, JSON (without `to_email` for staff e-mails). SMS:
    /// `{"message": …}`, the text as it is sent.
    pub params: String,
    /// Where it stands.
    pub status: OutboxStatus,
    /// Claims so far.
    pub attempts: i32,
    /// Not to be sent before this, UTC.
    pub next_attempt_at: PrimitiveDateTime,
    /// The worker that holds the row.
    pub lease_owner: Option<String>,
    /// Until when it holds it, UTC; after that another worker may take the row.
    pub lease_until: Option<PrimitiveDateTime>,
    /// The last answer or error that was not a success.
    pub last_error: Option<String>,
    /// When the last attempt ended, UTC.
    pub last_attempt_at: Option<PrimitiveDateTime>,
    /// UTC.
    pub created_at: PrimitiveDateTime,
    /// UTC.
    pub sent_at: Option<PrimitiveDateTime>,
    /// SMS: the provider's id of the sent message, which its delivery reports name.
    pub provider_id: Option<String>,
    /// SMS: what the last delivery report said.
    pub delivery: Option<Delivery>,
    /// SMS: the report's words (status, network, failure reason).
    pub delivery_detail: Option<String>,
    /// SMS: when the last delivery report came, UTC.
    pub delivery_at: Option<PrimitiveDateTime>,
    /// At most one row holds a key (the 5:30pm text of an order and day).
    pub dedupe_key: Option<String>,
    /// A text about a moment is not sent after this (UTC): the worker skips it as too late.
    pub send_before: Option<PrimitiveDateTime>,
}

impl OutboxMessage {
    /// A new pending e-mail, due now.
    pub fn new(
        kind: MessageKind,
        order_id: Option<&str>,
        contact_message_id: Option<&str>,
        to_email: Option<&str>,
        params: &Value,
        now: PrimitiveDateTime,
    ) -> Self {
        OutboxMessage {
            id: crate::db::new_key(),
            channel: Channel::Email,
            kind,
            order_id: order_id.map(str::to_owned),
            contact_message_id: contact_message_id.map(str::to_owned),
            to_email: to_email.map(str::to_owned),
            to_phone: None,
            params: params.to_string(),
            status: OutboxStatus::Pending,
            attempts: 0,
            next_attempt_at: now,
            lease_owner: None,
            lease_until: None,
            last_error: None,
            last_attempt_at: None,
            created_at: now,
            sent_at: None,
            provider_id: None,
            delivery: None,
            delivery_detail: None,
            delivery_at: None,
            dedupe_key: None,
            send_before: None,
        }
    }

    /// A new pending SMS of `kind` to `to_phone` (E.164), due now. Write it with
    /// [`OutboxMessage::enqueue_sms`], which honours opt-outs and the kinds staff switched off.
    pub fn sms(
        kind: MessageKind,
        order_id: Option<&str>,
        to_phone: &str,
        text: &str,
        dedupe_key: Option<String>,
        now: PrimitiveDateTime,
    ) -> Self {
        debug_assert_eq!(kind.channel(), Channel::Sms, "{kind:?} is not an SMS kind");
        OutboxMessage {
            channel: Channel::Sms,
            to_phone: Some(to_phone.to_owned()),
            dedupe_key,
            ..Self::new(kind, order_id, None, None, &serde_json::json!({ "message": text }), now)
        }
    }

    /// The same row, not to be sent after `at` (UTC): a text about a moment that would mislead
    /// once it has passed (the 5:30pm ETA, "on the way").
    pub fn until(self, at: PrimitiveDateTime) -> Self {
        OutboxMessage { send_before: Some(at), ..self }
    }

    /// The same row, not sent before `at` (UTC).
    pub fn held_until(self, at: PrimitiveDateTime) -> Self {
        OutboxMessage { next_attempt_at: at, ..self }
    }

    /// The text of an SMS row.
    pub fn sms_text(&self) -> Option<String> {
        let params: Value = serde_json::from_str(&self.params).ok()?;
        params["message"].as_str().map(str::to_owned)
    }

    /// Stores e-mail rows; call it inside the transaction that stores what they are about.
    pub fn enqueue(connection: &mut DbConnection, rows: &[OutboxMessage]) -> QueryResult<()> {
        for row in rows {
            diesel::insert_into(outbox::table).values(row).execute(connection)?;
        }
        Ok(())
    }
}
