//! The public pages and the 404 page.

use crate::catalogue;
use crate::state::AppState;
use actix_web::{HttpRequest, HttpResponse, web};

/// GET /pricing: the same for every visitor, so rendered once and served from memory.
pub async fn show_pricing(state: web::Data<AppState>, request: HttpRequest) -> HttpResponse {
    pricing(&state).await.respond(&request)
}

async fn pricing(state: &AppState) -> std::sync::Arc<crate::pages::PageResponse> {
    let pages = state.pages();
    let props = pages.props("/pricing", pricing_props());
    pages.cached("pricing", "pricing", props).await
}

/// The pricing page's own props, besides the shared ones.
pub fn pricing_props() -> serde_json::Value {
    serde_json::json!({ "services": catalogue::SERVICES })
}

/// Any route that matches nothing: 404 with 'Unexpected Application Error!'.
pub async fn not_found(state: web::Data<AppState>, request: HttpRequest) -> HttpResponse {
    state.pages().not_found().await.respond(&request)
}

/// Renders the pages that do not depend on the request, so that the first visitor is served from
/// memory too. A failure here is logged and retried by the first request.
pub async fn warm_cache(state: &AppState) {
    pricing(state).await;
    state.pages().not_found().await;
}
