//! Callbacks from the providers (`/hooks/…`). None of them is signed by its provider, so each URL
//! holds a secret of ours, in its path (`/hooks/sms/delivery/{secret}`) or its query
//! (`?secret=…`); a request without it is refused before anything is read or stored. Each callback
//! is idempotent: the provider may deliver it twice, or late.

pub mod payments;
pub mod sms_delivery;
pub mod sms_incoming;

use crate::error::ApiError;
use actix_web::{HttpRequest, web};
use secrecy::{ExposeSecret, SecretString};
use sha2::{Digest, Sha256};
use std::collections::HashMap;

/// Whether `request` carries `expected` (in its `{secret}` path segment or its `secret` query
/// parameter). Compared as SHA-256 digests, so the time taken says nothing of the secret.
/// Unconfigured (`None`), every request is refused: the callback is off.
pub fn check_secret(request: &HttpRequest, expected: Option<&SecretString>) -> Result<(), ApiError> {
    let Some(expected) = expected else {
        return Err(ApiError::NotFound("This callback is not configured.".to_owned()));
    };
    let from_path = request.match_info().get("secret").map(str::to_owned);
    let from_query = || {
        web::Query::<HashMap<String, String>>::from_query(request.query_string())
            .ok()
            .and_then(|query| query.into_inner().remove("secret"))
    };
    let given = from_path.or_else(from_query).unwrap_or_default();
    let digest = |text: &str| Sha256::digest(text.as_bytes());
    if !given.is_empty() && digest(&given) == digest(expected.expose_secret()) {
        Ok(())
    } else {
        Err(ApiError::Forbidden("This callback needs its secret.".to_owned()))
    }
}

/// A form field, trimmed; empty when absent.
fn field<'a>(form: &'a HashMap<String, String>, name: &str) -> &'a str {
    form.get(name).map_or("", |value| value.trim())
}
