//! Staff authentication (passwords are `crate::password`): sessions kept in the database behind a random
//! cookie token, CSRF tokens, and the guard that wraps every route of `/admin` and `/api/admin`.
//!
//! The guard ([`require_staff`]) wraps the whole application and decides by the path alone
//! ([`is_staff_only`]): every path under `/admin` and `/api/admin` but the login is guarded, however
//! and wherever its route is registered. `tests/api/admin_guard.rs` walks every registered route
//! and some that are not to keep it that way.

mod guard;
mod session;

pub use guard::{is_staff_only, require_staff, safe_next};
pub use session::{CurrentStaff, auth_cookie, live_session, new_session, random_token, same_secret, token_hash};

use time::Duration;

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
/// Failed logins for one account from one client address in the window before that address's
/// logins to that account are refused: a guesser is slowed down, and the real person signing in
/// from anywhere else is not.
pub const FAILURES_PER_ACCOUNT_FROM_CLIENT: usize = 5;
/// Failed logins per client address in the window, whatever the accounts, before its logins are
/// refused.
pub const FAILURES_PER_CLIENT: usize = 20;
/// Failed logins per account in the window, from all addresses together, before the account's
/// logins are refused: a ceiling on how fast many addresses together may guess (about 96,000
/// guesses a day against a password of 12 or more characters), high enough that a few people
/// guessing cannot keep the real person out.
pub const FAILURES_PER_ACCOUNT: usize = 1000;
