//! Contact messages: `POST /api/contacts` (JSON) and `POST /contact` (plain form), and the contact
//! page's success view.

use super::same_site::{cross_site_form, from_another_site, json_from_this_site};
use crate::db::DbError;
use crate::domain::ContactInput;
use crate::domain::FieldErrors;
use crate::error::ApiError;
use crate::models::contact_message::{ContactMessage, Stored};
use crate::notify::email;
use crate::rate_limit::client_ip;
use crate::rate_limit::submissions_limited;
use crate::state::AppState;
use crate::views::orders::ContactCreated;
use crate::views::pages::{ContactPageProps, FormState, Page};
use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;

/// Spec section 8, after a message was stored.
pub const SENT: &str = "Thank you for your message! We will get back to you soon.";
/// Spec section 8, when it could not be stored.
pub const SEND_FAILED: &str = "There was an error sending your message. Please try again.";

async fn store(state: &AppState, request: &HttpRequest, input: &ContactInput) -> Result<ContactMessage, ApiError> {
    let contact = input.validate().map_err(ApiError::invalid)?;
    let client = client_ip(state.settings(), request);
    let sender = client.to_string();
    // The same message sent again is answered before any limit counts it; a new one is counted
    // before storing, so messages arriving at once cannot pass the limit together, and given back
    // unless it is stored.
    let earlier = {
        let (contact, sender, now) = (contact.clone(), sender.clone(), state.now());
        state
            .db()
            .run(move |connection| {
                ContactMessage::find_again(connection, &contact, &sender, now).map_err(DbError::from)
            })
            .await
            .map_err(|source| ApiError::Storage { message: SEND_FAILED, source })?
    };
    if let Some(message) = earlier {
        tracing::info!(message_id = %message.id, "contact message sent again; stored once");
        return Ok(message);
    }
    let reservation = state
        .submission_limit()
        .reserve(client)
        .map_err(|wait| submissions_limited(&state.settings().business, wait))?;
    let clock = state.clock().clone();
    let stored = state
        .db()
        .run(move |connection| {
            let now = clock.utc();
            let staff_email = |message: &ContactMessage| email::contact(message, now);
            ContactMessage::create(connection, &contact, &sender, staff_email, now).map_err(DbError::from)
        })
        .await
        .map_err(|source| ApiError::Storage { message: SEND_FAILED, source })?;
    match stored {
        Stored::Created(message) => {
            reservation.keep();
            tracing::info!(message_id = %message.id, "contact message stored");
            state.wake_outbox();
            Ok(message)
        }
        Stored::Replayed(message) => {
            tracing::info!(message_id = %message.id, "contact message sent again; stored once");
            Ok(message)
        }
    }
}

/// POST /api/contacts: 201 with the stored message's id and status 'new'.
pub async fn create_contact(
    state: web::Data<AppState>,
    request: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    json_from_this_site(&state, &request)?;
    let input: ContactInput = serde_json::from_slice(&body).map_err(|error| {
        ApiError::BadRequest(format!(
            "The body must be a JSON object with name, email, phone, subject and message ({error})."
        ))
    })?;
    let stored = store(&state, &request, &input).await?;
    Ok(HttpResponse::Created().json(ContactCreated { id: stored.id, status: stored.status, message: SENT.to_owned() }))
}

/// POST /contact: stores the message and redirects to `/contact?sent=1` (the form is empty
/// again there), or shows the form again with the values and a message per wrong field.
pub async fn submit_contact_form(state: web::Data<AppState>, request: HttpRequest, body: web::Bytes) -> HttpResponse {
    if from_another_site(&state, &request) {
        return cross_site_form();
    }
    let input: ContactInput = serde_urlencoded::from_bytes(&body).unwrap_or_default();
    match store(&state, &request, &input).await {
        Ok(_) => HttpResponse::SeeOther().insert_header((header::LOCATION, "/contact?sent=1")).finish(),
        Err(ApiError::Invalid { fields, .. }) => contact_form_again(&state, &request, &input, fields, None, 422).await,
        Err(error @ ApiError::RateLimited { .. }) => {
            let mut page =
                contact_form_again(&state, &request, &input, FieldErrors::default(), Some(&error.to_string()), 429)
                    .await;
            error.set_retry_after(&mut page);
            page
        }
        Err(error) => {
            if let ApiError::Storage { source, .. } = &error {
                tracing::error!(error = %source, "storing a contact message from the form failed");
            }
            contact_form_again(&state, &request, &input, FieldErrors::default(), Some(SEND_FAILED), 500).await
        }
    }
}

async fn contact_form_again(
    state: &AppState,
    request: &HttpRequest,
    input: &ContactInput,
    errors: FieldErrors,
    alert: Option<&str>,
    status: u16,
) -> HttpResponse {
    let values = [
        ("name", input.name.clone()),
        ("email", input.email.clone()),
        ("phone", input.phone.clone()),
        ("subject", input.subject.clone()),
        ("message", input.message.clone()),
    ];
    let pages = state.pages();
    let own = ContactPageProps { form: Some(FormState::new(values, errors, alert, status)), sent: false };
    let (response, _) = pages.render(Page::Contact, pages.props("/contact", &own)).await;
    response.respond_private(request)
}

/// `?sent=1` after a message was stored.
#[derive(Debug, Deserialize)]
pub struct ContactQuery {
    sent: Option<String>,
}

/// GET /contact, and its success view `?sent=1`; both are cached.
pub async fn show_contact(
    state: web::Data<AppState>,
    request: HttpRequest,
    query: web::Query<ContactQuery>,
) -> HttpResponse {
    if query.sent.is_some() {
        let pages = state.pages();
        let props = pages.props("/contact", &ContactPageProps { form: None, sent: true });
        return pages.cached("contact-sent", Page::Contact, props).await.respond(&request);
    }
    super::public_page(&state, Page::Contact, "/contact").await.respond(&request)
}
