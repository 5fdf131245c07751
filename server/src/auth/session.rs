//! Sessions: random tokens of which the database keeps only the hash, their cookies, and the
//! signed-in staff member of a request.

use super::{ABSOLUTE_TIMEOUT, IDLE_TIMEOUT, SESSION_COOKIE};
use crate::domain::StaffRole;
use crate::error::ApiError;
use crate::models::staff::{Staff, StaffSession};
use crate::state::AppState;
use actix_web::cookie::{Cookie, SameSite};
use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpMessage, HttpRequest};
use std::future::{Ready, ready};
use time::{Duration, PrimitiveDateTime};

pub use crate::domain::secret::{random_token, same_secret, token_hash};

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
    /// What the account may do.
    pub role: StaffRole,
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
    let now = state.now();
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
        role: account.role,
        csrf_token: session.csrf_token,
        session_hash: session.id_hash,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
