//! Looking orders up by order ID and by phone, on both backends; a phone number never in a URL.
//! The timeline of every status is in `tracking/timeline.rs`.

mod timeline;

use crate::helpers::TestApp;
use crate::helpers::orders::an_order;
use crate::on_both_backends;
use serde_json::{Value, json};
use std::sync::{Arc, Mutex, OnceLock};

/// `POST /api/tracking` as the hydrated page sends it.
async fn post_look_up(app: &TestApp, by: &str, q: &str) -> reqwest::Response {
    app.post_json("/api/tracking", &json!({ "by": by, "q": q }), &[]).await
}

on_both_backends! {
    async fn an_order_is_found_by_its_order_id_with_only_the_first_name_and_a_masked_phone(app: TestApp) {
        let placed = an_order().phone("0712345678").service("wash-fold", 5).location("Kilimani").place(&app).await;

        let response = post_look_up(&app, "order", &placed.reference.to_lowercase()).await;

        assert_eq!(response.status(), 200);
        let body: Value = response.json().await.unwrap();
        let order = &body["orders"][0];
        assert_eq!(order["id"], placed.reference.as_str());
        assert_eq!(order["customer"], "Amina");
        assert_eq!(order["phone"], "+254 7** *** 678");
        assert_eq!(order["status"], "pending");
        assert_eq!(order["total"], 750);
        assert!(!body.to_string().contains("Wanjiru"), "the surname is not shown");
        assert!(!body.to_string().contains("Kilimani"), "the location is not shown");
    }

    async fn orders_are_found_by_phone_number_written_any_common_way_in_a_post(app: TestApp) {
        an_order().phone("0712345678").service("wash-fold", 5).location("Kilimani").place(&app).await;
        an_order().phone("+254 712 345 678").service("wash-fold", 5).location("Kilimani").place(&app).await;
        an_order().phone("0799000000").service("wash-fold", 5).location("Kilimani").place(&app).await;

        let response = post_look_up(&app, "phone", "254712345678").await;

        assert_eq!(response.status(), 200);
        assert_eq!(response.headers()["cache-control"], "no-store");
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["orders"].as_array().unwrap().len(), 2);
    }

    async fn a_phone_number_in_a_url_is_refused_without_a_look_up_and_not_shown_again(app: TestApp) {
        let placed = an_order().phone("0712345678").service("wash-fold", 5).location("Kilimani").place(&app).await;

        let api = app.get("/api/tracking?by=phone&q=0712345678").await;
        let page = app.get("/tracking?by=phone&q=0712345678").await;

        assert_eq!(api.status(), 404, "the API looks up by POST only");
        assert!(!api.text().await.unwrap().contains(&placed.reference), "no order is answered for a phone in a URL");
        assert_eq!(page.status(), 400);
        let html = page.text().await.unwrap();
        assert!(html.contains("To keep your number private, please type your phone number in the form"));
        assert!(!html.contains(&placed.reference), "no order is shown for a phone in a URL");
        assert!(!html.contains("0712345678"), "the number is not put back into the page");
    }

    async fn the_plain_form_posts_a_phone_look_up_and_the_answer_stays_at_tracking(app: TestApp) {
        let placed = an_order().phone("0712345678").service("wash-fold", 5).location("Kilimani").place(&app).await;
        let form = app.get("/tracking").await.text().await.unwrap();
        let form_tag = form.split("<form").nth(1).and_then(|rest| rest.split('>').next()).unwrap();
        let posts = form_tag.contains(r#"method="post""#) && form_tag.contains(r#"action="/tracking""#);
        assert!(posts, "the form posts, so nothing typed goes into the URL: {form_tag}");

        let response = app.post_form("/tracking", &[("by", "phone"), ("q", "0712 345 678")]).await;

        assert_eq!(response.status(), 200, "answered in place: no redirect to a URL holding the number");
        assert!(response.headers().get("location").is_none());
        assert_eq!(response.headers()["cache-control"], "no-store, private", "no cache keeps an order's details");
        let html = response.text().await.unwrap();
        assert!(html.contains(&format!("Order #{}", placed.reference)));
        assert!(html.contains("Order Information"));
    }

    async fn the_tracking_page_shows_an_order_id_look_up_from_a_shareable_link_without_javascript(app: TestApp) {
        let placed = an_order().phone("0712345678").service("wash-fold", 5).location("Kilimani").place(&app).await;

        let response = app.get(&format!("/tracking?by=order&q={}", placed.reference)).await;

        assert_eq!(response.status(), 200);
        assert_eq!(response.headers()["cache-control"], "no-store, private", "no cache keeps an order's details");
        let html = response.text().await.unwrap();
        assert!(html.contains(&format!("Order #{}", placed.reference)));
        assert!(html.contains("Order Information"));
        assert!(html.contains("Ready for Delivery"));
    }

    async fn a_miss_says_clearly_that_no_order_was_found(app: TestApp) {
        an_order().phone("0712345678").service("wash-fold", 5).location("Kilimani").place(&app).await;

        let by_order_id = post_look_up(&app, "order", "ZZZZ2222").await;
        let by_phone = post_look_up(&app, "phone", "0700000000").await;

        assert_eq!(by_order_id.status(), 404);
        let body: Value = by_order_id.json().await.unwrap();
        assert_eq!(body["error"], "No order was found with that order ID. Please check it and try again.");
        assert_eq!(by_phone.status(), 404);
        let body: Value = by_phone.json().await.unwrap();
        assert_eq!(body["error"], "No order was found for that phone number. Please check it and try again.");
    }

    async fn a_client_over_the_look_up_limit_gets_429_with_a_clear_message(app: TestApp) {
        for _ in 0..5 {
            assert_eq!(post_look_up(&app, "order", "ZZZZ2222").await.status(), 404);
            assert_eq!(post_look_up(&app, "phone", "0700000000").await.status(), 404);
        }

        let response = post_look_up(&app, "phone", "0700000000").await;

        assert_eq!(response.status(), 429, "posted look-ups count with the others");
        assert!(response.headers().contains_key("retry-after"));
        let body: Value = response.json().await.unwrap();
        assert!(body["error"].as_str().unwrap().starts_with("Too many look-ups"));
        let page = app.post_form("/tracking", &[("by", "phone"), ("q", "0700000000")]).await;
        assert_eq!(page.status(), 429);
        assert!(page.headers().contains_key("retry-after"), "the page says when to try again too");
        assert!(page.text().await.unwrap().contains("Too many look-ups from your connection."));
    }

    async fn a_malformed_look_up_is_a_400_that_says_what_is_expected(app: TestApp) {
        let short = post_look_up(&app, "order", "K7MX2QP").await;
        let not_json = app.client.post(format!("{}/api/tracking", app.address)).body("by=phone").send().await.unwrap();

        assert_eq!(short.status(), 400);
        let body: Value = short.json().await.unwrap();
        assert_eq!(body["error"], "An order ID has 8 letters and digits, like K7MX2QPD; this one has 7.");
        // Eight characters, one of which order IDs never use: the answer names it.
        let zero = post_look_up(&app, "order", "V82KVDM0").await;
        assert_eq!(zero.status(), 400);
        let body: Value = zero.json().await.unwrap();
        let message = "Order IDs never use 0 (zero): please check the ID in your text or e-mail, like K7MX2QPD.";
        assert_eq!(body["error"], message);
        // The same on the page without JavaScript.
        let page = app.get("/tracking?by=order&q=V82KVDM0").await;
        assert_eq!(page.status(), 400);
        assert!(page.text().await.unwrap().contains("Order IDs never use 0 (zero)"));
        assert_eq!(not_json.status(), 400);
        let body: Value = not_json.json().await.unwrap();
        assert!(body["error"].as_str().unwrap().starts_with("The body must be JSON"));
    }
}

