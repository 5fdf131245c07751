//! Time: the one [`Clock`] the server goes by, UTC as the database stores it, RFC 3339 for JSON, and
//! Nairobi's calendar. Kenya keeps East Africa Time, UTC+3, all year (no daylight saving).
//!
//! Nothing else reads the system's time (see docs/time.md): handlers take it from the state's clock
//! (`state.now()`), models are given `now`, jobs and workers hold a clone of the clock. Measuring a
//! duration or a timeout with `std::time::Instant` is not reading the time, and stays as it is.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;
use time::{OffsetDateTime, PrimitiveDateTime, UtcOffset, macros::offset};

/// East Africa Time.
pub const NAIROBI: UtcOffset = offset!(+3);

/// A stored UTC time as Nairobi's date and time, as the e-mails show them: `22 Nov 2026`, `14:05`.
pub fn nairobi_date_time(utc: PrimitiveDateTime) -> (String, String) {
    let local = utc.assume_utc().to_offset(NAIROBI);
    let month = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        [usize::from(u8::from(local.month())) - 1];
    (format!("{} {month} {}", local.day(), local.year()), format!("{:02}:{:02}", local.hour(), local.minute()))
}

/// A moment as stored in `TIMESTAMP` columns: UTC, without its offset, to the microsecond. Both
/// backends keep microseconds, so what is stored reads back equal, and orders placed one after the
/// other sort in the order they were placed ("newest first").
pub fn stored(at: OffsetDateTime) -> PrimitiveDateTime {
    let at = at.to_offset(time::UtcOffset::UTC);
    let at = at.replace_microsecond(at.microsecond()).unwrap_or(at);
    PrimitiveDateTime::new(at.date(), at.time())
}

/// A stored UTC time as RFC 3339 (`2026-11-22T17:30:00.123456Z`).
pub fn rfc3339(at: PrimitiveDateTime) -> String {
    at.assume_utc().format(&time::format_description::well_known::Rfc3339).unwrap_or_default()
}

/// The time the server goes by: when an order was placed, which day it is in Nairobi, whether it
/// is 17:30 yet. The system's in production; in tests a time the test sets and moves, shared by
/// every clone (and so by every server instance given one), so that a test can make it 17:30
/// without waiting for it, or stamp a moment it knows.
#[derive(Clone, Default)]
pub struct Clock {
    set: Option<Arc<Mutex<Setting>>>,
}

/// A clock a test set: the moment it was set to, and, for a running clock, when.
#[derive(Clone, Copy)]
struct Setting {
    at: OffsetDateTime,
    running_since: Option<Instant>,
}

impl Setting {
    fn now(&self) -> OffsetDateTime {
        match self.running_since {
            Some(since) => self.at + since.elapsed(),
            None => self.at,
        }
    }

    fn moved_to(&self, at: OffsetDateTime) -> Self {
        Self { at, running_since: self.running_since.map(|_| Instant::now()) }
    }
}

impl Clock {
    /// The system's clock.
    pub fn system() -> Self {
        Self { set: None }
    }

    /// A clock that stands at `at` until it is [`set`](Clock::set) or [`advance`](Clock::advance)d.
    pub fn stopped_at(at: OffsetDateTime) -> Self {
        Self::with(Setting { at, running_since: None })
    }

    /// A clock that reads `at` now and goes on at the system clock's pace from there; [`set`] and
    /// [`advance`] move it, and it runs on from where it was moved to.
    ///
    /// [`set`]: Clock::set
    /// [`advance`]: Clock::advance
    pub fn running_from(at: OffsetDateTime) -> Self {
        Self::with(Setting { at, running_since: Some(Instant::now()) })
    }

    fn with(setting: Setting) -> Self {
        Self { set: Some(Arc::new(Mutex::new(setting))) }
    }

