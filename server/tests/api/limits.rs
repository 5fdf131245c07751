//! Limits that cannot be turned against customers (issue 28): a replay of a stored order sent from
//! many addresses is answered before any limit counts it, a flood of new addresses never fills the
//! per-client limit against strangers, posts from other sites are refused, and names that show
//! nothing or reorder text are refused. On both backends.

use crate::helpers::orders::an_order;
use crate::helpers::{Backend, TestApp};
use crate::on_both_backends;
use laundry::models::contact_message::ContactMessage;
use laundry::models::order::Order;
use laundry::routes::same_site::{CROSS_SITE_API, CROSS_SITE_FORM, NOT_JSON};
use serde_json::{Value, json};

/// An order as the plain form sends it.
const FORM_ORDER: [(&str, &str); 6] = [
    ("customerName", "Brian Otieno"),
    ("phone", "0722 000 111"),
    ("location", "Westlands"),
    ("serviceType", "ironing"),
    ("quantity", "2"),
    ("paymentMethod", "pay-delivery"),
];

fn stored_orders(app: &TestApp) -> i64 {
    app.with_db(|c| Order::count(c).unwrap())
}

/// The `n`th address of a flood: IPv4 addresses and IPv6 /64s, each a client of its own.
fn flood_address(n: usize) -> String {
    if n.is_multiple_of(2) { format!("10.{}.{}.7", n / 250, n % 250) } else { format!("2001:db8:{n:x}::1") }
}

async fn a_replay_flood_from_more_addresses_than_the_limiter_holds_leaves_new_customers_ordering(backend: Backend) {
    let app = TestApp::builder()
        .on(backend)
        .set("LAUNDRY_BEHIND_PROXY", "true")
        .set("LAUNDRY_LIMIT_CLIENTS", "20")
        .set("LAUNDRY_SUBMISSIONS_PER_HOUR", "2")
        .start()
        .await;
    let body = an_order().name("Amina Wanjiru").phone("0712 345 678").body();
    let first =
        app.post_json("/api/orders", &body, &[("Idempotency-Key", "flood-1"), ("X-Forwarded-For", "41.90.0.1")]);
    assert_eq!(first.await.status(), 201);

    // The same body and key from 200 addresses, ten times what the limiter remembers.
    for wave in (0..200).collect::<Vec<_>>().chunks(20) {
        let (app, body) = (&app, &body);
        let replays = wave.iter().map(|&n| {
            let address = flood_address(n);
            async move {
                let headers = [("Idempotency-Key", "flood-1"), ("X-Forwarded-For", address.as_str())];
                app.post_json("/api/orders", body, &headers).await
            }
        });
        for answer in futures::future::join_all(replays).await {
            assert_eq!(answer.status(), 201);
            assert_eq!(answer.headers()["idempotent-replayed"], "true");
        }
    }
    assert_eq!(app.state.submission_limit().clients(), 1, "a replay is counted nowhere");

    // New orders from 60 new addresses: three times what it remembers, and none is refused.
    for n in 0..60 {
        let body = an_order().name("Flood Customer").phone(&format!("0711 000 {n:03}")).body();
        let address = flood_address(1000 + n);
        let answer = app.post_json("/api/orders", &body, &[("X-Forwarded-For", address.as_str())]).await;
        assert_eq!(answer.status(), 201, "new address {address}");
    }
    assert!(app.state.submission_limit().clients() <= 20, "the limiter holds at most its capacity");

    let new_customer = an_order().name("Wanjiku Kamau").phone("0722 555 101").body();
    let answer = app.post_json("/api/orders", &new_customer, &[("X-Forwarded-For", "197.232.61.9")]).await;
    assert_eq!(answer.status(), 201, "a new customer orders after the flood");
    assert_eq!(stored_orders(&app), 62);
}

#[actix_web::test]
async fn a_replay_flood_leaves_new_customers_ordering_on_sqlite() {
    a_replay_flood_from_more_addresses_than_the_limiter_holds_leaves_new_customers_ordering(Backend::Sqlite).await;
}

#[actix_web::test]
async fn a_replay_flood_leaves_new_customers_ordering_on_postgres() {
    if crate::helpers::postgres_skipped() {
        return;
    }
    a_replay_flood_from_more_addresses_than_the_limiter_holds_leaves_new_customers_ordering(Backend::Postgres).await;
}

