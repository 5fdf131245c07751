//! Texts through the outbox, against a mock Africa's Talking on loopback: the exact request of a
//! text, and the delivery report that marks it.

use crate::helpers::{Backend, SMS_HOOK_SECRET, TestApp, quick_retries, sms_env, spawn_app_with_env};
use crate::sms_mock::MockAt;
use laundry::domain::{Channel, Delivery, OutboxStatus};
use laundry::models::outbox::OutboxMessage;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

const WAIT: Duration = Duration::from_secs(15);

pub async fn texting_app(backend: Backend, mock: &MockAt) -> Option<TestApp> {
    spawn_app_with_env(backend, &sms_env(&mock.url), quick_retries()).await
}

/// Places an order for `phone` through the JSON API; its order ID.
pub async fn place(app: &TestApp, phone: &str) -> String {
    let body = json!({
        "customerName": "Amina Wanjiru", "phone": phone, "email": null,
        "location": "Kilimani, Argwings Kodhek Rd", "serviceType": "wash-fold", "quantity": 3,
        "paymentMethod": "pay-delivery", "specialInstructions": ""
    });
    let key = uuid::Uuid::new_v4().to_string();
    let response = app.post_json("/api/orders", &body, &[("Idempotency-Key", &key)]).await;
    assert_eq!(response.status(), 201);
    response.json::<Value>().await.unwrap()["id"].as_str().unwrap().to_owned()
}

/// The outbox's texts.
pub fn texts(app: &TestApp) -> Vec<OutboxMessage> {
    let all = app.with_db(|c| OutboxMessage::all(c).unwrap());
    all.into_iter().filter(|row| row.channel == Channel::Sms).collect()
}

/// Waits until every text satisfies `done`.
pub async fn until_texts(app: &TestApp, what: &str, done: impl Fn(&OutboxMessage) -> bool) -> Vec<OutboxMessage> {
    let deadline = Instant::now() + WAIT;
    loop {
        let rows = texts(app);
        if !rows.is_empty() && rows.iter().all(&done) {
            return rows;
        }
        assert!(Instant::now() < deadline, "texts never became {what}: {rows:#?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn an_order_texts_the_customer_and_the_delivery_report_marks_it(backend: Backend) {
    let mock = MockAt::start().await;
    let Some(app) = texting_app(backend, &mock).await else { return };
    let id = place(&app, "0712 345 678").await;

    let received = mock.wait_for(1, WAIT).await;
    let request = &received[0];
    assert_eq!(request.headers.get("apikey").map(String::as_str), Some("atsk_test_secret"));
    assert_eq!(request.headers.get("accept").map(String::as_str), Some("application/json"));
    assert!(request.headers["content-type"].starts_with("application/x-www-form-urlencoded"));
    let mut fields: Vec<&str> = request.form.keys().map(String::as_str).collect();
    fields.sort_unstable();
    assert_eq!(fields, ["from", "message", "to", "username"]);
    assert_eq!(request.field("username"), "laundry_test");
    assert_eq!(request.field("from"), "USAFI");
    assert_eq!(request.field("to"), "+254712345678");
    let text = request.field("message");
    assert!(text.contains(&format!("order {id} received")), "{text}");
    assert!(text.contains("/t/"), "the text carries the order's link: {text}");

    let rows = until_texts(&app, "sent", |row| row.status == OutboxStatus::Sent).await;
    assert_eq!(rows[0].provider_id, request.message_id, "the messageId is kept for the reports");

    let report = [
        ("id", request.message_id.clone().unwrap()),
        ("status", "Success".to_owned()),
        ("phoneNumber", "+254712345678".to_owned()),
        ("networkCode", "63902".to_owned()),
        ("failureReason", String::new()),
    ];
    let report: Vec<(&str, &str)> = report.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let path = format!("/hooks/sms/delivery/{SMS_HOOK_SECRET}");
    assert_eq!(app.post_form("/hooks/sms/delivery", &report).await.status(), 403, "no secret, no report");
    assert_eq!(texts(&app)[0].delivery, None);
    assert_eq!(app.post_form(&path, &report).await.status(), 200);
    assert_eq!(texts(&app)[0].delivery, Some(Delivery::Delivered));
    // A late "Buffered" does not undo it; the same report again changes nothing.
    let late: Vec<(&str, &str)> =
        report.iter().map(|&(k, v)| if k == "status" { (k, "Buffered") } else { (k, v) }).collect();
    assert_eq!(app.post_form(&path, &late).await.status(), 200);
    assert_eq!(app.post_form(&path, &report).await.status(), 200);
    let row = &texts(&app)[0];
    assert_eq!(row.delivery, Some(Delivery::Delivered));
    assert_eq!(row.delivery_detail.as_deref(), Some("Success (network 63902)"));
}

crate::on_each_backend!(an_order_texts_the_customer_and_the_delivery_report_marks_it);
