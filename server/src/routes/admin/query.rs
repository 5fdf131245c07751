//! What the dashboard's requests name, checked: the list queries (`?status=&payment=&q=&page=`; a bad value
//! is a 400 on the API and the unfiltered list on the page) and the order ID in a path.

use crate::domain::{MessageStatus, OrderReference, OrderStatus, PaymentStatus, TextEnum};
use crate::error::ApiError;
use crate::models::order_list::OrderFilter;
use crate::views::admin::OrdersFilter;
use serde::Deserialize;

/// Orders or messages per page of the dashboard. The first page is rendered on the server, so it is
/// kept small enough to render in a few milliseconds (DESIGN.md: dynamic SSR budget).
pub const PAGE_SIZE: i64 = 20;
/// The highest page number asked for that is taken seriously.
const MAX_PAGE: i64 = 10_000;

/// `?status=&q=&page=` of a list, as sent.
#[derive(Debug, Default, Deserialize)]
pub struct ListQuery {
    /// A status, or `all`.
    pub status: Option<String>,
    /// Orders only: `paid`, `unpaid`, or `all`.
    pub payment: Option<String>,
    /// The orders' search.
    pub q: Option<String>,
    /// From 1.
    pub page: Option<String>,
}

/// `?status=&q=&page=` of the orders list, checked.
#[derive(Debug, Clone, Default)]
pub struct OrdersQuery {
    /// What the list shows.
    pub filter: OrderFilter,
    /// From 1.
    pub page: i64,
}

impl OrdersQuery {
    /// The first page of every order.
    pub fn unfiltered() -> Self {
        OrdersQuery { filter: OrderFilter::default(), page: 1 }
    }

    /// Checks `status`, `q` and `page`.
    pub fn parse(query: &ListQuery) -> Result<Self, ApiError> {
        let status = match chosen(query.status.as_deref()) {
            None => None,
            Some(value) => Some(OrderStatus::parse(value).ok_or_else(|| {
                ApiError::BadRequest(format!("Unknown status '{value}': use one of {}.", OrderStatus::choices()))
            })?),
        };
        let payment = match chosen(query.payment.as_deref()) {
            None => None,
            Some(value) => Some(
                PaymentStatus::parse(value)
                    .ok_or_else(|| ApiError::BadRequest(format!("Unknown payment '{value}': use paid or unpaid.")))?,
            ),
        };
        let search = query.q.as_deref().map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned);
        if search.as_ref().is_some_and(|s| s.chars().count() > 100) {
            return Err(ApiError::BadRequest("The search is too long: at most 100 characters.".to_owned()));
        }
        Ok(OrdersQuery { filter: OrderFilter { status, payment, search }, page: page_number(query.page.as_deref())? })
    }

    /// The filter as the list answers it.
    pub fn view(&self) -> OrdersFilter {
        OrdersFilter {
            status: self.filter.status,
            payment: self.filter.payment,
            q: self.filter.search.clone().unwrap_or_default(),
        }
    }
}

/// The order ID of `/api/admin/orders/{id}/…` (8 characters, as the table shows it after '#').
/// Anything else, the internal id included, names no order: 404.
pub fn order_id(path: &str) -> Result<OrderReference, ApiError> {
    OrderReference::parse(path).ok_or_else(no_such_order)
}

/// 404 for an order ID that names no order.
pub fn no_such_order() -> ApiError {
    ApiError::NotFound("There is no such order.".to_owned())
}

/// A message status filter: `None` for all.
pub fn message_status(value: Option<&str>) -> Result<Option<MessageStatus>, ApiError> {
    match chosen(value) {
        None => Ok(None),
        Some(value) => MessageStatus::parse(value)
            .map(Some)
            .ok_or_else(|| ApiError::BadRequest(format!("Unknown message status '{value}': use new or handled."))),
    }
}

/// A page number from 1 to [`MAX_PAGE`]; 1 when not given.
pub fn page_number(value: Option<&str>) -> Result<i64, ApiError> {
    match value.map(str::trim).filter(|s| !s.is_empty()) {
        None => Ok(1),
        Some(text) => match text.parse::<i64>() {
            Ok(page) if (1..=MAX_PAGE).contains(&page) => Ok(page),
            _ => Err(ApiError::BadRequest(format!("The page must be a whole number from 1 to {MAX_PAGE}."))),
        },
    }
}

/// A filter value that chooses something (not blank, not `all`).
fn chosen(value: Option<&str>) -> Option<&str> {
    value.map(str::trim).filter(|s| !s.is_empty() && *s != "all")
}
