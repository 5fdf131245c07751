//! Nairobi's calendar. Kenya keeps East Africa Time, UTC+3, all year (no daylight saving).

use time::{OffsetDateTime, UtcOffset, macros::offset};

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
