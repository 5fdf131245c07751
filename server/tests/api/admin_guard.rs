//! Nobody but signed-in staff gets past /admin, /api/admin and /valet: every registered route is
//! walked without a session, with a dead one and without its CSRF token, and with each role, which
//! reaches what it may use and nothing else. The login and its limits.

use crate::helpers::orders::an_order;
use crate::helpers::{SignedIn, TestApp, money, set_cookie};
use laundry::auth::{FAILURES_PER_ACCOUNT_FROM_CLIENT, FAILURES_PER_CLIENT, SESSION_COOKIE};
use laundry::db::schema::{orders, staff_sessions};
use laundry::domain::{EntryKind, StaffRole};
use laundry::models::order::Order;
use laundry::startup::{AdminRoute, admin_api_routes as api_routes, admin_page_routes as page_routes, valet_routes};
use reqwest::Method;
use serde_json::{Value, json};

const EMAIL: &str = "wanjiku@example.com";
const PASSWORD: &str = "Tumbo-Ngoma-47-Kazi";

/// `path` with every path parameter (`{id}`, `{stop}`, …) filled with `id`.
fn fill(path: &str, id: &str) -> String {
    let mut filled = String::new();
    let mut rest = path;
    while let Some(open) = rest.find('{') {
        let close = rest[open..].find('}').map_or(rest.len(), |end| open + end + 1);
        filled.push_str(&rest[..open]);
        filled.push_str(id);
        rest = &rest[close..];
    }
    filled + rest
}

/// Which part of the staff side a registered route belongs to, as the roles say: the valet
/// page, the dashboard, the owner's (staff accounts `…/staff…`, the downloads `/admin/exports…`,
/// what staff see of the reports `/admin/reports…`), or signing out (everyone).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Area {
    Valet,
    Dashboard,
    Accounts,
    SignOut,
}

/// Every registered staff route as a full path (path parameters filled with `id`), its method,
/// whether it is an API route, and its area: the dashboard's pages and API, and the valet's.
fn every_registered_route(id: &str) -> Vec<(Method, String, bool, Area)> {
    let full = |prefix: &str, route: &AdminRoute| {
        let path = format!("{prefix}{}", fill(route.path, id));
        let area = match route.path {
            _ if prefix == "/valet" => Area::Valet,
            "/logout" => Area::SignOut,
            path if ["/staff", "/exports", "/reports"].iter().any(|owners| path.starts_with(owners)) => Area::Accounts,
            _ => Area::Dashboard,
        };
        (Method::from_bytes(route.method.as_str().as_bytes()).unwrap(), path.clone(), path.starts_with("/api/"), area)
    };
    page_routes()
        .iter()
        .map(|route| full("/admin", route))
        .chain(api_routes().iter().map(|route| full("/api/admin", route)))
        .chain(valet_routes().iter().map(|route| full("/valet", route)))
        .collect()
}

/// Every guarded route as a full path (path parameters filled with `id`), its method, and whether
/// it is an API route.
fn every_guarded_route(id: &str) -> Vec<(Method, String, bool)> {
    let mut routes: Vec<(Method, String, bool)> =
        every_registered_route(id).into_iter().map(|(method, path, api, _)| (method, path, api)).collect();
    // Paths nobody registered yet are guarded too, and so is a path spelled with escapes.
    routes.push((Method::GET, "/admin/reports".to_owned(), false));
    routes.push((Method::GET, "/administration".to_owned(), false));
    routes.push((Method::GET, "/%61dmin".to_owned(), false));
    routes.push((Method::POST, "/api/admin/orders/export".to_owned(), true));
    routes.push((Method::GET, "/api/%61dmin/stats".to_owned(), true));
    routes
}

/// The stored order with this order ID.
fn stored(app: &TestApp, id: &str) -> Order {
    let reference = laundry::domain::OrderReference::parse(id).expect("an order ID");
    app.with_db(|c| Order::find_by_reference(c, &reference).unwrap().unwrap())
}

/// Whether the order with this order ID is as it was placed: pending, its ledger nothing but the
/// charges of its lines (no payment, refund, discount or adjustment).
fn as_placed(app: &TestApp, id: &str) -> bool {
    let (_, entries) = money(app, id);
    stored(app, id).status.as_str() == "pending" && entries.iter().all(|entry| entry.kind == EntryKind::Charge)
}

