//! The 5:30pm text: from 17:30 Nairobi, every customer with a pickup that evening gets one SMS with
//! a 30-minute window for the valet, the same ETA the order's page shows
//! ([`crate::domain::schedule::eta`] from the stop's place in its run).
//!
//! Exactly once per order and day: one instance claims the day's run (`job_runs`, under a lease)
//! and writes every text and marks the run done in one transaction; each text carries the
//! `dedupe_key` `eta:{order}:{day}`, which the outbox holds once, whatever races or restarts happen.
//! A server that was down at 17:30 runs it when it comes back, for the windows not yet over;
//! nothing is written before 17:30, and never for another day than the clock's.

use super::{JobContext, LEASE, Looking};
use crate::clock::{NAIROBI, stored};
use crate::db::{DbConnection, database_clock, write_transaction};
use crate::domain::MessageKind;
use crate::domain::schedule::{Eta, RunPosition, eta, nairobi_minute};
use crate::models::job_run::{Claim, JobRun};
use crate::models::outbox::{Enqueued, OutboxMessage};
use crate::models::stop::Stop;
use crate::notify::texts::Texts;
use diesel::QueryResult;
use std::sync::{Mutex, PoisonError};
use time::{Date, OffsetDateTime, PrimitiveDateTime};

/// The job's name in `job_runs`.
pub const JOB: &str = "eta-texts";

/// 17:30, in minutes after Nairobi's midnight.
pub const SENDS_AT: u16 = 17 * 60 + 30;

/// What one call of [`run`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EtaRun {
    /// Before 17:30: nothing to do yet.
    NotYet,
    /// This call wrote the day's texts.
    Wrote {
        /// The Nairobi day.
        day: Date,
        /// What became of each pickup's text.
        counts: EtaCounts,
    },
    /// The day's run was done already (by this instance or another, before a restart or not).
    AlreadyDone {
        /// The Nairobi day.
        day: Date,
        /// What that run wrote.
        written: i32,
    },
    /// Another instance holds the day's run now.
    HeldElsewhere {
        /// The Nairobi day.
        day: Date,
        /// Its lease owner.
        by: String,
    },
    /// The claim ran out before the texts were stored: nothing was written; the new holder does it.
    LeaseLost {
        /// The Nairobi day.
        day: Date,
    },
}

/// The day's texts, counted by what became of them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EtaCounts {
    /// Written to the outbox.
    pub written: i32,
    /// Not written: the number opted out of texts.
    pub opted_out: i32,
    /// Not written: staff switched the 5:30pm text off.
    pub switched_off: i32,
    /// Not written: the order had its text for the day already.
    pub already_there: i32,
    /// Written as not sent: the phone had as many texts in the last hour as its limit allows.
    pub over_limit: i32,
    /// Pickups in no valet's run yet, whose window is a guess (see [`pickup_eta`]).
    pub not_in_a_run: i32,
}

/// Writes the 5:30pm texts of the day of `now` (by the job's clock), once: before 17:30 it does
/// nothing; from 17:30 it claims the day's run for `owner` and, if it got it, writes a text for each
/// pickup of that evening whose window has not ended, and marks the run done, in one transaction.
/// Safe to call from several threads and instances at once. The rows are stamped with the
/// database's clock, which the outbox workers go by.
pub fn run(
    connection: &mut DbConnection,
    now: OffsetDateTime,
    owner: &str,
    texts: &Texts,
    minutes_per_stop: u16,
) -> QueryResult<EtaRun> {
    let Some(day) = due_day(now) else { return Ok(EtaRun::NotYet) };
    let minute = nairobi_minute(now);
    let lease = time::Duration::try_from(LEASE).unwrap_or(time::Duration::MINUTE * 5);
    let claimed_at = database_clock(connection)?;
    match JobRun::claim(connection, JOB, day, owner, claimed_at, lease)? {
        Claim::Claimed => {}
        Claim::Done(written) => return Ok(EtaRun::AlreadyDone { day, written }),
        Claim::Held(by) => return Ok(EtaRun::HeldElsewhere { day, by }),
    }
    let stored = write_transaction(connection, |connection| {
        let stamp = database_clock(connection)?;
        if !JobRun::still_held(connection, JOB, day, owner, stamp)? {
            return Ok(None);
        }
        let counts = write_texts(connection, day, minute, (stamp, stored(now)), texts, minutes_per_stop)?;
        JobRun::finish(connection, JOB, day, owner, counts.written, stamp)?;
        Ok(Some(counts))
    });
    match stored {
        Ok(Some(counts)) => Ok(EtaRun::Wrote { day, counts }),
        Ok(None) => Ok(EtaRun::LeaseLost { day }),
        Err(error) => {
            // Nothing was written; let the next look (here or elsewhere) try at once.
            let _ = JobRun::release(connection, JOB, day, owner);
            Err(error)
        }
    }
}

