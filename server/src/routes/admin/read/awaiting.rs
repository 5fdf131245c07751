//! What the awaiting tab reads: the orders awaiting a confirmed window, those waiting too long, and
//! the open windows.

use crate::lifecycle::slots::{self as slot_confirmation};
use crate::views::awaiting::AwaitingList;

/// The awaiting list as of `now` (UTC).
pub fn load_awaiting(
    connection: &mut crate::db::DbConnection,
    schedule: &crate::domain::schedule::Schedule,
    now: time::PrimitiveDateTime,
) -> diesel::QueryResult<AwaitingList> {
    let awaiting = slot_confirmation::awaiting(connection)?;
    let waiting = crate::lifecycle::waiting::waiting(connection, now, schedule.ready_wait_days)?;
    let slots = slot_confirmation::open_slots(connection, schedule, now.assume_utc())?;
    Ok(AwaitingList::new(&awaiting, &waiting, &slots, now))
}
