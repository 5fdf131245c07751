//! The forms that change an order from its page: move the pickup, cancel, stop or start the texts.

use super::{Outcome, back_to_page, not_found, order_page, posted};
use crate::db::DbError;
use crate::domain::schedule::parse_slot_value;
use crate::lifecycle::visit::{self, ChangeError, ChangeRefusal};
use crate::models::order::Order;
use crate::models::outbox::OptOut;
use crate::state::AppState;
use crate::views::order_page::ChangeForm;
use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;

/// When a change could not be stored.
const CHANGE_FAILED: &str = "Your change could not be saved. Please try again, or call or WhatsApp us.";
/// The pickup field was missing or unreadable.
const CHOOSE_WINDOW: &str = "Please choose a pickup day and window from the list.";
/// The cancel form without its confirmation.
const CONFIRM_CANCEL: &str = "Please tick the box to confirm that you want to cancel this order.";
/// The texts form without a choice.
const CHOOSE_TEXTS: &str = "Please choose whether to stop or to start text messages.";

/// The reschedule form: `pickup=2026-11-25T19:00`.
#[derive(Debug, Default, Deserialize)]
pub struct RescheduleForm {
    pickup: Option<String>,
}

/// POST /t/{token}/reschedule: moves the pickup (and the delivery with it) to another open window.
pub async fn reschedule_pickup(
    state: web::Data<AppState>,
    request: HttpRequest,
    token: web::Path<String>,
    body: web::Bytes,
) -> HttpResponse {
    let (token, form) = match posted::<RescheduleForm>(&state, &request, token, &body).await {
        Ok(posted) => posted,
        Err(refused) => return refused,
    };
    let Some(to) = form.pickup.as_deref().and_then(parse_slot_value) else {
        return order_page(&state, &request, &token, Outcome::problem(ChangeForm::Reschedule, CHOOSE_WINDOW, 422))
            .await;
    };
    let schedule = state.settings().schedule.clone();
    let (key, now) = (token.clone(), state.now());
    let moved =
        state.db().run(move |c| lift_database_error(visit::reschedule_by_customer(c, &key, &schedule, to, now))).await;
    match moved {
        Ok(Ok(slot)) => {
            tracing::info!(day = %slot.day, window = %slot.window, "pickup moved by the customer");
            back_to_page(&token, "moved")
        }
        Ok(Err(error)) => refused(&state, &request, &token, ChangeForm::Reschedule, error).await,
        Err(error) => {
            tracing::error!(%error, "moving a pickup failed");
            order_page(&state, &request, &token, Outcome::problem(ChangeForm::Reschedule, CHANGE_FAILED, 500)).await
        }
    }
}

/// The missed delivery's form: `delivery=2026-11-27T19:00`.
#[derive(Debug, Default, Deserialize)]
pub struct DeliveryForm {
    delivery: Option<String>,
}

/// POST /t/{token}/delivery: books a delivery the valet missed again, in another window.
pub async fn reschedule_delivery(
    state: web::Data<AppState>,
    request: HttpRequest,
    token: web::Path<String>,
    body: web::Bytes,
) -> HttpResponse {
    let (token, form) = match posted::<DeliveryForm>(&state, &request, token, &body).await {
        Ok(posted) => posted,
        Err(refused) => return refused,
    };
    let Some(to) = form.delivery.as_deref().and_then(parse_slot_value) else {
        let problem =
            Outcome::problem(ChangeForm::Delivery, "Please choose a delivery day and window from the list.", 422);
        return order_page(&state, &request, &token, problem).await;
    };
    let schedule = state.settings().schedule.clone();
    let (key, now) = (token.clone(), state.now());
    let moved = state
        .db()
        .run(move |c| lift_database_error(visit::reschedule_missed_delivery(c, &key, &schedule, to, now)))
        .await;
    match moved {
        Ok(Ok(slot)) => {
            tracing::info!(day = %slot.day, window = %slot.window, "missed delivery booked again by the customer");
            back_to_page(&token, "delivery-moved")
        }
        Ok(Err(error)) => refused(&state, &request, &token, ChangeForm::Delivery, error).await,
        Err(error) => {
            tracing::error!(%error, "booking a missed delivery again failed");
            order_page(&state, &request, &token, Outcome::problem(ChangeForm::Delivery, CHANGE_FAILED, 500)).await
        }
    }
}

/// The cancel form: `confirm=yes` (a checkbox).
#[derive(Debug, Default, Deserialize)]
pub struct CancelForm {
    confirm: Option<String>,
}

