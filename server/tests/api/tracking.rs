//! Looking orders up by reference and by phone, on both backends.

use crate::helpers::TestApp;
use crate::on_both_backends;
use serde_json::{Value, json};

async fn place(app: &TestApp, phone: &str) -> String {
    let order = json!({
        "customerName": "Amina Wanjiru", "phone": phone, "location": "Kilimani",
        "serviceType": "wash-fold", "quantity": 5, "paymentMethod": "pay-delivery"
    });
    // Each its own order: the same order sent again without a key would be the first one.
    let key = uuid::Uuid::new_v4().to_string();
    let body: Value = app.post_json("/api/orders", &order, &[("Idempotency-Key", &key)]).await.json().await.unwrap();
    body["reference"].as_str().unwrap().to_owned()
}

on_both_backends! {
    async fn an_order_is_found_by_its_reference_with_only_the_first_name_and_a_masked_phone(app: TestApp) {
        let reference = place(&app, "0712345678").await;

        let response = app.get(&format!("/api/tracking?by=order&q={}", reference.to_lowercase())).await;

        assert_eq!(response.status(), 200);
        let body: Value = response.json().await.unwrap();
        let order = &body["orders"][0];
        assert_eq!(order["reference"], reference.as_str());
        assert_eq!(order["customer"], "Amina");
        assert_eq!(order["phone"], "+254 7** *** 678");
        assert_eq!(order["status"], "pending");
        assert_eq!(order["total"], 750);
        assert!(order["estimatedCompletion"].is_string());
        assert!(!body.to_string().contains("Wanjiru"), "the surname is not shown");
        assert!(!body.to_string().contains("Kilimani"), "the location is not shown");
    }

    async fn orders_are_found_by_phone_number_written_any_common_way(app: TestApp) {
        place(&app, "0712345678").await;
        place(&app, "+254 712 345 678").await;
        place(&app, "0799000000").await;

        let body: Value = app.get("/api/tracking?by=phone&q=254712345678").await.json().await.unwrap();

        assert_eq!(body["orders"].as_array().unwrap().len(), 2);
    }

    async fn a_miss_says_clearly_that_no_order_was_found(app: TestApp) {
        place(&app, "0712345678").await;

        let by_reference = app.get("/api/tracking?by=order&q=ZZZZ2222").await;
        let by_phone = app.get("/api/tracking?by=phone&q=0700000000").await;

        assert_eq!(by_reference.status(), 404);
        let body: Value = by_reference.json().await.unwrap();
        assert_eq!(body["error"], "No order was found with that order ID. Please check it and try again.");
        assert_eq!(by_phone.status(), 404);
    }

    async fn the_tracking_page_shows_the_result_without_javascript(app: TestApp) {
        let reference = place(&app, "0712345678").await;

        let response = app.get(&format!("/tracking?by=order&q={reference}")).await;

        assert_eq!(response.headers()["cache-control"], "no-store, private", "no cache keeps an order's details");
        let html = response.text().await.unwrap();
        assert!(html.contains(&reference));
        assert!(html.contains("Order Information"));
        assert!(html.contains("Order Placed"));
        assert!(html.contains("Ready for Delivery"));
    }

    async fn a_client_over_the_look_up_limit_gets_429_with_a_clear_message(app: TestApp) {
        for _ in 0..10 {
            assert_eq!(app.get("/api/tracking?by=order&q=ZZZZ2222").await.status(), 404);
        }

        let response = app.get("/api/tracking?by=order&q=ZZZZ2222").await;

        assert_eq!(response.status(), 429);
        assert!(response.headers().contains_key("retry-after"));
        let body: Value = response.json().await.unwrap();
        assert!(body["error"].as_str().unwrap().starts_with("Too many look-ups"));
        let page = app.get("/tracking?by=order&q=ZZZZ2222").await;
        assert_eq!(page.status(), 429);
        assert!(page.headers().contains_key("retry-after"), "the page says when to try again too");
        assert!(page.text().await.unwrap().contains("Too many look-ups from your connection."));
    }

    async fn a_malformed_look_up_is_a_400_that_says_what_is_expected(app: TestApp) {
        let response = app.get("/api/tracking?by=order&q=12").await;

        assert_eq!(response.status(), 400);
        let body: Value = response.json().await.unwrap();
        assert!(body["error"].as_str().unwrap().contains("8 letters and digits"));
    }
}
