//! The workers' side of the outbox: claiming a due row of a channel under a lease, renewing it,
//! recording how the attempt ended, and the shared pace of each provider's API.

use super::OutboxMessage;
use crate::db::schema::{outbox, outbox_pace};
use crate::db::{DbConnection, write_transaction};
use crate::domain::{Channel, MessageKind, OutboxStatus};
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

/// The shop's budget of texts for one Nairobi day, as the SMS worker checks it when it claims a
/// text: the texts sent in the day, and those being sent now, never exceed it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DayBudget {
    /// Texts the day may send (`LAUNDRY_SMS_DAILY_BUDGET`).
    pub budget: u32,
    /// The day's first moment, UTC.
    pub start: PrimitiveDateTime,
    /// The next day's first moment, UTC.
    pub end: PrimitiveDateTime,
}

impl DayBudget {
    /// The budget of the Nairobi day `at` falls in.
    pub fn of(budget: u32, at: time::OffsetDateTime) -> Self {
        let (start, end) = crate::domain::schedule::day_bounds(crate::domain::schedule::nairobi_day(at));
        DayBudget { budget, start, end }
    }
}

impl OutboxMessage {
    /// Takes the next due row of `channel` for `owner` until `now + lease`: pending or blocked, due, and not
    /// held by a live lease; rows of a lower [`MessageKind::priority`] first (texts about an order
    /// before replies), then the longest due. On PostgreSQL the row is locked `FOR UPDATE SKIP
    /// LOCKED`, so workers of several instances never take the same row; on SQLite the write lock
    /// does the same.
    ///
    /// With a `budget`, nothing is taken once the texts sent in its day and those leased now reach
    /// it: they wait, in the same order, for the next day (or a larger budget). On PostgreSQL a
    /// lock held to the end of the claim makes the workers of every instance count one at a time.
    pub fn claim(
        connection: &mut DbConnection,
        channel: Channel,
        owner: &str,
        now: PrimitiveDateTime,
        lease: time::Duration,
        budget: Option<DayBudget>,
    ) -> QueryResult<Option<OutboxMessage>> {
        let due = outbox::channel.eq(channel).and(
            outbox::status
                .eq_any([OutboxStatus::Pending, OutboxStatus::Blocked])
                .and(outbox::next_attempt_at.le(now))
                .and(outbox::lease_until.is_null().or(outbox::lease_until.lt(now))),
        );
        let priority = diesel::dsl::sql::<diesel::sql_types::Integer>(&MessageKind::priority_sql());
        let next_due =
            outbox::table.filter(due).order((priority.asc(), outbox::next_attempt_at.asc())).select(outbox::id);
        write_transaction(connection, |connection| {
            if budget.is_some() {
                crate::db::lock_until_commit(connection, &format!("{channel} daily budget"))?;
            }
            let id: Option<String> = match connection {
                DbConnection::Postgres(pg) => next_due.limit(1).for_update().skip_locked().load(pg)?.into_iter().next(),
                // SQLite has one writer at a time, and this transaction holds the write lock.
                DbConnection::Sqlite(sqlite) => next_due.first(sqlite).optional()?,
            };
            let Some(id) = id else { return Ok(None) };
            if let Some(budget) = budget {
                let sent = Self::sent_between(connection, channel, budget.start, budget.end)?;
                let sending: i64 = outbox::table
                    .filter(outbox::channel.eq(channel))
                    .filter(outbox::status.eq_any([OutboxStatus::Pending, OutboxStatus::Blocked]))
                    .filter(outbox::lease_until.ge(now))
                    .count()
                    .get_result(connection)?;
                if sent + sending >= i64::from(budget.budget) {
                    return Ok(None);
                }
            }
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

    /// How many rows of `channel` were sent from `start` to `end` (UTC, the end excluded).
    pub fn sent_between(
        connection: &mut DbConnection,
        channel: Channel,
        start: PrimitiveDateTime,
        end: PrimitiveDateTime,
    ) -> QueryResult<i64> {
        outbox::table
            .filter(outbox::channel.eq(channel))
            .filter(outbox::sent_at.ge(start))
            .filter(outbox::sent_at.lt(end))
            .count()
            .get_result(connection)
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
