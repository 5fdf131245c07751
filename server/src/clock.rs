//! Time: now in UTC as the database stores it, RFC 3339 for JSON, and Nairobi's calendar. Kenya keeps East Africa Time, UTC+3, all year (no daylight saving).

use std::sync::{Arc, Mutex, PoisonError};
use time::{OffsetDateTime, PrimitiveDateTime, UtcOffset, macros::offset};

/// East Africa Time.
pub const NAIROBI: UtcOffset = offset!(+3);

/// Now, in Nairobi.
pub fn nairobi_now() -> OffsetDateTime {
    OffsetDateTime::now_utc().to_offset(NAIROBI)
}

/// The current year in Nairobi, for the copyright line.
pub fn nairobi_year() -> i32 {
    nairobi_now().year()
}

/// A stored UTC time as Nairobi's date and time, as the e-mails show them: `22 Nov 2026`, `14:05`.
pub fn nairobi_date_time(utc: PrimitiveDateTime) -> (String, String) {
    let local = utc.assume_utc().to_offset(NAIROBI);
    let month = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        [usize::from(u8::from(local.month())) - 1];
    (format!("{} {month} {}", local.day(), local.year()), format!("{:02}:{:02}", local.hour(), local.minute()))
}

/// Now, in UTC, as stored in `TIMESTAMP` columns.
pub fn now_utc() -> PrimitiveDateTime {
    let now = OffsetDateTime::now_utc();
    // Microsecond precision: both backends keep it, so what is stored reads back equal, and orders
    // placed one after the other sort in the order they were placed ("newest first").
    let now = now.replace_microsecond(now.microsecond()).unwrap_or(now);
    PrimitiveDateTime::new(now.date(), now.time())
}

/// A moment as stored in `TIMESTAMP` columns: UTC, without its offset.
pub fn stored(at: OffsetDateTime) -> PrimitiveDateTime {
    let at = at.to_offset(time::UtcOffset::UTC);
    PrimitiveDateTime::new(at.date(), at.time())
}

/// A stored UTC time as RFC 3339 (`2026-11-22T17:30:00.123456Z`).
pub fn rfc3339(at: PrimitiveDateTime) -> String {
    at.assume_utc().format(&time::format_description::well_known::Rfc3339).unwrap_or_default()
}

/// The time scheduled work goes by ("is it 17:30 in Nairobi yet, and which day"): the system's in
/// production; in tests a time the test sets and moves, shared by every clone (and so by every
/// server instance given one), so that a test can make it 17:30 without waiting for it.
#[derive(Clone, Default)]
pub struct Clock {
    set: Option<Arc<Mutex<OffsetDateTime>>>,
}

impl Clock {
    /// The system's clock.
    pub fn system() -> Self {
        Self { set: None }
    }

    /// A clock that stands at `at` until it is [`set`](Clock::set) or [`advance`](Clock::advance)d.
    pub fn stopped_at(at: OffsetDateTime) -> Self {
        Self { set: Some(Arc::new(Mutex::new(at))) }
    }

    /// Now, by this clock.
    pub fn now(&self) -> OffsetDateTime {
        match &self.set {
            Some(at) => *at.lock().unwrap_or_else(PoisonError::into_inner),
            None => OffsetDateTime::now_utc(),
        }
    }

    /// Moves a stopped clock to `at`, for every clone of it. The system's clock cannot be moved:
    /// false then.
    pub fn set(&self, at: OffsetDateTime) -> bool {
        let Some(stopped) = &self.set else { return false };
        *stopped.lock().unwrap_or_else(PoisonError::into_inner) = at;
        true
    }

    /// Moves a stopped clock on by `by`; false for the system's clock.
    pub fn advance(&self, by: time::Duration) -> bool {
        self.set(self.now() + by)
    }
}

impl std::fmt::Debug for Clock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.set {
            Some(_) => write!(f, "Clock::stopped_at({})", self.now()),
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
    fn a_utc_time_late_in_the_day_is_the_next_day_in_nairobi() {
        assert_eq!(nairobi_date_time(datetime!(2026-11-22 22:30:00)), ("23 Nov 2026".to_owned(), "01:30".to_owned()));
    }
}
