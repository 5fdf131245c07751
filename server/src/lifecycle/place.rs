//! Placing an order: one transaction stores the order, its lines, its first history entry, its
//! e-mails and its text, and a retry of the same order (by its key, or by its details within ten minutes) finds
//! it again. A phone number's first order gets the configured first-order discount as a line.

use super::money;
use crate::db::schema::{order_status_history, orders};
use crate::db::{DbConnection, write_transaction};
use crate::domain::schedule::{Schedule, SlotRefusal};
use crate::domain::{
    Line, MessageKind, OrderReference, OrderSource, OrderStatus, PaymentMethod, PromptLimits, ValidOrder, lines_total,
};
use crate::models::ledger::Entry;
use crate::models::mpesa::MpesaPrompt;
use crate::models::order::Order;
use crate::models::outbox::OutboxMessage;
use crate::models::stop::{BookError, Stop};
use crate::models::{implicit_keys, lock_phone};
use crate::notify::email;
use crate::notify::texts::{CreditNote, Texts};
use diesel::prelude::*;
use diesel::result::{DatabaseErrorKind, Error as DieselError};
use time::PrimitiveDateTime;

#[derive(Insertable)]
#[diesel(table_name = orders)]
struct NewOrderRow<'a> {
    id: &'a str,
    reference: &'a str,
    customer_name: &'a str,
    phone: &'a str,
    email: Option<&'a str>,
    location: &'a str,
    service_type: &'a str,
    service_label: &'a str,
    quantity: i32,
    payment_method: PaymentMethod,
    special_instructions: &'a str,
    price_per_kg: i32,
    total_amount: i32,
    status: OrderStatus,
    idempotency_key: Option<&'a str>,
    request_fingerprint: Option<&'a str>,
    created_at: PrimitiveDateTime,
    updated_at: PrimitiveDateTime,
    landmark: &'a str,
    pin_lat: Option<f64>,
    pin_lng: Option<f64>,
    rush: bool,
    link_token: &'a str,
    estimate_amount: i32,
    source: OrderSource,
}

/// What placing an order did.
#[derive(Debug)]
pub enum Placed {
    /// A new order was stored.
    Created(Order),
    /// The key was seen before with the same order: this is that order, nothing new was stored.
    Replayed(Order),
}

impl Placed {
    /// The order, new or found again.
    pub fn order(&self) -> &Order {
        match self {
            Placed::Created(order) | Placed::Replayed(order) => order,
        }
    }
}

