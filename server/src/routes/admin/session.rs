//! Signing in and out. A login is checked in three steps, each its own function: the limits on
//! failed attempts ([`check_limits`]), the password ([`check_password`]), and a new session
//! ([`start_session`]). The limits, over 15 minutes: 5 failures for one account from one address,
//! 20 from one address whatever the accounts, and 1,000 for one account from everywhere; an attempt
//! over a limit is refused before its password is hashed and does not count.

use crate::auth::{
    self, CurrentStaff, FAILURE_WINDOW, FAILURES_PER_ACCOUNT, FAILURES_PER_ACCOUNT_FROM_CLIENT, FAILURES_PER_CLIENT,
    LOGIN_CSRF_COOKIE, SESSION_COOKIE,
};
use crate::db::DbError;
use crate::models::staff::{LoginFailures, Staff, StaffSession};
use crate::rate_limit::client_ip;
use crate::state::AppState;
use crate::views::pages::{LoginProps, Page};
use actix_web::http::{StatusCode, header};
use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;
use time::PrimitiveDateTime;

/// The login form's fields.
#[derive(Debug, Default, Deserialize)]
pub struct LoginForm {
    email: Option<String>,
    password: Option<String>,
    csrf: Option<String>,
    next: Option<String>,
}

/// `?next=…` of the login page, and `?signed_out=1` after signing out.
#[derive(Debug, Deserialize)]
pub struct NextQuery {
    next: Option<String>,
    signed_out: Option<String>,
}

/// Where signing out lands: the login page, saying so.
const SIGNED_OUT_PATH: &str = "/admin/login?signed_out=1";
/// What the login page says after signing out.
const SIGNED_OUT: &str = "You have signed out.";

/// Why a sign-in did not go through: the login page again, with this message and status.
struct Refusal {
    message: String,
    status: StatusCode,
    /// Over a limit: minutes until it lifts (sent as `Retry-After`).
    retry_minutes: Option<i64>,
}

impl Refusal {
    fn new(message: &str, status: StatusCode) -> Self {
        Refusal { message: message.to_owned(), status, retry_minutes: None }
    }

    fn unavailable() -> Self {
        Refusal::new("Signing in failed. Please try again.", StatusCode::SERVICE_UNAVAILABLE)
    }
}

/// GET /admin/login: the form (saying so after a sign-out), or the dashboard for someone already
/// signed in.
pub async fn show_login(
    state: web::Data<AppState>,
    request: HttpRequest,
    query: web::Query<NextQuery>,
) -> HttpResponse {
    let next = auth::safe_next(query.next.as_deref());
    if let Ok(Some(_)) = auth::live_session(&state, &request).await {
        return see_other(&next);
    }
    let said = if query.signed_out.is_some() { Said::Notice(SIGNED_OUT) } else { Said::Nothing };
    login_page(&state, &request, &next, "", said).await
}

/// POST /admin/login: checks the form's CSRF cookie, the limits, then the password; on success a
/// new session (a new id, whatever cookie came in) and 303 to `next`.
pub async fn login(state: web::Data<AppState>, request: HttpRequest, body: web::Bytes) -> HttpResponse {
    let form: LoginForm = serde_urlencoded::from_bytes(&body).unwrap_or_default();
    let next = auth::safe_next(form.next.as_deref());
    let email = form.email.as_deref().unwrap_or_default().trim().to_lowercase();
    let password = form.password.unwrap_or_default();
    let signed_in = async {
        let cookie_token = request.cookie(LOGIN_CSRF_COOKIE).map(|c| c.value().to_owned());
        if !cookie_token.is_some_and(|token| auth::same_secret(&token, form.csrf.as_deref().unwrap_or_default())) {
            return Err(Refusal::new("The sign-in form expired. Please sign in again.", StatusCode::FORBIDDEN));
        }
        if email.is_empty() || password.is_empty() || email.len() > 254 || password.len() > 1024 {
            return Err(Refusal::new("Please enter your e-mail and password.", StatusCode::UNPROCESSABLE_ENTITY));
        }
        let now = state.now();
        let client = client_ip(state.settings(), &request).to_string();
        let account = check_limits(&state, &client, &email, now).await?;
        let account = check_password(&state, &client, account, password).await?;
        start_session(&state, &request, &client, account, now).await
    };
    match signed_in.await {
        Ok(token) => {
            let mut response = see_other(&next);
            let cookie = auth::auth_cookie(&state, &request, SESSION_COOKIE, token, "/", auth::ABSOLUTE_TIMEOUT);
            let expired_form_cookie = auth::auth_cookie(
                &state,
                &request,
                LOGIN_CSRF_COOKIE,
                String::new(),
                "/admin/login",
                time::Duration::ZERO,
            );
            let _ = response.add_cookie(&cookie);
            let _ = response.add_cookie(&expired_form_cookie);
            response
        }
        Err(refusal) => login_page(&state, &request, &next, &email, Said::Refused(refusal)).await,
    }
}

