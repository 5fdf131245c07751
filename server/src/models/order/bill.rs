//! An order's bill after the valet weighs and counts at pickup: priced again from the catalogue,
//! and kept with its history in `order_bills` (the customer's estimate first, then each weighing).
//! The order's lines and `total_amount` are the newest bill; `estimate_amount` never changes.

use super::{Order, OrderLine};
use crate::catalogue::{self, Unit};
use crate::db::DbConnection;
use crate::db::schema::{order_bills, order_lines, orders};
use crate::domain::{FieldErrors, Line, LineKind, RECLEAN_ITEM, Weighing, lines_total};
use diesel::prelude::*;
use diesel::result::Error as DieselError;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use time::PrimitiveDateTime;

/// One line of a kept bill, as `order_bills.lines` holds it (a JSON array of these).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BillLine {
    /// Kg, piece, discount or surcharge.
    pub kind: LineKind,
    /// The catalogue id.
    pub item: String,
    /// What customers read.
    pub label: String,
    /// Kilograms or pieces.
    pub quantity: i32,
    /// Which of the two.
    pub unit: Unit,
    /// KSh per unit.
    pub unit_price: i32,
    /// KSh; negative for a discount.
    pub amount: i32,
}

impl From<&OrderLine> for BillLine {
    fn from(line: &OrderLine) -> Self {
        BillLine {
            kind: line.kind,
            item: line.item.clone(),
            label: line.label.clone(),
            quantity: line.quantity,
            unit: line.unit,
            unit_price: line.unit_price,
            amount: line.amount,
        }
    }
}

impl From<&Line> for BillLine {
    fn from(line: &Line) -> Self {
        BillLine {
            kind: line.kind,
            item: line.item.to_owned(),
            label: line.label.to_owned(),
            quantity: line.quantity,
            unit: line.unit,
            unit_price: line.unit_price,
            amount: line.amount,
        }
    }
}

/// A kept bill.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = order_bills)]
pub struct Bill {
    /// Increasing: the newest bill has the highest.
    pub id: i64,
    /// The order's key.
    pub order_id: String,
    /// KSh.
    pub total_amount: i32,
    /// The lines, as JSON ([`Bill::lines`] reads them).
    pub lines: String,
    /// Bags collected; none for the estimate.
    pub bags: Option<i32>,
    /// When, UTC (the estimate: when the order was placed).
    pub recorded_at: PrimitiveDateTime,
    /// The valet or staff member who weighed; none for the customer's estimate.
    pub recorded_by: Option<String>,
}

impl Bill {
    /// The bill's lines.
    pub fn lines(&self) -> Vec<BillLine> {
        serde_json::from_str(&self.lines).unwrap_or_default()
    }

    /// Whether this is the customer's estimate rather than a weighing.
    pub fn is_estimate(&self) -> bool {
        self.recorded_by.is_none()
    }
}

/// A weighing priced from the catalogue, not yet stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PricedWeighing {
    /// The new lines: the kg line, the counted items, then the order's discount and surcharge.
    pub lines: Vec<Line>,
    /// Bags collected.
    pub bags: i32,
    /// Whether the newest weighing already says exactly this (the same form sent again).
    pub unchanged: bool,
}

/// Why a weighing was not stored.
#[derive(Debug, thiserror::Error)]
pub enum BillError {
    /// It does not fit the order (no kg for an order by the kg, say): a message per field.
    #[error("the weighing does not fit the order")]
    Invalid(FieldErrors),
    /// The database failed.
    #[error(transparent)]
    Database(#[from] DieselError),
}

impl Order {
    /// The order's bills, oldest (the estimate) first. Empty until it is first weighed.
    pub fn bills(connection: &mut DbConnection, order_id: &str) -> QueryResult<Vec<Bill>> {
        order_bills::table
            .filter(order_bills::order_id.eq(order_id))
            .order(order_bills::id.asc())
            .select(Bill::as_select())
            .load(connection)
    }

    /// The bags of each of `order_ids`' newest weighing, for those weighed.
    pub fn bags_of(connection: &mut DbConnection, order_ids: &[&str]) -> QueryResult<HashMap<String, i32>> {
        let mut bags = HashMap::new();
        for chunk in order_ids.chunks(500) {
            let rows: Vec<(String, Option<i32>)> = order_bills::table
                .filter(order_bills::order_id.eq_any(chunk))
                .order(order_bills::id.asc())
                .select((order_bills::order_id, order_bills::bags))
                .load(connection)?;
            // Ascending: the newest of each order is written last.
            bags.extend(rows.into_iter().filter_map(|(order, count)| count.map(|count| (order, count))));
        }
        Ok(bags)
    }

