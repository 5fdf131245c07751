//! Orders and their status history: the row and finding one. Its lines and its bills (weighed at
//! pickup) have files of their own; its money is its ledger's (`models::ledger`); the staff's list and one order's record are read
//! models beside it (`models::order_list`, `models::order_detail`); changing its status is
//! `lifecycle`'s.

pub mod bill;
mod lines;

pub use lines::OrderLine;

use crate::db::DbConnection;
use crate::db::schema::{order_status_history, orders};
use crate::domain::{OrderReference, OrderSource, OrderStatus, PaymentMethod};
use diesel::prelude::*;
use std::collections::HashMap;
use time::PrimitiveDateTime;

/// A stored order.
#[derive(Debug, Clone, PartialEq, Queryable, Selectable)]
#[diesel(table_name = orders)]
pub struct Order {
    /// The database's key (UUID v4): it never leaves the server.
    pub id: String,
    /// The order ID: the 8 characters customers, e-mails and staff read, and tracking takes.
    pub reference: String,
    /// Full name.
    pub customer_name: String,
    /// `+2547XXXXXXXX`.
    pub phone: String,
    /// If given.
    pub email: Option<String>,
    /// Pickup location.
    pub location: String,
    /// The main (kg) line's catalogue id.
    pub service_type: String,
    /// The main line's catalogue label at the time of the order.
    pub service_label: String,
    /// The main line's whole kg.
    pub quantity: i32,
    /// How the customer chose to pay.
    pub payment_method: PaymentMethod,
    /// Possibly empty.
    pub special_instructions: String,
    /// The main line's catalogue price per kg at the time of the order.
    pub price_per_kg: i32,
    /// The sum of the order's lines ([`OrderLine`]), computed by the server.
    pub total_amount: i32,
    /// Where the order is.
    pub status: OrderStatus,
    /// The client's `Idempotency-Key`, if it sent one.
    pub idempotency_key: Option<String>,
    /// Digest of the accepted values, to refuse a reused key with another order.
    pub request_fingerprint: Option<String>,
    /// UTC.
    pub created_at: PrimitiveDateTime,
    /// UTC.
    pub updated_at: PrimitiveDateTime,
    /// A landmark beside the location; possibly empty.
    pub landmark: String,
    /// The map pin's latitude, degrees, if the customer shared their position.
    pub pin_lat: Option<f64>,
    /// The map pin's longitude, degrees.
    pub pin_lng: Option<f64>,
    /// Next-day delivery.
    pub rush: bool,
    /// The unguessable token of the order's own page, `/t/{token}`.
    pub link_token: Option<String>,
    /// The total when the order was placed, from the customer's estimate; `total_amount` is the
    /// bill, which changes when the laundry is weighed at pickup.
    pub estimate_amount: i32,
    /// How the order came in.
    pub source: OrderSource,
    /// Why staff cancelled it, if they did.
    pub cancel_reason: Option<String>,
}

/// One change of an order's status.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = order_status_history)]
pub struct StatusChange {
    /// The new status.
    pub status: OrderStatus,
    /// When, UTC.
    pub changed_at: PrimitiveDateTime,
    /// The staff member, if a person made the change.
    pub changed_by: Option<String>,
}

impl Order {
    /// The order with this reference.
    pub fn find_by_reference(connection: &mut DbConnection, reference: &OrderReference) -> QueryResult<Option<Order>> {
        orders::table
            .filter(orders::reference.eq(reference.as_str()))
            .select(Order::as_select())
            .first(connection)
            .optional()
    }

    /// The newest orders of this phone number (stored form), at most `limit`.
    pub fn recent_for_phone(connection: &mut DbConnection, phone: &str, limit: i64) -> QueryResult<Vec<Order>> {
        orders::table
            .filter(orders::phone.eq(phone))
            .order(orders::created_at.desc())
            .limit(limit)
            .select(Order::as_select())
            .load(connection)
    }