/// Why an order was not placed.
#[derive(Debug, thiserror::Error)]
pub enum PlaceError {
    /// The key was used before for a different order.
    #[error("the idempotency key was already used for a different order")]
    KeyReused,
    /// The pickup window cannot be booked; nothing was stored.
    #[error(transparent)]
    Slot(#[from] SlotRefusal),
    /// The database failed.
    #[error(transparent)]
    Database(#[from] DieselError),
}

/// Stores `order` with status pending, its lines, its first history entry and its e-mails (the
/// outbox), in one transaction. With `first_order_discount` (KSh), an order from a phone number
/// with no earlier order that was not cancelled gets that much off, as a line of its own. A retry of the same order with the same `idempotency_key` returns the
/// stored one instead; so does the same order sent again without a key within about ten
/// minutes (see [`crate::models::implicit_keys`]).
pub fn place(
    connection: &mut DbConnection,
    order: &ValidOrder,
    idempotency_key: Option<&str>,
    terms: &PlacingTerms<'_>,
    now: PrimitiveDateTime,
) -> Result<Placed, PlaceError> {
    let attempt = |connection: &mut DbConnection| place_once(connection, order, idempotency_key, terms, now);
    match attempt(connection) {
        // Two requests with one key raced past the look-up (PostgreSQL); the loser now finds
        // the winner's row.
        Err(PlaceError::Database(DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _))) => {
            attempt(connection)
        }
        other => other,
    }
}

fn place_once(
    connection: &mut DbConnection,
    order: &ValidOrder,
    idempotency_key: Option<&str>,
    terms: &PlacingTerms<'_>,
    now: PrimitiveDateTime,
) -> Result<Placed, PlaceError> {
    let fingerprint = order.fingerprint();
    let (key, earlier_keys) = keys(idempotency_key, &fingerprint, now);
    write_transaction(connection, |connection| {
        place_within(connection, order, (&key, &earlier_keys, &fingerprint), terms, now)
    })
}

/// The order already stored for this one sent again (by its `idempotency_key`, or without
/// one by its details within about ten minutes), read without writing: a retry is answered
/// from here before any limit counts it. `Err(KeyReused)` when the key belongs to another order.
pub fn find_again(
    connection: &mut DbConnection,
    order: &ValidOrder,
    idempotency_key: Option<&str>,
    now: PrimitiveDateTime,
) -> Result<Option<Order>, PlaceError> {
    let fingerprint = order.fingerprint();
    let (_, earlier_keys) = keys(idempotency_key, &fingerprint, now);
    stored_again(connection, &earlier_keys, &fingerprint)
}

/// [`place`] inside the caller's transaction, for a change that writes more with the
/// order (a pickup booked by text stores the text and its reply with it). `idempotency_key`
/// is used as it is. A key taken by two at once on PostgreSQL is a unique violation, which
/// aborts the caller's transaction: the caller retries it whole.
pub fn place_in_transaction(
    connection: &mut DbConnection,
    order: &ValidOrder,
    idempotency_key: &str,
    terms: &PlacingTerms<'_>,
    now: PrimitiveDateTime,
) -> Result<Placed, PlaceError> {
    let fingerprint = order.fingerprint();
    let keys = [idempotency_key.to_owned()];
    place_within(connection, order, (idempotency_key, &keys, &fingerprint), terms, now)
}

/// The work of both: `key` is stored with a new order, `earlier_keys` find it again.
fn place_within(
    connection: &mut DbConnection,
    order: &ValidOrder,
    (key, earlier_keys, fingerprint): (&str, &[String], &str),
    terms: &PlacingTerms<'_>,
    now: PrimitiveDateTime,
) -> Result<Placed, PlaceError> {
    if let Some(existing) = stored_again(connection, earlier_keys, fingerprint)? {
        return Ok(Placed::Replayed(existing));
    }
    // The number's lock before the windows' (the discount and the prompt limits count under it).
    lock_phone(connection, order.phone.as_str())?;
    let id = crate::db::new_key();
    let reference = unused_reference(connection)?;
    let mut lines = order.lines();
    match terms.pricing {
        Pricing::Catalogue => {
            if let Some(shillings) = terms.first_order_discount.filter(|&shillings| shillings > 0)
                && is_first_order(connection, order.phone.as_str())?
            {
                lines.push(Line::first_order_discount(shillings, lines_total(&lines)));
            }
            if order.rush && terms.schedule.rush_surcharge > 0 {
                lines.push(Line::rush(terms.schedule.rush_surcharge));
            }
        }
        Pricing::FreeReclean { .. } => lines.push(Line::free_reclean(lines_total(&lines))),
    }
    // The spec's service fields describe the main (kg) line; an order of pieces alone says so.
    let (service_type, service_label, quantity, price_per_kg) = match order.by_the_kg {
        Some((service, kg)) => (service.id, service.label, kg, service.price_per_kg as i32),
        None => (PIECES_ONLY.0, PIECES_ONLY.1, 0, 0),
    };
    let row = NewOrderRow {
        id: &id,
        reference: reference.as_str(),
        customer_name: &order.customer_name,
        phone: order.phone.as_str(),
        email: order.email.as_deref(),
        location: &order.location,
        service_type,
        service_label,
        quantity,
        payment_method: order.payment_method,
        special_instructions: &order.special_instructions,
        price_per_kg,
        total_amount: lines_total(&lines),
        status: OrderStatus::Pending,
        idempotency_key: Some(key),
        request_fingerprint: Some(fingerprint),
        created_at: now,
        updated_at: now,
        landmark: &order.landmark,
        pin_lat: order.pin.map(|pin| pin.lat()),
        pin_lng: order.pin.map(|pin| pin.lng()),
        rush: order.rush,
        link_token: &link_token(),
        estimate_amount: lines_total(&lines),
        source: terms.source,
    };
    diesel::insert_into(orders::table).values(&row).execute(connection)?;
    let moment = now.assume_utc();
    // Without a choice, the window is chosen under the windows' locks: one filled by another
    // order at this moment is passed over for the next with room.
    let pickup = match order.pickup {
        Some(pickup) => Stop::book(connection, &id, terms.schedule, pickup, order.rush, moment),
        None => Stop::book_first_open(connection, &id, terms.schedule, order.rush, moment),
    }
    .map_err(book_error)?;
    let taken_by = terms.staff.map(|staff| staff.by);
    if let Some(StaffBooking { by, confirm_slot: true }) = terms.staff {
        Stop::confirm(connection, &id, by, now)?;
    }
    Order::insert_lines(connection, &id, &lines)?;
    // Its ledger: the lines charged, then (below) what store credit the phone number holds pays
    // (under the phone number's lock, taken above: two orders placed at once do not spend it twice).
    money::charge_booking(connection, &id, &lines, now)?;
    // The first entry of the history says who took the order: a staff member, or nobody (the
    // customer placed it).
    diesel::insert_into(order_status_history::table)
        .values((
            order_status_history::order_id.eq(&id),
            order_status_history::status.eq(OrderStatus::Pending),
            order_status_history::changed_at.eq(now),
            order_status_history::changed_by.eq(taken_by),
        ))
        .execute(connection)?;
    let stored = orders::table.find(&id).select(Order::as_select()).first(connection)?;
    // The phone's store credit pays at once only where the phone's owner is the one asking: a
    // staff member on a phone booking, or a text from the phone. A web order names a number anyone
    // could type: its text, which goes to that phone, carries the link that uses the credit.
    let owner_asks = terms.staff.is_some() || terms.source == OrderSource::Sms;
    let credit = if owner_asks {
        match money::use_credit(connection, &stored, now)? {
            0 => None,
            used => Some(CreditNote::Used { used, left: Entry::balance(connection, &id)?.to_pay() }),
        }
    } else {
        match money::credit_usable(connection, &stored)? {
            0 => None,
            amount => {
                let key = link_token();
                Order::set_credit_key(connection, &id, &key)?;
                Some(CreditNote::Offered { amount, key })
            }
        }
    };
    let base_url = &terms.texts.base_url;
    let visit = (pickup, terms.schedule.delivery_for(pickup, stored.rush));
    let emails = email::new_order(&stored, &lines, visit, base_url, &terms.texts.till, now);
    OutboxMessage::enqueue(connection, &emails)?;
    // An order booked by text is answered by the reply to that text, which names the
    // window and the link: a second text saying the same would be noise.
    if terms.source != OrderSource::Sms {
        let confirmed = terms.staff.is_some_and(|staff| staff.confirm_slot);
        let text = match terms.pricing {
            Pricing::FreeReclean { of } => terms.texts.reclean_booked(&stored, of, pickup),
            Pricing::Catalogue => terms.texts.order_received(&stored, Some(pickup), confirmed, credit.as_ref()),
        };
        let sms = OutboxMessage::sms(MessageKind::SmsOrderReceived, Some(&id), &stored.phone, &text, None, now);
        OutboxMessage::enqueue_sms(connection, &sms, &terms.texts.limits)?;
    }
    if terms.mpesa_prompt && stored.payment_method == PaymentMethod::PayNow {
        // Refused for a KSh 0 order, which has nothing to pay; held (written, never sent) when
        // the phone had as many prompts as the limits allow: the pages then give the till.
        let _ = MpesaPrompt::ask_within(connection, &stored, "order", terms.prompt_limits, now)?;
    }
    Ok(Placed::Created(stored))
}

/// What placing an order depends on besides the order: the first-order discount and the schedule.
#[derive(Debug, Clone, Copy)]
pub struct PlacingTerms<'a> {
    /// KSh off a phone number's first order, if the offer is on.
    pub first_order_discount: Option<u32>,
    /// Pickup windows, capacities, cut-off, rush surcharge.
    pub schedule: &'a Schedule,
    /// The words of the customer's texts, and the site's address for the links to the order's
    /// page in them and in the e-mail.
    pub texts: &'a Texts,
    /// How the order came in.
    pub source: OrderSource,
    /// Whether a "Pay Now (M-PESA)" order sends the customer's phone a prompt for its estimate
    /// (M-PESA configured, and the customer is placing it now).
    pub mpesa_prompt: bool,
    /// How its lines are priced.
    pub pricing: Pricing<'a>,
    /// The staff member who took it on the phone or from WhatsApp; none: the customer placed it.
    pub staff: Option<StaffBooking<'a>>,
    /// How many prompts one phone number may be sent (`mpesa_prompt`'s over them is held).
    pub prompt_limits: PromptLimits,
}

