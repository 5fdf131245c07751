//! GET /assets/{name}: the built client files, under hashed names, cached for a year.

use crate::state::AppState;
use actix_web::http::header::{CacheControl, CacheDirective};
use actix_web::{HttpRequest, HttpResponse, web};

/// One client file, compressed as the browser accepts.
pub async fn serve_asset(state: web::Data<AppState>, request: HttpRequest, name: web::Path<String>) -> HttpResponse {
    let Some(asset) = state.pages().frontend().asset(&name) else {
        return state.pages().not_found().await.respond(&request);
    };
    let mut response = HttpResponse::Ok();
    response.content_type(asset.content_type.as_str()).insert_header(CacheControl(vec![
        CacheDirective::Public,
        CacheDirective::MaxAge(31_536_000),
        CacheDirective::Extension("immutable".to_owned(), None),
    ]));
    asset.body.respond(&request, response)
}
