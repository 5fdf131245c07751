//! The one path every order placed through a form takes, whoever fills it in: the customer on
//! `/order` (and its JSON API), or staff on the dashboard for a caller on the phone or WhatsApp.
//! Both validate the same [`OrderInput`], price it from the same catalogue, book the same pickup
//! windows and write the same texts and e-mails ([`lifecycle::place::place`]); what differs is who may place
//! how many ([`Placer`]) and what is recorded of how it came in.

use crate::db::{DbConnection, DbError};
use crate::domain::{FieldErrors, OrderInput, OrderSource, ValidOrder};
use crate::error::ApiError;
use crate::lifecycle;
use crate::lifecycle::place::{PlaceError, Placed, PlacingTerms, StaffBooking};
use crate::models::order::{Order, OrderLine};
use crate::rate_limit::{client_ip, submissions_limited};
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
    // A customer's retry of an order already stored is answered before any limit counts it, so
    // that a replay sent from many addresses costs nothing and is remembered nowhere. A new order
    // is counted before storing, so orders arriving at once cannot pass the limit together, and
    // given back unless it is stored. Staff taking calls are not limited.
    let reservation = match &placer {
        Placer::Customer(request) => {
            if let Some(found) = find_again(state, &order, key.clone()).await? {
                return Ok(found);
            }
            let client = client_ip(state.settings(), request);
            let reserved = state.submission_limit().reserve(client);
            Some(reserved.map_err(|wait| submissions_limited(&state.settings().business, wait))?)
        }
        Placer::Staff { .. } => None,
    };
    let (first_order_discount, schedule) = (state.settings().first_order_discount, state.settings().schedule.clone());
    let texts = state.texts().clone();
    let mpesa_prompt = state.sends_prompts();
    let prompt_limits = state.settings().mpesa.prompt_limits;
    let clock = state.clock().clone();
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
            let placed = lifecycle::place::place(connection, &order, key.as_deref(), &terms, clock.utc());
            Ok::<_, DbError>(placed.and_then(|placed| with_lines(connection, placed)))
        })
        .await
        .map_err(|source| ApiError::Storage { message: SAVE_FAILED, source })?;
    let outcome = placed.map_err(place_error)?;
    if let (Placed::Created(order), _) = &outcome {
        if let Some(reservation) = reservation {
            reservation.keep();
        }
        tracing::info!(order_id = %order.reference, total_kes = order.total_amount, source = %order.source.as_str(), "order placed");
        state.wake_outbox();
        state.wake_prompts();
    }
    Ok(outcome)
}

/// The order stored before for this one sent again, with its lines; read only.
async fn find_again(
    state: &AppState,
    order: &ValidOrder,
    key: Option<String>,
) -> Result<Option<(Placed, Vec<OrderLine>)>, ApiError> {
    let (order, now) = (order.clone(), state.now());
    let found = state
        .db()
        .run(move |connection| {
            let found = lifecycle::place::find_again(connection, &order, key.as_deref(), now)
                .and_then(|found| found.map(|order| with_lines(connection, Placed::Replayed(order))).transpose());
            Ok::<_, DbError>(found)
        })
        .await
        .map_err(|source| ApiError::Storage { message: SAVE_FAILED, source })?;
    found.map_err(place_error)
}

fn with_lines(connection: &mut DbConnection, placed: Placed) -> Result<(Placed, Vec<OrderLine>), PlaceError> {
    let lines = Order::lines(connection, &placed.order().id)?;
    Ok((placed, lines))
}

fn place_error(error: PlaceError) -> ApiError {
    match error {
        PlaceError::KeyReused => ApiError::KeyReused,
        PlaceError::Slot(refusal) => {
            let mut errors = FieldErrors::default();
            errors.add("pickup", refusal.to_string());
            ApiError::invalid(errors)
        }
        PlaceError::Database(source) => ApiError::Storage { message: SAVE_FAILED, source: DbError::Query(source) },
    }
}
