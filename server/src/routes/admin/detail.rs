//! One order opened from the dashboard: everything the customer gave, its lines, its status and
//! payment, its status history, the e-mails and texts about it, and its M-PESA prompts and
//! payments.

use super::query::{no_such_order, order_id};
use super::{load_failed, private_json};
use crate::auth::CurrentStaff;
use crate::db::DbError;
use crate::error::ApiError;
use crate::models::mpesa::{MpesaPrompt, MpesaReceipt};
use crate::models::order_detail::OrderRecord;
use crate::state::AppState;
use crate::views::order_detail::OrderDetail;
use actix_web::{HttpResponse, web};

/// GET /api/admin/orders/{orderId}: the order with this order ID; 404 for any other string (the
/// internal id included).
pub async fn show_order(
    state: web::Data<AppState>,
    _staff: CurrentStaff,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let reference = order_id(&id)?;
    let detail = state
        .db()
        .run(move |connection| {
            let Some(record) = OrderRecord::load(connection, &reference)? else { return Ok(None) };
            let prompts = MpesaPrompt::for_order(connection, &record.order.id)?;
            let payments = MpesaReceipt::for_order(connection, &record.order.id)?;
            Ok::<_, DbError>(Some(OrderDetail::new(&record, &prompts, &payments)))
        })
        .await
        .map_err(load_failed)?
        .ok_or_else(no_such_order)?;
    Ok(private_json(&detail))
}