    /// Now, by this clock.
    pub fn now(&self) -> OffsetDateTime {
        match &self.set {
            Some(setting) => setting.lock().unwrap_or_else(PoisonError::into_inner).now(),
            None => OffsetDateTime::now_utc(),
        }
    }

    /// Now, as stored in `TIMESTAMP` columns (UTC, to the microsecond): see [`stored`].
    pub fn utc(&self) -> PrimitiveDateTime {
        stored(self.now())
    }

    /// Now, in Nairobi.
    pub fn nairobi(&self) -> OffsetDateTime {
        self.now().to_offset(NAIROBI)
    }

    /// Moves a test's clock to `at`, for every clone of it (a running clock runs on from there).
    /// The system's clock cannot be moved: false then.
    pub fn set(&self, at: OffsetDateTime) -> bool {
        let Some(setting) = &self.set else { return false };
        let mut setting = setting.lock().unwrap_or_else(PoisonError::into_inner);
        *setting = setting.moved_to(at);
        true
    }

    /// Moves a test's clock on by `by`; false for the system's clock.
    pub fn advance(&self, by: time::Duration) -> bool {
        let Some(setting) = &self.set else { return false };
        let mut setting = setting.lock().unwrap_or_else(PoisonError::into_inner);
        *setting = setting.moved_to(setting.now() + by);
        true
    }
}

impl std::fmt::Debug for Clock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.set {
            Some(setting) => {
                let setting = *setting.lock().unwrap_or_else(PoisonError::into_inner);
                match setting.running_since {
                    Some(_) => write!(f, "Clock::running_from({}, now {})", setting.at, setting.now()),
                    None => write!(f, "Clock::stopped_at({})", setting.at),
                }
            }
            None => f.write_str("Clock::system()"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn a_stopped_clock_moves_only_when_told_and_for_every_clone() {
        let clock = Clock::stopped_at(datetime!(2026-11-25 14:29:59 UTC));
        let sibling = clock.clone();
        assert_eq!(sibling.now(), datetime!(2026-11-25 14:29:59 UTC));
        assert!(clock.advance(time::Duration::SECOND));
        assert_eq!(sibling.now(), datetime!(2026-11-25 14:30:00 UTC));
        assert!(!Clock::system().set(datetime!(2026-11-25 14:30:00 UTC)), "the system's clock is not ours to move");
        let before = OffsetDateTime::now_utc();
        assert!(Clock::default().now() >= before);
    }

    #[test]
    fn a_running_clock_goes_on_from_where_it_was_set() {
        let clock = Clock::running_from(datetime!(2026-11-25 21:00:00 UTC));
        assert!(clock.now() >= datetime!(2026-11-25 21:00:00 UTC));
        assert!(clock.now() < datetime!(2026-11-25 21:01:00 UTC), "it runs at the system's pace");
        assert!(clock.set(datetime!(2026-11-26 14:30:00 UTC)));
        let after = clock.now();
        assert!(after >= datetime!(2026-11-26 14:30:00 UTC) && after < datetime!(2026-11-26 14:31:00 UTC));
        assert!(clock.advance(time::Duration::HOUR));
        assert!(clock.now() >= datetime!(2026-11-26 15:30:00 UTC));
        assert_eq!(clock.nairobi().offset(), NAIROBI);
        assert_eq!(clock.nairobi().date(), time::macros::date!(2026 - 11 - 26));
    }

    #[test]
    fn stored_times_keep_microseconds_only() {
        let at = datetime!(2026-11-25 14:29:59.123456789 UTC);
        assert_eq!(stored(at), datetime!(2026-11-25 14:29:59.123456));
        assert_eq!(Clock::stopped_at(at).utc(), datetime!(2026-11-25 14:29:59.123456));
    }

    #[test]
    fn a_utc_time_late_in_the_day_is_the_next_day_in_nairobi() {
        assert_eq!(nairobi_date_time(datetime!(2026-11-22 22:30:00)), ("23 Nov 2026".to_owned(), "01:30".to_owned()));
    }
}