fn body_for(path: &str) -> Value {
    if path.ends_with("/slot") {
        json!({ "action": "confirm" })
    } else if path == "/api/admin/run" {
        json!({ "date": "2026-11-25", "stops": [] })
    } else if path.ends_with("/payment") {
        json!({ "method": "cash" })
    } else if path == "/api/admin/texts" {
        json!({ "kind": "sms-eta", "enabled": true })
    } else if path.contains("/messages/") {
        json!({ "status": "handled" })
    } else {
        json!({ "status": "delivered" })
    }
}

/// Sends `method path` with `cookie` and, for writes, a JSON body (and the token if given).
async fn send(
    app: &TestApp,
    method: &Method,
    path: &str,
    cookie: Option<&str>,
    csrf: Option<&str>,
) -> reqwest::Response {
    let mut request = app.client.request(method.clone(), format!("{}{path}", app.address));
    if let Some(cookie) = cookie {
        request = request.header("cookie", cookie);
    }
    if let Some(csrf) = csrf {
        request = request.header(laundry::auth::CSRF_HEADER, csrf);
    }
    if *method != Method::GET {
        request = request.json(&body_for(path));
    }
    request.send().await.unwrap()
}

async fn assert_refused(app: &TestApp, cookie: Option<&str>, id: &str, why: &str) {
    for (method, path, api) in every_guarded_route(id) {
        let response = send(app, &method, &path, cookie, None).await;
        if api {
            assert_eq!(response.status(), 401, "{why}: {method} {path} must answer 401");
            let body: Value = response.json().await.unwrap();
            assert_eq!(body["error"], "Your session has ended. Please sign in again.");
        } else {
            assert_eq!(response.status(), 303, "{why}: {method} {path} must redirect to the login");
            let location = response.headers()["location"].to_str().unwrap();
            assert!(location.starts_with("/admin/login?next="), "{why}: {method} {path} went to {location}");
        }
    }
    assert!(as_placed(app, id), "{why}: nothing changes");
}

#[actix_web::test]
async fn every_admin_route_refuses_a_request_without_a_session() {
    let app = TestApp::builder().start().await;
    let id = an_order().service("ironing", 2).location("Kilimani").pay_now().place(&app).await.reference;
    assert!(every_guarded_route(&id).len() >= 8, "the walk must see the registered routes");

    assert_refused(&app, None, &id, "no cookie").await;
    assert_refused(&app, Some(&format!("{SESSION_COOKIE}=forged-{}", "0".repeat(58))), &id, "a made-up session").await;
}

#[actix_web::test]
async fn a_logged_out_idle_or_expired_session_is_refused() {
    let app = TestApp::builder().start().await;
    let id = an_order().service("ironing", 2).location("Kilimani").pay_now().place(&app).await.reference;
    app.create_staff(EMAIL, PASSWORD);

    let session = app.sign_in(EMAIL, PASSWORD).await;
    let ok = app.staff_request(reqwest::Method::GET, "/api/admin/stats", &session, false).send().await.unwrap();
    assert_eq!(ok.status(), 200);
    let logout = app
        .client
        .post(format!("{}/admin/logout", app.address))
        .header("cookie", &session.cookie)
        .header("content-type", "application/x-www-form-urlencoded")
        .body(format!("csrf={}", session.csrf))
        .send()
        .await
        .unwrap();
    assert_eq!(logout.status(), 303);
    assert_eq!(set_cookie(&logout, SESSION_COOKIE).as_deref(), Some(""), "the cookie is cleared");
    assert_refused(&app, Some(&session.cookie), &id, "after logout").await;

    use diesel::prelude::*;
    let idle = app.sign_in(EMAIL, PASSWORD).await;
    app.with_db(|c| {
        let long_ago = app.now() - time::Duration::hours(3);
        diesel::update(staff_sessions::table).set(staff_sessions::last_seen_at.eq(long_ago)).execute(c).unwrap()
    });
    assert_refused(&app, Some(&idle.cookie), &id, "idle for 3 hours").await;

    let expired = app.sign_in(EMAIL, PASSWORD).await;
    app.with_db(|c| {
        let past = app.now() - time::Duration::minutes(1);
        diesel::update(staff_sessions::table).set(staff_sessions::expires_at.eq(past)).execute(c).unwrap()
    });
    assert_refused(&app, Some(&expired.cookie), &id, "past the absolute end").await;
}

