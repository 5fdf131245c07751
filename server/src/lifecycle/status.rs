//! Staff change an order's status from the dashboard: any status to any other (spec section 4), a
//! cancellation with a reason (after a confirmation in the dashboard), and a cancellation taken
//! back. Each is one transaction; the stops follow the status ([`crate::domain::lifecycle`]).

use super::{Changed, Context, LifeError, OrderNow, change_with};
use crate::db::{DbConnection, write_transaction};
use crate::domain::OrderStatus;
use crate::domain::lifecycle::Event;
use crate::models::garments::handling::Handling;

/// The longest reason a cancellation keeps.
pub const MAX_REASON: usize = 200;

/// Staff set the order `order_id` to `to`: a cancellation (with `reason`), a cancellation taken
/// back (from cancelled to another status), or a status set; `tell`: the customer is texted
/// where the step has a text. Setting the status the order already has changes nothing.
pub fn set_by_staff(
    connection: &mut DbConnection,
    order_id: &str,
    to: OrderStatus,
    reason: Option<&str>,
    tell: bool,
    context: &Context<'_>,
) -> Result<Changed, LifeError> {
    let event = |order: &OrderNow| staff_event(order, to, tell);
    write_transaction(connection, |connection| change_with(connection, order_id, event, reason, context))
}

/// Staff set the order `order_id` ready, hung on `rack` (one of the shop's racks), in one
/// transaction: a ready order always says where it hangs.
pub fn set_ready_on_rack(
    connection: &mut DbConnection,
    order_id: &str,
    rack: &str,
    tell: bool,
    context: &Context<'_>,
) -> Result<Changed, LifeError> {
    let event = |order: &OrderNow| staff_event(order, OrderStatus::Ready, tell);
    write_transaction(connection, |connection| {
        let changed = change_with(connection, order_id, event, None, context)?;
        Handling::set_rack(connection, order_id, rack, context.by, context.now)?;
        Ok(changed)
    })
}

/// The event of staff choosing `to` for `order` in the dashboard.
fn staff_event(order: &OrderNow, to: OrderStatus, tell: bool) -> Event {
    match (order.order.status, to) {
        (current, to) if current == to => Event::StaffSet(to),
        (_, OrderStatus::Cancelled) => Event::StaffCancel { tell },
        (OrderStatus::Cancelled, to) => Event::StaffUndoCancel { to, tell, pickup_room: true },
        (_, to) => Event::StaffSet(to),
    }
}
