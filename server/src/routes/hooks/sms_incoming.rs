//! `POST /hooks/sms/incoming/{secret}`: texts customers send to the shop's number.

use super::check_secret;
use crate::error::ApiError;
use crate::state::AppState;
use actix_web::{HttpRequest, HttpResponse, web};
use std::collections::HashMap;

/// Not built yet: refused after the secret is checked.
pub async fn sms_incoming(
    state: web::Data<AppState>,
    request: HttpRequest,
    _form: web::Form<HashMap<String, String>>,
) -> Result<HttpResponse, ApiError> {
    check_secret(&request, state.settings().sms.hook_secret.as_ref())?;
    Err(ApiError::NotFound("Texts to the shop's number are not handled yet.".to_owned()))
}
