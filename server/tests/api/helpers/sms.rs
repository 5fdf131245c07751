//! Texts in the tests: a server whose Africa's Talking is the mock, an order to text about, and
//! the outbox's texts.

use super::{Backend, TestApp, quick_retries, sms_env};
use laundry::domain::Channel;
use laundry::fakes::FakeAt;
use laundry::models::outbox::OutboxMessage;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// How long a test waits for the texts to become what it expects.
const WAIT: Duration = Duration::from_secs(15);

/// A server texting through `mock`, with quick retries.
pub async fn texting_app(backend: Backend, mock: &FakeAt) -> Option<TestApp> {
    Some(TestApp::builder().on(backend).env(&sms_env(&mock.url)).retries(quick_retries()).start().await)
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
