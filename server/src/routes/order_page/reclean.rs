//! The free re-clean (issue 19), `POST /t/{token}/reclean`: the delivered order's page asks for
//! some of its lines to be cleaned again, saying what is wrong and when to pick them up. Booked, it
//! answers 303 to the new re-clean order's own page; refused or mistyped, the order's page again
//! (422) with each reason next to its field, or above the form, and what was entered kept.

use super::{Outcome, not_found, order_page, posted_to, private};
use crate::clock::stored;
use crate::db::DbError;
use crate::domain::{OrderSource, RecleanInput};
use crate::lifecycle::place::{Placed, PlacingTerms};
use crate::lifecycle::reclean::{self, RecleanError};
use crate::models::order::Order;
use crate::models::reclean::RecleanRefusal;
use crate::state::AppState;
use crate::views::reclean::RecleanForm;
use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};

/// When the re-clean could not be stored.
const ASK_FAILED: &str = "Your re-clean could not be booked. Please try again, or call or WhatsApp us.";

/// POST /t/{token}/reclean: `line` (repeated: the positions of the lines to clean again),
/// `problem` (what is wrong) and `pickup` (`2026-11-25T19:00`).
pub async fn ask_reclean(
    state: web::Data<AppState>,
    request: HttpRequest,
    token: web::Path<String>,
    body: web::Bytes,
) -> HttpResponse {
    let token = match posted_to(&state, &request, token).await {
        Ok(token) => token,
        Err(refused) => return refused,
    };
    let input = RecleanInput::from_form(&body).unwrap_or_default();
    let mut form = RecleanForm {
        lines: input.lines.clone(),
        problem: input.problem.clone(),
        pickup: input.pickup.clone(),
        ..RecleanForm::default()
    };
    let asked = match input.validate() {
        Ok(asked) => asked,
        Err(errors) => {
            form.errors = errors;
            return order_page(&state, &request, &token, Outcome::reclean(form, 422)).await;
        }
    };
    let settings = state.settings();
    let (schedule, texts, days) = (settings.schedule.clone(), state.texts().clone(), settings.reclean_days);
    // The window is judged, and the new order placed, at one moment of the settings' clock.
    let now = stored(settings.clock.now());
    let key = token.clone();
    let booked = state
        .db()
        .run(move |c| {
            let Some(original) = Order::find_by_link_token(c, &key)? else { return Ok(None) };
            let terms = PlacingTerms::new(None, &schedule, &texts, OrderSource::Web, false);
            match reclean::ask(c, &original.id, &asked, &terms, days, now, now) {
                Ok(placed) => Ok(Some(Ok((original.reference, placed)))),
                Err(RecleanError::Refused(refusal)) => Ok(Some(Err(refusal))),
                Err(RecleanError::NoSuchOrder) => Ok(None),
                Err(RecleanError::Database(error)) => Err(DbError::Query(error)),
            }
        })
        .await;
    match booked {
        Ok(Some(Ok((of, placed)))) => {
            let fresh = matches!(placed, Placed::Created(_));
            let reclean = placed.order();
            if fresh {
                tracing::info!(order_id = %reclean.reference, of = %of, "free re-clean booked by the customer");
                state.wake_outbox();
            }
            let Some(new_token) = reclean.link_token.as_deref() else { return not_found(&state, &request).await };
            private(
                HttpResponse::SeeOther()
                    .insert_header((header::LOCATION, format!("/t/{new_token}?done=reclean")))
                    .finish(),
            )
        }
        Ok(Some(Err(refusal))) => {
            tracing::info!(reason = %refusal, "free re-clean refused");
            refused(&mut form, &refusal);
            order_page(&state, &request, &token, Outcome::reclean(form, 422)).await
        }
        Ok(None) => not_found(&state, &request).await,
        Err(error) => {
            tracing::error!(%error, "booking a free re-clean failed");
            form.alert = Some(ASK_FAILED.to_owned());
            order_page(&state, &request, &token, Outcome::reclean(form, 500)).await
        }
    }
}

/// Puts the reason next to its field, or above the form.
fn refused(form: &mut RecleanForm, refusal: &RecleanRefusal) {
    match refusal.field() {
        Some(field) => form.errors.add(field, refusal.to_string()),
        None => form.alert = Some(refusal.to_string()),
    }
}
