//! The workers' side of the outbox: claiming a due row of a channel under a lease, renewing it,
//! recording how the attempt ended, and the shared pace of each provider's API.

use super::OutboxMessage;
use crate::db::schema::{outbox, outbox_pace};
use crate::db::{DbConnection, write_transaction};
use crate::domain::{Channel, OutboxStatus};
use diesel::prelude::*;
use time::PrimitiveDateTime;

/// How a claimed row ends its attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Finish {
    /// Sent; the provider's id of the message, if it gave one (SMS).
    Sent(Option<String>),
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

impl OutboxMessage {
    /// Takes the next due row of `channel` for `owner` until `now + lease`: pending or blocked, due, and not
    /// held by a live lease. On PostgreSQL the row is locked `FOR UPDATE SKIP LOCKED`, so workers
    /// of several instances never take the same row; on SQLite the write lock does the same.
    pub fn claim(
        connection: &mut DbConnection,
        channel: Channel,
        owner: &str,
        now: PrimitiveDateTime,
        lease: time::Duration,
    ) -> QueryResult<Option<OutboxMessage>> {
        let due = outbox::channel.eq(channel).and(
            outbox::status
                .eq_any([OutboxStatus::Pending, OutboxStatus::Blocked])
                .and(outbox::next_attempt_at.le(now))
                .and(outbox::lease_until.is_null().or(outbox::lease_until.lt(now))),
        );
        let next_due = outbox::table.filter(due).order(outbox::next_attempt_at.asc()).select(outbox::id);
        write_transaction(connection, |connection| {
            let id: Option<String> = match connection {
                DbConnection::Postgres(pg) => next_due.limit(1).for_update().skip_locked().load(pg)?.into_iter().next(),
                // SQLite has one writer at a time, and this transaction holds the write lock.
                DbConnection::Sqlite(sqlite) => next_due.first(sqlite).optional()?,
            };
            let Some(id) = id else { return Ok(None) };
            diesel::update(outbox::table.find(&id))
                .set((
                    outbox::lease_owner.eq(owner),
                    outbox::lease_until.eq(now + lease),
                    outbox::attempts.eq(outbox::attempts + 1),
                ))
                .execute(connection)?;
            outbox::table.find(&id).select(OutboxMessage::as_select()).first(connection).optional()
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
        let mine = outbox::table.find(id).filter(outbox::lease_owner.eq(owner));
        let no_lease = (
            outbox::lease_owner.eq(None::<String>),
            outbox::lease_until.eq(None::<PrimitiveDateTime>),
            outbox::last_attempt_at.eq(now),
        );
        let changed = match finish {
            Finish::Sent(provider_id) => diesel::update(mine)
                .set((
                    no_lease,
                    outbox::status.eq(OutboxStatus::Sent),
                    outbox::sent_at.eq(now),
                    outbox::provider_id.eq(provider_id),
                ))
                .execute(connection)?,
            Finish::Retry { after, error, blocked } => diesel::update(mine)
                .set((
                    no_lease,
                    outbox::status.eq(if *blocked { OutboxStatus::Blocked } else { OutboxStatus::Pending }),
                    outbox::next_attempt_at.eq(now + *after),
                    outbox::last_error.eq(error),
                ))
                .execute(connection)?,
            Finish::Failed(error) => diesel::update(mine)
                .set((no_lease, outbox::status.eq(OutboxStatus::Failed), outbox::last_error.eq(error)))
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
        let live = outbox::table.find(id).filter(outbox::lease_owner.eq(owner)).filter(outbox::lease_until.gt(now));
        let changed = diesel::update(live).set(outbox::lease_until.eq(now + lease)).execute(connection)?;
        Ok(changed == 1)
    }

    /// Gives a claimed row back untried (the worker is stopping, say): the attempt does not count.
    pub fn release(connection: &mut DbConnection, id: &str, owner: &str) -> QueryResult<bool> {
        let changed = diesel::update(outbox::table.find(id).filter(outbox::lease_owner.eq(owner)))
            .set((
                outbox::lease_owner.eq(None::<String>),
                outbox::lease_until.eq(None::<PrimitiveDateTime>),
                outbox::attempts.eq(outbox::attempts - 1),
            ))
            .execute(connection)?;
        Ok(changed == 1)
    }
}

/// The shared pace of a provider's API: one row per channel holding the earliest time its next
/// request may go, for every worker of every instance on this database.
#[derive(Debug)]
pub struct Pace;

impl Pace {
    /// Reserves the next slot: the later of `now` and the shared next time, and moves the shared
    /// time `interval` past it. Compare-and-swap, so two workers never get one slot.
    pub fn reserve(
        connection: &mut DbConnection,
        channel: Channel,
        now: PrimitiveDateTime,
        interval: time::Duration,
    ) -> QueryResult<PrimitiveDateTime> {
        loop {
            let next: PrimitiveDateTime =
                outbox_pace::table.find(channel).select(outbox_pace::next_send_at).first(connection)?;
            let slot = next.max(now);
            let swapped = diesel::update(outbox_pace::table.find(channel).filter(outbox_pace::next_send_at.eq(next)))
                .set(outbox_pace::next_send_at.eq(slot + interval))
                .execute(connection)?;
            if swapped == 1 {
                return Ok(slot);
            }
        }
    }

    /// Holds every worker back until at least `until` (the API said 429 with `Retry-After`).
    pub fn hold_until(connection: &mut DbConnection, channel: Channel, until: PrimitiveDateTime) -> QueryResult<()> {
        diesel::update(outbox_pace::table.find(channel).filter(outbox_pace::next_send_at.lt(until)))
            .set(outbox_pace::next_send_at.eq(until))
            .execute(connection)?;
        Ok(())
    }
}
