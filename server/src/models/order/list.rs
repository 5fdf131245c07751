//! The staff's list of orders: filtered by status, searched by name, pickup location, phone or
//! order ID, a page at a time.

use super::{Order, OrderLine};
use crate::db::DbConnection;
use crate::db::schema::orders;
use crate::domain::{OrderReference, OrderStatus, PhoneNumber};
use crate::models::Page;
use diesel::prelude::*;

/// What the staff's order list shows: optionally one status, optionally a search.
#[derive(Debug, Clone, Default)]
pub struct OrderFilter {
    /// Only this status.
    pub status: Option<OrderStatus>,
    /// A name or a pickup location (part of it, any case), a phone number (any usual form, or its
    /// last digits) or an order ID (with or without the '#' the table shows).
    pub search: Option<String>,
}

diesel::define_sql_function! {
    /// SQL `lower`, the same on both backends.
    fn lower(text: diesel::sql_types::Text) -> diesel::sql_types::Text;
}

impl Order {
    /// A page of orders matching `filter`, newest first, each with its lines. `page` counts from 1.
    pub fn page(
        connection: &mut DbConnection,
        filter: &OrderFilter,
        page: i64,
        page_size: i64,
    ) -> QueryResult<Page<(Order, Vec<OrderLine>)>> {
        let query = || {
            let mut query = orders::table.into_boxed();
            if let Some(status) = filter.status {
                query = query.filter(orders::status.eq(status));
            }
            if let Some(search) = filter.search.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
                let pattern = format!("%{}%", escape_like(&search.to_lowercase()));
                let mut matches: Box<dyn BoxableExpression<orders::table, _, SqlType = diesel::sql_types::Bool>> =
                    Box::new(
                        lower(orders::customer_name)
                            .like(pattern.clone())
                            .escape('\\')
                            .or(lower(orders::location).like(pattern).escape('\\')),
                    );
                // The dashboard shows the order ID after '#'; `parse` drops it.
                if let Some(reference) = OrderReference::parse(search) {
                    matches = Box::new(matches.or(orders::reference.eq(reference.as_str().to_owned())));
                }
                if let Ok(phone) = PhoneNumber::parse(search) {
                    matches = Box::new(matches.or(orders::phone.eq(phone.as_str().to_owned())));
                } else {
                    let digits: String = search.chars().filter(char::is_ascii_digit).collect();
                    if digits.len() >= 4 && search.chars().all(|c| c.is_ascii_digit() || " +-".contains(c)) {
                        matches = Box::new(matches.or(orders::phone.like(format!("%{digits}"))));
                    }
                }
                query = query.filter(matches);
            }
            query
        };
        let total = query().count().get_result(connection)?;
        let items = query()
            .order((orders::created_at.desc(), orders::id.desc()))
            .limit(page_size)
            .offset((page.max(1) - 1) * page_size)
            .select(Order::as_select())
            .load(connection)?;
        let mut lines = Order::lines_of(connection, &items)?;
        let items = items
            .into_iter()
            .map(|order| {
                let lines = lines.remove(&order.id).unwrap_or_default();
                (order, lines)
            })
            .collect();
        Ok(Page { items, total })
    }
}

/// `text` with LIKE's wildcards escaped by `\`.
fn escape_like(text: &str) -> String {
    text.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_")
}
