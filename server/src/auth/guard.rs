//! The guard around every route of the staff side (`/admin`, `/api/admin`, `/valet`,
//! `/api/valet`): a session, the role's right to the area ([`StaffRole::may_use`]), and CSRF; and
//! where a login may send the browser afterwards.

use super::session::live_session;
use super::{CSRF_HEADER, same_secret};
use crate::domain::StaffArea;
use crate::error::ApiError;
use crate::state::AppState;
use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::http::{Method, header};
use actix_web::middleware::Next;
use actix_web::{HttpMessage, HttpResponse, ResponseError, web};

/// Whether `request` is to the JSON API (401 answers) rather than a page (redirects to the login).
fn is_api(path: &str) -> bool {
    path.starts_with("/api/")
}

/// Whether `path`, as the router matches it (percent-decoded where that is safe), is for staff
/// only: everything that starts with `/admin`, `/api/admin`, `/valet` or `/api/valet`, except the
/// login.
pub fn is_staff_only(path: &str) -> bool {
    staff_area(path).is_some()
}

/// The part of the staff side `path` belongs to; `None` for the public site and the login.
pub fn staff_area(path: &str) -> Option<StaffArea> {
    if path == "/admin/login" {
        return None;
    }
    if path.starts_with("/valet") || path.starts_with("/api/valet") {
        return Some(StaffArea::Valet);
    }
    if path == "/admin/logout" {
        return Some(StaffArea::SignOut);
    }
    if path.starts_with("/admin/staff")
        || path.starts_with("/api/admin/staff")
        || path.starts_with("/admin/exports")
        || path.starts_with("/admin/reports")
    {
        return Some(StaffArea::Accounts);
    }
    (path.starts_with("/admin") || path.starts_with("/api/admin")).then_some(StaffArea::Dashboard)
}

/// The guard of the staff side: a live session whose role may use the path's area, and for every
/// request that can change something, its CSRF token (header `X-CSRF-Token`, or a `csrf` field of
/// a form). Without a session, pages redirect to the login (with `next`) and the API answers 401;
/// a role that may not use the area is sent to its own page (pages) or answered 403 (the API); a
/// missing or wrong token answers 403. In each case the handler never runs.
pub async fn require_staff(
    mut request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    // The router's view of the path: `/%61dmin` reaches the `/admin` route, so it is judged as that.
    let path = request.match_info().as_str().to_owned();
    let Some(area) = staff_area(&path) else {
        return Ok(next.call(request).await?.map_into_boxed_body());
    };
    let Some(state) = request.app_data::<web::Data<AppState>>().cloned() else {
        return Ok(request.into_response(HttpResponse::InternalServerError().finish()));
    };
    let api = is_api(&path);
    let staff = match live_session(&state, request.request()).await {
        Ok(Some(staff)) => staff,
        Ok(None) => {
            let response = if api { ApiError::Unauthorized.error_response() } else { to_login(&request) };
            return Ok(request.into_response(response));
        }
        Err(error) => return Ok(request.into_response(error.error_response())),
    };
    if !staff.role.may_use(area) {
        tracing::warn!(path = request.path(), staff = %staff.email, role = %staff.role, "a staff request outside the account's role was refused");
        let response = if api {
            ApiError::Forbidden("Your account cannot use this part of the site.".to_owned()).error_response()
        } else {
            HttpResponse::SeeOther()
                .insert_header((header::LOCATION, staff.role.home()))
                .insert_header((header::CACHE_CONTROL, "no-store"))
                .finish()
        };
        return Ok(request.into_response(response));
    }
    if !is_safe(request.method()) {
        let token = match request.headers().get(CSRF_HEADER).and_then(|v| v.to_str().ok()) {
            Some(token) => Some(token.to_owned()),
            None => form_csrf_field(&mut request).await,
        };
        if !token.is_some_and(|token| same_secret(&token, &staff.csrf_token)) {
            tracing::warn!(path = request.path(), "a state-changing admin request without its CSRF token was refused");
            let error = ApiError::Forbidden(
                "This request did not carry its security token. Reload the page and try again.".to_owned(),
            );
            return Ok(request.into_response(error.error_response()));
        }
    }
    request.extensions_mut().insert(staff);
    Ok(next.call(request).await?.map_into_boxed_body())
}

