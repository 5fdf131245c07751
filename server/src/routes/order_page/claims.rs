//! Every garment traced, the customer's side (issue 36): `POST /t/{token}/claims` reports a
//! missing or damaged item of a delivered order (which items, what happened, a photo), a plain
//! `multipart/form-data` form that works without JavaScript; `GET /t/{token}/photos/{id}` shows a
//! photo of the order's own items or claims, and nobody else's (404).

use super::{Outcome, not_found, order_page, posted_to, private};
use crate::db::{DbError, write_transaction};
use crate::domain::FieldErrors;
use crate::domain::garment::ClaimInput;
use crate::lifecycle::garments::{self, ClaimRefusal};
use crate::models::order::Order;
use crate::photos::upload::UploadError;
use crate::photos::{PhotoError, Sender};
use crate::state::AppState;
use actix_multipart::Multipart;
use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};

/// When the report could not be stored.
const REPORT_FAILED: &str = "Your report could not be saved. Please try again, or call or WhatsApp us.";

/// The order's page again with the claim form's `errors` (what was written kept).
async fn refused(
    state: &AppState,
    request: &HttpRequest,
    token: &str,
    errors: FieldErrors,
    story: String,
    status: u16,
) -> HttpResponse {
    let outcome = Outcome { claim: Some((errors, story)), status, ..Outcome::default() };
    order_page(state, request, token, outcome).await
}

/// The order's page again with why the claim was refused, beside the field it is about: the items
/// chosen, the photo (429 when sent too fast), or the report itself.
async fn refused_claim(
    state: &AppState,
    request: &HttpRequest,
    token: &str,
    refusal: &ClaimRefusal,
    story: String,
) -> HttpResponse {
    let (field, status) = match refusal {
        ClaimRefusal::NoSuchItem => ("tags", 409),
        ClaimRefusal::PhotosTooFast => ("photo", 429),
        ClaimRefusal::ClaimPhotos | ClaimRefusal::OrderPhotos => ("photo", 409),
        _ => ("kind", 409),
    };
    refused(state, request, token, one(field, refusal.to_string()), story, status).await
}

fn one(field: &'static str, message: impl Into<String>) -> FieldErrors {
    let mut errors = FieldErrors::default();
    errors.add(field, message);
    errors
}