#[actix_web::test]
async fn a_state_change_without_the_csrf_token_is_refused_and_changes_nothing() {
    let app = TestApp::builder().start().await;
    let id = an_order().service("ironing", 2).location("Kilimani").pay_now().place(&app).await.reference;
    app.create_staff(EMAIL, PASSWORD);
    let session = app.sign_in(EMAIL, PASSWORD).await;
    let wrong = SignedIn { csrf: "0".repeat(64), ..session.clone() };

    let writes: Vec<(Method, String, bool)> =
        every_guarded_route(&id).into_iter().filter(|(method, _, _)| *method != Method::GET).collect();
    for (method, path, _) in &writes {
        for csrf in [None, Some(wrong.csrf.as_str())] {
            let response = send(&app, method, path, Some(&session.cookie), csrf).await;
            assert_eq!(response.status(), 403, "{method} {path} with token {csrf:?}");
        }
    }
    assert!(as_placed(&app, &id), "nothing changes");
    let still_signed_in =
        app.staff_request(reqwest::Method::GET, "/api/admin/stats", &session, false).send().await.unwrap();
    assert_eq!(still_signed_in.status(), 200, "a refused logout leaves the session alive");

    let with_token = app
        .staff_request(reqwest::Method::POST, &format!("/api/admin/orders/{id}/status"), &session, true)
        .json(&json!({ "status": "delivered" }))
        .send()
        .await
        .unwrap();
    assert_eq!(with_token.status(), 200);
    assert_eq!(stored(&app, &id).status, laundry::domain::OrderStatus::Delivered);
}

#[actix_web::test]
async fn each_login_gets_a_new_session_and_ends_the_one_it_came_with() {
    let app = TestApp::builder().start().await;
    app.create_staff(EMAIL, PASSWORD);
    let first = app.sign_in(EMAIL, PASSWORD).await;

    let again = app.post_login(EMAIL, PASSWORD, Some(&first.cookie)).await;
    assert_eq!(again.status(), 303);
    let second = set_cookie(&again, SESSION_COOKIE).unwrap();
    assert_ne!(format!("{SESSION_COOKIE}={second}"), first.cookie);
    let cookie_header =
        again.headers().get_all("set-cookie").iter().map(|v| v.to_str().unwrap().to_owned()).collect::<Vec<_>>();
    let session_cookie = cookie_header.iter().find(|c| c.starts_with(SESSION_COOKIE)).unwrap();
    for attribute in ["HttpOnly", "SameSite=Strict", "Path=/"] {
        assert!(session_cookie.contains(attribute), "{session_cookie} lacks {attribute}");
    }
    assert!(!session_cookie.contains("Secure"), "plain HTTP in tests: no Secure attribute");

    let old = app.get_with("/api/admin/stats", &[("cookie", &first.cookie)]).await;
    assert_eq!(old.status(), 401, "the session the login came with has ended");
    use diesel::prelude::*;
    let stored: Vec<String> = app.with_db(|c| staff_sessions::table.select(staff_sessions::id_hash).load(c).unwrap());
    assert_eq!(stored, vec![laundry::auth::token_hash(&second)], "only the hash of the token is stored");
}

#[actix_web::test]
async fn wrong_passwords_unknown_accounts_and_disabled_accounts_are_refused_alike() {
    let app = TestApp::builder().start().await;
    app.create_staff(EMAIL, PASSWORD);
    for (email, password) in [(EMAIL, "Wrong-Password-123"), ("nobody@example.com", PASSWORD)] {
        let response = app.post_login(email, password, None).await;
        assert_eq!(response.status(), 401);
        assert!(set_cookie(&response, SESSION_COOKIE).is_none());
        assert!(response.text().await.unwrap().contains("The e-mail or password is not right."));
    }

    let session = app.sign_in(EMAIL, PASSWORD).await;
    app.with_db(|c| laundry::models::staff::Staff::set_disabled(c, EMAIL, true, app.now()).unwrap());
    assert_eq!(app.get_with("/api/admin/stats", &[("cookie", &session.cookie)]).await.status(), 401);
    assert_eq!(app.post_login(EMAIL, PASSWORD, None).await.status(), 401);
}

#[actix_web::test]
async fn the_login_form_without_its_token_is_refused() {
    let app = TestApp::builder().start().await;
    app.create_staff(EMAIL, PASSWORD);

    let response = app.post_form("/admin/login", &[("email", EMAIL), ("password", PASSWORD), ("csrf", "guess")]).await;

    assert_eq!(response.status(), 403);
    assert!(set_cookie(&response, SESSION_COOKIE).is_none());
}

