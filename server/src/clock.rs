//! Time: now in UTC as the database stores it, RFC 3339 for JSON, and Nairobi's calendar. Kenya keeps East Africa Time, UTC+3, all year (no daylight saving).

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

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn a_utc_time_late_in_the_day_is_the_next_day_in_nairobi() {
        assert_eq!(nairobi_date_time(datetime!(2026-11-22 22:30:00)), ("23 Nov 2026".to_owned(), "01:30".to_owned()));
    }
}