/// POST /t/{token}/claims: `kind` (`missing` or `damaged`), `tag` (repeated: the items' numbers),
/// `story` (what happened) and `photo` (optional).
pub async fn report_claim(
    state: web::Data<AppState>,
    request: HttpRequest,
    token: web::Path<String>,
    multipart: Multipart,
) -> HttpResponse {
    let token = match posted_to(&state, &request, token).await {
        Ok(token) => token,
        Err(refused) => return refused,
    };
    // The order is looked up before its form is read: an upload is taken only for an order that
    // can take a claim.
    let key = token.clone();
    let allowed = state
        .db()
        .run(move |connection| {
            let Some(order) = Order::find_by_link_token(connection, &key)? else { return Ok(None) };
            Ok::<_, DbError>(Some(garments::may_claim(connection, &order)?.map(|()| order.id)))
        })
        .await;
    let order_id = match allowed {
        Ok(Some(Ok(order_id))) => order_id,
        Ok(None) => return not_found(&state, &request).await,
        Ok(Some(Err(refusal))) => return refused_claim(&state, &request, &token, &refusal, String::new()).await,
        Err(error) => {
            tracing::error!(%error, "an order's claim could not be checked");
            return refused(&state, &request, &token, one("story", REPORT_FAILED), String::new(), 503).await;
        }
    };
    let form = match state.photos().read_form(multipart).await {
        Ok(form) => form,
        Err(UploadError::TooLarge) => {
            return refused(
                &state,
                &request,
                &token,
                one("photo", UploadError::TooLarge.to_string()),
                String::new(),
                413,
            )
            .await;
        }
        Err(error @ UploadError::Malformed(_)) => {
            return refused(&state, &request, &token, one("story", error.to_string()), String::new(), 400).await;
        }
        Err(UploadError::Stalled) => {
            let stalled = one("photo", UploadError::Stalled.to_string());
            return refused(&state, &request, &token, stalled, String::new(), 408).await;
        }
        Err(UploadError::Spool(error)) => {
            tracing::error!(%error, "a claim's photo could not be spooled");
            return refused(&state, &request, &token, one("photo", REPORT_FAILED), String::new(), 503).await;
        }
    };
    let input = ClaimInput::from_fields(&form.fields);
    let story: String = input.story.clone().unwrap_or_default().chars().take(600).collect();
    let request_ok = match input.validate() {
        Ok(valid) => valid,
        Err(errors) => return refused(&state, &request, &token, errors, story, 422).await,
    };
    if form.file("photo").is_some() {
        // Counted before the photo is read: a link that has sent its share sends no more work.
        let now = state.now();
        let room = state
            .db()
            .run(move |connection| Ok::<_, DbError>(garments::may_send_photo(connection, &order_id, None, now)?))
            .await;
        match room {
            Ok(Ok(())) => {}
            Ok(Err(refusal)) => return refused_claim(&state, &request, &token, &refusal, story).await,
            Err(error) => {
                tracing::error!(%error, "a claim's photos could not be counted");
                return refused(&state, &request, &token, one("photo", REPORT_FAILED), story, 503).await;
            }
        }
    }
    let photo = match form.file("photo") {
        None => None,
        Some(upload) => match state.photos().keep(upload, Sender::Customer).await {
            Ok(kept) => Some(kept),
            Err(PhotoError::Refused(refusal)) => {
                return refused(&state, &request, &token, one("photo", refusal.to_string()), story, 422).await;
            }
            Err(busy @ PhotoError::Busy) => {
                return refused(&state, &request, &token, one("photo", busy.to_string()), story, 503).await;
            }
            Err(PhotoError::Store(error)) => {
                tracing::error!(%error, "a claim's photo could not be kept");
                return refused(&state, &request, &token, one("photo", REPORT_FAILED), story, 503).await;
            }
        },
    };
    let (key, now, kept) = (token.clone(), state.now(), photo.clone());
    let opened = state
        .db()
        .run(move |connection| {
            write_transaction(connection, |connection| {
                let Some(order) = Order::find_by_link_token(connection, &key)? else {
                    return Ok(Err(ClaimRefusal::NotFound));
                };
                garments::open_claim(connection, &order.id, &request_ok, kept.as_ref(), now)
            })
            .map_err(DbError::from)
        })
        .await;
    let forget = || async {
        if let Some(photo) = &photo {
            state.photos().forget(&photo.id).await;
        }
    };
    match opened {
        Ok(Ok(claim)) => {
            tracing::info!(claim = %claim.id, "a customer reported a missing or damaged item");
            private(
                HttpResponse::SeeOther()
                    .insert_header((header::LOCATION, format!("/t/{token}?done=claim#claims")))
                    .finish(),
            )
        }
        Ok(Err(ClaimRefusal::NotFound)) => {
            forget().await;
            not_found(&state, &request).await
        }
        Ok(Err(refusal)) => {
            forget().await;
            refused_claim(&state, &request, &token, &refusal, story).await
        }
        Err(error) => {
            forget().await;
            tracing::error!(%error, "a claim could not be stored");
            refused(&state, &request, &token, one("story", REPORT_FAILED), story, 500).await
        }
    }
}

/// GET /t/{token}/photos/{id} (and `/thumb`): a photo of this order's items or claims; 404 for
/// any other photo, whoever's it is.
pub async fn show_photo(
    state: web::Data<AppState>,
    request: HttpRequest,
    path: web::Path<(String, String)>,
) -> HttpResponse {
    let (token, id) = path.into_inner();
    if !super::well_formed(&token) {
        return not_found(&state, &request).await;
    }
    let order =
        state.db().run(move |connection| Order::find_by_link_token(connection, &token).map_err(DbError::from)).await;
    let Ok(Some(order)) = order else { return not_found(&state, &request).await };
    let thumb = request.path().ends_with("/thumb");
    match crate::routes::photos::serve_photo(&state, &id, Some(order.id), thumb).await {
        Ok(response) => private(response),
        Err(_) => not_found(&state, &request).await,
    }
}