async fn a_retry_of_a_stored_order_or_message_from_a_client_over_its_limit_is_answered(backend: Backend) {
    let app = TestApp::builder()
        .on(backend)
        .set("LAUNDRY_BEHIND_PROXY", "true")
        .set("LAUNDRY_LIMIT_CLIENTS", "20")
        .set("LAUNDRY_SUBMISSIONS_PER_HOUR", "2")
        .start()
        .await;
    let from = [("X-Forwarded-For", "41.90.0.2")];
    let message = json!({ "name": "Achieng", "email": "achieng@example.com", "phone": "", "subject": "Curtains", "message": "Do you take sheers?" });
    let first =
        app.post_json("/api/orders", &an_order().name("Amina Wanjiru").phone("0712 345 678").body(), &from).await;
    assert_eq!(first.status(), 201);
    assert_eq!(app.post_json("/api/contacts", &message, &from).await.status(), 201);
    let over = app.post_json("/api/orders", &an_order().name("Someone Else").phone("0733 000 222").body(), &from).await;
    assert_eq!(over.status(), 429, "two stored: the third is over the limit");

    let again =
        app.post_json("/api/orders", &an_order().name("Amina Wanjiru").phone("0712 345 678").body(), &from).await;
    assert_eq!(again.status(), 201, "the same order again (no key: by its details) is the stored one");
    assert_eq!(again.headers()["idempotent-replayed"], "true");
    assert_eq!(app.post_json("/api/contacts", &message, &from).await.status(), 201, "so is the same message");
    assert_eq!(stored_orders(&app), 1);
    assert_eq!(app.with_db(|c| ContactMessage::count(c).unwrap()), 1);
}

#[actix_web::test]
async fn a_retry_from_a_client_over_its_limit_is_answered_on_sqlite() {
    a_retry_of_a_stored_order_or_message_from_a_client_over_its_limit_is_answered(Backend::Sqlite).await;
}

#[actix_web::test]
async fn a_retry_from_a_client_over_its_limit_is_answered_on_postgres() {
    if crate::helpers::postgres_skipped() {
        return;
    }
    a_retry_of_a_stored_order_or_message_from_a_client_over_its_limit_is_answered(Backend::Postgres).await;
}

/// POST `body` to `path` with `content_type` and extra headers.
async fn post_raw(
    app: &TestApp,
    path: &str,
    content_type: &str,
    body: String,
    headers: &[(&str, &str)],
) -> reqwest::Response {
    let mut request = app.client.post(format!("{}{path}", app.address)).header("content-type", content_type).body(body);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request.send().await.unwrap()
}

async fn error_of(response: reqwest::Response) -> String {
    let body: Value = response.json().await.unwrap();
    body["error"].as_str().unwrap().to_owned()
}

