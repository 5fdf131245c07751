//! GET /sitemap.xml and GET /robots.txt.

use crate::seo;
use crate::state::AppState;
use actix_web::http::header::{CacheControl, CacheDirective};
use actix_web::{HttpResponse, web};

/// The sitemap of the public pages.
pub async fn sitemap(state: web::Data<AppState>) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/xml; charset=utf-8")
        .insert_header(CacheControl(vec![CacheDirective::Public, CacheDirective::MaxAge(3600)]))
        .body(seo::sitemap(&state.settings().base_url))
}

/// Crawler rules: the staff area and the API stay out of search engines.
pub async fn robots(state: web::Data<AppState>) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/plain; charset=utf-8")
        .insert_header(CacheControl(vec![CacheDirective::Public, CacheDirective::MaxAge(3600)]))
        .body(seo::robots(&state.settings().base_url))
}
