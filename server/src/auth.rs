//! Staff authentication: argon2id password hashes, sessions kept in the database behind a random
//! cookie token, CSRF tokens, and the guard that wraps every route of `/admin` and `/api/admin`.
//!
//! The guard ([`require_staff`]) wraps the whole application and decides by the path alone
//! ([`is_staff_only`]): every path under `/admin` and `/api/admin` but the login is guarded, however
//! and wherever its route is registered. `tests/api/admin_guard.rs` walks every registered route
//! and some that are not to keep it that way.

use crate::clock::now_utc;
use crate::error::ApiError;
use crate::models::staff::{Staff, StaffSession};
use crate::state::AppState;
use actix_web::body::{BoxBody, MessageBody};
use actix_web::cookie::{Cookie, SameSite};
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::http::{Method, header};
use actix_web::middleware::Next;
use actix_web::{FromRequest, HttpMessage, HttpRequest, HttpResponse, ResponseError, web};
use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use rand::RngCore;
use sha2::{Digest, Sha256};
use std::future::{Ready, ready};
use time::{Duration, PrimitiveDateTime};

/// The session cookie's name.
pub const SESSION_COOKIE: &str = "laundry_session";
/// The login form's CSRF cookie (double submit: the form carries the same value).
pub const LOGIN_CSRF_COOKIE: &str = "laundry_login_csrf";
/// The header the dashboard sends its CSRF token in; forms send a `csrf` field.
pub const CSRF_HEADER: &str = "X-CSRF-Token";
/// A session ends after this long without a request.
pub const IDLE_TIMEOUT: Duration = Duration::hours(2);
/// A session ends this long after the login, whatever the activity.
pub const ABSOLUTE_TIMEOUT: Duration = Duration::hours(12);
/// Failed logins are counted over this window.
pub const FAILURE_WINDOW: Duration = Duration::minutes(15);
/// Failed logins per account in the window before the account's logins are refused.
pub const FAILURES_PER_ACCOUNT: usize = 5;
/// Failed logins per client address in the window before its logins are refused.
pub const FAILURES_PER_CLIENT: usize = 20;
/// Passwords shorter than this are refused.
pub const MIN_PASSWORD_CHARS: usize = 12;

/// Hashes `password` with argon2id (the crate's defaults: 19 MiB, 2 passes). Slow on purpose: call
/// it off the async threads.
pub fn hash_password(password: &str) -> Result<String, argon2::password_hash::Error> {
    let mut salt = [0u8; 16];
    rand::rng().fill_bytes(&mut salt);
    let salt = SaltString::encode_b64(&salt)?;
    Ok(Argon2::default().hash_password(password.as_bytes(), &salt)?.to_string())
}

/// Whether `password` matches `stored` (a PHC string). Slow on purpose: off the async threads.
pub fn verify_password(password: &str, stored: &str) -> bool {
    PasswordHash::new(stored).is_ok_and(|hash| Argon2::default().verify_password(password.as_bytes(), &hash).is_ok())
}

/// A hash of no one's password, verified when the e-mail has no account so that an unknown address
/// takes as long to refuse as a wrong password.
fn decoy_hash() -> &'static str {
    static DECOY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DECOY.get_or_init(|| hash_password(&random_token()).unwrap_or_default())
}

/// Verifies `password` against the account's hash, or against a decoy when there is no account.
pub fn check_login(account: Option<&Staff>, password: &str) -> bool {
    match account {
        Some(account) => verify_password(password, &account.password_hash),
        None => {
            verify_password(password, decoy_hash());
            false
        }
    }
}

