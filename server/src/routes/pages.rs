//! The public pages and the 404 page. Pages whose props do not depend on the request are rendered
//! once and served from memory ([`crate::pages::Pages::cached`]).

use crate::catalogue;
use crate::config::Settings;
use crate::pages::PageResponse;
use crate::state::AppState;
use actix_web::{HttpRequest, HttpResponse, web};
use serde_json::{Value, json};
use std::sync::Arc;

/// The pages that are the same for every visitor: (page name, path).
pub const STATIC_PAGES: [(&str, &str); 6] = [
    ("home", "/"),
    ("pricing", "/pricing"),
    ("order", "/order"),
    ("tracking", "/tracking"),
    ("contact", "/contact"),
    ("confirmation", "/confirmation"),
];

/// A page's own props, besides the shared ones.
pub fn own_props(settings: &Settings, page: &str) -> Value {
    match page {
        "home" => json!({ "introVideoUrl": settings.intro_video_url }),
        "pricing" | "order" => json!({ "services": catalogue::SERVICES }),
        "tracking" => json!({ "query": null, "result": null }),
        "contact" => json!({ "form": null, "sent": false }),
        _ => json!({}),
    }
}

/// A page that is the same for every visitor, from the cache.
pub async fn static_page(state: &AppState, page: &str, path: &str) -> Arc<PageResponse> {
    let pages = state.pages();
    pages.cached(page, page, pages.props(path, own_props(state.settings(), page))).await
}

/// GET /
pub async fn show_home(state: web::Data<AppState>, request: HttpRequest) -> HttpResponse {
    static_page(&state, "home", "/").await.respond(&request)
}

/// GET /pricing
pub async fn show_pricing(state: web::Data<AppState>, request: HttpRequest) -> HttpResponse {
    static_page(&state, "pricing", "/pricing").await.respond(&request)
}

/// GET /order
pub async fn show_order(state: web::Data<AppState>, request: HttpRequest) -> HttpResponse {
    static_page(&state, "order", "/order").await.respond(&request)
}

/// Any route that matches nothing: 404 with 'Unexpected Application Error!'.
pub async fn not_found(state: web::Data<AppState>, request: HttpRequest) -> HttpResponse {
    state.pages().not_found().await.respond(&request)
}

/// Renders every page that does not depend on the request, so that the first visitor is served
/// from memory too. A failure here is logged and retried by the first request.
pub async fn warm_cache(state: &AppState) {
    for (page, path) in STATIC_PAGES {
        static_page(state, page, path).await;
    }
    state.pages().not_found().await;
}
