//! Staff change an order's status from the dashboard: any status to any other (spec section 4), a
//! cancellation with a reason (after a confirmation in the dashboard), and a cancellation taken
//! back; laundry already collected goes back on a return stop. Each is one transaction; the stops follow the status ([`crate::domain::lifecycle`]).

use super::{Changed, Context, LifeError, OrderNow, change_with};
use crate::db::{DbConnection, write_transaction};
use crate::domain::OrderStatus;
use crate::domain::lifecycle::Event;
use crate::domain::schedule::Slot;
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
    let event = |order: &OrderNow| staff_event(order, to, tell, None);
    write_transaction(connection, |connection| change_with(connection, order_id, event, reason, context))
}

/// Staff cancel the order `order_id` with `reason`. Laundry collected and not yet back goes back
/// as it is: on a return stop in `return_to` (a delivery with nothing to collect), or, with
/// `None`, the customer collects it at the shop.
pub fn cancel_by_staff(
    connection: &mut DbConnection,
    order_id: &str,
    reason: &str,
    (tell, return_to): (bool, Option<Slot>),
    context: &Context<'_>,
) -> Result<Changed, LifeError> {
    let event = |order: &OrderNow| staff_event(order, OrderStatus::Cancelled, tell, return_to);
    write_transaction(connection, |connection| change_with(connection, order_id, event, Some(reason), context))
}

/// Whether cancelling `status` leaves laundry the shop holds, to go back as it is.
pub fn holds_laundry(status: OrderStatus) -> bool {
    matches!(status, OrderStatus::PickedUp | OrderStatus::InProgress | OrderStatus::Ready)
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
    let event = |order: &OrderNow| staff_event(order, OrderStatus::Ready, tell, None);
    write_transaction(connection, |connection| {
        let changed = change_with(connection, order_id, event, None, context)?;
        Handling::set_rack(connection, order_id, rack, context.by, context.now)?;
        Ok(changed)
    })
}

/// The event of staff choosing `to` for `order` in the dashboard (a cancellation's laundry going
/// back in `return_to`).
fn staff_event(order: &OrderNow, to: OrderStatus, tell: bool, return_to: Option<Slot>) -> Event {
    match (order.order.status, to) {
        (current, to) if current == to => Event::StaffSet(to),
        (_, OrderStatus::Cancelled) => Event::StaffCancel { tell, return_to },
        (OrderStatus::Cancelled, to) => Event::StaffUndoCancel { to, tell, pickup_room: true },
        (_, to) => Event::StaffSet(to),
    }
}