/// Refuses a password that is easy to guess: too short or long, too few different characters, a
/// common word, or the e-mail's name.
pub fn check_password_strength(password: &str, email: &str) -> Result<(), String> {
    let length = password.chars().count();
    if length < MIN_PASSWORD_CHARS {
        return Err(format!("The password is too short: use at least {MIN_PASSWORD_CHARS} characters."));
    }
    if length > 128 {
        return Err("The password is too long: at most 128 characters.".to_owned());
    }
    let mut distinct: Vec<char> = password.chars().collect();
    distinct.sort_unstable();
    distinct.dedup();
    if distinct.len() < 6 {
        return Err("The password repeats too few characters: use at least 6 different ones.".to_owned());
    }
    let lower = password.to_lowercase();
    let name = email.split('@').next().unwrap_or_default().to_lowercase();
    if name.chars().count() >= 3 && lower.contains(&name) {
        return Err("The password must not contain the e-mail's name.".to_owned());
    }
    const COMMON: [&str; 12] = [
        "password", "passw0rd", "123456", "qwerty", "letmein", "welcome", "admin", "laundry", "iloveyou", "abc123",
        "111111", "nairobi",
    ];
    if let Some(word) = COMMON.iter().find(|word| lower.contains(*word)) {
        return Err(format!("The password must not contain a common word or sequence like '{word}'."));
    }
    Ok(())
}

/// 32 random bytes in hex: session tokens and CSRF tokens.
pub fn random_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    hex(&bytes)
}

/// SHA-256 of a session token, in hex: what the sessions table stores.
pub fn token_hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Compares two secrets in time that does not depend on where they differ.
pub fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |diff, (x, y)| diff | (x ^ y)) == 0
}

/// A new session for `account`, to store with [`StaffSession::start`]; the token goes in the cookie.
pub fn new_session(account: &Staff, now: PrimitiveDateTime) -> (String, StaffSession) {
    let token = random_token();
    let session = StaffSession {
        id_hash: token_hash(&token),
        staff_id: account.id.clone(),
        csrf_token: random_token(),
        created_at: now,
        last_seen_at: now,
        expires_at: now + ABSOLUTE_TIMEOUT,
    };
    (token, session)
}

/// Whether cookies must be `Secure`: the site is served over HTTPS (by its configured address, or
/// this request's scheme as a proxy reports it).
fn served_over_https(state: &AppState, request: &HttpRequest) -> bool {
    state.settings().base_url.starts_with("https://") || request.connection_info().scheme() == "https"
}

/// A cookie with the attributes every auth cookie has: HttpOnly, SameSite=Strict, Secure over HTTPS.
pub fn auth_cookie<'a>(
    state: &AppState,
    request: &HttpRequest,
    name: &'a str,
    value: String,
    path: &'a str,
    max_age: Duration,
) -> Cookie<'a> {
    Cookie::build(name, value)
        .path(path)
        .http_only(true)
        .same_site(SameSite::Strict)
        .secure(served_over_https(state, request))
        .max_age(max_age)
        .finish()
}

/// The signed-in staff member of a request under the guard.
#[derive(Debug, Clone)]
pub struct CurrentStaff {
    /// The account's id.
    pub id: String,
    /// The account's e-mail (recorded as who made a change).
    pub email: String,
    /// The session's CSRF token, for the dashboard's props.
    pub csrf_token: String,
    /// SHA-256 of the session token (logout ends this session).
    pub session_hash: String,
}

/// Handlers take `CurrentStaff` as an argument; outside the guard it refuses the request, so a
/// handler can never run without a session even if it were registered in the wrong place.
impl FromRequest for CurrentStaff {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(request: &HttpRequest, _payload: &mut Payload) -> Self::Future {
        ready(request.extensions().get::<CurrentStaff>().cloned().ok_or(ApiError::Unauthorized))
    }
}

/// Looks up the live session of the request's cookie, if any.
pub async fn live_session(state: &AppState, request: &HttpRequest) -> Result<Option<CurrentStaff>, ApiError> {
    let Some(cookie) = request.cookie(SESSION_COOKIE) else {
        return Ok(None);
    };
    let id_hash = token_hash(cookie.value());
    let now = now_utc();
    let found = state
        .db()
        .run(move |connection| {
            StaffSession::find_live(connection, &id_hash, now - IDLE_TIMEOUT, now).map_err(crate::db::DbError::from)
        })
        .await
        .map_err(|source| ApiError::Storage {
            message: "The session could not be checked. Please try again.",
            source,
        })?;
    Ok(found.map(|(session, account)| CurrentStaff {
        id: account.id,
        email: account.email,
        csrf_token: session.csrf_token,
        session_hash: session.id_hash,
    }))
}