/// Everything the servers of this test binary log from the first call on, as `laundry serve`
/// writes it at its default level (info): each line with its request span's fields, the URL among them.
fn captured_logs() -> Arc<Mutex<Vec<u8>>> {
    static LOGS: OnceLock<Arc<Mutex<Vec<u8>>>> = OnceLock::new();
    LOGS.get_or_init(|| {
        let logs = Arc::new(Mutex::new(Vec::new()));
        let sink = logs.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_max_level(tracing::Level::INFO)
            .with_ansi(false)
            .with_writer(move || LogSink(sink.clone()))
            .finish();
        tracing::subscriber::set_global_default(subscriber).expect("no other test sets a subscriber");
        logs
    })
    .clone()
}

struct LogSink(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for LogSink {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[actix_web::test]
async fn no_log_line_holds_a_phone_number_that_was_looked_up() {
    let logs = captured_logs();
    let app = TestApp::builder().start().await;
    an_order().phone("0712 999 888").service("wash-fold", 5).location("Kilimani").place(&app).await;

    assert_eq!(post_look_up(&app, "phone", "0712 999 888").await.status(), 200);
    assert_eq!(post_look_up(&app, "phone", "0712 999 000").await.status(), 404);
    assert_eq!(app.get("/api/tracking?by=phone&q=0712999111").await.status(), 404);
    assert_eq!(app.get("/tracking?by=phone&q=0712999222").await.status(), 400);
    assert_eq!(app.post_form("/tracking", &[("by", "phone"), ("q", "0712999333")]).await.status(), 404);

    let logged = String::from_utf8_lossy(&logs.lock().unwrap()).into_owned();
    assert!(logged.contains("http.target=/api/tracking"), "the 404 is logged with its URL: {logged}");
    for digits in ["999888", "999000", "999111", "999222", "999333"] {
        assert!(!logged.contains(digits), "{digits} in the log: {logged}");
    }
}