    /// The order's status changes, oldest first.
    pub fn history(connection: &mut DbConnection, order_id: &str) -> QueryResult<Vec<StatusChange>> {
        order_status_history::table
            .filter(order_status_history::order_id.eq(order_id))
            .order((order_status_history::changed_at.asc(), order_status_history::id.asc()))
            .select(StatusChange::as_select())
            .load(connection)
    }

    /// How many orders are stored.
    pub fn count(connection: &mut DbConnection) -> QueryResult<i64> {
        orders::table.count().get_result(connection)
    }
    /// The order whose page is `/t/{token}`.
    pub fn find_by_link_token(connection: &mut DbConnection, token: &str) -> QueryResult<Option<Order>> {
        orders::table.filter(orders::link_token.eq(token)).select(Order::as_select()).first(connection).optional()
    }

    /// Keeps the hash of `key`, the key of the link texted to the order's phone that lets its
    /// owner use the phone's store credit on the order (`/t/{token}?credit={key}`).
    pub fn set_credit_key(connection: &mut DbConnection, id: &str, key: &str) -> QueryResult<()> {
        diesel::update(orders::table.find(id))
            .set(orders::credit_key_hash.eq(crate::domain::secret::token_hash(key)))
            .execute(connection)
            .map(|_| ())
    }

    /// Whether `key` is the key of the link texted to the order's phone (an order without one has
    /// no such link).
    pub fn credit_key_matches(connection: &mut DbConnection, id: &str, key: &str) -> QueryResult<bool> {
        let kept: Option<Option<String>> =
            orders::table.find(id).select(orders::credit_key_hash).first(connection).optional()?;
        Ok(kept.flatten().is_some_and(|hash| {
            !key.is_empty() && crate::domain::secret::same_secret(&hash, &crate::domain::secret::token_hash(key))
        }))
    }

    /// Locks the order's row to the end of the transaction (PostgreSQL; SQLite writes one
    /// transaction at a time). Every path that changes an order and its stops takes this lock
    /// first, so two of them never wait on each other in opposite orders.
    pub fn lock(connection: &mut DbConnection, id: &str) -> QueryResult<()> {
        if let DbConnection::Postgres(pg) = connection {
            diesel::sql_query("SELECT id FROM orders WHERE id = $1 FOR UPDATE")
                .bind::<diesel::sql_types::Text, _>(id)
                .execute(pg)?;
        }
        Ok(())
    }

    /// The map pin, if the customer shared one.
    pub fn pin(&self) -> Option<crate::domain::Pin> {
        self.pin_lat.zip(self.pin_lng).map(|(lat, lng)| crate::domain::Pin::from_degrees(lat, lng))
    }

    /// The order with this id.
    pub fn find(connection: &mut DbConnection, id: &str) -> QueryResult<Option<Order>> {
        orders::table.find(id).select(Order::as_select()).first(connection).optional()
    }

    /// The orders `ids` (internal ids), by id.
    pub fn find_many(connection: &mut DbConnection, ids: &[&str]) -> QueryResult<HashMap<String, Order>> {
        let mut found = HashMap::new();
        for chunk in ids.chunks(500) {
            let orders: Vec<Order> =
                orders::table.filter(orders::id.eq_any(chunk)).select(Order::as_select()).load(connection)?;
            found.extend(orders.into_iter().map(|order| (order.id.clone(), order)));
        }
        Ok(found)
    }

    /// The order IDs of the orders `ids` (internal ids), by id.
    pub fn references(connection: &mut DbConnection, ids: &[&str]) -> QueryResult<HashMap<String, String>> {
        if ids.is_empty() {
            return Ok(HashMap::new());
        }
        Ok(orders::table
            .filter(orders::id.eq_any(ids))
            .select((orders::id, orders::reference))
            .load::<(String, String)>(connection)?
            .into_iter()
            .collect())
    }
}
