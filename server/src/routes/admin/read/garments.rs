//! An order's garments as the floor and intake pages read them.

use crate::db::DbError;
use crate::error::ApiError;
use crate::models::garments::IntakeRecord;
use crate::models::order::Order;
use crate::routes::admin::query::order_id;
use crate::state::AppState;

/// The order with this order ID and everything traced of it.
pub async fn load(state: &AppState, reference: &str) -> Result<Option<IntakeRecord>, ApiError> {
    let reference = order_id(reference)?;
    state
        .db()
        .run(move |connection| {
            let Some(order) = Order::find_by_reference(connection, &reference)? else { return Ok(None) };
            Ok::<_, DbError>(Some(IntakeRecord::load(connection, order)?))
        })
        .await
        .map_err(crate::routes::admin::load_failed)
}
