//! The e-mail outbox: rows written with the order or message they belong to, claimed by the mail
//! worker under a lease, and the shared pace of the mail API.

use crate::db::schema::{email_outbox, email_pace};
use crate::db::{DbConnection, write_transaction};
use crate::domain::OrderStatus;
use crate::mail::{EmailKind, params};
use crate::models::contact_message::ContactMessage;
use crate::models::order::Order;
use diesel::prelude::*;
use serde_json::Value;
use time::PrimitiveDateTime;
use uuid::Uuid;

/// Waiting to be sent (also while a worker holds its lease).
pub const PENDING: &str = "pending";
/// Sent: the API answered 200.
pub const SENT: &str = "sent";
/// Given up: refused as it is, or still failing after every retry.
pub const FAILED: &str = "failed";
/// The API refused the account (401, 403, 412): retried slowly, shown to staff.
pub const BLOCKED: &str = "blocked";

/// One e-mail to send.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = email_outbox)]
pub struct OutboxEmail {
    /// UUID v4.
    pub id: String,
    /// See [`EmailKind`].
    pub kind: String,
    /// The order it is about.
    pub order_id: Option<String>,
    /// The contact message it is about.
    pub contact_message_id: Option<String>,
    /// The recipient; `None` for staff e-mails (`ADMIN_NOTIFY_EMAIL` when sent).
    pub to_email: Option<String>,
    /// The template parameters, JSON (without `to_email` for staff e-mails).
    pub params: String,
    /// pending, sent, failed or blocked.
    pub status: String,
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
}

/// How a claimed row ends its attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Finish {
    /// Sent.
    Sent,
    /// Try again after `after`; `blocked` when the account is the problem.
    Retry {
        /// Not before this long after the outcome is stored (by the clock `finish` is given).
        after: time::Duration,
        /// Why.
        error: String,
        /// An account problem (status blocked) rather than a passing one.
        blocked: bool,
    },
    /// Never again (unless staff send it again).
    Failed(String),
}

/// What staff see of the outbox.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct OutboxSummary {
    /// pending rows.
    pub waiting: i64,
    /// failed rows.
    pub failed: i64,
    /// blocked rows.
    pub blocked: i64,
    /// sent rows.
    pub sent: i64,
    /// The newest error of a row that is not sent, and when it happened.
    pub last_error: Option<(String, PrimitiveDateTime)>,
}

impl OutboxEmail {
    /// A new pending row, due now.
    pub fn new(
        kind: EmailKind,
        order_id: Option<&str>,
        contact_message_id: Option<&str>,
        to_email: Option<&str>,
        params: &Value,
        now: PrimitiveDateTime,
    ) -> Self {
        OutboxEmail {
            id: Uuid::new_v4().to_string(),
            kind: kind.as_str().to_owned(),
            order_id: order_id.map(str::to_owned),
            contact_message_id: contact_message_id.map(str::to_owned),
            to_email: to_email.map(str::to_owned),
            params: params.to_string(),
            status: PENDING.to_owned(),
            attempts: 0,
            next_attempt_at: now,
            lease_owner: None,
            lease_until: None,
            last_error: None,
            last_attempt_at: None,
            created_at: now,
            sent_at: None,
        }
    }

    /// The e-mails of a new order (spec section 7): to staff, and to the customer if they gave an
    /// e-mail.
    pub fn for_new_order(order: &Order, now: PrimitiveDateTime) -> Vec<OutboxEmail> {
        let mut emails =
            vec![Self::new(EmailKind::OrderAdmin, Some(&order.id), None, None, &params::order_admin(order), now)];
        if let Some(customer) = params::order_customer(order) {
            emails.push(Self::new(
                EmailKind::OrderCustomer,
                Some(&order.id),
                None,
                order.email.as_deref(),
                &customer,
                now,
            ));
        }
        emails
    }

    /// The e-mail to staff about a new contact message (spec section 7).
    pub fn for_contact(message: &ContactMessage, now: PrimitiveDateTime) -> OutboxEmail {
        Self::new(EmailKind::Contact, None, Some(&message.id), None, &params::contact(message), now)
    }

    /// The customer's e-mail about a status change, if they gave an e-mail.
    pub fn for_status(order: &Order, status: OrderStatus, now: PrimitiveDateTime) -> Option<OutboxEmail> {
        let body = params::order_status(order, status, now)?;
        Some(Self::new(EmailKind::OrderStatus, Some(&order.id), None, order.email.as_deref(), &body, now))
    }

