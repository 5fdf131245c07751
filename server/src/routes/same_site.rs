//! Whether a post comes from the site's own pages. Another site can make its visitors' browsers
//! post a form, or a `fetch` with a "simple" body (`text/plain`, a form) that needs no CORS
//! preflight, to any address; the browser then says where the post came from. Every form and JSON
//! endpoint that stores something for a customer or reaches their phone refuses such posts.

use crate::error::ApiError;
use crate::state::AppState;
use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse};

/// What a JSON endpoint answers to a post from another site.
pub const CROSS_SITE_API: &str = "This request can only be sent from our own site.";

/// What a plain form answers to a post from another site.
pub const CROSS_SITE_FORM: &str =
    "This form can only be sent from our own site. Please open it there and send it again.";

/// What a JSON endpoint answers to a body that is not declared as JSON.
pub const NOT_JSON: &str = "The body must be JSON, sent with Content-Type: application/json.";

/// Whether a browser says the request was sent from another site. Browsers send `Sec-Fetch-Site`
/// (`same-origin` from our own page, `none` when typed or bookmarked); older ones send `Origin`,
/// which must be the site's own. A client that sends neither is not a browser acting for a
/// visitor of another site (an API client, a test, a script on a server).
pub fn from_another_site(state: &AppState, request: &HttpRequest) -> bool {
    let header = |name: &str| request.headers().get(name).and_then(|value| value.to_str().ok());
    if let Some(site) = header("sec-fetch-site") {
        return !matches!(site, "same-origin" | "none");
    }
    let Some(origin) = header("origin") else { return false };
    let info = request.connection_info();
    let own = format!("{}://{}", info.scheme(), info.host());
    origin != own && origin != site_origin(&state.settings().base_url)
}

/// A JSON endpoint's checks before it reads the body: 403 for a post from another site, 415 for
/// a body not sent as `application/json` (which a page of another site cannot send without the
/// browser first asking us, and being refused).
pub fn json_from_this_site(state: &AppState, request: &HttpRequest) -> Result<(), ApiError> {
    if from_another_site(state, request) {
        return Err(ApiError::Forbidden(CROSS_SITE_API.to_owned()));
    }
    let content_type = request.headers().get(header::CONTENT_TYPE).and_then(|value| value.to_str().ok());
    let essence = content_type.and_then(|value| value.split(';').next()).map(str::trim);
    match essence {
        Some(essence) if essence.eq_ignore_ascii_case("application/json") => Ok(()),
        _ => Err(ApiError::UnsupportedMediaType(NOT_JSON.to_owned())),
    }
}

/// 403 for a plain form posted from another site: a short text, never the form again (which
/// would show the other site's values as if they were the visitor's).
pub fn cross_site_form() -> HttpResponse {
    HttpResponse::Forbidden()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .content_type("text/plain; charset=utf-8")
        .body(CROSS_SITE_FORM)
}

/// `https://laundry.example.com` of `https://laundry.example.com/shop`.
fn site_origin(base_url: &str) -> String {
    match base_url.split_once("://") {
        Some((scheme, rest)) => format!("{scheme}://{}", rest.split('/').next().unwrap_or_default()),
        None => base_url.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_origin_of_a_base_url_is_its_scheme_and_host() {
        assert_eq!(site_origin("https://laundry.example.com/shop"), "https://laundry.example.com");
        assert_eq!(site_origin("http://127.0.0.1:8080"), "http://127.0.0.1:8080");
    }
}