    /// Prices `weighing` for this order from the catalogue (inside the caller's transaction):
    /// the order's kg service at the weighed kg, the counted items, and the order's own discount
    /// (its amount kept, capped by the new subtotal) and rush surcharge.
    pub fn price_weighing(
        &self,
        connection: &mut DbConnection,
        weighing: &Weighing,
    ) -> Result<PricedWeighing, BillError> {
        let current = Order::lines(connection, &self.id)?;
        let lines = weighed_lines(&current, weighing).map_err(BillError::Invalid)?;
        let newest = Order::bills(connection, &self.id)?.pop().filter(|bill| !bill.is_estimate());
        let priced: Vec<BillLine> = lines.iter().map(BillLine::from).collect();
        let unchanged = newest.is_some_and(|bill| bill.bags == Some(weighing.bags) && bill.lines() == priced);
        Ok(PricedWeighing { lines, bags: weighing.bags, unchanged })
    }

    /// Makes `priced` the order's bill, inside the caller's transaction: keeps the estimate as the
    /// first bill if this is the first weighing, then this one with its bags, time and `by`;
    /// replaces the order's lines and sets its total (and its main line's kg). Returns the order
    /// as it now is.
    pub fn record_weighing(
        &self,
        connection: &mut DbConnection,
        priced: &PricedWeighing,
        by: &str,
        now: PrimitiveDateTime,
    ) -> QueryResult<Order> {
        let current = Order::lines(connection, &self.id)?;
        if Order::bills(connection, &self.id)?.is_empty() {
            let estimate: Vec<BillLine> = current.iter().map(BillLine::from).collect();
            keep_bill(connection, &self.id, self.total_amount, &estimate, None, self.created_at, None)?;
        }
        let lines: Vec<BillLine> = priced.lines.iter().map(BillLine::from).collect();
        let total = lines_total(&priced.lines);
        keep_bill(connection, &self.id, total, &lines, Some(priced.bags), now, Some(by))?;
        diesel::delete(order_lines::table.filter(order_lines::order_id.eq(&self.id))).execute(connection)?;
        Order::insert_lines(connection, &self.id, &priced.lines)?;
        let main = priced.lines.iter().find(|line| line.kind == LineKind::Kg);
        let (quantity, price_per_kg) = main.map_or((self.quantity, self.price_per_kg), |l| (l.quantity, l.unit_price));
        diesel::update(orders::table.find(&self.id))
            .set((
                orders::total_amount.eq(total),
                orders::quantity.eq(quantity),
                orders::price_per_kg.eq(price_per_kg),
                orders::updated_at.eq(now),
            ))
            .execute(connection)?;
        orders::table.find(&self.id).select(Order::as_select()).first(connection)
    }
}

fn keep_bill(
    connection: &mut DbConnection,
    order_id: &str,
    total: i32,
    lines: &[BillLine],
    bags: Option<i32>,
    at: PrimitiveDateTime,
    by: Option<&str>,
) -> QueryResult<()> {
    let lines = serde_json::to_string(lines).map_err(|error| DieselError::SerializationError(Box::new(error)))?;
    diesel::insert_into(order_bills::table)
        .values((
            order_bills::order_id.eq(order_id),
            order_bills::total_amount.eq(total),
            order_bills::lines.eq(lines),
            order_bills::bags.eq(bags),
            order_bills::recorded_at.eq(at),
            order_bills::recorded_by.eq(by),
        ))
        .execute(connection)?;
    Ok(())
}

/// The lines of an order whose lines were `current`, once weighed and counted: its kg service at
/// the weighed kg (required when it has one), the counted items, its discount (never more than
/// it was, nor than the new subtotal) and its surcharge.
pub fn weighed_lines(current: &[OrderLine], weighing: &Weighing) -> Result<Vec<Line>, FieldErrors> {
    let mut errors = FieldErrors::default();
    let kg_line = current.iter().find(|line| line.kind == LineKind::Kg);
    let main = match (kg_line, weighing.kg) {
        (Some(line), Some(kg)) => match catalogue::service(&line.item) {
            Some(service) => Some(Line::by_the_kg(service, kg)),
            None => {
                errors.add(
                    "kg",
                    format!("{} is no longer on our price list. Ask staff to change the order.", line.label),
                );
                None
            }
        },
        (Some(line), None) => {
            errors.add("kg", format!("Please enter the weighed kg of {}.", line.label));
            None
        }
        (None, Some(_)) => {
            errors.add("kg", "This order has nothing by the kg: leave kg empty and count the items.");
            None
        }
        (None, None) => None,
    };
    let mut lines: Vec<Line> = main.into_iter().collect();
    lines.extend(weighing.pieces.iter().map(|(item, count)| Line::of_item(item, *count)));
    if lines.is_empty() && errors.is_empty() {
        errors.add("pieces", "Count at least one item.");
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let subtotal = lines_total(&lines);
    for line in current {
        match line.kind {
            // A re-clean stays free whatever was weighed; a first-order discount keeps its amount.
            LineKind::Discount if line.item == RECLEAN_ITEM => lines.push(Line::free_reclean(subtotal)),
            LineKind::Discount => lines.push(Line::first_order_discount(line.amount.unsigned_abs(), subtotal)),
            LineKind::Surcharge => lines.push(Line::rush(line.amount.max(0).unsigned_abs())),
            LineKind::Kg | LineKind::Piece => {}
        }
    }
    Ok(lines)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::catalogue::{price_item, service};

    fn stored(lines: &[Line]) -> Vec<OrderLine> {
        lines
            .iter()
            .enumerate()
            .map(|(position, line)| OrderLine {
                order_id: "o".to_owned(),
                position: position as i32,
                kind: line.kind,
                item: line.item.to_owned(),
                label: line.label.to_owned(),
                quantity: line.quantity,
                unit: line.unit,
                unit_price: line.unit_price,
                amount: line.amount,
            })
            .collect()
    }

    #[test]
    fn weighing_reprices_the_kg_and_the_counted_items_from_the_catalogue() {
        let wash = service("wash-fold").unwrap();
        let gown = price_item("graduation-gown").unwrap();
        let current = stored(&[Line::by_the_kg(wash, 3), Line::of_item(gown, 1), Line::rush(300)]);
        let weighing = Weighing { bags: 2, kg: Some(5), pieces: vec![(gown, 2)] };

        let lines = weighed_lines(&current, &weighing).unwrap();

        assert_eq!(lines_total(&lines), 750 + 1400 + 300);
        assert_eq!(lines.last().unwrap().kind, LineKind::Surcharge);
    }

    #[test]
    fn the_discount_keeps_its_amount_but_never_passes_the_new_subtotal() {
        let wash = service("wash-fold").unwrap();
        let current = stored(&[Line::by_the_kg(wash, 3), Line::first_order_discount(200, 450)]);
        let heavier = weighed_lines(&current, &Weighing { bags: 1, kg: Some(5), pieces: vec![] }).unwrap();
        assert_eq!(lines_total(&heavier), 750 - 200);
        let lighter = weighed_lines(&current, &Weighing { bags: 1, kg: Some(1), pieces: vec![] }).unwrap();
        assert_eq!(lines_total(&lighter), 0, "150 of discount at most on a 150 bill");
    }

    #[test]
    fn a_reclean_stays_free_however_much_is_weighed() {
        let wash = service("wash-fold").unwrap();
        let shirt = price_item("shirt").unwrap();
        let current = stored(&[Line::by_the_kg(wash, 3), Line::free_reclean(450)]);
        let weighing = Weighing { bags: 1, kg: Some(6), pieces: vec![(shirt, 2)] };
        let lines = weighed_lines(&current, &weighing).unwrap();
        assert_eq!(lines_total(&lines), 0);
        assert_eq!(lines.last().unwrap().amount, -(900 + 400));
    }

    #[test]
    fn an_order_by_the_kg_needs_its_kg_and_one_of_pieces_alone_must_not_have_any() {
        let wash = service("wash-fold").unwrap();
        let shirt = price_item("shirt").unwrap();
        let by_kg = stored(&[Line::by_the_kg(wash, 3)]);
        let errors = weighed_lines(&by_kg, &Weighing { bags: 1, kg: None, pieces: vec![] }).unwrap_err();
        assert_eq!(errors.get("kg"), Some("Please enter the weighed kg of Wash & Fold."));
        let pieces = stored(&[Line::of_item(shirt, 2)]);
        assert!(weighed_lines(&pieces, &Weighing { bags: 1, kg: Some(2), pieces: vec![] }).is_err());
        let none = weighed_lines(&pieces, &Weighing { bags: 1, kg: None, pieces: vec![] }).unwrap_err();
        assert_eq!(none.get("pieces"), Some("Count at least one item."));
    }
}
