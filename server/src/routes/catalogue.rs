//! GET /api/catalogue: the services and the price list, as the pages see them.

use crate::catalogue::{PRICE_LIST, SERVICES};
use actix_web::HttpResponse;
use actix_web::http::header::{CacheControl, CacheDirective};

/// The whole catalogue as JSON.
pub async fn get_catalogue() -> HttpResponse {
    HttpResponse::Ok()
        .insert_header(CacheControl(vec![CacheDirective::Public, CacheDirective::MaxAge(300)]))
        .json(serde_json::json!({ "services": SERVICES, "priceList": &PRICE_LIST[..] }))
}
