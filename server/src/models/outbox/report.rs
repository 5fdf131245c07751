//! What staff see of the outbox: counts, the e-mails that need a look, and sending one again.

use super::OutboxEmail;
use crate::db::DbConnection;
use crate::db::schema::{email_outbox, orders};
use crate::domain::OutboxStatus;
use diesel::prelude::*;
use time::PrimitiveDateTime;

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
    /// Counts by status and the newest error of a row not sent.
    pub fn summary(connection: &mut DbConnection) -> QueryResult<OutboxSummary> {
        let count = |connection: &mut DbConnection, status: OutboxStatus| -> QueryResult<i64> {
            email_outbox::table.filter(email_outbox::status.eq(status)).count().get_result(connection)
        };
        let last_error = email_outbox::table
            .filter(email_outbox::status.ne(OutboxStatus::Sent))
            .filter(email_outbox::last_error.is_not_null())
            .filter(email_outbox::last_attempt_at.is_not_null())
            .order(email_outbox::last_attempt_at.desc())
            .select((email_outbox::last_error.assume_not_null(), email_outbox::last_attempt_at.assume_not_null()))
            .first::<(String, PrimitiveDateTime)>(connection)
            .optional()?;
        Ok(OutboxSummary {
            waiting: count(connection, OutboxStatus::Pending)?,
            failed: count(connection, OutboxStatus::Failed)?,
            blocked: count(connection, OutboxStatus::Blocked)?,
            sent: count(connection, OutboxStatus::Sent)?,
            last_error,
        })
    }

    /// Rows staff should look at: failed, blocked, or pending after a failed attempt; newest first;
    /// each with the order ID of the order it is about.
    pub fn problems(connection: &mut DbConnection, limit: i64) -> QueryResult<Vec<(OutboxEmail, Option<String>)>> {
        email_outbox::table
            .left_join(orders::table.on(orders::id.nullable().eq(email_outbox::order_id)))
            .filter(
                email_outbox::status
                    .eq_any([OutboxStatus::Failed, OutboxStatus::Blocked])
                    .or(email_outbox::last_error.is_not_null().and(email_outbox::status.eq(OutboxStatus::Pending))),
            )
            .order(email_outbox::created_at.desc())
            .limit(limit)
            .select((OutboxEmail::as_select(), orders::reference.nullable()))
            .load(connection)
    }

    /// The order ID (the customers' and staff's, not the database key) of the order `email` is about.
    pub fn order_id_of(connection: &mut DbConnection, email: &OutboxEmail) -> QueryResult<Option<String>> {
        let Some(key) = email.order_id.as_deref() else { return Ok(None) };
        orders::table.find(key).select(orders::reference).first(connection).optional()
    }

    /// Staff send a failed, blocked or waiting row again: pending, due now, attempts from zero.
    /// `None`: no such row, it is sent already, or a worker is sending it right now (its lease
    /// is live; taking it away could send the e-mail twice).
    pub fn resend(connection: &mut DbConnection, id: &str, now: PrimitiveDateTime) -> QueryResult<Option<OutboxEmail>> {
        let idle = email_outbox::table
            .find(id)
            .filter(email_outbox::status.ne(OutboxStatus::Sent))
            .filter(email_outbox::lease_until.is_null().or(email_outbox::lease_until.le(now)));
        let changed = diesel::update(idle)
            .set((
                email_outbox::status.eq(OutboxStatus::Pending),
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