/// Whether `request` is to the JSON API (401 answers) rather than a page (redirects to the login).
fn is_api(path: &str) -> bool {
    path.starts_with("/api/")
}

/// Whether `path`, as the router matches it (percent-decoded where that is safe), is for staff
/// only: everything that starts with `/admin` or `/api/admin`, except the login.
pub fn is_staff_only(path: &str) -> bool {
    (path.starts_with("/admin") || path.starts_with("/api/admin")) && path != "/admin/login"
}

/// The guard of `/admin` and `/api/admin`: a live session, and for every request that can change
/// something, its CSRF token (header `X-CSRF-Token`, or a `csrf` field of a form). Without a
/// session, pages redirect to the login (with `next`) and the API answers 401; a missing or wrong
/// token answers 403 and the handler never runs.
pub async fn require_staff(
    mut request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    // The router's view of the path: `/%61dmin` reaches the `/admin` route, so it is judged as that.
    let path = request.match_info().as_str().to_owned();
    if !is_staff_only(&path) {
        return Ok(next.call(request).await?.map_into_boxed_body());
    }
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

/// The `csrf` field of a urlencoded form body; the body is put back for the handler.
async fn form_csrf_field(request: &mut ServiceRequest) -> Option<String> {
    let is_form = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"));
    if !is_form {
        return None;
    }
    let body = request.extract::<web::Bytes>().await.ok()?;
    let token = serde_urlencoded::from_bytes::<Vec<(String, String)>>(&body)
        .ok()
        .and_then(|fields| fields.into_iter().find(|(name, _)| name == "csrf").map(|(_, value)| value));
    request.set_payload(Payload::from(body));
    token
}

/// A local path to go to after the login: under `/admin`, never another site.
pub fn safe_next(next: Option<&str>) -> String {
    match next {
        Some(next)
            if (next == "/admin" || next.starts_with("/admin?") || next.starts_with("/admin/"))
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
    fn a_password_verifies_against_its_own_hash_only() {
        let hash = hash_password("correct horse battery").unwrap();
        assert!(hash.starts_with("$argon2id$"), "{hash}");
        assert!(verify_password("correct horse battery", &hash));
        assert!(!verify_password("correct horse batterz", &hash));
        assert!(!verify_password("correct horse battery", "not a hash"));
    }

    #[test]
    fn weak_passwords_are_refused_with_the_reason() {
        let email = "wanjiru@example.com";
        assert!(check_password_strength("short1A!", email).unwrap_err().contains("at least 12"));
        assert!(check_password_strength("aaaaaabbbbbbcccc", email).unwrap_err().contains("6 different"));
        assert!(check_password_strength("Wanjiru-2026-ok!", email).unwrap_err().contains("e-mail"));
        assert!(check_password_strength("MyPassword-2026!", email).unwrap_err().contains("password"));
        assert!(check_password_strength("Tumbo-Ngoma-47-Kazi", email).is_ok());
    }

    #[test]
    fn tokens_are_random_and_only_their_hash_is_kept() {
        let (a, b) = (random_token(), random_token());
        assert_ne!(a, b);
        assert_eq!(a.len(), 64);
        assert_eq!(token_hash(&a).len(), 64);
        assert_ne!(token_hash(&a), a);
        assert!(same_secret(&a, &a.clone()));
        assert!(!same_secret(&a, &b));
        assert!(!same_secret(&a, &a[..10]));
    }

    #[test]
    fn after_login_only_admin_paths_of_this_site_are_followed() {
        assert_eq!(safe_next(Some("/admin?tab=messages")), "/admin?tab=messages");
        assert_eq!(safe_next(Some("/admin/")), "/admin/");
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
