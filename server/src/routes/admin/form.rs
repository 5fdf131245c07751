//! What the floor's and garments' plain forms share: a field read, one message, 303 back.

use crate::domain::FieldErrors;
use actix_web::HttpResponse;
use actix_web::http::header;

/// 303 to `location`.
pub fn see_other(location: &str) -> HttpResponse {
    HttpResponse::SeeOther()
        .insert_header((header::LOCATION, location))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .finish()
}

/// One message on `field`.
pub fn one(field: impl Into<std::borrow::Cow<'static, str>>, message: impl Into<String>) -> FieldErrors {
    let mut errors = FieldErrors::default();
    errors.add(field, message);
    errors
}

/// The value of the form field `name`.
pub fn field<'a>(fields: &'a [(String, String)], name: &str) -> Option<&'a str> {
    fields.iter().find(|(n, _)| n == name).map(|(_, value)| value.as_str())
}