    /// Stores rows; call it inside the transaction that stores what they are about.
    pub fn enqueue(connection: &mut DbConnection, rows: &[OutboxEmail]) -> QueryResult<()> {
        for row in rows {
            diesel::insert_into(email_outbox::table).values(row).execute(connection)?;
        }
        Ok(())
    }

    /// Takes the next due row for `owner` until `now + lease`: pending or blocked, due, and not
    /// held by a live lease. On PostgreSQL the row is locked `FOR UPDATE SKIP LOCKED`, so workers
    /// of several instances never take the same row; on SQLite the write lock does the same.
    pub fn claim(
        connection: &mut DbConnection,
        owner: &str,
        now: PrimitiveDateTime,
        lease: time::Duration,
    ) -> QueryResult<Option<OutboxEmail>> {
        let due = email_outbox::status
            .eq_any([PENDING, BLOCKED])
            .and(email_outbox::next_attempt_at.le(now))
            .and(email_outbox::lease_until.is_null().or(email_outbox::lease_until.lt(now)));
        let next_due =
            email_outbox::table.filter(due).order(email_outbox::next_attempt_at.asc()).select(email_outbox::id);
        write_transaction(connection, |connection| {
            let id: Option<String> = match connection {
                DbConnection::Postgres(pg) => next_due.limit(1).for_update().skip_locked().load(pg)?.into_iter().next(),
                // SQLite has one writer at a time, and this transaction holds the write lock.
                DbConnection::Sqlite(sqlite) => next_due.first(sqlite).optional()?,
            };
            let Some(id) = id else { return Ok(None) };
            diesel::update(email_outbox::table.find(&id))
                .set((
                    email_outbox::lease_owner.eq(owner),
                    email_outbox::lease_until.eq(now + lease),
                    email_outbox::attempts.eq(email_outbox::attempts + 1),
                ))
                .execute(connection)?;
            email_outbox::table.find(&id).select(OutboxEmail::as_select()).first(connection).optional()
        })
    }

    /// Records how the attempt of `owner` ended. False when the lease was lost meanwhile (another
    /// worker took the row after it expired): nothing is changed then.
    pub fn finish(
        connection: &mut DbConnection,
        id: &str,
        owner: &str,
        finish: &Finish,
        now: PrimitiveDateTime,
    ) -> QueryResult<bool> {
        let mine = email_outbox::table.find(id).filter(email_outbox::lease_owner.eq(owner));
        let no_lease = (
            email_outbox::lease_owner.eq(None::<String>),
            email_outbox::lease_until.eq(None::<PrimitiveDateTime>),
            email_outbox::last_attempt_at.eq(now),
        );
        let changed = match finish {
            Finish::Sent => diesel::update(mine)
                .set((no_lease, email_outbox::status.eq(SENT), email_outbox::sent_at.eq(now)))
                .execute(connection)?,
            Finish::Retry { after, error, blocked } => diesel::update(mine)
                .set((
                    no_lease,
                    email_outbox::status.eq(if *blocked { BLOCKED } else { PENDING }),
                    email_outbox::next_attempt_at.eq(now + *after),
                    email_outbox::last_error.eq(error),
                ))
                .execute(connection)?,
            Finish::Failed(error) => diesel::update(mine)
                .set((no_lease, email_outbox::status.eq(FAILED), email_outbox::last_error.eq(error)))
                .execute(connection)?,
        };
        Ok(changed == 1)
    }

    /// Extends the lease of `owner` to `now + lease` if it still holds a live one. False when the
    /// lease ran out (and another worker may have taken the row): the row must not be sent then.
    pub fn renew(
        connection: &mut DbConnection,
        id: &str,
        owner: &str,
        now: PrimitiveDateTime,
        lease: time::Duration,
    ) -> QueryResult<bool> {
        let live = email_outbox::table
            .find(id)
            .filter(email_outbox::lease_owner.eq(owner))
            .filter(email_outbox::lease_until.gt(now));
        let changed = diesel::update(live).set(email_outbox::lease_until.eq(now + lease)).execute(connection)?;
        Ok(changed == 1)
    }

    /// Gives a claimed row back untried (the worker is stopping, say): the attempt does not count.
    pub fn release(connection: &mut DbConnection, id: &str, owner: &str) -> QueryResult<bool> {
        let changed = diesel::update(email_outbox::table.find(id).filter(email_outbox::lease_owner.eq(owner)))
            .set((
                email_outbox::lease_owner.eq(None::<String>),
                email_outbox::lease_until.eq(None::<PrimitiveDateTime>),
                email_outbox::attempts.eq(email_outbox::attempts - 1),
            ))
            .execute(connection)?;
        Ok(changed == 1)
    }

