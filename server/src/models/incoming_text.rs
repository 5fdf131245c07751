//! Texts customers send to the shop's number (`sms_incoming`): each kept once by the provider's
//! id, with what it led to and the reply it got, for staff (the inbox, `models::inbox`). How a
//! text is answered (the pickup letter books a pickup, STOP and START, help) is
//! `lifecycle::by_text`'s.

use crate::db::schema::{orders, sms_incoming, stops};
use crate::db::{DbConnection, insert_or_ignore};
use crate::domain::schedule::{Slot, day_bounds, nairobi_day, nairobi_minute};
use crate::domain::{AutoReply, InboxStatus, IncomingOutcome, IncomingSms, OrderStatus, StopKind, StopState};
use crate::models::order::Order;
use crate::models::stop::Stop;
use diesel::prelude::*;
use time::PrimitiveDateTime;

/// The texts to the shop's number, stored in `sms_incoming`.
#[derive(Debug)]
pub struct IncomingText;

impl IncomingText {
    /// Stores `sms`, received at `now`, as a new text for staff that led to nothing yet; false when
    /// its id is stored already. Claimed first in the answer's transaction: the same callback at
    /// the same moment waits here for that transaction, then finds the row and stops.
    pub fn claim(connection: &mut DbConnection, sms: &IncomingSms, now: PrimitiveDateTime) -> QueryResult<bool> {
        let claim = (
            sms_incoming::id.eq(&sms.id),
            sms_incoming::from_phone.eq(sms.from.as_str()),
            sms_incoming::to_code.eq(&sms.to),
            sms_incoming::text.eq(&sms.text),
            sms_incoming::received_at.eq(now),
            sms_incoming::outcome.eq(IncomingOutcome::Help),
            sms_incoming::reply.eq(AutoReply::None),
            sms_incoming::status.eq(InboxStatus::New),
        );
        Ok(insert_or_ignore!(connection, sms_incoming::table, claim)? > 0)
    }

    /// Records what the text `id` led to: its outcome, its order, its reply, and whether it waits
    /// for staff (`status`, since `status_at`).
    pub fn record_answer(
        connection: &mut DbConnection,
        id: &str,
        outcome: IncomingOutcome,
        order_id: Option<&str>,
        reply: AutoReply,
        (status, status_at): (InboxStatus, Option<PrimitiveDateTime>),
    ) -> QueryResult<()> {
        diesel::update(sms_incoming::table.find(id))
            .set((
                sms_incoming::outcome.eq(outcome),
                sms_incoming::order_id.eq(order_id),
                sms_incoming::reply.eq(reply),
                sms_incoming::status.eq(status),
                sms_incoming::status_at.eq(status_at),
            ))
            .execute(connection)?;
        Ok(())
    }

    /// How many texts are stored, with what they led to: `(id, outcome, order id)`, oldest first.
    pub fn all(connection: &mut DbConnection) -> QueryResult<Vec<(String, String, Option<String>)>> {
        sms_incoming::table
            .order((sms_incoming::received_at.asc(), sms_incoming::id.asc()))
            .select((sms_incoming::id, sms_incoming::outcome, sms_incoming::order_id))
            .load(connection)
    }

    /// How many automatic replies `phone` was written today (Nairobi's day of `now`).
    pub fn replies_today(connection: &mut DbConnection, phone: &str, now: PrimitiveDateTime) -> QueryResult<i64> {
        let (from, until) = day_bounds(nairobi_day(now.assume_utc()));
        sms_incoming::table
            .filter(sms_incoming::from_phone.eq(phone))
            .filter(sms_incoming::reply.eq(AutoReply::Written))
            .filter(sms_incoming::received_at.ge(from).and(sms_incoming::received_at.lt(until)))
            .count()
            .get_result(connection)
    }

    /// The pickup of `phone` still to come (its order pending, its stop planned, its window not
    /// over), booked by text or on the site, if any: the letter names it again rather than booking
    /// a second visit for the same evening.
    pub fn open_pickup(
        connection: &mut DbConnection,
        phone: &str,
        now: PrimitiveDateTime,
    ) -> QueryResult<Option<(Order, Slot)>> {
        let moment = now.assume_utc();
        let today = nairobi_day(moment);
        let candidates: Vec<(Order, Stop)> = orders::table
            .inner_join(stops::table.on(stops::order_id.eq(orders::id)))
            .filter(orders::phone.eq(phone))
            .filter(orders::status.eq(OrderStatus::Pending))
            .filter(stops::kind.eq(StopKind::Pickup))
            .filter(stops::state.eq_any([StopState::Planned, StopState::OnTheWay]))
            .filter(stops::day.ge(today))
            .order((stops::day.asc(), stops::window_start.asc()))
            .select((Order::as_select(), Stop::as_select()))
            .load(connection)?;
        let minute = i32::from(nairobi_minute(moment));
        Ok(candidates
            .into_iter()
            .find(|(_, stop)| stop.day > today || stop.window_end > minute)
            .map(|(order, stop)| (order, stop.slot())))
    }
}