on_both_backends! {
    async fn orders_posted_from_another_site_are_refused_and_nothing_is_stored(app: TestApp) {
        let json_body = an_order().name("Amina Wanjiru").phone("0712 345 678").body().to_string();
        let form = serde_urlencoded::to_string(FORM_ORDER).unwrap();

        // A page of another site: fetch() with a body that needs no preflight, or a form.
        let plain = post_raw(&app, "/api/orders", "text/plain", json_body.clone(), &[("Sec-Fetch-Site", "cross-site"), ("Origin", "https://evil.example")]).await;
        assert_eq!(plain.status(), 403);
        assert_eq!(error_of(plain).await, CROSS_SITE_API);
        let old_browser = post_raw(&app, "/api/orders", "application/json", json_body.clone(), &[("Origin", "https://evil.example")]).await;
        assert_eq!(old_browser.status(), 403, "a browser without Sec-Fetch-Site is judged by Origin");
        let sibling = post_raw(&app, "/api/orders", "application/json", json_body.clone(), &[("Sec-Fetch-Site", "same-site")]).await;
        assert_eq!(sibling.status(), 403, "another site of the same domain is another site");
        let cross_form = post_raw(&app, "/order", "application/x-www-form-urlencoded", form.clone(), &[("Sec-Fetch-Site", "cross-site")]).await;
        assert_eq!(cross_form.status(), 403);
        assert_eq!(cross_form.text().await.unwrap(), CROSS_SITE_FORM);
        let cross_origin = post_raw(&app, "/order", "application/x-www-form-urlencoded", form.clone(), &[("Origin", "https://evil.example")]).await;
        assert_eq!(cross_origin.status(), 403);
        // JSON only as JSON, even from a client that is no browser.
        let undeclared = post_raw(&app, "/api/orders", "text/plain", json_body.clone(), &[]).await;
        assert_eq!(undeclared.status(), 415);
        assert_eq!(error_of(undeclared).await, NOT_JSON);
        assert_eq!(stored_orders(&app), 0, "nothing was stored");

        // The site's own pages.
        let own_json = post_raw(&app, "/api/orders", "application/json; charset=utf-8", json_body, &[("Sec-Fetch-Site", "same-origin"), ("Origin", &app.address)]).await;
        assert_eq!(own_json.status(), 201);
        let own_form = post_raw(&app, "/order", "application/x-www-form-urlencoded", form, &[("Origin", &app.address)]).await;
        assert_eq!(own_form.status(), 303);
        assert_eq!(stored_orders(&app), 2);
    }

    async fn contact_messages_posted_from_another_site_are_refused(app: TestApp) {
        let message = json!({ "name": "Achieng", "email": "achieng@example.com", "phone": "", "subject": "Hi", "message": "Hello" });
        let api = post_raw(&app, "/api/contacts", "text/plain", message.to_string(), &[("Sec-Fetch-Site", "cross-site")]).await;
        assert_eq!(api.status(), 403);
        let form = serde_urlencoded::to_string([("name", "Achieng"), ("email", "achieng@example.com"), ("subject", "Hi"), ("message", "Hello")]).unwrap();
        let posted = post_raw(&app, "/contact", "application/x-www-form-urlencoded", form, &[("Origin", "https://evil.example")]).await;
        assert_eq!(posted.status(), 403);
        let undeclared = post_raw(&app, "/api/contacts", "text/plain", message.to_string(), &[]).await;
        assert_eq!(undeclared.status(), 415);
        assert_eq!(app.with_db(|c| ContactMessage::count(c).unwrap()), 0);
    }

    async fn a_name_that_shows_nothing_or_reorders_text_is_refused(app: TestApp) {
        let invisible = app.post_json("/api/orders", &an_order().name("\u{200B}\u{200C}\u{200D}\u{2060}\u{FEFF}").phone("0712 345 678").body(), &[]).await;
        assert_eq!(invisible.status(), 422);
        let body: Value = invisible.json().await.unwrap();
        assert_eq!(body["fields"]["customerName"], "Please enter your full name.");

        let reordered = app.post_json("/api/orders", &an_order().name("Amina \u{202E}anixaM").phone("0712 345 678").body(), &[]).await;
        assert_eq!(reordered.status(), 422);
        let body: Value = reordered.json().await.unwrap();
        assert_eq!(body["fields"]["customerName"], "Your full name contains characters we cannot store.");

        let form: Vec<(&str, &str)> = FORM_ORDER.iter().map(|&(name, value)| if name == "customerName" { (name, "\u{3164}\u{3164}") } else { (name, value) }).collect();
        let page = app.post_form("/order", &form).await;
        assert_eq!(page.status(), 422);
        assert!(page.text().await.unwrap().contains("Please enter your full name."), "the form says so next to the field");
        assert_eq!(stored_orders(&app), 0);

        // Issue 50: Braille blanks and combining marks alone are blank too; a line separator or tag
        // characters inside a name are refused.
        for blank in ["\u{2800}\u{2800}\u{2800}", "\u{0301}\u{0308}\u{0303}"] {
            let answer = app.post_json("/api/orders", &an_order().name(blank).phone("0712 345 678").body(), &[]).await;
            assert_eq!(answer.status(), 422, "{blank:?}");
            let body: Value = answer.json().await.unwrap();
            assert_eq!(body["fields"]["customerName"], "Please enter your full name.", "{blank:?}");
        }
        for hidden in ["Amina\u{2028}Wanjiru", "Amina \u{E0041}\u{E0042}Wanjiru"] {
            let answer = app.post_json("/api/orders", &an_order().name(hidden).phone("0712 345 678").body(), &[]).await;
            assert_eq!(answer.status(), 422, "{hidden:?}");
            let body: Value = answer.json().await.unwrap();
            assert_eq!(body["fields"]["customerName"], "Your full name contains characters we cannot store.");
        }
        assert_eq!(stored_orders(&app), 0);

        let padded = app.post_json("/api/orders", &an_order().name("\u{200B}Amina Wanjiru\u{200B}").phone("0712 345 678").body(), &[]).await;
        assert_eq!(padded.status(), 201);
        let body: Value = padded.json().await.unwrap();
        assert_eq!(body["customerName"], "Amina Wanjiru", "invisible characters at the ends are trimmed");
    }
}
