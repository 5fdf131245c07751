//! An order's lines: written with the order, read with it (one order, or a page of them at once).

use super::Order;
use crate::db::DbConnection;
use crate::db::schema::order_lines;
use crate::domain::catalogue::Unit;
use crate::domain::{Line, LineKind};
use diesel::prelude::*;
use std::collections::HashMap;

/// A stored line of an order, with the label and price it had when the order was placed.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = order_lines)]
pub struct OrderLine {
    /// The order's key.
    pub order_id: String,
    /// 0 for the first line.
    pub position: i32,
    /// Kg, piece or discount.
    pub kind: LineKind,
    /// The catalogue id.
    pub item: String,
    /// The label customers read.
    pub label: String,
    /// Kilograms or pieces.
    pub quantity: i32,
    /// Which of the two.
    pub unit: Unit,
    /// Whole shillings per unit.
    pub unit_price: i32,
    /// Whole shillings; negative for a discount.
    pub amount: i32,
}

impl Order {
    /// Stores `lines` as the lines of order `order_id` (inside the caller's transaction).
    pub fn insert_lines(connection: &mut DbConnection, order_id: &str, lines: &[Line]) -> QueryResult<()> {
        for (position, line) in lines.iter().enumerate() {
            diesel::insert_into(order_lines::table)
                .values((
                    order_lines::order_id.eq(order_id),
                    order_lines::position.eq(position as i32),
                    order_lines::kind.eq(line.kind),
                    order_lines::item.eq(line.item),
                    order_lines::label.eq(line.label),
                    order_lines::quantity.eq(line.quantity),
                    order_lines::unit.eq(line.unit),
                    order_lines::unit_price.eq(line.unit_price),
                    order_lines::amount.eq(line.amount),
                ))
                .execute(connection)?;
        }
        Ok(())
    }

    /// The lines of order `order_id`, first line first.
    pub fn lines(connection: &mut DbConnection, order_id: &str) -> QueryResult<Vec<OrderLine>> {
        order_lines::table
            .filter(order_lines::order_id.eq(order_id))
            .order(order_lines::position.asc())
            .select(OrderLine::as_select())
            .load(connection)
    }

    /// The lines of each of `orders`, by order key, in one query.
    pub fn lines_of(connection: &mut DbConnection, orders: &[Order]) -> QueryResult<HashMap<String, Vec<OrderLine>>> {
        let ids: Vec<&str> = orders.iter().map(|order| order.id.as_str()).collect();
        let mut by_order: HashMap<String, Vec<OrderLine>> = HashMap::new();
        for chunk in ids.chunks(500) {
            let lines: Vec<OrderLine> = order_lines::table
                .filter(order_lines::order_id.eq_any(chunk))
                .order((order_lines::order_id.asc(), order_lines::position.asc()))
                .select(OrderLine::as_select())
                .load(connection)?;
            for line in lines {
                by_order.entry(line.order_id.clone()).or_default().push(line);
            }
        }
        Ok(by_order)
    }
}
