//! What staff see of the outbox: counts per channel, the messages that need a look (a text the
//! network did not deliver among them), and sending one again.

use super::OutboxMessage;
use super::sms::OVER_LIMIT;
use crate::db::DbConnection;
use crate::db::schema::{orders, outbox, outbox_totals};
use crate::domain::{Channel, Delivery, OutboxStatus, TextEnum};
use diesel::prelude::*;
use time::PrimitiveDateTime;

/// What staff see of one channel of the outbox.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct OutboxSummary {
    /// pending rows.
    pub waiting: i64,
    /// failed rows.
    pub failed: i64,
    /// blocked rows.
    pub blocked: i64,
    /// sent rows (those reported undelivered among them).
    pub sent: i64,
    /// skipped rows: texts to a number that opted out, of a kind switched off, or held back by a
    /// limit per phone.
    pub skipped: i64,
    /// SMS: sent rows the network reported not delivered.
    pub undelivered: i64,
    /// The newest problem: the error of a row not sent, or the report of a text not delivered
    /// (`Not delivered: …`), and when it happened.
    pub last_error: Option<(String, PrimitiveDateTime)>,
}

impl OutboxMessage {
    /// A channel's counts by status and its newest problem.
    pub fn summary(connection: &mut DbConnection, channel: Channel) -> QueryResult<OutboxSummary> {
        // Kept by triggers as rows change (migration `2026-12-01-000002_outbox_totals`): the same
        // two small reads at 100 messages and at a million.
        let counts = Self::kept_counts(connection, channel)?;
        let of =
            |status: OutboxStatus| counts.iter().find(|(s, _, _)| *s == status).map_or((0, 0), |(_, n, u)| (*n, *u));
        let count = |status: OutboxStatus| of(status).0;
        let undelivered = of(OutboxStatus::Sent).1;
        let unsent = outbox::table
            .filter(outbox::channel.eq(channel))
            // The statuses not sent nor skipped, named: the index (channel, status, last attempt)
            // then reaches them without passing over the sent ones.
            .filter(outbox::status.eq_any([OutboxStatus::Pending, OutboxStatus::Failed, OutboxStatus::Blocked]))
            .filter(outbox::last_error.is_not_null())
            .filter(outbox::last_attempt_at.is_not_null())
            .order(outbox::last_attempt_at.desc())
            .select((outbox::last_error.assume_not_null(), outbox::last_attempt_at.assume_not_null()))
            .first::<(String, PrimitiveDateTime)>(connection)
            .optional()?;
        let not_delivered = outbox::table
            .filter(outbox::channel.eq(channel))
            .filter(outbox::status.eq(OutboxStatus::Sent))
            .filter(outbox::delivery.eq(Delivery::Failed))
            .filter(outbox::delivery_at.is_not_null())
            .order(outbox::delivery_at.desc())
            .select((outbox::delivery_detail, outbox::delivery_at.assume_not_null()))
            .first::<(Option<String>, PrimitiveDateTime)>(connection)
            .optional()?
            .map(|(detail, at)| (format!("Not delivered: {}", detail.unwrap_or_else(|| "Failed".to_owned())), at));
        let last_error = match (unsent, not_delivered) {
            (Some(unsent), Some(report)) => Some(if report.1 > unsent.1 { report } else { unsent }),
            (unsent, report) => unsent.or(report),
        };
        Ok(OutboxSummary {
            waiting: count(OutboxStatus::Pending),
            failed: count(OutboxStatus::Failed),
            blocked: count(OutboxStatus::Blocked),
            sent: count(OutboxStatus::Sent),
            skipped: count(OutboxStatus::Skipped),
            undelivered,
            last_error,
        })
    }

    /// The counts [`OutboxMessage::summary`] reads, counted from every row instead: what the kept
    /// totals must equal. `(status, messages, undelivered)` for every status, in
    /// [`OutboxStatus::ALL`]'s order.
    pub fn recount(connection: &mut DbConnection, channel: Channel) -> QueryResult<Vec<(OutboxStatus, i64, i64)>> {
        let all: Vec<(OutboxStatus, Option<Delivery>)> = outbox::table
            .filter(outbox::channel.eq(channel))
            .select((outbox::status, outbox::delivery))
            .load(connection)?;
        Ok(every_status(|status| {
            let rows = all.iter().filter(|(s, _)| *s == status);
            (rows.clone().count() as i64, rows.filter(|(_, d)| *d == Some(Delivery::Failed)).count() as i64)
        }))
    }

    /// The kept counts of `channel`: `(status, messages, undelivered)` for every status, in
    /// [`OutboxStatus::ALL`]'s order (see [`OutboxMessage::recount`]).
    pub fn kept_counts(connection: &mut DbConnection, channel: Channel) -> QueryResult<Vec<(OutboxStatus, i64, i64)>> {
        let kept: Vec<(OutboxStatus, i64, i64)> = outbox_totals::table
            .filter(outbox_totals::channel.eq(channel))
            .select((outbox_totals::status, outbox_totals::messages, outbox_totals::undelivered))
            .load(connection)?;
        Ok(every_status(|status| {
            kept.iter()
                .find(|(s, _, _)| *s == status)
                .map_or((0, 0), |(_, messages, undelivered)| (*messages, *undelivered))
        }))
    }

