//! Texts customers send to the shop's number, answered. The pickup letter from a number with a
//! recent order books the next open pickup window at that order's address, as a new order; STOP
//! and START switch the number's texts off and on (the order page's switch); any other text gets
//! help. Every text is kept for staff (the inbox, `models::inbox`; the rows are
//! `models::incoming_text`'s).
//!
//! Replies cost money and reach a person, so they are not for anyone who texts (SMS pumping): a
//! reply is written only to a number with an order placed in the last [`ReplyRules::months`]
//! months, and at most [`ReplyRules::per_day`] a Nairobi day; none after STOP. A text from any
//! other number (the pickup letter too: nothing is booked) is stored, unanswered, for staff.
//!
//! One transaction stores the text (by the provider's id), the booking and the one reply, so the
//! same callback delivered twice, or twice at once, books once and answers once.

use crate::db::{DbConnection, write_transaction};
use crate::domain::catalogue::{self, SERVICES};
use crate::domain::schedule::Slot;
use crate::domain::{
    AutoReply, InboxStatus, IncomingOutcome, IncomingSms, Keyword, LineKind, MAX_QUANTITY_KG, MessageKind, OrderSource,
    StopKind, ValidOrder,
};
use crate::lifecycle::place::{self, PlaceError, PlacingTerms};
use crate::models::incoming_text::IncomingText;
use crate::models::order::Order;
use crate::models::outbox::{Enqueued, OptOut, OutboxMessage};
use crate::models::stop::{BookError, Stop};
use diesel::QueryResult;
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

/// Who gets an automatic reply (`LAUNDRY_SMS_REPLY_MONTHS`, `LAUNDRY_SMS_REPLIES_PER_DAY`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReplyRules {
    /// Only numbers with an order placed in the last this many calendar months.
    pub months: u32,
    /// At most this many replies to one number per Nairobi day.
    pub per_day: u32,
}

/// How many times an answer is tried again when another booking took its window at the same
/// moment (PostgreSQL): each try sees the windows as they are then.
const TRIES: usize = 3;

