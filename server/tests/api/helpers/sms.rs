//! Texts in the tests: a server whose Africa's Talking is the fake, an order to text about, the
//! outbox's texts, and texts arriving from customers.

use super::orders::an_order;
use super::{Backend, SMS_HOOK_SECRET, TestApp, quick_retries, sms_env};
use laundry::domain::{Channel, MessageKind, OrderStatus};
use laundry::fakes::FakeAt;
use laundry::models::order::Order;
use laundry::models::outbox::OutboxMessage;
use std::time::{Duration, Instant};

/// How long a test waits for the texts to become what it expects.
const WAIT: Duration = Duration::from_secs(15);

/// A server texting through `mock`, with quick retries.
pub async fn texting_app(backend: Backend, mock: &FakeAt) -> Option<TestApp> {
    Some(TestApp::builder().on(backend).env(&sms_env(&mock.url)).retries(quick_retries()).start().await)
}

/// Places 3 kg of wash & fold for `phone`, paid on delivery, through the JSON API; its order ID.
pub async fn place(app: &TestApp, phone: &str) -> String {
    an_order().phone(phone).place(app).await.reference
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

/// Where Africa's Talking posts an incoming text.
pub fn incoming_path() -> String {
    format!("/hooks/sms/incoming/{SMS_HOOK_SECRET}")
}

/// Africa's Talking's callback for a text `words` from `from` with the id `id`.
pub async fn text_in(app: &TestApp, id: &str, from: &str, words: &str) -> reqwest::Response {
    let fields = [
        ("from", from),
        ("to", "22384"),
        ("text", words),
        ("date", "2026-11-25 14:03:11"),
        ("id", id),
        ("linkId", "SampleLinkId123"),
    ];
    app.post_form(&incoming_path(), &fields).await
}

/// The replies written to the outbox, as texts.
pub fn replies(app: &TestApp) -> Vec<OutboxMessage> {
    texts(app).into_iter().filter(|row| row.kind == MessageKind::SmsReply).collect()
}

/// An earlier order of `phone`, delivered: nothing is still to come for that number.
pub async fn place_delivered(app: &TestApp, phone: &str) -> String {
    let reference = place(app, phone).await;
    let order_id = laundry::domain::OrderReference::parse(&reference).unwrap();
    app.with_db(|c| {
        let order = Order::find_by_reference(c, &order_id).unwrap().unwrap();
        let nobody = laundry::notify::NotifyCustomer::nobody();
        crate::helpers::set_status(c, &order.id, OrderStatus::Delivered, "staff", &nobody, app.now()).unwrap();
    });
    reference
}

pub fn orders_of(app: &TestApp, phone: &str) -> Vec<Order> {
    app.with_db(|c| Order::recent_for_phone(c, phone, 100).unwrap())
}
