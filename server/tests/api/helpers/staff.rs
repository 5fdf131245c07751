//! Staff in the tests: the staff member and the owner of most tests, signed in; a valet with the
//! CSRF token of the valet page's forms; requests as one of them.

use super::{Backend, SignedIn, TestApp, mail_env, quick_retries, set_cookie, sms_env};
use laundry::domain::StaffRole;
use laundry::fakes::FakeAt;
use laundry::models::staff::Staff;
use reqwest::Method;
use serde_json::Value;

/// The staff member of most tests.
pub const STAFF: &str = "wanjiku@example.com";
/// Their password.
pub const STAFF_PASSWORD: &str = "Tumbo-Ngoma-47-Kazi";
/// The owner of most tests.
pub const OWNER: &str = "njeri@example.com";
/// Their password.
pub const OWNER_PASSWORD: &str = "Kahawa-Chai-Mandazi-22";

/// A staff member, signed in.
pub async fn staff(app: &TestApp) -> SignedIn {
    app.create_staff(STAFF, STAFF_PASSWORD);
    app.sign_in(STAFF, STAFF_PASSWORD).await
}

/// GETs `path` as `session`, expecting 200.
pub async fn get(app: &TestApp, session: &SignedIn, path: &str) -> Value {
    let response = app.staff_request(Method::GET, path, session, false).send().await.unwrap();
    assert_eq!(response.status(), 200, "GET {path}");
    response.json().await.unwrap()
}

/// POSTs `body` to `path` as `session`, with its CSRF token.
pub async fn post(app: &TestApp, session: &SignedIn, path: &str, body: Value) -> reqwest::Response {
    app.staff_request(Method::POST, path, session, true).json(&body).send().await.unwrap()
}

/// Staff set each of `statuses` on the order `reference`, one after the other, as the dashboard's
/// status change does: a cancellation with a reason, ready on rack A1, a return to the shop.
pub async fn move_through(app: &TestApp, session: &SignedIn, reference: &str, statuses: &[&str]) {
    let path = format!("/api/admin/orders/{reference}/status");
    for status in statuses {
        let body = serde_json::json!({ "status": status, "reason": "Cancelled in a test", "rack": "A1", "returnStop": "shop" });
        let response = post(app, session, &path, body).await;
        assert_eq!(response.status(), 200, "set {status}");
    }
}

/// The owner, signed in, and their staff id (to put stops in a run of theirs).
pub async fn owner(app: &TestApp) -> (SignedIn, String) {
    app.create_staff(OWNER, OWNER_PASSWORD);
    let id = app.with_db(|c| Staff::find_by_email(c, OWNER).unwrap().unwrap().id);
    (app.sign_in(OWNER, OWNER_PASSWORD).await, id)
}

/// A valet's account and session (the CSRF token read from the valet page's forms).
pub async fn valet(app: &TestApp, email: &str) -> (String, SignedIn) {
    app.create_staff_as(email, "a long valet password", StaffRole::Valet);
    let id = app.with_db(|c| Staff::find_by_email(c, email).unwrap().unwrap().id);
    let response = app.post_login(email, "a long valet password", None).await;
    let cookie =
        format!("{}={}", laundry::auth::SESSION_COOKIE, set_cookie(&response, laundry::auth::SESSION_COOKIE).unwrap());
    let page = app.get_with("/valet", &[("cookie", &cookie)]).await.text().await.unwrap();
    let csrf = page.split(r#"name="csrf" value=""#).nth(1).and_then(|rest| rest.split('"').next()).unwrap();
    (id, SignedIn { cookie, csrf: csrf.to_owned() })
}

/// A server on `backend` with one pickup per window, the status template configured (the slot
/// e-mail goes with it; its API is nowhere, so nothing is really sent), and a staff member signed
/// in. `None` when PostgreSQL is not configured.
pub async fn staff_app(backend: Backend) -> Option<(TestApp, SignedIn)> {
    let mut env = mail_env("http://127.0.0.1:9", true);
    env.push(("LAUNDRY_WINDOW_CAPACITY", "1".to_owned()));
    let app = TestApp::builder().on(backend).env(&env).retries(crate::helpers::quick_retries()).start().await;
    app.create_staff_as(STAFF, STAFF_PASSWORD, StaffRole::Staff);
    let session = app.sign_in(STAFF, STAFF_PASSWORD).await;
    Some((app, session))
}

/// A server texting through `mock` (when given), with a first-order discount of KSh 200, each
/// window of `capacity` places, and a staff member signed in.
pub async fn booking_app(backend: Backend, mock: Option<&FakeAt>, capacity: u32) -> Option<(TestApp, SignedIn)> {
    let mut env = mock.map(|mock| sms_env(&mock.url)).unwrap_or_default();
    env.push(("LAUNDRY_FIRST_ORDER_DISCOUNT_KES", "200".to_owned()));
    env.push(("LAUNDRY_WINDOW_CAPACITY", capacity.to_string()));
    let app = TestApp::builder().on(backend).env(&env).retries(quick_retries()).start().await;
    app.create_staff_as(STAFF, STAFF_PASSWORD, StaffRole::Staff);
    let session = app.sign_in(STAFF, STAFF_PASSWORD).await;
    Some((app, session))
}