/// Answers `sms` once. `terms` (whose source must be [`OrderSource::Sms`]) gives the schedule
/// for the booking and the words and the pickup letter for the reply.
pub fn answer(
    connection: &mut DbConnection,
    sms: &IncomingSms,
    terms: &PlacingTerms<'_>,
    rules: ReplyRules,
    now: PrimitiveDateTime,
) -> Result<Answered, PlaceError> {
    debug_assert_eq!(terms.source, OrderSource::Sms);
    let mut tries = 1;
    loop {
        match write_transaction(connection, |connection| answer_once(connection, sms, terms, rules, now)) {
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
    rules: ReplyRules,
    now: PrimitiveDateTime,
) -> Result<Answered, PlaceError> {
    let phone = sms.from.as_str();
    // Two texts from one number at once (two ids) are answered one after the other, so the
    // second sees the pickup the first booked.
    crate::models::lock_phone(connection, phone)?;
    // Claimed first: the same callback at the same moment waits here for this transaction, then
    // finds the row and stops.
    if !IncomingText::claim(connection, sms, now)? {
        return Ok(Answered::Before);
    }
    let texts = terms.texts;
    // The number's last order, if it was placed in the last `rules.months` months: only such a
    // number gets replies, and only its letter books.
    let since = months_before(now, rules.months);
    let recent = Order::recent_for_phone(connection, phone, 1)?.pop().filter(|last| last.created_at >= since);
    let (outcome, order, booked, reply) = match sms.keyword() {
        // No confirmation: the number asked for no more texts, and gets none.
        Some(Keyword::Stop) => {
            OptOut::opt_out(connection, phone, None, now)?;
            (IncomingOutcome::Stop, None, false, None)
        }
        Some(Keyword::Start) => {
            OptOut::opt_in(connection, phone)?;
            (IncomingOutcome::Start, None, false, Some(texts.texts_on()))
        }
        None if !sms.is_pickup_letter(texts.letter) => (IncomingOutcome::Help, None, false, Some(texts.help())),
        None => {
            if let Some(last) = recent.clone() {
                match IncomingText::open_pickup(connection, phone, now)? {
                    Some((order, pickup)) => {
                        let reply = texts.pickup_booked(&order, pickup);
                        (IncomingOutcome::Booked, Some(order), false, Some(reply))
                    }
                    None => match book_like(connection, &last, sms, terms, now)? {
                        Some((order, pickup)) => {
                            let reply = texts.pickup_booked(&order, pickup);
                            (IncomingOutcome::Booked, Some(order), true, Some(reply))
                        }
                        None => (IncomingOutcome::Full, None, false, Some(texts.no_window())),
                    },
                }
            } else {
                // A stranger's letter: nothing booked, no reply; staff see it in the inbox and
                // may call back.
                (IncomingOutcome::Unknown, None, false, None)
            }
        }
    };
    let order_id = order.as_ref().map(|order| order.id.as_str());
    let auto_reply = match reply {
        None if outcome == IncomingOutcome::Unknown => AutoReply::Stranger,
        None => AutoReply::None,
        Some(_) if recent.is_none() => AutoReply::Stranger,
        Some(_) if IncomingText::replies_today(connection, phone, now)? >= i64::from(rules.per_day) => {
            AutoReply::DailyCap
        }
        Some(reply) => {
            let reply = OutboxMessage::sms(
                MessageKind::SmsReply,
                order_id,
                phone,
                &reply,
                Some(format!("reply {}", sms.id)),
                now,
            );
            match OutboxMessage::enqueue_sms(connection, &reply, &texts.limits)? {
                Enqueued::Written | Enqueued::AlreadyThere | Enqueued::Held(_) => AutoReply::Written,
                Enqueued::OptedOut => AutoReply::OptedOut,
                Enqueued::SwitchedOff => AutoReply::SwitchedOff,
                Enqueued::OverLimit => AutoReply::Held,
            }
        }
    };
    // A letter that booked (or named) a pickup needs nothing from staff: the order is on the
    // orders tab; nor does STOP or START, whose switch is already thrown. Every other text
    // waits in the inbox as new.
    let done = matches!(outcome, IncomingOutcome::Booked | IncomingOutcome::Stop | IncomingOutcome::Start);
    let (status, status_at) = if done { (InboxStatus::Handled, Some(now)) } else { (InboxStatus::New, None) };
    IncomingText::record_answer(connection, &sms.id, outcome, order_id, auto_reply, (status, status_at))?;
    Ok(Answered::Now { outcome, order: order.map(Box::new), booked })
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
    let placed = place::place_in_transaction(connection, &order, &format!("sms {}", sms.id), terms, now)?;
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

/// The same moment `months` calendar months earlier (the 31st becomes the month's last day).
pub fn months_before(at: PrimitiveDateTime, months: u32) -> PrimitiveDateTime {
    let index = at.year() * 12 + i32::from(u8::from(at.month())) - 1 - i32::try_from(months).unwrap_or(i32::MAX / 2);
    let (year, month) = (index.div_euclid(12), index.rem_euclid(12) + 1);
    let month =
        u8::try_from(month).ok().and_then(|month| time::Month::try_from(month).ok()).unwrap_or(time::Month::January);
    let day = at.day().min(month.length(year));
    time::Date::from_calendar_date(year, month, day).map_or(PrimitiveDateTime::MIN, |date| date.with_time(at.time()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn months_before_goes_back_calendar_months_and_keeps_to_the_month_s_last_day() {
        assert_eq!(months_before(datetime!(2026-11-26 10:00), 6), datetime!(2026-05-26 10:00));
        assert_eq!(months_before(datetime!(2026-08-31 23:59), 6), datetime!(2026-02-28 23:59));
        assert_eq!(months_before(datetime!(2026-03-15 00:00), 3), datetime!(2025-12-15 00:00));
        assert_eq!(months_before(datetime!(2026-01-01 00:00), 60), datetime!(2021-01-01 00:00));
    }
}