#[actix_web::test]
async fn failed_logins_are_limited_per_account_and_per_client() {
    let app = TestApp::builder().start().await;
    app.create_staff(EMAIL, PASSWORD);
    for _ in 0..FAILURES_PER_ACCOUNT_FROM_CLIENT {
        assert_eq!(app.post_login(EMAIL, "Wrong-Password-123", None).await.status(), 401);
    }

    let limited = app.post_login(EMAIL, PASSWORD, None).await;

    assert_eq!(limited.status(), 429, "even the right password waits");
    assert!(limited.headers().contains_key("retry-after"));
    let page = limited.text().await.unwrap();
    assert!(
        page.contains("Too many failed sign-ins for this account. Please wait 15 minutes and try again."),
        "{page}"
    );

    for n in 0..FAILURES_PER_CLIENT {
        let status = app.post_login(&format!("guess{n}@example.com"), "Wrong-Password-123", None).await.status();
        assert!(status == 401 || status == 429);
    }
    app.create_staff("other@example.com", PASSWORD);
    let from_client = app.post_login("other@example.com", PASSWORD, None).await;
    assert_eq!(from_client.status(), 429);
    assert!(from_client.text().await.unwrap().contains("Too many failed sign-ins for your connection."));
    use diesel::prelude::*;
    let untouched: i64 = app.with_db(|c| orders::table.count().get_result(c).unwrap());
    assert_eq!(untouched, 0);
}

#[actix_web::test]
async fn sign_ins_sent_all_at_once_get_no_more_guesses_than_the_limit() {
    let app = TestApp::builder().start().await;
    app.create_staff(EMAIL, PASSWORD);

    let attempts = (0..FAILURES_PER_ACCOUNT_FROM_CLIENT * 3).map(|_| app.post_login(EMAIL, "Wrong-Password-123", None));
    let statuses: Vec<u16> = futures::future::join_all(attempts).await.iter().map(|r| r.status().as_u16()).collect();

    let checked = statuses.iter().filter(|&&status| status == 401).count();
    assert!(
        checked <= FAILURES_PER_ACCOUNT_FROM_CLIENT,
        "at most {FAILURES_PER_ACCOUNT_FROM_CLIENT} passwords were checked: {statuses:?}"
    );
    assert!(statuses.iter().all(|&status| status == 401 || status == 429), "{statuses:?}");
    // Whatever the burst used up, one after the other the account gets exactly the rest.
    let mut later = Vec::new();
    for _ in 0..=FAILURES_PER_ACCOUNT_FROM_CLIENT {
        later.push(app.post_login(EMAIL, "Wrong-Password-123", None).await.status().as_u16());
    }
    let checked_later = later.iter().filter(|&&status| status == 401).count();
    assert_eq!(checked + checked_later, FAILURES_PER_ACCOUNT_FROM_CLIENT, "burst {statuses:?}, then {later:?}");
    assert_eq!(app.post_login(EMAIL, PASSWORD, None).await.status(), 429, "the account waits now");
}

#[actix_web::test]
async fn wrong_passwords_from_one_address_do_not_keep_the_staff_member_out_from_another() {
    let env = [("LAUNDRY_BEHIND_PROXY", "true".to_owned())];
    let app = TestApp::builder().on(crate::helpers::Backend::Sqlite).env(&env).start().await;
    app.create_staff(EMAIL, PASSWORD);
    for _ in 0..FAILURES_PER_ACCOUNT_FROM_CLIENT {
        assert_eq!(app.post_login_from(EMAIL, "Wrong-Password-123", "41.90.1.7").await.status(), 401);
    }

    let guesser = app.post_login_from(EMAIL, PASSWORD, "41.90.1.7").await;
    let staff_member = app.post_login_from(EMAIL, PASSWORD, "197.248.10.20").await;

    assert_eq!(guesser.status(), 429, "the guessing address waits, even with the right password");
    assert_eq!(staff_member.status(), 303, "the staff member signs in from their own address");
    assert_eq!(staff_member.headers()["location"], "/admin");
}

/// Whether the guard let the request through to its handler: not refused (401, 403), not sent to
/// the sign-in page, and not sent to `role`'s own page with the guard's empty answer. A handler may
/// still answer 400, 404 or 422 to the walk's made-up ids and bodies.
async fn reached(response: reqwest::Response, role: StaffRole, api: bool) -> Result<(), String> {
    let status = response.status().as_u16();
    let location = response.headers().get("location").map(|v| v.to_str().unwrap().to_owned());
    let body = response.bytes().await.unwrap();
    if status == 401 || status == 403 {
        return Err(format!("refused with {status}"));
    }
    if status == 303 && location.as_deref().is_some_and(|l| l.starts_with("/admin/login")) {
        return Err("sent to the sign-in page".to_owned());
    }
    if !api && status == 303 && location.as_deref() == Some(role.home()) && body.is_empty() {
        return Err(format!("sent back to {}", role.home()));
    }
    Ok(())
}

