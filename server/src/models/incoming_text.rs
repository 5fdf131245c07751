//! Texts customers send to the shop's number, and their answers. The pickup letter from a number
//! with an earlier order books the next open pickup window at that order's address, as a new
//! order; from an unknown number it gets the order form's link; any other text gets help.
//!
//! One transaction stores the text (by the provider's id), the booking and the one reply, so the
//! same callback delivered twice, or twice at once, books once and answers once.

use crate::db::schema::{orders, sms_incoming, stops};
use crate::db::{DbConnection, insert_or_ignore, write_transaction};
use crate::domain::catalogue::{self, SERVICES};
use crate::domain::schedule::{Slot, nairobi_day, nairobi_minute};
use crate::domain::{
    IncomingOutcome, IncomingSms, LineKind, MAX_QUANTITY_KG, MessageKind, OrderSource, OrderStatus, StopKind,
    StopState, ValidOrder,
};
use crate::models::order::{Order, PlaceError, PlacingTerms};
use crate::models::outbox::OutboxMessage;
use crate::models::stop::{BookError, Stop};
use diesel::prelude::*;
use diesel::result::{DatabaseErrorKind, Error as DieselError};
use time::PrimitiveDateTime;

/// What a text to the shop's number led to.
#[derive(Debug, Clone, PartialEq)]
pub enum Answered {
    /// Answered now (the reply is in the outbox unless the number opted out).
    Now {
        /// What the text led to.
        outcome: IncomingOutcome,
        /// The pickup's order: the one booked now or the one already booked by text.
        order: Option<Box<Order>>,
        /// Whether that order was booked by this text.
        booked: bool,
    },
    /// This text (its id) was answered before: nothing more was done.
    Before,
}

/// The texts to the shop's number, stored in `sms_incoming`.
#[derive(Debug)]
pub struct IncomingText;

/// How many times an answer is tried again when another booking took its window at the same
/// moment (PostgreSQL): each try sees the windows as they are then.
const TRIES: usize = 3;

impl IncomingText {
    /// Answers `sms` once. `terms` (whose source must be [`OrderSource::Sms`]) gives the schedule
    /// for the booking and the words and the pickup letter for the reply.
    pub fn answer(
        connection: &mut DbConnection,
        sms: &IncomingSms,
        terms: &PlacingTerms<'_>,
        now: PrimitiveDateTime,
    ) -> Result<Answered, PlaceError> {
        debug_assert_eq!(terms.source, OrderSource::Sms);
        let mut tries = 1;
        loop {
            match write_transaction(connection, |connection| Self::answer_once(connection, sms, terms, now)) {
                // Another booking took the window between the look and the booking, or two texts
                // raced for one key: everything was rolled back; look again.
                Err(
                    PlaceError::Slot(_)
                    | PlaceError::Database(DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _)),
                ) if tries < TRIES => {
                    tries += 1;
                }
                other => return other,
            }
        }
    }

    fn answer_once(
        connection: &mut DbConnection,
        sms: &IncomingSms,
        terms: &PlacingTerms<'_>,
        now: PrimitiveDateTime,
    ) -> Result<Answered, PlaceError> {
        let phone = sms.from.as_str();
        lock_phone(connection, phone)?;
        // Claimed first: the same callback at the same moment waits here for this transaction,
        // then finds the row and stops.
        let claim = (
            sms_incoming::id.eq(&sms.id),
            sms_incoming::from_phone.eq(phone),
            sms_incoming::to_code.eq(&sms.to),
            sms_incoming::text.eq(&sms.text),
            sms_incoming::received_at.eq(now),
            sms_incoming::outcome.eq(IncomingOutcome::Help.as_str()),
        );
        if insert_or_ignore!(connection, sms_incoming::table, claim)? == 0 {
            return Ok(Answered::Before);
        }
        let texts = terms.texts;
        let (outcome, order, booked, reply) = if !sms.is_pickup_letter(texts.letter) {
            (IncomingOutcome::Help, None, false, texts.help())
        } else if let Some(last) = Order::recent_for_phone(connection, phone, 1)?.pop() {
            match open_pickup(connection, phone, now)? {
                Some((order, pickup)) => {
                    let reply = texts.pickup_booked(&order, pickup);
                    (IncomingOutcome::Booked, Some(order), false, reply)
                }
                None => match book_like(connection, &last, sms, terms, now)? {
                    Some((order, pickup)) => {
                        let reply = texts.pickup_booked(&order, pickup);
                        (IncomingOutcome::Booked, Some(order), true, reply)
                    }
                    None => (IncomingOutcome::Full, None, false, texts.no_window()),
                },
            }
        } else {
            (IncomingOutcome::Unknown, None, false, texts.unknown_number())
        };
        let order_id = order.as_ref().map(|order| order.id.as_str());
        diesel::update(sms_incoming::table.find(&sms.id))
            .set((sms_incoming::outcome.eq(outcome.as_str()), sms_incoming::order_id.eq(order_id)))
            .execute(connection)?;
        let reply =
            OutboxMessage::sms(MessageKind::SmsReply, order_id, phone, &reply, Some(format!("reply {}", sms.id)), now);
        OutboxMessage::enqueue_sms(connection, &reply)?;
        Ok(Answered::Now { outcome, order: order.map(Box::new), booked })
    }

    /// How many texts are stored, with what they led to: `(id, outcome, order id)`, oldest first.
    pub fn all(connection: &mut DbConnection) -> QueryResult<Vec<(String, String, Option<String>)>> {
        sms_incoming::table
            .order((sms_incoming::received_at.asc(), sms_incoming::id.asc()))
            .select((sms_incoming::id, sms_incoming::outcome, sms_incoming::order_id))
            .load(connection)
    }
}

