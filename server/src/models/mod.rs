//! Rows and their queries, next to each other. Handlers call these; none of them writes SQL.

pub mod contact_message;
pub mod order;
pub mod outbox;
pub mod staff;
pub mod stats;

use time::{OffsetDateTime, PrimitiveDateTime};

/// Now, in UTC, as stored in `TIMESTAMP` columns.
pub fn now_utc() -> PrimitiveDateTime {
    let now = OffsetDateTime::now_utc();
    // Microsecond precision: both backends keep it, so what is stored reads back equal, and orders
    // placed one after the other sort in the order they were placed ("newest first").
    let now = now.replace_microsecond(now.microsecond()).unwrap_or(now);
    PrimitiveDateTime::new(now.date(), now.time())
}

/// A stored UTC time as RFC 3339 (`2026-11-22T17:30:00.123456Z`).
pub fn rfc3339(at: PrimitiveDateTime) -> String {
    at.assume_utc().format(&time::format_description::well_known::Rfc3339).unwrap_or_default()
}
