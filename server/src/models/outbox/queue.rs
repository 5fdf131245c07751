//! The worker's side of the outbox: claiming a due row under a lease, renewing it, recording how
//! the attempt ended, and the shared pace of the mail API.

use super::OutboxEmail;
use crate::db::schema::{email_outbox, email_pace};
use crate::db::{DbConnection, write_transaction};
use crate::domain::OutboxStatus;
use diesel::prelude::*;
use time::PrimitiveDateTime;

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

impl OutboxEmail {
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
            .eq_any([OutboxStatus::Pending, OutboxStatus::Blocked])
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
                .set((no_lease, email_outbox::status.eq(OutboxStatus::Sent), email_outbox::sent_at.eq(now)))
                .execute(connection)?,
            Finish::Retry { after, error, blocked } => diesel::update(mine)
                .set((
                    no_lease,
                    email_outbox::status.eq(if *blocked { OutboxStatus::Blocked } else { OutboxStatus::Pending }),
                    email_outbox::next_attempt_at.eq(now + *after),
                    email_outbox::last_error.eq(error),
                ))
                .execute(connection)?,
            Finish::Failed(error) => diesel::update(mine)
                .set((no_lease, email_outbox::status.eq(OutboxStatus::Failed), email_outbox::last_error.eq(error)))
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
