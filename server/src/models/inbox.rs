//! The staff inbox: every text customers sent to the shop's number (stored by
//! `models::incoming_text`), what it led to, whether staff opened or handled it, and staff's
//! answers. An answer is a text of its own kind ([`MessageKind::SmsAnswer`]) written to the outbox
//! for the text's number, unless that number opted out.

use crate::db::schema::{outbox, sms_answers, sms_incoming};
use crate::db::{DbConnection, write_transaction};
use crate::domain::{AutoReply, InboxStatus, IncomingOutcome, MessageKind, OutboxStatus, SmsLimits};
use crate::models::Page;
use crate::models::order::Order;
use crate::models::outbox::{Enqueued, OptOut, OutboxMessage};
use diesel::prelude::*;
use time::PrimitiveDateTime;

/// One stored text.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = sms_incoming)]
pub struct IncomingRow {
    /// The provider's id.
    pub id: String,
    /// Who sent it, E.164.
    pub from_phone: String,
    /// The number it was sent to.
    pub to_code: String,
    /// What it says.
    pub text: String,
    /// When it came, UTC.
    pub received_at: PrimitiveDateTime,
    /// What it led to.
    pub outcome: IncomingOutcome,
    /// The order it booked or named.
    pub order_id: Option<String>,
    /// What became of the automatic reply.
    pub reply: AutoReply,
    /// Staff's side: new, read, handled.
    pub status: InboxStatus,
    /// Who changed that last.
    pub status_by: Option<String>,
    /// When, UTC.
    pub status_at: Option<PrimitiveDateTime>,
}

/// A staff member's answer to a text.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = sms_answers)]
pub struct Answer {
    /// UUID v4.
    pub id: String,
    /// The text it answers.
    pub incoming_id: String,
    /// The number it went to, E.164.
    pub to_phone: String,
    /// What it says.
    pub text: String,
    /// The staff member's e-mail.
    pub answered_by: String,
    /// When, UTC.
    pub answered_at: PrimitiveDateTime,
    /// The outbox row that carries it.
    pub outbox_id: String,
}

/// A text as the inbox shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct InboxEntry {
    /// The text.
    pub text: IncomingRow,
    /// The order it booked or named; otherwise the number's most recent order, if any.
    pub order: Option<Order>,
    /// Whether the number opted out of texts (it cannot be answered by text).
    pub opted_out: bool,
    /// Staff's answers, oldest first, each with where its text stands in the outbox.
    pub answers: Vec<(Answer, OutboxStatus)>,
}

/// Why an answer was not written.
#[derive(Debug)]
pub enum AnswerError {
    /// No text has that id.
    NotFound,
    /// The number opted out of texts (STOP, or the order page's switch).
    OptedOut,
    /// Staff switched answers off (the kinds of text).
    SwitchedOff,
    /// The number had as many texts in the last hour as one phone may get
    /// (`LAUNDRY_SMS_SERVICE_PER_PHONE_PER_HOUR`); nothing was written.
    OverLimit,
    /// The database failed.
    Database(diesel::result::Error),
}

impl From<diesel::result::Error> for AnswerError {
    fn from(error: diesel::result::Error) -> Self {
        AnswerError::Database(error)
    }
}

/// The inbox's queries and changes.
#[derive(Debug)]
pub struct Inbox;

impl Inbox {
    /// Page `page` of the texts of `status` (all when `None`), newest first.
    pub fn page(
        connection: &mut DbConnection,
        status: Option<InboxStatus>,
        page: i64,
        page_size: i64,
    ) -> QueryResult<Page<InboxEntry>> {
        let query = || {
            let mut query = sms_incoming::table.into_boxed();
            if let Some(status) = status {
                query = query.filter(sms_incoming::status.eq(status));
            }
            query
        };
        let total = query().count().get_result(connection)?;
        let rows: Vec<IncomingRow> = query()
            .order((sms_incoming::received_at.desc(), sms_incoming::id.desc()))
            .limit(page_size)
            .offset((page.max(1) - 1) * page_size)
            .select(IncomingRow::as_select())
            .load(connection)?;
        let items = rows.into_iter().map(|row| Self::entry_of(connection, row)).collect::<QueryResult<_>>()?;
        Ok(Page { items, total, more: false })
    }

