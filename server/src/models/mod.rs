//! Rows and their queries, next to each other. Handlers call these; none of them writes SQL.

pub mod contact_message;
pub mod day_board;
pub mod garments;
pub mod inbox;
pub mod incoming_text;
pub mod job_run;
pub mod ledger;
pub mod mpesa;
pub mod order;
pub mod order_detail;
pub mod order_list;
pub mod outbox;
pub mod reclean;
pub mod reports;
pub mod staff;
pub mod stats;
pub mod stop;
pub mod valet_run;

/// One page of a list, and how many items there are in all.
#[derive(Debug, Clone)]
pub struct Page<T> {
    /// The items of this page.
    pub items: Vec<T>,
    /// Items matching the filter, on all pages: all of them, or (with `more`) as many as were
    /// counted.
    pub total: i64,
    /// More items match than `total`: counting stopped there.
    pub more: bool,
}

/// How long the same submission sent again counts as the one already stored.
const IMPLICIT_KEY_WINDOW_SECONDS: i64 = 600;

/// The keys of a submission that came without an `Idempotency-Key` (an order or a contact message
/// posted before or without JavaScript, an API client that sends none): derived from its
/// `fingerprint` and the ten-minute window it came in, and the previous window's for a double
/// click across the boundary. So the same submission sent twice in a row is stored once, and the
/// same one sent later is a new one. They hold spaces, which a client's key cannot, so that no
/// client can pick one.
pub fn implicit_keys(fingerprint: &str, now: time::PrimitiveDateTime) -> [String; 2] {
    let window = now.assume_utc().unix_timestamp().div_euclid(IMPLICIT_KEY_WINDOW_SECONDS);
    [format!("implicit {fingerprint} {window}"), format!("implicit {fingerprint} {}", window - 1)]
}

/// Makes writes about one phone number wait for each other (PostgreSQL; SQLite writes one
/// transaction at a time): a first order's discount, two texts from one number, the prompts sent
/// to it. A transaction-scoped advisory lock on the number; within one transaction it is taken
/// again freely. Taken before any pickup window's lock, so that no two transactions wait for each
/// other in a circle.
pub(crate) fn lock_phone(connection: &mut crate::db::DbConnection, phone: &str) -> diesel::QueryResult<()> {
    crate::db::lock_until_commit(connection, phone)
}
