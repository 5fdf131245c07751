//! The satisfaction guarantee (issue 19): a customer not satisfied with a delivered order asks,
//! within a number of days of its delivery, for some of its lines to be cleaned again. The
//! re-clean is a new order (booked by `lifecycle::reclean`), linked to the order it cleans again
//! (`recleans`); each line of an order is re-cleaned once (`reclean_lines`' key). This file holds
//! the links, what a delivered order offers, and why an ask is refused.

use crate::db::DbConnection;
use crate::db::schema::{order_status_history, orders, reclean_lines, recleans};
use crate::domain::schedule::{SlotRefusal, nairobi_day};
use crate::domain::{LineKind, OrderStatus};
use crate::models::order::{Order, OrderLine};
use diesel::prelude::*;
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

    /// Stores the link of the new order `reclean_id` to the order `original_id` it cleans again,
    /// with what the customer said is wrong, and takes the original's lines at `positions` (each
    /// line is re-cleaned once: a line taken already is a unique violation).
    pub fn insert(
        connection: &mut DbConnection,
        reclean_id: &str,
        original_id: &str,
        problem: &str,
        positions: &[i32],
        requested_at: PrimitiveDateTime,
    ) -> QueryResult<()> {
        diesel::insert_into(recleans::table)
            .values((
                recleans::order_id.eq(reclean_id),
                recleans::original_order_id.eq(original_id),
                recleans::problem.eq(problem),
                recleans::requested_at.eq(requested_at),
            ))
            .execute(connection)?;
        for position in positions {
            diesel::insert_into(reclean_lines::table)
                .values((
                    reclean_lines::original_order_id.eq(original_id),
                    reclean_lines::original_position.eq(position),
                    reclean_lines::reclean_order_id.eq(reclean_id),
                ))
                .execute(connection)?;
        }
        Ok(())
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
