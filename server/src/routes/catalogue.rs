//! GET /api/catalogue: the services and the price list, as the pages see them.

use crate::views::pages::CatalogueAnswer;
use actix_web::HttpResponse;
use actix_web::http::header::{CacheControl, CacheDirective};

/// The whole catalogue as JSON.
pub async fn get_catalogue() -> HttpResponse {
    HttpResponse::Ok()
        .insert_header(CacheControl(vec![CacheDirective::Public, CacheDirective::MaxAge(300)]))
        .json(CatalogueAnswer::new())
}