fn is_safe(method: &Method) -> bool {
    matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS)
}

/// 303 to the login page, coming back here afterwards.
fn to_login(request: &ServiceRequest) -> HttpResponse {
    let here = request.uri().path_and_query().map_or("/admin", |p| p.as_str());
    let next = if is_safe(request.method()) { here } else { "/admin" };
    let query = serde_urlencoded::to_string([("next", next)]).unwrap_or_default();
    HttpResponse::SeeOther()
        .insert_header((header::LOCATION, format!("/admin/login?{query}")))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .finish()
}

/// The `csrf` field of a urlencoded form body (the body is put back for the handler); of a
/// `multipart/form-data` form (a photo), the `csrf` parameter of the form's address, since its
/// body is streamed to disk by the handler and is not read twice.
async fn form_csrf_field(request: &mut ServiceRequest) -> Option<String> {
    let content_type = request.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or_default();
    if content_type.starts_with("multipart/form-data") {
        return serde_urlencoded::from_str::<Vec<(String, String)>>(request.query_string())
            .ok()
            .and_then(|fields| fields.into_iter().find(|(name, _)| name == "csrf").map(|(_, value)| value));
    }
    if !content_type.starts_with("application/x-www-form-urlencoded") {
        return None;
    }
    let body = request.extract::<web::Bytes>().await.ok()?;
    let token = serde_urlencoded::from_bytes::<Vec<(String, String)>>(&body)
        .ok()
        .and_then(|fields| fields.into_iter().find(|(name, _)| name == "csrf").map(|(_, value)| value));
    request.set_payload(Payload::from(body));
    token
}

/// A local path to go to after the login: under `/admin` or `/valet`, never another site.
pub fn safe_next(next: Option<&str>) -> String {
    let under = |next: &str, root: &str| {
        next.strip_prefix(root).is_some_and(|rest| rest.is_empty() || rest.starts_with(['?', '/']))
    };
    match next {
        Some(next)
            if (under(next, "/admin") || under(next, "/valet"))
                && !next.starts_with("/admin/login")
                && !next.contains("//")
                && !next.contains('\\')
                && next.chars().all(|c| c.is_ascii_graphic()) =>
        {
            next.to_owned()
        }
        _ => "/admin".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn everything_under_admin_but_the_login_is_for_staff_only() {
        for path in
            ["/admin", "/admin/", "/admin/logout", "/administration", "/api/admin", "/api/admin/orders/1/status"]
        {
            assert!(is_staff_only(path), "{path}");
        }
        for path in ["/admin/login", "/", "/api/orders", "/order", "/api/tracking"] {
            assert!(!is_staff_only(path), "{path}");
        }
    }

    #[test]
    fn each_staff_path_belongs_to_its_area() {
        assert_eq!(staff_area("/valet"), Some(StaffArea::Valet));
        assert_eq!(staff_area("/valet/stops/1/picked-up"), Some(StaffArea::Valet));
        assert_eq!(staff_area("/api/valet/stops"), Some(StaffArea::Valet));
        assert_eq!(staff_area("/admin/logout"), Some(StaffArea::SignOut));
        assert_eq!(staff_area("/api/admin/staff"), Some(StaffArea::Accounts));
        assert_eq!(staff_area("/admin/exports/ledger.csv"), Some(StaffArea::Accounts));
        assert_eq!(staff_area("/api/admin/run"), Some(StaffArea::Dashboard));
        assert_eq!(staff_area("/admin"), Some(StaffArea::Dashboard));
        assert_eq!(staff_area("/t/abc"), None);
    }

    #[test]
    fn after_login_only_admin_paths_of_this_site_are_followed() {
        assert_eq!(safe_next(Some("/admin?tab=messages")), "/admin?tab=messages");
        assert_eq!(safe_next(Some("/admin/")), "/admin/");
        assert_eq!(safe_next(Some("/valet")), "/valet");
        assert_eq!(safe_next(Some("/valetx")), "/admin");
        for bad in [
            None,
            Some("https://evil.example"),
            Some("//evil.example"),
            Some("/pricing"),
            Some("/admin/login"),
            Some("/admin//x"),
        ] {
            assert_eq!(safe_next(bad), "/admin", "{bad:?}");
        }
    }
}