/// The Nairobi day whose texts are due at `now`: that day from 17:30 to midnight, none before.
pub fn due_day(now: OffsetDateTime) -> Option<Date> {
    (nairobi_minute(now) >= SENDS_AT).then(|| now.to_offset(NAIROBI).date())
}

/// One text per open pickup of `day` whose window ends after `minute`, each once per order and day.
fn write_texts(
    connection: &mut DbConnection,
    day: Date,
    minute: u16,
    (stamp, now): (PrimitiveDateTime, PrimitiveDateTime),
    texts: &Texts,
    minutes_per_stop: u16,
) -> QueryResult<EtaCounts> {
    let pickups = Stop::open_pickups_ending_after(connection, day, minute)?;
    let mut counts = EtaCounts::default();
    for (index, (stop, order)) in pickups.iter().enumerate() {
        let position = stop.run_position(connection)?;
        if position.is_none() {
            counts.not_in_a_run += 1;
        }
        // Pickups of the same window in no run, booked before this one (the list is in that order).
        let unplanned_before = pickups[..index]
            .iter()
            .filter(|(other, _)| other.window_start == stop.window_start && other.run_position.is_none())
            .count();
        let eta = pickup_eta(stop, position, unplanned_before, minutes_per_stop).not_before(minute);
        let text = texts.eta(order, eta);
        let key = format!("eta:{}:{day}", order.id);
        // Not sent once the window it names has ended (an account out of credit until the morning):
        // the minutes left until then, on the job's clock (the one the worker judges "too late" by).
        let left = time::Duration::minutes(i64::from(eta.end.saturating_sub(minute)));
        let sms = OutboxMessage::sms(MessageKind::SmsEta, Some(&order.id), &order.phone, &text, Some(key), stamp)
            .until(now + left);
        match OutboxMessage::enqueue_sms(connection, &sms, &texts.limits)? {
            // Held is only for staff's own texts (enqueue_sms_or_hold): not these.
            Enqueued::Written | Enqueued::Held(_) => counts.written += 1,
            Enqueued::OptedOut => counts.opted_out += 1,
            Enqueued::SwitchedOff => counts.switched_off += 1,
            Enqueued::AlreadyThere => counts.already_there += 1,
            Enqueued::OverLimit => counts.over_limit += 1,
        }
    }
    Ok(counts)
}

/// The ETA of a pickup: from its place in its valet's run, as the order's page shows it; for a
/// pickup staff have not put in a run yet, as if one valet took its window's unplanned pickups in
/// the order they were booked (`unplanned_before` of them first), kept inside its window.
pub fn pickup_eta(stop: &Stop, position: Option<RunPosition>, unplanned_before: usize, minutes_per_stop: u16) -> Eta {
    match position {
        Some(position) => eta(position, minutes_per_stop),
        None => {
            let window = stop.slot().window;
            let queued = RunPosition {
                window,
                run_start: window.start,
                stops_before: u16::try_from(unplanned_before).unwrap_or(u16::MAX),
                windows_before: Vec::new(),
                last_progress: None,
            };
            eta(queued, minutes_per_stop).within(window)
        }
    }
}

/// The scheduled job: looks every poll, writes the day's texts once, and remembers a day that is
/// done so that it does not ask the database again until the next day.
#[derive(Debug, Default)]
pub struct EtaTexts {
    done: Mutex<Option<Date>>,
}

