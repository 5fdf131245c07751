//! One order opened from the dashboard: everything the customer gave, its lines, its status and
//! payment, its status history and the e-mails about it.

use super::query::{no_such_order, order_id};
use super::{load_failed, private_json};
use crate::auth::CurrentStaff;
use crate::db::DbError;
use crate::error::ApiError;
use crate::models::order::detail::OrderRecord;
use crate::state::AppState;
use crate::views::admin::OrderDetail;
use actix_web::{HttpResponse, web};

/// GET /api/admin/orders/{orderId}: the order with this order ID; 404 for any other string (the
/// internal id included).
pub async fn show_order(
    state: web::Data<AppState>,
    _staff: CurrentStaff,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let reference = order_id(&id)?;
    let record = state
        .db()
        .run(move |connection| OrderRecord::load(connection, &reference).map_err(DbError::from))
        .await
        .map_err(load_failed)?
        .ok_or_else(no_such_order)?;
    Ok(private_json(&OrderDetail::from(&record)))
}
