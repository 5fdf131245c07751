//! Slot confirmation: the pickups awaiting it, and confirming or moving one. Either records who
//! and when and tells the customer by e-mail and text, in the same transaction.

use super::query::{no_such_order, order_id};
use super::{json_body, load_failed, private_json};
use crate::auth::CurrentStaff;
use crate::db::DbError;
use crate::domain::FieldErrors;
use crate::domain::schedule::parse_slot_value;
use crate::error::ApiError;
use crate::lifecycle::slots::{self as slot_confirmation, SlotAction, SlotChangeError};
use crate::state::AppState;
use crate::views::awaiting::SlotConfirmed;
use actix_web::{HttpResponse, web};
use serde::Deserialize;

use super::read::awaiting::load_awaiting;

/// GET /api/admin/unconfirmed: pending orders whose pickup nobody has confirmed, oldest booking
/// first, with the windows they can be moved to, and the orders that wait for staff.
pub async fn list_unconfirmed(state: web::Data<AppState>, _staff: CurrentStaff) -> Result<HttpResponse, ApiError> {
    let (schedule, now) = (state.settings().schedule.clone(), state.now());
    let list = state
        .db()
        .run(move |connection| load_awaiting(connection, &schedule, now).map_err(DbError::from))
        .await
        .map_err(load_failed)?;
    Ok(private_json(&list))
}

/// `{"action": "confirm"}`, `{"action": "move", "pickup": "2026-11-25T20:00"}` or
/// `{"action": "move-delivery", "delivery": "2026-11-27T19:00"}`.
#[derive(Debug, Deserialize)]
struct SlotChange {
    action: String,
    pickup: Option<String>,
    delivery: Option<String>,
}

impl SlotChange {
    fn validate(self) -> Result<SlotAction, ApiError> {
        let mut fields = FieldErrors::default();
        match self.action.trim() {
            "confirm" => return Ok(SlotAction::Confirm),
            "move" => match self.pickup.as_deref().and_then(parse_slot_value) {
                Some(slot) => return Ok(SlotAction::Move(slot)),
                None => fields.add("pickup", "Please choose a pickup day and window from the list."),
            },
            "move-delivery" => match self.delivery.as_deref().and_then(parse_slot_value) {
                Some(slot) => return Ok(SlotAction::MoveDelivery(slot)),
                None => fields.add("delivery", "Please choose a delivery day and window from the list."),
            },
            _ => fields.add("action", "Choose confirm, move or move-delivery."),
        }
        Err(ApiError::invalid(fields))
    }
}

/// POST /api/admin/orders/{orderId}/slot: confirms the pickup slot, or moves it (checked against
/// the schedule and the window's room) and confirms the new one (a missed pickup is booked again
/// so), or moves the delivery (a missed one too). A refusal is a 422 with the reason, and nothing
/// changes.
pub async fn change_slot(
    state: web::Data<AppState>,
    staff: CurrentStaff,
    id: web::Path<String>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let change: SlotChange = json_body(
        &body,
        r#"a JSON object like {"action": "confirm"} or {"action": "move", "pickup": "2026-11-25T20:00"}"#,
    )?;
    let reference = order_id(&id)?;
    let action = change.validate()?;
    let schedule = state.settings().schedule.clone();
    let notify = state.notify_customer();
    let (by, now) = (staff.email.clone(), state.now());
    let answer = state
        .db()
        .run(move |connection| {
            let changed = match slot_confirmation::change_slot(
                connection,
                &reference,
                action,
                &schedule,
                &by,
                &notify,
                now.assume_utc(),
            ) {
                Ok(changed) => changed,
                Err(SlotChangeError::Database(error)) => return Err(DbError::from(error)),
                Err(refused) => return Ok(Err(refused)),
            };
            let awaiting = load_awaiting(connection, &schedule, now)?;
            Ok(Ok((changed, awaiting)))
        })
        .await
        .map_err(|source| ApiError::Storage { message: "The slot could not be saved. Please try again.", source })?;
    let (changed, awaiting) = answer.map_err(refusal)?;
    if changed.changed {
        tracing::info!(order_id = %changed.order.reference, pickup = %changed.pickup.slot().value(), staff = %staff.email, ?action, "pickup slot confirmed");
        state.wake_outbox();
    }
    Ok(private_json(&SlotConfirmed::new(&changed.order, &changed.pickup, changed.delivery.as_ref(), awaiting)))
}

/// The answer to a change that did not happen: 404 for no order, otherwise a 422 whose message is
/// the reason (a refused window names the pickup field).
fn refusal(error: SlotChangeError) -> ApiError {
    let field = match &error {
        SlotChangeError::NoSuchOrder => return no_such_order(),
        SlotChangeError::Refused(_) => "pickup",
        SlotChangeError::Life(_) => "action",
        _ => "action",
    };
    let message = error.to_string();
    let mut fields = FieldErrors::default();
    fields.add(field, message.clone());
    ApiError::Invalid { message, fields }
}
