//! Asking for a free re-clean (issue 19): a customer not satisfied with a delivered order asks,
//! within a number of days of its delivery, for some of its lines to be cleaned again. The
//! re-clean is a new order placed by the same path as every order
//! ([`place::place_in_transaction`]), priced at KSh 0
//! ([`Pricing::FreeReclean`]), with its own pickup, run and texts, and linked to the order it
//! cleans again ([`Reclean::insert`]). What a delivered order offers and why an ask is refused are
//! `models::reclean`'s.

use crate::db::schema::{orders, reclean_lines, recleans};
use crate::db::{DbConnection, write_transaction};
use crate::domain::schedule::nairobi_day;
use crate::domain::{LineKind, OrderStatus, PaymentMethod, PhoneNumber, RecleanRequest, ValidOrder, catalogue};
use crate::lifecycle::place::{self, PlaceError, Placed, PlacingTerms, Pricing};
use crate::models::order::{Order, OrderLine};
use crate::models::reclean::{Reclean, RecleanRefusal};
use diesel::prelude::*;
use diesel::result::Error as DieselError;
use std::collections::BTreeMap;
use time::PrimitiveDateTime;

/// Why [`ask`] stored nothing.
#[derive(Debug, thiserror::Error)]
pub enum RecleanError {
    /// Refused, with the reason.
    #[error(transparent)]
    Refused(#[from] RecleanRefusal),
    /// No order is behind the link.
    #[error("no such order")]
    NoSuchOrder,
    /// The database failed.
    #[error(transparent)]
    Database(#[from] DieselError),
}

/// Books a re-clean of the lines `request` names of the delivered order with key
/// `original_id`, in one transaction: the new order (at KSh 0, pickup in the window asked
/// for, its texts and e-mails) and its link. The same request sent again finds the re-clean
/// it booked. `terms` gives the schedule and the texts; the pricing, source and prompts are
/// the re-clean's own.
///
/// Two moments, as two clocks may tell them: the window is judged at `now` (the settings'
/// clock, which tests move past the window; the delivery it counts from is stamped by the
/// system's), and the new order is placed, stamped and its pickup checked at `placed_at`, the
/// system's time every order is placed at (`routes::placing`) and the page's windows are
/// offered at. In production both are the system's.
pub fn ask(
    connection: &mut DbConnection,
    original_id: &str,
    request: &RecleanRequest,
    terms: &PlacingTerms<'_>,
    days: u32,
    now: PrimitiveDateTime,
    placed_at: PrimitiveDateTime,
) -> Result<Placed, RecleanError> {
    write_transaction(connection, |connection| {
        // The original's row first, as every path that changes an order takes it: two requests
        // for the same lines at once book one re-clean.
        Order::lock(connection, original_id)?;
        let original = Order::find(connection, original_id)?.ok_or(RecleanError::NoSuchOrder)?;
        if original.status == OrderStatus::Cancelled {
            return Err(RecleanRefusal::Cancelled(original.reference.clone()).into());
        }
        if let Some(of) = Reclean::original_of(connection, &original.id)? {
            return Err(RecleanRefusal::IsReclean { reference: original.reference.clone(), of }.into());
        }
        release_cancelled(connection, &original.id)?;
        let offer = Reclean::offer(connection, &original, days, now)?
            .ok_or_else(|| RecleanRefusal::NotDelivered(original.reference.clone()))?;
        if !offer.open {
            let delivered = crate::domain::schedule::day_label(nairobi_day(offer.delivered_at.assume_utc()));
            return Err(RecleanRefusal::WindowClosed { reference: original.reference.clone(), days, delivered }.into());
        }
        let chosen: Vec<&(OrderLine, Option<String>)> = request
            .positions
            .iter()
            .map(|position| offer.lines.iter().find(|(line, _)| line.position == *position))
            .collect::<Option<_>>()
            .ok_or(RecleanRefusal::NoSuchLine)?;
        let order = reclean_order(&original, chosen.iter().map(|(line, _)| line), request)?;
        let key = format!(
            "reclean:{}:{}",
            original.id,
            request.positions.iter().map(i32::to_string).collect::<Vec<_>>().join(",")
        );
        // The same request again (a second tap, a reload) is the re-clean it booked.
        let earlier: Option<Order> = orders::table
            .filter(orders::idempotency_key.eq(&key))
            .select(Order::as_select())
            .first(connection)
            .optional()?;
        if let Some(earlier) = earlier.filter(|earlier| earlier.request_fingerprint == Some(order.fingerprint())) {
            return Ok(Placed::Replayed(earlier));
        }
        let mut taken: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for (line, reclean) in &chosen {
            if let Some(reclean) = reclean {
                taken.entry(reclean.as_str()).or_default().push(line.label.as_str());
            }
        }
        if let Some((reclean, labels)) = taken.into_iter().next() {
            let items = labels.join(", ");
            return Err(RecleanRefusal::AlreadyAsked { items, reclean: reclean.to_owned() }.into());
        }
        let terms = PlacingTerms {
            first_order_discount: None,
            mpesa_prompt: false,
            pricing: Pricing::FreeReclean { of: &original.reference },
            staff: None,
            ..*terms
        };
        let placed =
            place::place_in_transaction(connection, &order, &key, &terms, placed_at).map_err(|error| match error {
                PlaceError::Slot(refusal) => RecleanError::Refused(refusal.into()),
                PlaceError::Database(error) => RecleanError::Database(error),
                // Refused only for a key already taken, which the look-up above found.
                PlaceError::KeyReused => RecleanError::Refused(RecleanRefusal::NoSuchLine),
            })?;
        let Placed::Created(reclean) = &placed else { return Ok(placed) };
        diesel::insert_into(recleans::table)
            .values((
                recleans::order_id.eq(&reclean.id),
                recleans::original_order_id.eq(&original.id),
                recleans::problem.eq(&request.problem),
                recleans::requested_at.eq(placed_at),
            ))
            .execute(connection)?;
        for position in &request.positions {
            diesel::insert_into(reclean_lines::table)
                .values((
                    reclean_lines::original_order_id.eq(&original.id),
                    reclean_lines::original_position.eq(position),
                    reclean_lines::reclean_order_id.eq(&reclean.id),
                ))
                .execute(connection)?;
        }
        Ok(placed)
    })
}

/// Gives back the lines of `original_id`'s re-cleans that were cancelled (by the customer or
/// staff), so that they can be asked for again: their `reclean_lines` go, and their key, so that
/// the same request finds a new re-clean rather than the cancelled one. The link itself stays.
fn release_cancelled(connection: &mut DbConnection, original_id: &str) -> QueryResult<()> {
    let cancelled: Vec<String> = recleans::table
        .inner_join(orders::table.on(orders::id.eq(recleans::order_id)))
        .filter(recleans::original_order_id.eq(original_id))
        .filter(orders::status.eq(OrderStatus::Cancelled))
        .select(recleans::order_id)
        .load(connection)?;
    if cancelled.is_empty() {
        return Ok(());
    }
    diesel::delete(reclean_lines::table.filter(reclean_lines::reclean_order_id.eq_any(&cancelled)))
        .execute(connection)?;
    diesel::update(orders::table.filter(orders::id.eq_any(&cancelled)))
        .set(orders::idempotency_key.eq(None::<String>))
        .execute(connection)?;
    Ok(())
}

/// The re-clean of `lines` of `original`, as an order: the customer's details and address of the
/// original, its kg service (at the kg it had) and items, paid on delivery (there is nothing to
/// pay), with what is wrong as its instructions.
fn reclean_order<'a>(
    original: &Order,
    lines: impl Iterator<Item = &'a OrderLine>,
    request: &RecleanRequest,
) -> Result<ValidOrder, RecleanRefusal> {
    let mut by_the_kg = None;
    let mut pieces = Vec::new();
    for line in lines {
        let gone = || RecleanRefusal::NotOnPriceList(line.label.clone());
        match line.kind {
            LineKind::Kg => by_the_kg = Some((catalogue::service(&line.item).ok_or_else(gone)?, line.quantity.max(1))),
            _ => pieces.push((catalogue::price_item(&line.item).ok_or_else(gone)?, line.quantity.max(1))),
        }
    }
    Ok(ValidOrder {
        customer_name: original.customer_name.clone(),
        phone: PhoneNumber::from_stored(&original.phone),
        email: original.email.clone(),
        location: original.location.clone(),
        by_the_kg,
        payment_method: PaymentMethod::PayDelivery,
        special_instructions: format!("Free re-clean of order {}: {}", original.reference, request.problem),
        pieces,
        pickup: request.pickup,
        rush: false,
        landmark: original.landmark.clone(),
        pin: original.pin(),
    })
}