    /// Counts by status and the newest error of a row not sent.
    pub fn summary(connection: &mut DbConnection) -> QueryResult<OutboxSummary> {
        let count = |connection: &mut DbConnection, status: &str| -> QueryResult<i64> {
            email_outbox::table.filter(email_outbox::status.eq(status)).count().get_result(connection)
        };
        let last_error = email_outbox::table
            .filter(email_outbox::status.ne(SENT))
            .filter(email_outbox::last_error.is_not_null())
            .filter(email_outbox::last_attempt_at.is_not_null())
            .order(email_outbox::last_attempt_at.desc())
            .select((email_outbox::last_error.assume_not_null(), email_outbox::last_attempt_at.assume_not_null()))
            .first::<(String, PrimitiveDateTime)>(connection)
            .optional()?;
        Ok(OutboxSummary {
            waiting: count(connection, PENDING)?,
            failed: count(connection, FAILED)?,
            blocked: count(connection, BLOCKED)?,
            sent: count(connection, SENT)?,
            last_error,
        })
    }

    /// Rows staff should look at: failed, blocked, or pending after a failed attempt; newest first.
    pub fn problems(connection: &mut DbConnection, limit: i64) -> QueryResult<Vec<OutboxEmail>> {
        email_outbox::table
            .filter(
                email_outbox::status
                    .eq_any([FAILED, BLOCKED])
                    .or(email_outbox::last_error.is_not_null().and(email_outbox::status.eq(PENDING))),
            )
            .order(email_outbox::created_at.desc())
            .limit(limit)
            .select(OutboxEmail::as_select())
            .load(connection)
    }

    /// Staff send a failed, blocked or waiting row again: pending, due now, attempts from zero.
    /// `None`: no such row, it is sent already, or a worker is sending it right now (its lease
    /// is live; taking it away could send the e-mail twice).
    pub fn resend(connection: &mut DbConnection, id: &str, now: PrimitiveDateTime) -> QueryResult<Option<OutboxEmail>> {
        let idle = email_outbox::table
            .find(id)
            .filter(email_outbox::status.ne(SENT))
            .filter(email_outbox::lease_until.is_null().or(email_outbox::lease_until.le(now)));
        let changed = diesel::update(idle)
            .set((
                email_outbox::status.eq(PENDING),
                email_outbox::attempts.eq(0),
                email_outbox::next_attempt_at.eq(now),
                email_outbox::lease_owner.eq(None::<String>),
                email_outbox::lease_until.eq(None::<PrimitiveDateTime>),
            ))
            .execute(connection)?;
        if changed == 0 {
            return Ok(None);
        }
        email_outbox::table.find(id).select(OutboxEmail::as_select()).first(connection).optional()
    }

    /// Every row, oldest first (tests, and the worker's start-up count).
    pub fn all(connection: &mut DbConnection) -> QueryResult<Vec<OutboxEmail>> {
        email_outbox::table
            .order((email_outbox::created_at.asc(), email_outbox::id.asc()))
            .select(OutboxEmail::as_select())
            .load(connection)
    }
}

/// The shared pace of the mail API: one row holding the earliest time the next request may go,
/// for every worker of every instance on this database.
#[derive(Debug)]
pub struct Pace;

impl Pace {
    /// Reserves the next slot: the later of `now` and the shared next time, and moves the shared
    /// time `interval` past it. Compare-and-swap, so two workers never get one slot.
    pub fn reserve(
        connection: &mut DbConnection,
        now: PrimitiveDateTime,
        interval: time::Duration,
    ) -> QueryResult<PrimitiveDateTime> {
        loop {
            let next: PrimitiveDateTime =
                email_pace::table.find(1).select(email_pace::next_send_at).first(connection)?;
            let slot = next.max(now);
            let swapped = diesel::update(email_pace::table.find(1).filter(email_pace::next_send_at.eq(next)))
                .set(email_pace::next_send_at.eq(slot + interval))
                .execute(connection)?;
            if swapped == 1 {
                return Ok(slot);
            }
        }
    }

    /// Holds every worker back until at least `until` (the API said 429 with `Retry-After`).
    pub fn hold_until(connection: &mut DbConnection, until: PrimitiveDateTime) -> QueryResult<()> {
        diesel::update(email_pace::table.find(1).filter(email_pace::next_send_at.lt(until)))
            .set(email_pace::next_send_at.eq(until))
            .execute(connection)?;
        Ok(())
    }
}
