//! The satisfaction guarantee (issue 19): a customer not satisfied with a delivered order asks,
//! within a number of days of its delivery, for some of its lines to be cleaned again. The
//! re-clean is a new order placed by the same path as every order ([`Order::place_in_transaction`]),
//! priced at KSh 0 ([`Pricing::FreeReclean`]), with its own pickup, run and texts, and linked to
//! the order it cleans again (`recleans`); each line of an order is re-cleaned once
//! (`reclean_lines`' key).

use crate::db::schema::{order_status_history, orders, reclean_lines, recleans};
use crate::db::{DbConnection, write_transaction};
use crate::domain::schedule::{SlotRefusal, nairobi_day};
use crate::domain::{LineKind, OrderStatus, PaymentMethod, PhoneNumber, RecleanRequest, ValidOrder, catalogue};
use crate::models::order::{Order, OrderLine, PlaceError, Placed, PlacingTerms, Pricing};
use diesel::prelude::*;
use diesel::result::Error as DieselError;
use std::collections::{BTreeMap, HashMap};
use time::{Date, Duration, PrimitiveDateTime};

/// A stored link: this order re-cleans that one.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = recleans)]
pub struct Reclean {
    /// The re-clean order's key.
    pub order_id: String,
    /// The key of the delivered order it cleans again.
    pub original_order_id: String,
    /// What the customer said is wrong.
    pub problem: String,
    /// When it was asked for, UTC.
    pub requested_at: PrimitiveDateTime,
}

/// Why a re-clean was not booked; each says why in words the customer can act on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecleanRefusal {
    /// The order is not (or no longer) delivered: nothing has come back to be unhappy with.
    #[error("Order {0} has not been delivered yet: a free re-clean can be asked for once it is delivered.")]
    NotDelivered(String),
    /// The order was cancelled: nothing was cleaned.
    #[error("Order {0} was cancelled, so there is nothing to re-clean.")]
    Cancelled(String),
    /// The order is itself a re-clean: each item is re-cleaned once.
    #[error(
        "Order {reference} is already a free re-clean of order {of}. If something is still wrong, please call or WhatsApp us."
    )]
    IsReclean {
        /// The re-clean's order ID.
        reference: String,
        /// The order ID of the order it cleaned again.
        of: String,
    },
    /// More than the configured days since delivery.
    #[error(
        "A free re-clean can be asked for within {} of delivery, and order {reference} was delivered on {delivered}. Please call or WhatsApp us: we will see what we can do.",
        days_words(*days)
    )]
    WindowClosed {
        /// The order ID.
        reference: String,
        /// The configured days.
        days: u32,
        /// The day of delivery, Nairobi, as customers read it (`Mon 23 Nov`).
        delivered: String,
    },
    /// Some of the lines chosen went for a re-clean before.
    #[error("{items} already went for a free re-clean (order {reclean}): each item is re-cleaned once.")]
    AlreadyAsked {
        /// The lines' labels, joined.
        items: String,
        /// The order ID of the earlier re-clean.
        reclean: String,
    },
    /// A position that is not one of the order's cleaned lines.
    #[error("Some items could not be found on this order. Please choose them again.")]
    NoSuchLine,
    /// The line's service or item is no longer on the price list.
    #[error("{0} is no longer on our price list: please call us to arrange its re-clean.")]
    NotOnPriceList(String),
    /// The pickup window cannot take it.
    #[error(transparent)]
    Slot(#[from] SlotRefusal),
}

/// `1 day`, `7 days`.
pub fn days_words(days: u32) -> String {
    if days == 1 { "1 day".to_owned() } else { format!("{days} days") }
}

impl RecleanRefusal {
    /// The form field the refusal belongs next to; none: above the form.
    pub fn field(&self) -> Option<&'static str> {
        match self {
            RecleanRefusal::NotDelivered(_)
            | RecleanRefusal::Cancelled(_)
            | RecleanRefusal::IsReclean { .. }
            | RecleanRefusal::WindowClosed { .. } => None,
            RecleanRefusal::AlreadyAsked { .. } | RecleanRefusal::NoSuchLine | RecleanRefusal::NotOnPriceList(_) => {
                Some("lines")
            }
            RecleanRefusal::Slot(_) => Some("pickup"),
        }
    }
}

/// Why [`Reclean::ask`] stored nothing.
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

/// What a delivered order's page offers: until when, and which lines (and which of them went for
/// a re-clean already).
#[derive(Debug, Clone, PartialEq)]
pub struct RecleanOffer {
    /// When the order was delivered, UTC.
    pub delivered_at: PrimitiveDateTime,
    /// The last moment a re-clean may be asked for, UTC.
    pub until: PrimitiveDateTime,
    /// Whether that moment is still to come.
    pub open: bool,
    /// The order's cleaned lines (by the kg or the piece), each with the order ID of the re-clean
    /// that took it, if one did.
    pub lines: Vec<(OrderLine, Option<String>)>,
}

impl RecleanOffer {
    /// Whether a re-clean may still be asked for: the window is open and a line is left.
    pub fn askable(&self) -> bool {
        self.open && self.lines.iter().any(|(_, reclean)| reclean.is_none())
    }
}