    /// The texts nobody opened yet.
    pub fn unread(connection: &mut DbConnection) -> QueryResult<i64> {
        sms_incoming::table.filter(sms_incoming::status.eq(InboxStatus::New)).count().get_result(connection)
    }

    /// One text, as the inbox shows it.
    pub fn entry(connection: &mut DbConnection, id: &str) -> QueryResult<Option<InboxEntry>> {
        let row = sms_incoming::table.find(id).select(IncomingRow::as_select()).first(connection).optional()?;
        row.map(|row| Self::entry_of(connection, row)).transpose()
    }

    fn entry_of(connection: &mut DbConnection, text: IncomingRow) -> QueryResult<InboxEntry> {
        let order = match text.order_id.as_deref() {
            Some(id) => Order::find(connection, id)?,
            None => Order::recent_for_phone(connection, &text.from_phone, 1)?.pop(),
        };
        let opted_out = OptOut::is_opted_out(connection, &text.from_phone)?;
        let answers = sms_answers::table
            .inner_join(outbox::table.on(outbox::id.eq(sms_answers::outbox_id)))
            .filter(sms_answers::incoming_id.eq(&text.id))
            .order((sms_answers::answered_at.asc(), sms_answers::id.asc()))
            .select((Answer::as_select(), outbox::status))
            .load(connection)?;
        Ok(InboxEntry { text, order, opted_out, answers })
    }

    /// Marks the text new, read or handled, by whom and when. `None`: no such text.
    pub fn set_status(
        connection: &mut DbConnection,
        id: &str,
        status: InboxStatus,
        by: &str,
        now: PrimitiveDateTime,
    ) -> QueryResult<Option<InboxEntry>> {
        write_transaction(connection, |connection| {
            let changed = diesel::update(sms_incoming::table.find(id))
                .set((sms_incoming::status.eq(status), sms_incoming::status_by.eq(by), sms_incoming::status_at.eq(now)))
                .execute(connection)?;
            if changed == 0 { Ok(None) } else { Self::entry(connection, id) }
        })
    }

    /// Writes staff's answer `words` (checked by the caller) to the number of text `id`, as an SMS
    /// of its own kind, records who answered and when, and marks the text handled: all or nothing.
    pub fn answer(
        connection: &mut DbConnection,
        id: &str,
        words: &str,
        by: &str,
        limits: &SmsLimits,
        now: PrimitiveDateTime,
    ) -> Result<InboxEntry, AnswerError> {
        write_transaction(connection, |connection| {
            let Some(entry) = Self::entry(connection, id)? else { return Err(AnswerError::NotFound) };
            let phone = entry.text.from_phone.as_str();
            let answer_id = crate::db::new_key();
            let order_id = entry.order.as_ref().map(|order| order.id.as_str());
            let sms = OutboxMessage::sms(
                MessageKind::SmsAnswer,
                order_id,
                phone,
                words,
                Some(format!("answer {answer_id}")),
                now,
            );
            match OutboxMessage::enqueue_sms(connection, &sms, limits)? {
                // Held is only for enqueue_sms_or_hold: not reachable here.
                Enqueued::Written | Enqueued::Held(_) => {}
                Enqueued::OptedOut => return Err(AnswerError::OptedOut),
                Enqueued::SwitchedOff => return Err(AnswerError::SwitchedOff),
                // Refused rather than held: the staff member is told now and may call instead.
                Enqueued::OverLimit => return Err(AnswerError::OverLimit),
                // A new key each time: not reachable; nothing is recorded then.
                Enqueued::AlreadyThere => {
                    return Err(AnswerError::Database(diesel::result::Error::RollbackTransaction));
                }
            }
            let answer = Answer {
                id: answer_id,
                incoming_id: id.to_owned(),
                to_phone: phone.to_owned(),
                text: words.to_owned(),
                answered_by: by.to_owned(),
                answered_at: now,
                outbox_id: sms.id.clone(),
            };
            diesel::insert_into(sms_answers::table).values(&answer).execute(connection)?;
            diesel::update(sms_incoming::table.find(id))
                .set((
                    sms_incoming::status.eq(InboxStatus::Handled),
                    sms_incoming::status_by.eq(by),
                    sms_incoming::status_at.eq(now),
                ))
                .execute(connection)?;
            Self::entry(connection, id)?.ok_or(AnswerError::NotFound)
        })
    }
}