/// Records this attempt as a failure until the password proves otherwise, then refuses it if the
/// account or the client has too many recent failures. Returns the account, if there is one.
async fn check_limits(
    state: &AppState,
    client: &str,
    email: &str,
    now: PrimitiveDateTime,
) -> Result<Option<Staff>, Refusal> {
    let (lookup_email, lookup_client) = (email.to_owned(), client.to_owned());
    let checked = state
        .db()
        .run(move |connection| {
            let since = now - FAILURE_WINDOW;
            let attempt = LoginFailures::record(connection, &lookup_email, &lookup_client, now, since)?;
            let failures = LoginFailures::recent(connection, &lookup_email, &lookup_client, since)?;
            let account = Staff::find_by_email(connection, &lookup_email)?;
            Ok::<_, DbError>((attempt, failures, account))
        })
        .await;
    let (attempt, failures, account) = checked.map_err(|error| {
        tracing::error!(%error, "the login could not be checked");
        Refusal::unavailable()
    })?;
    // `times` includes this attempt: over `limit`, it is refused, and the limit lifts when the
    // oldest failure that makes it too many leaves the window.
    let limited = |times: &[PrimitiveDateTime], limit: usize| {
        (times.len() > limit).then(|| {
            let lifts = times[times.len() - 1 - limit] + FAILURE_WINDOW;
            (lifts - now).whole_minutes().max(0) + 1
        })
    };
    let refused = [
        ("this account", limited(&failures.for_pair, FAILURES_PER_ACCOUNT_FROM_CLIENT)),
        ("this account", limited(&failures.for_email, FAILURES_PER_ACCOUNT)),
        ("your connection", limited(&failures.for_client, FAILURES_PER_CLIENT)),
    ]
    .into_iter()
    .find_map(|(from, minutes)| minutes.map(|minutes| (from, minutes)));
    let Some((from, minutes)) = refused else { return Ok(account) };
    tracing::warn!(%client, from, "login refused: too many failures");
    // Refused before the password was looked at: this attempt does not count.
    if let Err(error) = state.db().run(move |c| LoginFailures::forget(c, attempt).map_err(DbError::from)).await {
        tracing::error!(%error, "a refused login attempt could not be taken back");
    }
    Err(Refusal {
        message: format!(
            "Too many failed sign-ins for {from}. Please wait {minutes} minute{} and try again.",
            if minutes == 1 { "" } else { "s" }
        ),
        status: StatusCode::TOO_MANY_REQUESTS,
        retry_minutes: Some(minutes),
    })
}

/// The account, if `password` is its password and it is not disabled. Each check takes about
/// 19 MiB and a core's worth of work: they run on the password-check threads, one per core, and
/// wait their turn.
async fn check_password(
    state: &AppState,
    client: &str,
    account: Option<Staff>,
    password: String,
) -> Result<Staff, Refusal> {
    let verified = state.password_checks().verify(account, password).await;
    verified.ok_or_else(|| {
        // The attempt recorded by `check_limits` stays as a failure.
        tracing::info!(%client, "login failed");
        Refusal::new("The e-mail or password is not right.", StatusCode::UNAUTHORIZED)
    })
}

