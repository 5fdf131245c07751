//! The public pages and the 404 page. Pages whose props do not depend on the request are rendered
//! once and served from memory ([`super::public_page`]).

use super::PublicPage;
use crate::state::AppState;
use actix_web::{HttpRequest, HttpResponse, web};

/// GET /
pub async fn show_home(state: web::Data<AppState>, request: HttpRequest) -> HttpResponse {
    super::public_page(&state, PublicPage::Home).await.respond(&request)
}

/// GET /pricing
pub async fn show_pricing(state: web::Data<AppState>, request: HttpRequest) -> HttpResponse {
    super::public_page(&state, PublicPage::Pricing).await.respond(&request)
}

/// GET /privacy
pub async fn show_privacy(state: web::Data<AppState>, request: HttpRequest) -> HttpResponse {
    super::public_page(&state, PublicPage::Privacy).await.respond(&request)
}

/// Any route that matches nothing: 404 with 'Unexpected Application Error!'.
pub async fn not_found(state: web::Data<AppState>, request: HttpRequest) -> HttpResponse {
    state.pages().not_found().await.respond(&request)
}

/// Renders every page that does not depend on the request, so that the first visitor is served
/// from memory too. A failure here is logged and retried by the first request.
pub async fn warm_cache(state: &AppState) {
    for page in PublicPage::ALL {
        super::public_page(state, page).await;
    }
    state.pages().not_found().await;
}
