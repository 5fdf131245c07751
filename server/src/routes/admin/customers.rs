//! Finding a caller by their phone number: who they are by their last order, and their earlier
//! orders, for the booking panel.

use super::{load_failed, private_json};
use crate::auth::CurrentStaff;
use crate::db::DbError;
use crate::domain::PhoneNumber;
use crate::error::ApiError;
use crate::models::order::Order;
use crate::state::AppState;
use crate::views::booking::{CustomerLookup, EARLIER_ORDERS};
use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;

/// The query: `?phone=0712 345 678`, as typed.
#[derive(Debug, Deserialize)]
struct LookupQuery {
    phone: Option<String>,
}

/// GET /api/admin/customers?phone=: the number's last order's details (name, e-mail, location,
/// landmark, pin) and its orders newest first, at most [`EARLIER_ORDERS`]; `found: false` for a
/// number that never ordered; 400 with the reason for one that is not a Kenyan number.
pub async fn find_customer(
    state: web::Data<AppState>,
    _staff: CurrentStaff,
    request: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    // Read here rather than by the extractor, so that a bad query is answered in JSON too.
    let query = web::Query::<LookupQuery>::from_query(request.query_string()).ok();
    let typed = query.and_then(|query| query.into_inner().phone).unwrap_or_default();
    let phone = PhoneNumber::parse(&typed).map_err(ApiError::BadRequest)?;
    let number = phone.as_str().to_owned();
    let (orders, lines) = state
        .db()
        .run(move |connection| {
            let orders = Order::recent_for_phone(connection, &number, EARLIER_ORDERS)?;
            let lines = Order::lines_of(connection, &orders)?;
            Ok::<_, DbError>((orders, lines))
        })
        .await
        .map_err(load_failed)?;
    Ok(private_json(&CustomerLookup::new(phone.as_str().to_owned(), &orders, &lines)))
}