/// Two texts from one number at once (two ids) are answered one after the other, so the second
/// sees the pickup the first booked (PostgreSQL; SQLite writes one transaction at a time). The
/// same lock as a first order's discount takes: within one transaction it is taken again freely.
fn lock_phone(connection: &mut DbConnection, phone: &str) -> QueryResult<()> {
    if let DbConnection::Postgres(pg) = connection {
        diesel::sql_query("SELECT pg_advisory_xact_lock(hashtext($1))")
            .bind::<diesel::sql_types::Text, _>(phone)
            .execute(pg)?;
    }
    Ok(())
}

/// The pickup of `phone` still to come (its order pending, its stop planned, its window not over),
/// booked by text or on the site, if any: the letter names it again rather than booking a second
/// visit for the same evening.
fn open_pickup(
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

/// Books the next open pickup window at `last`'s address, as a new order like it; `None` when no
/// window is free (nothing is written then).
fn book_like(
    connection: &mut DbConnection,
    last: &Order,
    sms: &IncomingSms,
    terms: &PlacingTerms<'_>,
    now: PrimitiveDateTime,
) -> Result<Option<(Order, Slot)>, PlaceError> {
    // Whether any window has room, to answer "full" with nothing written; the window itself is
    // chosen when the order is placed, under the windows' locks.
    match Stop::next_open(connection, terms.schedule, now.assume_utc()) {
        Ok(_) => {}
        Err(BookError::Refused(_)) => return Ok(None),
        Err(BookError::Database(error)) => return Err(error.into()),
    };
    let order = ValidOrder { pickup: None, ..like(connection, last, sms, terms.texts.letter)? };
    // The text's id is the order's key: a text can never place two orders.
    let placed = Order::place_in_transaction(connection, &order, &format!("sms {}", sms.id), terms, now)?;
    let order = placed.order().clone();
    let pickup = Stop::of_order(connection, &order.id, StopKind::Pickup)?.map(|stop| stop.slot());
    Ok(pickup.map(|pickup| (order, pickup)))
}

/// A new order like `last`: the same person, address, landmark, pin and way of paying, and as
/// estimate the same service by the kg and the same pieces as last time. Staff weigh and bill at
/// pickup as for any order.
fn like(connection: &mut DbConnection, last: &Order, sms: &IncomingSms, letter: char) -> QueryResult<ValidOrder> {
    let lines = Order::lines(connection, &last.id)?;
    let pieces: Vec<_> = lines
        .iter()
        .filter(|line| line.kind == LineKind::Piece)
        .filter_map(|line| catalogue::price_item(&line.item).map(|item| (item, line.quantity)))
        .collect();
    let by_the_kg = catalogue::service(&last.service_type)
        .map(|service| (service, last.quantity.clamp(1, MAX_QUANTITY_KG)))
        .or_else(|| pieces.is_empty().then(|| (&SERVICES[0], 1)));
    Ok(ValidOrder {
        customer_name: last.customer_name.clone(),
        phone: sms.from.clone(),
        email: last.email.clone(),
        location: last.location.clone(),
        by_the_kg,
        payment_method: last.payment_method,
        special_instructions: format!(
            "Booked by texting {letter} to our number. Estimate as order {}; weigh as usual.",
            last.reference
        ),
        pieces,
        pickup: None,
        rush: false,
        landmark: last.landmark.clone(),
        pin: last.pin(),
    })
}
