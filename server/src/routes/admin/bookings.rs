//! Bookings staff take for a caller, on the phone or from a WhatsApp chat: the form's choices and
//! placing the order. The order goes through the one path every order form takes
//! ([`placing::place`]): the same validation, prices, pickup windows and texts as the public form,
//! recorded as taken by the staff member and by phone or WhatsApp.

use super::{json_body, load_failed, private_json};
use crate::auth::CurrentStaff;
use crate::db::DbError;
use crate::domain::{OrderInput, OrderSource, StaffRole};
use crate::error::ApiError;
use crate::lifecycle::place::Placed;
use crate::models::stop::Stop;
use crate::routes::placing::{self, Placer};
use crate::state::AppState;
use crate::views::booking::{BookingForm, BookingPlaced};
use crate::views::pages::CatalogueProps;
use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;
use serde_json::Value;

/// What the panel sends: the public order's fields, how the booking came in, and whether the
/// pickup window was agreed on the call.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct BookingBody {
    #[serde(flatten)]
    order: OrderInput,
    source: Option<Value>,
    confirm_slot: Option<Value>,
}

/// What staff read next to the panel's source field.
const SOURCE_NEEDED: &str = "Please choose how the booking came in: Phone or WhatsApp.";
/// For a client that sent something else than a boolean.
const CONFIRM_NOT_READ: &str = "Confirm the pickup window with true or false.";

impl BookingBody {
    /// How it came in and whether the slot is confirmed, or 422 with every field's message (the
    /// order's own checked by the one validation, so the panel shows them all at once).
    fn terms(&self) -> Result<(OrderSource, bool), ApiError> {
        let source = match self.source.as_ref().and_then(Value::as_str).map(str::trim) {
            Some("phone") => Some(OrderSource::Phone),
            Some("whatsapp") => Some(OrderSource::Whatsapp),
            _ => None,
        };
        let confirm_slot = match &self.confirm_slot {
            None | Some(Value::Null) => Some(false),
            Some(Value::Bool(confirm)) => Some(*confirm),
            Some(_) => None,
        };
        if let (Some(source), Some(confirm_slot)) = (source, confirm_slot) {
            return Ok((source, confirm_slot));
        }
        let mut errors = self.order.clone().validate().err().unwrap_or_default();
        if source.is_none() {
            errors.add("source", SOURCE_NEEDED);
        }
        if confirm_slot.is_none() {
            errors.add("confirmSlot", CONFIRM_NOT_READ);
        }
        Err(ApiError::invalid(errors))
    }
}

/// POST /api/admin/orders: places an order for a caller (owner and staff accounts; the guard
/// keeps valets out). 201 with the order, its pickup window and whether it was confirmed; 422
/// with a message per field as `POST /api/orders`; the same `Idempotency-Key` again gives the same
/// order (`Idempotent-Replayed: true`), with other details 409.
pub async fn create_booking(
    state: web::Data<AppState>,
    staff: CurrentStaff,
    request: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    if staff.role == StaffRole::Valet {
        return Err(ApiError::Forbidden("Only owner and staff accounts take bookings.".to_owned()));
    }
    let body: BookingBody =
        json_body(&body, r#"a JSON object with the order's fields and "source": "phone" or "whatsapp""#)?;
    let key = placing::key_header(&request)?;
    let (source, confirm_slot) = body.terms()?;
    let placer = Placer::Staff { by: staff.email.clone(), source, confirm_slot };
    let (placed, lines) = placing::place(&state, placer, body.order, key).await?;
    let replayed = matches!(placed, Placed::Replayed(_));
    let order = placed.order().clone();
    let order_id = order.id.clone();
    let stops = state
        .db()
        .run(move |connection| Stop::for_order(connection, &order_id).map_err(DbError::from))
        .await
        .map_err(load_failed)?;
    tracing::info!(order_id = %order.reference, staff = %staff.email, source = %source.as_str(), confirm_slot, "booking taken by staff");
    Ok(HttpResponse::Created()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .insert_header(("Idempotent-Replayed", if replayed { "true" } else { "false" }))
        .json(BookingPlaced::new(&order, &lines, &stops, replayed)))
}

/// GET /api/admin/booking-form: the services and the pickup windows with places left now, for
/// the panel (fetched when it opens, so the places are those of the moment).
pub async fn booking_form(state: web::Data<AppState>, _staff: CurrentStaff) -> HttpResponse {
    let form = BookingForm {
        catalogue: CatalogueProps::new(state.settings().first_order_discount),
        pickup: crate::routes::pickup_choices(&state).await,
        prompts: state.sends_prompts(),
    };
    private_json(&form)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn body(json: &str) -> BookingBody {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn the_source_and_the_confirmation_are_read_apart_from_the_order() {
        let booking =
            body(r#"{"customerName": "Amina", "source": "whatsapp", "confirmSlot": true, "piece.shirt": "2"}"#);
        assert_eq!(booking.terms().unwrap(), (OrderSource::Whatsapp, true));
        assert_eq!(booking.order.customer_name.as_deref(), Some("Amina"));
        assert!(!booking.order.other.contains_key("source"));
        assert!(booking.order.other.contains_key("piece.shirt"));
    }

    #[test]
    fn a_missing_or_unknown_source_is_named_with_the_orders_other_mistakes() {
        for json in [r#"{}"#, r#"{"source": "web"}"#, r#"{"source": "sms"}"#, r#"{"source": 1}"#] {
            let Err(ApiError::Invalid { fields, .. }) = body(json).terms() else { panic!("{json} accepted") };
            assert_eq!(fields.get("source"), Some(SOURCE_NEEDED), "{json}");
            assert!(fields.get("customerName").is_some(), "{json}");
        }
        let Err(ApiError::Invalid { fields, .. }) = body(r#"{"source": "phone", "confirmSlot": "yes"}"#).terms() else {
            panic!("confirmSlot \"yes\" accepted")
        };
        assert_eq!(fields.get("confirmSlot"), Some(CONFIRM_NOT_READ));
        assert_eq!(body(r#"{"source": "phone"}"#).terms().unwrap(), (OrderSource::Phone, false));
    }
}