/// POST /t/{token}/cancel: cancels the order and frees its pickup's place, once confirmed.
pub async fn cancel_order(
    state: web::Data<AppState>,
    request: HttpRequest,
    token: web::Path<String>,
    body: web::Bytes,
) -> HttpResponse {
    let (token, form) = match posted::<CancelForm>(&state, &request, token, &body).await {
        Ok(posted) => posted,
        Err(refused) => return refused,
    };
    if !matches!(form.confirm.as_deref().map(str::trim), Some("yes" | "on" | "true" | "1")) {
        return order_page(&state, &request, &token, Outcome::problem(ChangeForm::Cancel, CONFIRM_CANCEL, 422)).await;
    }
    let schedule = state.settings().schedule.clone();
    let notify = state.notify_customer();
    let (key, now) = (token.clone(), state.now());
    let cancelled =
        state.db().run(move |c| lift_database_error(visit::cancel_by_customer(c, &key, &schedule, &notify, now))).await;
    match cancelled {
        Ok(Ok(order)) => {
            tracing::info!(order_id = %order.reference, "order cancelled by the customer");
            state.wake_outbox();
            back_to_page(&token, "cancelled")
        }
        Ok(Err(error)) => refused(&state, &request, &token, ChangeForm::Cancel, error).await,
        Err(error) => {
            tracing::error!(%error, "cancelling an order failed");
            order_page(&state, &request, &token, Outcome::problem(ChangeForm::Cancel, CHANGE_FAILED, 500)).await
        }
    }
}

/// The texts form: `texts=off` (stop) or `texts=on` (send them again).
#[derive(Debug, Default, Deserialize)]
pub struct TextsForm {
    texts: Option<String>,
}

/// POST /t/{token}/texts: the order's phone number gets no more text messages (`texts=off`), from
/// this order or any other, or gets them again (`texts=on`).
pub async fn choose_texts(
    state: web::Data<AppState>,
    request: HttpRequest,
    token: web::Path<String>,
    body: web::Bytes,
) -> HttpResponse {
    let (token, form) = match posted::<TextsForm>(&state, &request, token, &body).await {
        Ok(posted) => posted,
        Err(refused) => return refused,
    };
    let off = match form.texts.as_deref().map(str::trim) {
        Some("off") => true,
        Some("on") => false,
        _ => {
            return order_page(&state, &request, &token, Outcome::problem(ChangeForm::Texts, CHOOSE_TEXTS, 422)).await;
        }
    };
    let (key, now) = (token.clone(), state.now());
    let chosen = state
        .db()
        .run(move |c| {
            let Some(order) = Order::find_by_link_token(c, &key)? else { return Ok(None) };
            if off {
                OptOut::opt_out(c, &order.phone, Some(&order.id), now)?;
            } else {
                OptOut::opt_in(c, &order.phone)?;
            }
            Ok::<_, DbError>(Some(order.reference))
        })
        .await;
    match chosen {
        Ok(Some(reference)) => {
            tracing::info!(order_id = %reference, texts_off = off, "text messages chosen on the order's page");
            back_to_page(&token, if off { "texts-off" } else { "texts-on" })
        }
        Ok(None) => not_found(&state, &request).await,
        Err(error) => {
            tracing::error!(%error, "choosing text messages failed");
            order_page(&state, &request, &token, Outcome::problem(ChangeForm::Texts, CHANGE_FAILED, 500)).await
        }
    }
}

/// A change's database failure as the one error the handlers log; refusals stay answers.
fn lift_database_error<T>(changed: Result<T, ChangeError>) -> Result<Result<T, ChangeError>, DbError> {
    match changed {
        Err(ChangeError::Database(error)) => Err(DbError::Query(error)),
        other => Ok(other),
    }
}

/// The page again with the reason next to `form`: 409 (the order or the window does not allow
/// it), 422 for a window that is not one of the schedule's; 404 when no order has the page.
async fn refused(
    state: &AppState,
    request: &HttpRequest,
    token: &str,
    form: ChangeForm,
    error: ChangeError,
) -> HttpResponse {
    let refusal = match error {
        ChangeError::Refused(refusal) => refusal,
        _ => return not_found(state, request).await,
    };
    let status = match refusal {
        ChangeRefusal::Slot(crate::domain::schedule::SlotRefusal::NoSuchWindow) => 422,
        _ => 409,
    };
    order_page(state, request, token, Outcome::problem(form, refusal.to_string(), status)).await
}
