//! How long each query takes, told through `tracing`: a query slower than [`SLOW`] is a warning
//! (`laundry::db::slow`), and with `RUST_LOG=laundry::db::timing=trace` every query is logged with
//! its time, to see where a request's time goes (the scale bench's figures are read that way).
//! The SQL is logged without its bound values, which hold customers' names and phone numbers.
//! The server's binary turns it on for every connection ([`time_queries`]); the tests do not, as
//! some record the queries with an instrumentation of their own.

use diesel::connection::{Instrumentation, InstrumentationEvent, set_default_instrumentation};
use std::time::{Duration, Instant};

/// A query that takes longer than this is logged as a warning.
pub const SLOW: Duration = Duration::from_millis(250);

/// Times every query of every connection opened from now on (diesel's default instrumentation,
/// which is the process's: the binary calls it once, at start).
pub fn time_queries() {
    if let Err(error) = set_default_instrumentation(|| Some(Box::new(QueryTimer::default()))) {
        tracing::warn!(%error, "queries are not timed");
    }
}

/// The timer of one connection: when its running query started.
#[derive(Debug, Default)]
pub struct QueryTimer {
    started: Option<Instant>,
}

impl Instrumentation for QueryTimer {
    fn on_connection_event(&mut self, event: InstrumentationEvent<'_>) {
        match event {
            InstrumentationEvent::StartQuery { .. } => self.started = Some(Instant::now()),
            InstrumentationEvent::FinishQuery { query, error, .. } => {
                let Some(started) = self.started.take() else { return };
                let took = started.elapsed();
                let slow = took >= SLOW;
                if slow || tracing::enabled!(target: "laundry::db::timing", tracing::Level::TRACE) {
                    let text = query.to_string();
                    let sql = without_binds(&text);
                    let micros = u64::try_from(took.as_micros()).unwrap_or(u64::MAX);
                    if slow {
                        tracing::warn!(target: "laundry::db::slow", micros, failed = error.is_some(), sql, "a slow query");
                    } else {
                        tracing::trace!(target: "laundry::db::timing", micros, sql, "query");
                    }
                }
            }
            _ => {}
        }
    }
}

/// `text` (diesel's `SQL -- binds: [...]`) without its bound values.
fn without_binds(text: &str) -> &str {
    text.rsplit_once(" -- binds: ").map_or(text, |(sql, _)| sql)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bound_values_are_not_logged() {
        assert_eq!(
            without_binds("SELECT 1 FROM orders WHERE phone = ? -- binds: [\"+254712345678\"]"),
            "SELECT 1 FROM orders WHERE phone = ?"
        );
        assert_eq!(without_binds("SELECT 1"), "SELECT 1");
    }
}