    /// Rows staff should look at: failed, blocked, pending after a failed attempt, held back by a
    /// limit per phone, or sent but reported undelivered; newest first; each with the order ID of
    /// the order it is about. Each kind is looked up by its own index (channel and status first)
    /// and the newest `limit` of them kept: one query OR-ing them would read every message ever
    /// sent.
    pub fn problems(connection: &mut DbConnection, limit: i64) -> QueryResult<Vec<(OutboxMessage, Option<String>)>> {
        let channels = [Channel::Email, Channel::Sms];
        let newest = || {
            outbox::table
                .left_join(orders::table.on(orders::id.nullable().eq(outbox::order_id)))
                .filter(outbox::channel.eq_any(channels))
                .order(outbox::created_at.desc())
                .limit(limit)
                .select((OutboxMessage::as_select(), orders::reference.nullable()))
                .into_boxed()
        };
        let mut rows: Vec<(OutboxMessage, Option<String>)> =
            newest().filter(outbox::status.eq_any([OutboxStatus::Failed, OutboxStatus::Blocked])).load(connection)?;
        rows.extend(
            newest()
                .filter(outbox::status.eq(OutboxStatus::Pending))
                .filter(outbox::last_error.is_not_null())
                .load(connection)?,
        );
        rows.extend(
            newest()
                .filter(outbox::status.eq(OutboxStatus::Skipped))
                // Starting with OVER_LIMIT, as a range the index `outbox_skipped` answers.
                .filter(outbox::last_error.ge(OVER_LIMIT))
                .filter(outbox::last_error.lt(format!("{OVER_LIMIT}\u{10FFFF}")))
                .load(connection)?,
        );
        // Reported undelivered, whatever its status (only a sent text is reported on).
        rows.extend(
            newest()
                .filter(outbox::status.eq_any(OutboxStatus::ALL))
                .filter(outbox::delivery.eq(Delivery::Failed))
                .filter(outbox::status.ne_all([OutboxStatus::Failed, OutboxStatus::Blocked]))
                .load(connection)?,
        );
        rows.sort_by(|(a, _), (b, _)| b.created_at.cmp(&a.created_at).then_with(|| b.id.cmp(&a.id)));
        rows.dedup_by(|(a, _), (b, _)| a.id == b.id);
        rows.truncate(usize::try_from(limit).unwrap_or(0));
        Ok(rows)
    }

    /// The order ID (the customers' and staff's, not the database key) of the order `message` is about.
    pub fn order_id_of(connection: &mut DbConnection, message: &OutboxMessage) -> QueryResult<Option<String>> {
        let Some(key) = message.order_id.as_deref() else { return Ok(None) };
        orders::table.find(key).select(orders::reference).first(connection).optional()
    }

    /// Staff send a failed, blocked, skipped or waiting row, or a text reported undelivered, again:
    /// pending, due now, attempts from zero, the old delivery report forgotten. `None`: no such
    /// row, it is sent (and not reported undelivered), or a worker is sending it right now (its
    /// lease is live; taking it away could send the message twice).
    pub fn resend(
        connection: &mut DbConnection,
        id: &str,
        now: PrimitiveDateTime,
    ) -> QueryResult<Option<OutboxMessage>> {
        let idle = outbox::table
            .find(id)
            .filter(outbox::status.ne(OutboxStatus::Sent).or(outbox::delivery.eq(Delivery::Failed)))
            .filter(outbox::lease_until.is_null().or(outbox::lease_until.le(now)));
        let changed = diesel::update(idle)
            .set((
                outbox::status.eq(OutboxStatus::Pending),
                outbox::attempts.eq(0),
                outbox::next_attempt_at.eq(now),
                outbox::lease_owner.eq(None::<String>),
                outbox::lease_until.eq(None::<PrimitiveDateTime>),
                outbox::sent_at.eq(None::<PrimitiveDateTime>),
                outbox::provider_id.eq(None::<String>),
                outbox::delivery.eq(None::<Delivery>),
                outbox::delivery_detail.eq(None::<String>),
                outbox::delivery_at.eq(None::<PrimitiveDateTime>),
            ))
            .execute(connection)?;
        if changed == 0 {
            return Ok(None);
        }
        outbox::table.find(id).select(OutboxMessage::as_select()).first(connection).optional()
    }

    /// When the oldest message of `channel` still waiting to be sent was written (the metrics; by
    /// the index on `(channel, status, …)`: the waiting ones only).
    pub fn oldest_waiting(connection: &mut DbConnection, channel: Channel) -> QueryResult<Option<PrimitiveDateTime>> {
        outbox::table
            .filter(outbox::channel.eq(channel))
            .filter(outbox::status.eq(OutboxStatus::Pending))
            .select(diesel::dsl::min(outbox::created_at))
            .first(connection)
    }

    /// Every row, oldest first (tests, and the worker's start-up count).
    pub fn all(connection: &mut DbConnection) -> QueryResult<Vec<OutboxMessage>> {
        outbox::table
            .order((outbox::created_at.asc(), outbox::id.asc()))
            .select(OutboxMessage::as_select())
            .load(connection)
    }
}

/// `(status, messages, undelivered)` for every status, in [`OutboxStatus::ALL`]'s order.
fn every_status(count: impl Fn(OutboxStatus) -> (i64, i64)) -> Vec<(OutboxStatus, i64, i64)> {
    OutboxStatus::ALL
        .iter()
        .map(|&status| {
            let (messages, undelivered) = count(status);
            (status, messages, undelivered)
        })
        .collect()
}