/// The guard refused `role`: the API with 403, a page with a redirect to the role's own page.
async fn refused(response: reqwest::Response, role: StaffRole, api: bool) -> Result<(), String> {
    let status = response.status().as_u16();
    let location = response.headers().get("location").map(|v| v.to_str().unwrap().to_owned());
    match (api, status, location.as_deref()) {
        (true, 403, _) => {
            let body: Value = response.json().await.unwrap();
            (body["error"] == "Your account cannot use this part of the site.")
                .then_some(())
                .ok_or_else(|| format!("403 with {body}"))
        }
        (false, 303, Some(home)) if home == role.home() => Ok(()),
        _ => Err(format!("answered {status} (location {location:?})")),
    }
}

#[actix_web::test]
async fn each_role_reaches_what_it_may_use_on_every_registered_route_and_nothing_else() {
    let app = TestApp::builder().start().await;
    let id = an_order().service("ironing", 2).location("Kilimani").pay_now().place(&app).await.reference;
    let routes = every_registered_route(&id);
    assert_eq!(routes.len(), page_routes().len() + api_routes().len() + valet_routes().len());
    assert!(routes.iter().any(|(.., area)| *area == Area::Accounts), "the owner's accounts area has a route");
    let may_use = |role: StaffRole, area: Area| match (role, area) {
        (_, Area::SignOut) | (StaffRole::Owner, _) => true,
        (StaffRole::Staff, area) => area != Area::Accounts,
        (StaffRole::Valet, area) => area == Area::Valet,
    };

    // The valet first: nothing it is refused may change the order the others then change.
    for role in [StaffRole::Valet, StaffRole::Staff, StaffRole::Owner] {
        let session = app.sign_in_as(&format!("{role}@example.com"), PASSWORD, role).await;
        // Signing out ends the session: it is walked last.
        let (sign_out, others): (Vec<_>, Vec<_>) = routes.iter().partition(|(.., area)| *area == Area::SignOut);
        for (method, path, api, area) in others.into_iter().chain(sign_out) {
            let response = send(&app, method, path, Some(&session.cookie), Some(&session.csrf)).await;
            let outcome = if *area == Area::SignOut {
                // Signing out answers with the sign-in page's address; that it ran is checked below.
                (response.status() == 303).then_some(()).ok_or_else(|| format!("answered {}", response.status()))
            } else if may_use(role, *area) {
                reached(response, role, *api).await
            } else {
                refused(response, role, *api).await
            };
            if let Err(what) = outcome {
                panic!("{role} on {method} {path} ({area:?}): {what}");
            }
        }
        let still: u16 = app.get_with("/api/admin/stats", &[("cookie", &session.cookie)]).await.status().as_u16();
        assert_eq!(still, 401, "{role}: the walk ended with signing out, which ends the session");
        if role == StaffRole::Valet {
            assert!(as_placed(&app, &id), "the valet changed nothing");
        }
    }
}

#[actix_web::test]
async fn only_the_owner_lists_the_staff_accounts() {
    let app = TestApp::builder().start().await;
    let owner = app.sign_in_as("owner@example.com", PASSWORD, StaffRole::Owner).await;
    let staff = app.sign_in_as("staff@example.com", PASSWORD, StaffRole::Staff).await;
    app.sign_in_as("valet@example.com", PASSWORD, StaffRole::Valet).await;
    app.with_db(|c| laundry::models::staff::Staff::set_disabled(c, "valet@example.com", true, app.now()).unwrap());

    let refused = app.staff_request(Method::GET, "/api/admin/staff", &staff, false).send().await.unwrap();
    let listed = app.staff_request(Method::GET, "/api/admin/staff", &owner, false).send().await.unwrap();

    assert_eq!(refused.status(), 403);
    assert_eq!(listed.status(), 200);
    let body: Value = listed.json().await.unwrap();
    let accounts: Vec<(&str, &str, &str, bool)> = body["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["email"].as_str().unwrap(),
                a["role"].as_str().unwrap(),
                a["state"].as_str().unwrap(),
                a["lastSignInAt"].is_string(),
            )
        })
        .collect();
    assert_eq!(
        accounts,
        vec![
            ("owner@example.com", "owner", "enabled", true),
            ("staff@example.com", "staff", "enabled", true),
            ("valet@example.com", "valet", "disabled", true),
        ]
    );
    assert!(!body.to_string().contains("argon2"), "never a password hash");
}