impl super::Job for EtaTexts {
    fn name(&self) -> &'static str {
        JOB
    }

    fn run_due<'a>(&'a self, context: &'a JobContext) -> Looking<'a> {
        Box::pin(async move {
            let now = context.clock.now();
            let Some(day) = due_day(now) else { return Ok(()) };
            if *self.done.lock().unwrap_or_else(PoisonError::into_inner) == Some(day) {
                return Ok(());
            }
            let (owner, texts) = (context.owner.clone(), context.texts.clone());
            let minutes_per_stop = context.schedule.minutes_per_stop;
            let outcome = context
                .database
                .run(move |c| run(c, now, &owner, &texts, minutes_per_stop).map_err(crate::db::DbError::from))
                .await?;
            match outcome {
                EtaRun::NotYet => {}
                EtaRun::Wrote { day, counts } => {
                    tracing::info!(
                        job = JOB,
                        %day,
                        written = counts.written,
                        opted_out = counts.opted_out,
                        switched_off = counts.switched_off,
                        already_there = counts.already_there,
                        over_limit = counts.over_limit,
                        not_in_a_run = counts.not_in_a_run,
                        "the 5:30pm ETA texts are in the outbox"
                    );
                    if counts.written > 0 {
                        context.wake_outbox();
                    }
                    *self.done.lock().unwrap_or_else(PoisonError::into_inner) = Some(day);
                }
                EtaRun::AlreadyDone { day, written } => {
                    tracing::debug!(job = JOB, %day, written, "the 5:30pm ETA texts were written already");
                    *self.done.lock().unwrap_or_else(PoisonError::into_inner) = Some(day);
                }
                EtaRun::HeldElsewhere { day, by } => {
                    tracing::debug!(job = JOB, %day, holder = %by, "another instance is writing the 5:30pm ETA texts");
                }
                EtaRun::LeaseLost { day } => {
                    tracing::warn!(job = JOB, %day, "the claim on the 5:30pm ETA texts ran out before they were stored; left to its new holder");
                }
            }
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::domain::StopState;
    use time::macros::{date, datetime};

    fn pickup(start: u16, end: u16) -> Stop {
        let at = datetime!(2026-11-25 09:00);
        Stop {
            id: "s".to_owned(),
            order_id: "o".to_owned(),
            kind: crate::domain::StopKind::Pickup,
            day: date!(2026 - 11 - 25),
            window_start: i32::from(start),
            window_end: i32::from(end),
            state: StopState::Planned,
            valet_id: None,
            run_position: None,
            confirmed_at: None,
            confirmed_by: None,
            on_the_way_at: None,
            done_at: None,
            created_at: at,
            missed_reason: None,
            missed_at: None,
            missed_by: None,
        }
    }

    #[test]
    fn the_texts_are_due_from_half_past_five_in_nairobi_until_midnight() {
        // 14:29 UTC is 17:29 in Nairobi.
        assert_eq!(due_day(datetime!(2026-11-25 14:29:59 UTC)), None);
        assert_eq!(due_day(datetime!(2026-11-25 14:30:00 UTC)), Some(date!(2026 - 11 - 25)));
        assert_eq!(due_day(datetime!(2026-11-25 20:59:59 UTC)), Some(date!(2026 - 11 - 25)));
        // 21:00 UTC is midnight in Nairobi: the next day, hours before its own 17:30.
        assert_eq!(due_day(datetime!(2026-11-25 21:00:00 UTC)), None);
        assert_eq!(due_day(datetime!(2026-11-25 17:30:00 +3)), Some(date!(2026 - 11 - 25)));
    }

    #[test]
    fn a_pickup_in_a_run_gets_the_run_eta_and_one_in_no_run_queues_inside_its_window() {
        let stop = pickup(19 * 60, 20 * 60);
        let position = RunPosition {
            window: stop.slot().window,
            run_start: 19 * 60,
            stops_before: 2,
            windows_before: Vec::new(),
            last_progress: None,
        };
        assert_eq!(pickup_eta(&stop, Some(position.clone()), 0, 15).to_string(), "19:30-20:00");
        assert_eq!(pickup_eta(&stop, Some(position.clone()), 0, 15), eta(position, 15), "the order page's ETA");
        assert_eq!(pickup_eta(&stop, None, 0, 15).to_string(), "19:00-19:30");
        assert_eq!(pickup_eta(&stop, None, 1, 15).to_string(), "19:15-19:45");
        assert_eq!(pickup_eta(&stop, None, 7, 15).to_string(), "19:30-20:00", "never past the window");
    }
}
