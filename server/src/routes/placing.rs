//! The one path every order placed through a form takes, whoever fills it in: the customer on
//! `/order` (and its JSON API), or staff on the dashboard for a caller on the phone or WhatsApp.
//! Both validate the same [`OrderInput`], price it from the same catalogue, book the same pickup
//! windows and write the same texts and e-mails ([`Order::place`]); what differs is who may place
//! how many ([`Placer`]) and what is recorded of how it came in.

use crate::clock::now_utc;
use crate::db::DbError;
use crate::domain::{FieldErrors, OrderInput, OrderSource};
use crate::error::ApiError;
use crate::models::order::{Order, OrderLine, PlaceError, Placed, PlacingTerms, StaffBooking};
use crate::rate_limit::{Reservation, client_ip, submissions_limited};
use crate::state::AppState;
use actix_web::HttpRequest;

/// Spec section 8: what a customer reads when the order could not be stored.
pub const SAVE_FAILED: &str = "There was an error saving your order. Please try again.";

/// `Idempotency-Key`: 1 to 100 visible ASCII characters.
pub fn idempotency_key(value: Option<&str>) -> Result<Option<String>, ApiError> {
    match value.map(str::trim) {
        None | Some("") => Ok(None),
        // `reclean:` keys are the site's own, for re-cleans (`models::reclean`).
        Some(key) if key.len() <= 100 && key.bytes().all(|b| b.is_ascii_graphic()) && !key.starts_with("reclean:") => {
            Ok(Some(key.to_owned()))
        }
        Some(_) => Err(bad_key()),
    }
}

/// The request's `Idempotency-Key` header, if it sent one; 400 for one that is not a key.
pub fn key_header(request: &HttpRequest) -> Result<Option<String>, ApiError> {
    match request.headers().get("Idempotency-Key").map(|value| value.to_str()) {
        None => Ok(None),
        Some(Ok(value)) => idempotency_key(Some(value)),
        Some(Err(_)) => Err(bad_key()),
    }
}

fn bad_key() -> ApiError {
    ApiError::BadRequest("The Idempotency-Key must be 1 to 100 visible ASCII characters.".to_owned())
}

/// Who is placing the order.
#[derive(Debug, Clone)]
pub enum Placer<'r> {
    /// The customer, from this request: limited per client address.
    Customer(&'r HttpRequest),
    /// A staff member (by e-mail) for a caller, by phone or WhatsApp; the pickup confirmed with
    /// the caller when `confirm_slot`.
    Staff {
        /// The staff member's e-mail.
        by: String,
        /// [`OrderSource::Phone`] or [`OrderSource::Whatsapp`].
        source: OrderSource,
        /// Whether the pickup window was agreed on the call.
        confirm_slot: bool,
    },
}

/// Validates and stores an order with its lines. `key` is the client's idempotency key: the same
/// order sent again with it (or, without one, within ten minutes) is found again, not stored twice.
pub async fn place(
    state: &AppState,
    placer: Placer<'_>,
    input: OrderInput,
    key: Option<String>,
) -> Result<(Placed, Vec<OrderLine>), ApiError> {
    let order = input.validate().map_err(ApiError::invalid)?;
    // A customer over the limit still gets a retry of an order already stored, not a new one. The
    // count is reserved before storing, so orders arriving at once cannot pass the limit together,
    // and given back unless a new order is stored. Staff taking calls are not limited.
    let reservation: Option<Result<Reservation<'_>, std::time::Duration>> = match &placer {
        Placer::Customer(request) => Some(state.submission_limit().reserve(client_ip(state.settings(), request))),
        Placer::Staff { .. } => None,
    };
    let may_create = reservation.as_ref().is_none_or(Result::is_ok);
    let (first_order_discount, schedule) = (state.settings().first_order_discount, state.settings().schedule.clone());
    let texts = state.texts().clone();
    let mpesa_prompt = state.sends_prompts();
    let prompt_limits = state.settings().mpesa.prompt_limits;
    let (source, staff) = match &placer {
        Placer::Customer(_) => (OrderSource::Web, None),
        Placer::Staff { by, source, confirm_slot } => (*source, Some((by.clone(), *confirm_slot))),
    };
    let placed = state
        .db()
        .run(move |connection| {
            let mut terms = PlacingTerms::new(first_order_discount, &schedule, &texts, source, mpesa_prompt);
            terms.staff = staff.as_ref().map(|(by, confirm_slot)| StaffBooking { by, confirm_slot: *confirm_slot });
            terms.prompt_limits = prompt_limits;
            let placed = Order::place(connection, &order, key.as_deref(), may_create, &terms, now_utc());
            let with_lines = placed.and_then(|placed| {
                let lines = Order::lines(connection, &placed.order().id)?;
                Ok((placed, lines))
            });
            Ok::<_, DbError>(with_lines)
        })
        .await
        .map_err(|source| ApiError::Storage { message: SAVE_FAILED, source })?;
    let outcome = placed.map_err(|error| match error {
        PlaceError::KeyReused => ApiError::KeyReused,
        PlaceError::NewOrdersHeld => submissions_limited(
            &state.settings().business,
            reservation.as_ref().and_then(|reserved| reserved.as_ref().err().copied()).unwrap_or_default(),
        ),
        PlaceError::Slot(refusal) => {
            let mut errors = FieldErrors::default();
            errors.add("pickup", refusal.to_string());
            ApiError::invalid(errors)
        }
        PlaceError::Database(source) => ApiError::Storage { message: SAVE_FAILED, source: DbError::Query(source) },
    })?;
    if let (Placed::Created(order), _) = &outcome {
        if let Some(Ok(reservation)) = reservation {
            reservation.keep();
        }
        tracing::info!(order_id = %order.reference, total_kes = order.total_amount, source = %order.source.as_str(), "order placed");
        state.wake_outbox();
        state.wake_prompts();
    }
    Ok(outcome)
}