/// An order's links: the order it re-cleans, and the re-cleans asked of it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RecleanLinks {
    /// The order this one cleans again (its order ID) and what the customer said was wrong.
    pub of: Option<(String, String)>,
    /// The re-cleans of this order: their order ID, when asked, and the labels of their lines.
    pub recleans: Vec<(String, PrimitiveDateTime, Vec<String>)>,
}

impl Reclean {
    /// When the order was last set delivered, UTC; none if it never was.
    pub fn delivered_at(connection: &mut DbConnection, order_id: &str) -> QueryResult<Option<PrimitiveDateTime>> {
        order_status_history::table
            .filter(order_status_history::order_id.eq(order_id))
            .filter(order_status_history::status.eq(OrderStatus::Delivered))
            .select(diesel::dsl::max(order_status_history::changed_at))
            .first(connection)
    }

    /// What `order`'s page offers: none unless it is delivered, and none for a re-clean (each item
    /// is re-cleaned once). `now` is the moment the window is judged at.
    pub fn offer(
        connection: &mut DbConnection,
        order: &Order,
        days: u32,
        now: PrimitiveDateTime,
    ) -> QueryResult<Option<RecleanOffer>> {
        if order.status != OrderStatus::Delivered {
            return Ok(None);
        }
        if Self::original_of(connection, &order.id)?.is_some() {
            return Ok(None);
        }
        let Some(delivered_at) = Self::delivered_at(connection, &order.id)? else { return Ok(None) };
        let until = window_end(delivered_at, days);
        let taken = Self::taken_lines(connection, &order.id)?;
        let lines = Order::lines(connection, &order.id)?
            .into_iter()
            .filter(|line| matches!(line.kind, LineKind::Kg | LineKind::Piece))
            .map(|line| {
                let reclean = taken.get(&line.position).cloned();
                (line, reclean)
            })
            .collect();
        Ok(Some(RecleanOffer { delivered_at, until, open: now <= until, lines }))
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

    /// The positions of `original_id`'s lines that went for a re-clean not cancelled since, with
    /// that re-clean's order ID.
    fn taken_lines(connection: &mut DbConnection, original_id: &str) -> QueryResult<HashMap<i32, String>> {
        let rows: Vec<(i32, String)> = reclean_lines::table
            .inner_join(orders::table.on(orders::id.eq(reclean_lines::reclean_order_id)))
            .filter(reclean_lines::original_order_id.eq(original_id))
            .filter(orders::status.ne(OrderStatus::Cancelled))
            .select((reclean_lines::original_position, orders::reference))
            .load(connection)?;
        Ok(rows.into_iter().collect())
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
            if let Some(of) = Self::original_of(connection, &original.id)? {
                return Err(RecleanRefusal::IsReclean { reference: original.reference.clone(), of }.into());
            }
            Self::release_cancelled(connection, &original.id)?;
            let offer = Self::offer(connection, &original, days, now)?
                .ok_or_else(|| RecleanRefusal::NotDelivered(original.reference.clone()))?;
            if !offer.open {
                let delivered = crate::domain::schedule::day_label(nairobi_day(offer.delivered_at.assume_utc()));
                return Err(
                    RecleanRefusal::WindowClosed { reference: original.reference.clone(), days, delivered }.into()
                );
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
                Order::place_in_transaction(connection, &order, &key, &terms, placed_at).map_err(
                    |error| match error {
                        PlaceError::Slot(refusal) => RecleanError::Refused(refusal.into()),
                        PlaceError::Database(error) => RecleanError::Database(error),
                        // Refused only for a key already taken, which the look-up above found.
                        PlaceError::KeyReused => RecleanError::Refused(RecleanRefusal::NoSuchLine),
                    },
                )?;
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

    /// The order it re-cleans and the re-cleans asked of the order with key `order_id`.
    pub fn links(connection: &mut DbConnection, order_id: &str) -> QueryResult<RecleanLinks> {
        let of: Option<(String, String)> = recleans::table
            .inner_join(orders::table.on(orders::id.eq(recleans::original_order_id)))
            .filter(recleans::order_id.eq(order_id))
            .select((orders::reference, recleans::problem))
            .first(connection)
            .optional()?;
        let asked: Vec<(String, String, PrimitiveDateTime)> = recleans::table
            .inner_join(orders::table.on(orders::id.eq(recleans::order_id)))
            .filter(recleans::original_order_id.eq(order_id))
            .order(recleans::requested_at.asc())
            .select((recleans::order_id, orders::reference, recleans::requested_at))
            .load(connection)?;
        let lines = Order::lines(connection, order_id)?;
        let taken: Vec<(i32, String)> = reclean_lines::table
            .filter(reclean_lines::original_order_id.eq(order_id))
            .select((reclean_lines::original_position, reclean_lines::reclean_order_id))
            .load(connection)?;
        let recleans = asked
            .into_iter()
            .map(|(id, reference, at)| {
                let labels = taken
                    .iter()
                    .filter(|(_, reclean)| *reclean == id)
                    .filter_map(|(position, _)| lines.iter().find(|line| line.position == *position))
                    .map(|line| line.label.clone())
                    .collect();
                (reference, at, labels)
            })
            .collect();
        Ok(RecleanLinks { of, recleans })
    }

    /// The order IDs of the orders among `order_ids` that are re-cleans, with the order ID of the
    /// order each cleans again (for the staff's list).
    pub fn originals_of(connection: &mut DbConnection, order_ids: &[&str]) -> QueryResult<HashMap<String, String>> {
        let mut found = HashMap::new();
        for chunk in order_ids.chunks(500) {
            let rows: Vec<(String, String)> = recleans::table
                .inner_join(orders::table.on(orders::id.eq(recleans::original_order_id)))
                .filter(recleans::order_id.eq_any(chunk))
                .select((recleans::order_id, orders::reference))
                .load(connection)?;
            found.extend(rows);
        }
        Ok(found)
    }

    /// The order ID of the order that the order with key `order_id` cleans again, if it is a re-clean.
    pub fn original_of(connection: &mut DbConnection, order_id: &str) -> QueryResult<Option<String>> {
        Ok(Self::originals_of(connection, &[order_id])?.remove(order_id))
    }

    /// Re-cleans asked for in each of the `count` months (Nairobi's calendar) up to and including
    /// the month of `today` (a Nairobi date), oldest first; a month without any is listed with 0.
    pub fn per_month(connection: &mut DbConnection, count: u32, today: Date) -> QueryResult<Vec<((i32, u8), i64)>> {
        let this_month = first_of_month(today);
        // Back a month at a time: the day before a month's first is in the month before.
        let firsts: Vec<Date> =
            std::iter::successors(Some(this_month), |month| Some(first_of_month(*month - Duration::days(1))))
                .take(count as usize)
                .collect();
        let Some(&first) = firsts.last() else { return Ok(Vec::new()) };
        let mut months: BTreeMap<(i32, u8), i64> =
            firsts.iter().map(|month| ((month.year(), u8::from(month.month())), 0)).collect();
        let next = first_of_month(this_month + Duration::days(31));
        let times: Vec<PrimitiveDateTime> = recleans::table
            .filter(recleans::requested_at.ge(nairobi_midnight(first)))
            .filter(recleans::requested_at.lt(nairobi_midnight(next)))
            .select(recleans::requested_at)
            .load(connection)?;
        for at in times {
            let day = nairobi_day(at.assume_utc());
            if let Some(count) = months.get_mut(&(day.year(), u8::from(day.month()))) {
                *count += 1;
            }
        }
        Ok(months.into_iter().collect())
    }
}

/// The first day of `day`'s month.
fn first_of_month(day: Date) -> Date {
    day.replace_day(1).unwrap_or(day)
}

/// Nairobi's midnight starting `day`, in UTC as stored.
fn nairobi_midnight(day: Date) -> PrimitiveDateTime {
    let at = day.midnight().assume_offset(crate::clock::NAIROBI).to_offset(time::UtcOffset::UTC);
    PrimitiveDateTime::new(at.date(), at.time())
}

/// The last moment (UTC) a re-clean of an order delivered at `delivered_at` may be asked for: the
/// end of the Nairobi day `days` after the day of delivery, the day the pages name ("until Mon 30
/// Nov"), whatever the hour of the delivery.
fn window_end(delivered_at: PrimitiveDateTime, days: u32) -> PrimitiveDateTime {
    let last_day = nairobi_day(delivered_at.assume_utc()) + Duration::days(i64::from(days));
    // Nairobi is UTC+3 all year: its next midnight is 21:00 UTC of the last day.
    (last_day + Duration::days(1)).midnight() - Duration::hours(3) - Duration::seconds(1)
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

#[cfg(test)]
mod tests {
    #[test]
    fn the_window_ends_with_the_nairobi_day_the_pages_name() {
        use time::macros::datetime;
        // Delivered Mon 23 Nov at 20:00 Nairobi (17:00 UTC): open until Mon 30 Nov, 23:59:59 Nairobi.
        assert_eq!(super::window_end(datetime!(2026-11-23 17:00:00), 7), datetime!(2026-11-30 20:59:59));
        // Delivered Mon 23 Nov at 01:00 Nairobi (Sun 22:00 UTC): the same day counts.
        assert_eq!(super::window_end(datetime!(2026-11-22 22:00:00), 7), datetime!(2026-11-30 20:59:59));
        assert_eq!(super::window_end(datetime!(2026-11-23 17:00:00), 1), datetime!(2026-11-24 20:59:59));
    }

    use super::*;
    use time::macros::{date, datetime};

    #[test]
    fn a_month_starts_at_nairobi_midnight_which_is_nine_in_the_evening_utc() {
        assert_eq!(nairobi_midnight(date!(2026 - 12 - 01)), datetime!(2026-11-30 21:00));
        assert_eq!(first_of_month(date!(2026 - 03 - 31)), date!(2026 - 03 - 01));
    }
}
