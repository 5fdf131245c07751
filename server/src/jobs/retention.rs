//! Retention, once a day: the messages in the outbox older than the owner's
//! `LAUNDRY_KEEP_MESSAGES_MONTHS` (12 by default) are summarised for their order (what was sent and
//! when, by which channel) and deleted, a batch at a time, so that the outbox holds what is recent
//! and personal words and numbers do not stay longer than they are needed; staff sessions that
//! ended and sign-in failures past the login limit's window are deleted with them. A message still
//! waiting to be sent is kept whatever its age.
//!
//! One instance does a day's run (`job_runs`, under a lease); a run cut short (a restart) is done
//! again by the next look, which finds what is left.

use super::{JobContext, LEASE, Looking};
use crate::auth::{FAILURE_WINDOW, IDLE_TIMEOUT};
use crate::clock::{NAIROBI, stored};
use crate::db::{DbError, database_clock, write_transaction};
use crate::domain::schedule::nairobi_day;
use crate::models::job_run::{Claim, JobRun};
use crate::models::outbox::OutboxMessage;
use crate::models::staff::{LoginFailures, StaffSession};
use std::sync::{Mutex, PoisonError};
use time::{Date, Month, PrimitiveDateTime, Time};

/// The job's name in `job_runs`.
pub const JOB: &str = "retention";

/// Messages summarised in one transaction.
const BATCH: i64 = 500;

/// The job; `keep_months` is `LAUNDRY_KEEP_MESSAGES_MONTHS` (`None`: keep every message). It
/// remembers the day it found done, so that it does not ask the database again until the next.
#[derive(Debug)]
pub struct Retention {
    keep_months: Option<u32>,
    done: Mutex<Option<Date>>,
}

impl Retention {
    /// The job keeping messages `keep_months` months (`None`: forever).
    pub fn new(keep_months: Option<u32>) -> Self {
        Retention { keep_months, done: Mutex::new(None) }
    }
}

/// Midnight (Nairobi) at the start of the day `months` calendar months before `day` (the 31st
/// of a shorter month is its last day), as a stored UTC time.
pub fn months_before(day: Date, months: u32) -> PrimitiveDateTime {
    let index = day.year() * 12 + i32::from(u8::from(day.month())) - 1 - months as i32;
    let (year, month) =
        (index.div_euclid(12), Month::try_from((index.rem_euclid(12) + 1) as u8).unwrap_or(Month::January));
    let last = time::util::days_in_month(month, year);
    let date = Date::from_calendar_date(year, month, day.day().min(last)).unwrap_or(day);
    stored(date.with_time(Time::MIDNIGHT).assume_offset(NAIROBI))
}

/// What one day's run removed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Removed {
    /// Messages summarised and deleted.
    pub messages: usize,
    /// Staff sessions that had ended.
    pub sessions: usize,
}

/// Does the day's run if it is not done: `None` when another instance holds it or it is done.
pub fn run(
    connection: &mut crate::db::DbConnection,
    keep_months: Option<u32>,
    day: Date,
    owner: &str,
    now: PrimitiveDateTime,
) -> diesel::QueryResult<Option<Removed>> {
    let claimed_at = database_clock(connection)?;
    let lease = time::Duration::try_from(LEASE).unwrap_or(time::Duration::minutes(5));
    match JobRun::claim(connection, JOB, day, owner, claimed_at, lease)? {
        Claim::Claimed => {}
        Claim::Done(_) | Claim::Held(_) => return Ok(None),
    }
    let mut removed = Removed::default();
    if let Some(months) = keep_months {
        let before = months_before(day, months);
        loop {
            let done = OutboxMessage::summarise_before(connection, before, BATCH)?;
            removed.messages += done;
            if done < BATCH as usize {
                break;
            }
        }
    }
    removed.sessions = write_transaction(connection, |c| StaffSession::purge_stale(c, now - IDLE_TIMEOUT, now))?;
    write_transaction(connection, |c| LoginFailures::forget_before(c, now - FAILURE_WINDOW))?;
    let finished_at = database_clock(connection)?;
    JobRun::finish(connection, JOB, day, owner, i32::try_from(removed.messages).unwrap_or(i32::MAX), finished_at)?;
    Ok(Some(removed))
}

impl super::Job for Retention {
    fn name(&self) -> &'static str {
        JOB
    }

    fn run_due<'a>(&'a self, context: &'a JobContext) -> Looking<'a> {
        Box::pin(async move {
            let at = context.clock.now();
            let (day, now, keep, owner) = (nairobi_day(at), stored(at), self.keep_months, context.owner.clone());
            if *self.done.lock().unwrap_or_else(PoisonError::into_inner) == Some(day) {
                return Ok(());
            }
            let removed = context.database.run(move |c| run(c, keep, day, &owner, now).map_err(DbError::from)).await?;
            if let Some(removed) = removed {
                tracing::info!(%day, messages = removed.messages, sessions = removed.sessions, "retention: old messages summarised");
            }
            // Done here or elsewhere; a run another instance held and never finished is caught up
            // the next day (the cutoff finds what was left).
            *self.done.lock().unwrap_or_else(PoisonError::into_inner) = Some(day);
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::{date, datetime};

    #[test]
    fn months_are_counted_on_the_calendar_in_nairobi() {
        // Midnight in Nairobi is 21:00 UTC the day before.
        assert_eq!(months_before(date!(2026 - 11 - 26), 12), datetime!(2025-11-25 21:00));
        assert_eq!(months_before(date!(2026 - 03 - 31), 1), datetime!(2026-02-27 21:00));
        assert_eq!(months_before(date!(2026 - 01 - 15), 3), datetime!(2025-10-14 21:00));
        assert_eq!(months_before(date!(2028 - 03 - 30), 1), datetime!(2028-02-28 21:00));
    }
}
