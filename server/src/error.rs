//! Errors of the JSON API and how they answer.
//!
//! Policy: validation problems are [`ApiError::Invalid`] with a message per field (422); a reused
//! idempotency key is 409; no staff session 401, a missing CSRF token or a post from another site 403; a JSON body not sent as JSON 415; too many look-ups or submissions 429; a busy database pool 503; anything unexpected is
//! logged once here with its cause and answers 500 with a message the customer can act on.

use crate::db::DbError;
use crate::domain::FieldErrors;
use actix_web::http::{StatusCode, header};
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;
use std::time::Duration;
use ts_rs::TS;

/// The body of every answer that is not a success: what to tell the person, and for 422 a message
/// per field.
#[derive(Debug, Clone, Serialize, TS)]
pub struct ErrorBody {
    /// What the person reads.
    pub error: String,
    /// A message per wrong field (422 only).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub fields: Option<FieldErrors>,
}

impl ErrorBody {
    /// An error without field messages.
    pub fn new(error: String) -> Self {
        ErrorBody { error, fields: None }
    }
}

/// An API request that did not succeed.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// Some fields are wrong.
    #[error("{message}")]
    Invalid {
        /// A summary.
        message: String,
        /// A message per field.
        fields: FieldErrors,
    },
    /// The request itself is malformed (not JSON, a bad header).
    #[error("{0}")]
    BadRequest(String),
    /// The `Idempotency-Key` was used before with a different body.
    #[error("This Idempotency-Key was already used for a different order.")]
    KeyReused,
    /// Nothing matches.
    #[error("{0}")]
    NotFound(String),
    /// The change does not fit what the thing is now (an order's life refuses it): the message
    /// says why.
    #[error("{0}")]
    Conflict(String),
    /// The body is not of the type the endpoint reads (a JSON endpoint sent `text/plain`).
    #[error("{0}")]
    UnsupportedMediaType(String),
    /// No live staff session (the admin API).
    #[error("Your session has ended. Please sign in again.")]
    Unauthorized,
    /// Signed in, but the request is refused (a missing or wrong CSRF token).
    #[error("{0}")]
    Forbidden(String),
    /// Too many requests from this client.
    #[error("Too many {what} from your connection. Please wait {} and try again, or call us on {phone}.", minutes(*retry_after))]
    RateLimited {
        /// What was counted, in the plural: "look-ups".
        what: &'static str,
        /// The business's phone: a customer behind a busy shared address can still reach the shop.
        phone: String,
        /// How long until the client may try again.
        retry_after: Duration,
    },
    /// Storage failed; `message` is what the customer reads (spec section 8 texts).
    #[error("{message}")]
    Storage {
        /// The customer's message.
        message: &'static str,
        /// The cause, for the log.
        source: DbError,
    },
}

/// A wait in whole seconds for `Retry-After`, rounded up: a client that waits that long is let in.
fn whole_seconds(wait: Duration) -> u64 {
    (wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).max(1)
}

/// "1 minute", "15 minutes": a wait rounded up to whole minutes.
fn minutes(wait: Duration) -> String {
    match whole_seconds(wait).div_ceil(60) {
        1 => "1 minute".to_owned(),
        n => format!("{n} minutes"),
    }
}

impl ApiError {
    /// 422 with these field messages.
    pub fn invalid(fields: FieldErrors) -> Self {
        Self::Invalid { message: "Please correct the highlighted fields.".to_owned(), fields }
    }

    /// 429: too many `what` from this client; the message gives the shop's phone as another way in.
    pub fn too_many(what: &'static str, business: &crate::config::Business, retry_after: Duration) -> Self {
        Self::RateLimited { what, phone: business.phone.clone(), retry_after }
    }

    /// A page that shows this error tells when to try again, as the API's answer does.
    pub fn set_retry_after(&self, response: &mut HttpResponse) {
        if let ApiError::RateLimited { retry_after, .. } = self {
            response.headers_mut().insert(header::RETRY_AFTER, whole_seconds(*retry_after).into());
        }
    }
}

/// What a customer reads when storage failed and the handler gave no message of its own (each
/// handler names its own: spec section 8's texts for orders and messages).
const STORAGE_FAILED: &str = "Something went wrong on our side. Please try again.";

impl From<DbError> for ApiError {
    fn from(source: DbError) -> Self {
        ApiError::Storage { message: STORAGE_FAILED, source }
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        match self {
            ApiError::Invalid { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::KeyReused | ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::Unauthorized => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::RateLimited { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Storage { source: DbError::Pool(_) | DbError::Busy(_), .. } => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Storage { .. } => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        let mut response = HttpResponse::build(self.status_code());
        match self {
            ApiError::Invalid { message, fields } => {
                response.json(ErrorBody { error: message.clone(), fields: Some(fields.clone()) })
            }
            ApiError::RateLimited { retry_after, .. } => response
                .insert_header((header::RETRY_AFTER, whole_seconds(*retry_after)))
                .json(ErrorBody::new(self.to_string())),
            ApiError::Storage { message, source } => {
                tracing::error!(error = %source, "storage failed");
                response.json(ErrorBody::new(message.to_string()))
            }
            other => response.json(ErrorBody::new(other.to_string())),
        }
    }
}