impl<'a> PlacingTerms<'a> {
    /// The terms of an order placed by the customer (`source`), priced from the catalogue.
    pub fn new(
        first_order_discount: Option<u32>,
        schedule: &'a Schedule,
        texts: &'a Texts,
        source: OrderSource,
        mpesa_prompt: bool,
    ) -> Self {
        Self {
            first_order_discount,
            schedule,
            texts,
            source,
            mpesa_prompt,
            pricing: Pricing::Catalogue,
            staff: None,
            prompt_limits: PromptLimits::default(),
        }
    }
}

/// How an order's lines are priced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pricing<'a> {
    /// From the catalogue, with the first-order discount and the rush surcharge.
    Catalogue,
    /// A re-clean under the satisfaction guarantee of the order with this order ID: its lines at
    /// their catalogue prices, and as much off ([`Line::free_reclean`]), so that it costs KSh 0.
    FreeReclean {
        /// The order ID of the order cleaned again.
        of: &'a str,
    },
}

/// An order taken by staff for a caller (the same form, rules and prices as the public one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StaffBooking<'a> {
    /// The staff member's e-mail, written as the author of the order's first history entry.
    pub by: &'a str,
    /// Whether the pickup is confirmed with the caller in the same step (recorded as confirmed by
    /// `by`; the order's text then says so).
    pub confirm_slot: bool,
}

