//! Contact messages (spec section 3: collection 'contacts').

use crate::db::schema::contact_messages;
use crate::db::{DbConnection, write_transaction};
use crate::domain::{MessageStatus, ValidContact};
use crate::models::outbox::OutboxMessage;
use crate::models::{Page, implicit_keys};
use diesel::prelude::*;
use diesel::result::{DatabaseErrorKind, Error as DieselError};
use time::PrimitiveDateTime;

/// A stored message.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = contact_messages)]
pub struct ContactMessage {
    /// UUID v4.
    pub id: String,
    /// Full name.
    pub name: String,
    /// E-mail address.
    pub email: String,
    /// `+2547XXXXXXXX`, if given.
    pub phone: Option<String>,
    /// Subject.
    pub subject: String,
    /// Message.
    pub message: String,
    /// 'new' on creation.
    pub status: MessageStatus,
    /// UTC.
    pub created_at: PrimitiveDateTime,
    /// When staff marked it handled, UTC.
    pub handled_at: Option<PrimitiveDateTime>,
    /// Who did.
    pub handled_by: Option<String>,
    /// Recognises the same message sent again within minutes (see [`implicit_keys`]).
    pub dedupe_key: Option<String>,
}

/// What storing a message did.
#[derive(Debug)]
pub enum Stored {
    /// A new message was stored, with its e-mail to staff.
    Created(ContactMessage),
    /// The same message came from the same client minutes ago: this is that one, nothing new.
    Replayed(ContactMessage),
}

impl ContactMessage {
    /// Stores `contact` from `client` with status 'new', and its e-mail to staff (`staff_email`
    /// builds it from the stored row: `notify::email::contact`, which this model does not know),
    /// in one transaction. The same message from the same client within about ten minutes (a
    /// double click, a form sent again) is the one already stored.
    pub fn create(
        connection: &mut DbConnection,
        contact: &ValidContact,
        client: &str,
        staff_email: impl Fn(&ContactMessage) -> OutboxMessage,
        now: PrimitiveDateTime,
    ) -> QueryResult<Stored> {
        match Self::create_once(connection, contact, client, &staff_email, now) {
            // The same message twice at the same moment (PostgreSQL): the loser finds the winner's.
            Err(DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _)) => {
                Self::create_once(connection, contact, client, &staff_email, now)
            }
            other => other,
        }
    }

    fn create_once(
        connection: &mut DbConnection,
        contact: &ValidContact,
        client: &str,
        staff_email: &impl Fn(&ContactMessage) -> OutboxMessage,
        now: PrimitiveDateTime,
    ) -> QueryResult<Stored> {
        let [key, _] = implicit_keys(&contact.fingerprint(client), now);
        write_transaction(connection, |connection| {
            if let Some(earlier) = Self::find_again(connection, contact, client, now)? {
                return Ok(Stored::Replayed(earlier));
            }
            let row = ContactMessage {
                id: crate::db::new_key(),
                name: contact.name.clone(),
                email: contact.email.clone(),
                phone: contact.phone.as_ref().map(|p| p.as_str().to_owned()),
                subject: contact.subject.clone(),
                message: contact.message.clone(),
                status: MessageStatus::New,
                created_at: now,
                handled_at: None,
                handled_by: None,
                dedupe_key: Some(key.clone()),
            };
            diesel::insert_into(contact_messages::table).values(&row).execute(connection)?;
            OutboxMessage::enqueue(connection, &[staff_email(&row)])?;
            Ok(Stored::Created(row))
        })
    }

    /// The message stored minutes ago for this one sent again from the same `client`, read
    /// without writing: a retry is answered from here before any limit counts it.
    pub fn find_again(
        connection: &mut DbConnection,
        contact: &ValidContact,
        client: &str,
        now: PrimitiveDateTime,
    ) -> QueryResult<Option<ContactMessage>> {
        let keys = implicit_keys(&contact.fingerprint(client), now);
        contact_messages::table
            .filter(contact_messages::dedupe_key.eq_any(keys))
            .select(ContactMessage::as_select())
            .first(connection)
            .optional()
    }

    /// How many messages are stored.
    pub fn count(connection: &mut DbConnection) -> QueryResult<i64> {
        contact_messages::table.count().get_result(connection)
    }
}

impl ContactMessage {
    /// A page of messages, newest first, optionally of one status .
    pub fn page(
        connection: &mut DbConnection,
        status: Option<MessageStatus>,
        page: i64,
        page_size: i64,
    ) -> QueryResult<Page<ContactMessage>> {
        let query = || {
            let mut query = contact_messages::table.into_boxed();
            if let Some(status) = status {
                query = query.filter(contact_messages::status.eq(status));
            }
            query
        };
        let total = query().count().get_result(connection)?;
        let items = query()
            .order((contact_messages::created_at.desc(), contact_messages::id.desc()))
            .limit(page_size)
            .offset((page.max(1) - 1) * page_size)
            .select(ContactMessage::as_select())
            .load(connection)?;
        Ok(Page { items, total, more: false })
    }

    /// Marks the message handled (by whom, when) or new again. `None`: no such message.
    pub fn set_status(
        connection: &mut DbConnection,
        id: &str,
        status: MessageStatus,
        by: &str,
        now: PrimitiveDateTime,
    ) -> QueryResult<Option<ContactMessage>> {
        let (at, who) = match status {
            MessageStatus::Handled => (Some(now), Some(by)),
            MessageStatus::New => (None, None),
        };
        let changed = diesel::update(contact_messages::table.find(id))
            .set((
                contact_messages::status.eq(status),
                contact_messages::handled_at.eq(at),
                contact_messages::handled_by.eq(who),
            ))
            .execute(connection)?;
        if changed == 0 {
            return Ok(None);
        }
        contact_messages::table.find(id).select(ContactMessage::as_select()).first(connection).optional()
    }
}
