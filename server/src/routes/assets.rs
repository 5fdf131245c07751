//! GET /assets/{name}: the built client files, under hashed names, cached for a year; and the few
//! files that must live at fixed addresses (the favicon browsers ask for, the picture link previews
//! show), built into the binary from `server/static/` (`scripts/share-images.sh` renders them).

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

/// GET /favicon.ico: the site's mark at 32 and 16 pixels, for browsers that ask for it there.
pub async fn serve_favicon_ico() -> HttpResponse {
    fixed_file("image/x-icon", include_bytes!("../../static/favicon.ico"))
}

/// GET /favicon.svg: the site's mark, the icon every page links.
pub async fn serve_favicon_svg() -> HttpResponse {
    fixed_file("image/svg+xml", include_bytes!("../../static/favicon.svg"))
}

/// GET /og-image.png: the 1200×630 picture shown with a shared link (WhatsApp, Facebook, X).
pub async fn serve_share_image() -> HttpResponse {
    fixed_file("image/png", include_bytes!("../../static/og-image.png"))
}

/// A file at a fixed address: its name carries no hash, so caches keep it for a day, not a year.
fn fixed_file(content_type: &'static str, body: &'static [u8]) -> HttpResponse {
    HttpResponse::Ok()
        .content_type(content_type)
        .insert_header(CacheControl(vec![CacheDirective::Public, CacheDirective::MaxAge(86_400)]))
        .body(body)
}