/// A new session for `account`, ending the one the browser came with; returns its cookie token.
async fn start_session(
    state: &AppState,
    request: &HttpRequest,
    client: &str,
    account: Staff,
    now: PrimitiveDateTime,
) -> Result<String, Refusal> {
    let (token, session) = auth::new_session(&account, now);
    let previous = request.cookie(SESSION_COOKIE).map(|c| auth::token_hash(c.value()));
    let client = client.to_owned();
    let started = state
        .db()
        .run(move |connection| {
            if let Some(previous) = previous {
                StaffSession::end(connection, &previous)?;
            }
            StaffSession::start(connection, &session)?;
            LoginFailures::clear(connection, &account.email, &client, now - FAILURE_WINDOW)?;
            StaffSession::purge_stale(connection, now - auth::IDLE_TIMEOUT, now)?;
            Ok::<_, DbError>(account)
        })
        .await;
    match started {
        Ok(account) => {
            tracing::info!(staff = %account.email, "staff signed in");
            Ok(token)
        }
        Err(error) => {
            tracing::error!(%error, "the session could not be stored");
            Err(Refusal::unavailable())
        }
    }
}

/// What the login page says above the form.
enum Said {
    /// Nothing: a first visit.
    Nothing,
    /// Why the last attempt was refused.
    Refused(Refusal),
    /// A word about what just happened.
    Notice(&'static str),
}

/// The login page with a fresh form token (also set as a cookie: double submit), and what it says.
async fn login_page(state: &AppState, request: &HttpRequest, next: &str, email: &str, said: Said) -> HttpResponse {
    let (refusal, notice) = match said {
        Said::Nothing => (None, None),
        Said::Refused(refusal) => (Some(refusal), None),
        Said::Notice(notice) => (None, Some(notice)),
    };
    let token = auth::random_token();
    let status = refusal.as_ref().map_or(StatusCode::OK, |refusal| refusal.status);
    let props = state.pages().props(
        "/admin/login",
        &LoginProps {
            csrf: token.clone(),
            next: next.to_owned(),
            email: email.to_owned(),
            error: refusal.as_ref().map(|refusal| refusal.message.clone()),
            notice: notice.map(str::to_owned),
            status: status.as_u16(),
        },
    );
    let (page, _) = state.pages().render(Page::Login, props).await;
    let mut response = page.respond_private(request);
    let cookie = auth::auth_cookie(state, request, LOGIN_CSRF_COOKIE, token, "/admin/login", time::Duration::hours(1));
    let _ = response.add_cookie(&cookie);
    if let Some(minutes) = refusal.and_then(|refusal| refusal.retry_minutes)
        && let Ok(value) = header::HeaderValue::from_str(&(minutes * 60).to_string())
    {
        response.headers_mut().insert(header::RETRY_AFTER, value);
    }
    response
}

/// POST /admin/logout: ends the session on the server, clears the cookie and lands on the login
/// page, which says so.
pub async fn logout(state: web::Data<AppState>, request: HttpRequest, staff: CurrentStaff) -> HttpResponse {
    let hash = staff.session_hash.clone();
    if let Err(error) = state.db().run(move |c| StaffSession::end(c, &hash).map_err(DbError::from)).await {
        tracing::error!(%error, "ending a session failed");
        return HttpResponse::ServiceUnavailable().body("Signing out failed. Please try again.");
    }
    tracing::info!(staff = %staff.email, "staff signed out");
    let mut response = see_other(SIGNED_OUT_PATH);
    let cookie = auth::auth_cookie(&state, &request, SESSION_COOKIE, String::new(), "/", time::Duration::ZERO);
    let _ = response.add_cookie(&cookie);
    response
}

fn see_other(location: &str) -> HttpResponse {
    HttpResponse::SeeOther()
        .insert_header((header::LOCATION, location))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .finish()
}