/// The key a new order is stored with, and the keys that find it again.
fn keys(idempotency_key: Option<&str>, fingerprint: &str, now: PrimitiveDateTime) -> (String, Vec<String>) {
    match idempotency_key {
        Some(key) => (key.to_owned(), vec![key.to_owned()]),
        None => {
            let [current, previous] = implicit_keys(fingerprint, now);
            (current.clone(), vec![current, previous])
        }
    }
}

/// The order stored under one of `keys` with this `fingerprint`; `KeyReused` for another order's.
fn stored_again(
    connection: &mut DbConnection,
    keys: &[String],
    fingerprint: &str,
) -> Result<Option<Order>, PlaceError> {
    let existing: Option<Order> = orders::table
        .filter(orders::idempotency_key.eq_any(keys))
        .select(Order::as_select())
        .first(connection)
        .optional()?;
    match existing {
        Some(existing) if existing.request_fingerprint.as_deref() == Some(fingerprint) => Ok(Some(existing)),
        Some(_) => Err(PlaceError::KeyReused),
        None => Ok(None),
    }
}

fn book_error(error: BookError) -> PlaceError {
    match error {
        BookError::Refused(refusal) => PlaceError::Slot(refusal),
        BookError::Database(error) => PlaceError::Database(error),
    }
}

/// 16 random lower-case letters and digits (about 82 bits): the order page's token, `/t/{token}`.
fn link_token() -> String {
    use rand::Rng;
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
    let mut random = rand::rng();
    (0..16).map(|_| char::from(ALPHABET[random.random_range(0..ALPHABET.len())])).collect()
}

/// The service type and label of an order of pieces alone (it has no kg line; its kg are 0).
pub const PIECES_ONLY: (&str, &str) = ("pieces", "Items by the piece");

/// Whether `phone` has no order yet that was not cancelled. Two first orders from one phone at
/// once get one discount: SQLite's write transactions run one at a time; on PostgreSQL a lock on
/// the phone number, held to the end of the transaction, makes the second wait for the first and
/// then count it.
fn is_first_order(connection: &mut DbConnection, phone: &str) -> QueryResult<bool> {
    lock_phone(connection, phone)?;
    let earlier: i64 = orders::table
        .filter(orders::phone.eq(phone))
        .filter(orders::status.ne(OrderStatus::Cancelled))
        .count()
        .get_result(connection)?;
    Ok(earlier == 0)
}

fn unused_reference(connection: &mut DbConnection) -> QueryResult<OrderReference> {
    loop {
        let candidate = OrderReference::generate();
        let taken: i64 =
            orders::table.filter(orders::reference.eq(candidate.as_str())).count().get_result(connection)?;
        if taken == 0 {
            return Ok(candidate);
        }
    }
}
