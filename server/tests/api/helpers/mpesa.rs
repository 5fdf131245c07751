//! M-PESA in the tests: a server whose Daraja is the mock, orders to prompt, the callbacks Daraja
//! sends, and what the ledger and the outbox hold of them.

use super::{Backend, MPESA_HOOK_SECRET, TestApp, mpesa_env, quick_retries, stopped_clock};
use laundry::domain::{MessageKind, OrderReference, PromptState};
use laundry::fakes::FakeDaraja;
use laundry::models::mpesa::{MpesaPrompt, MpesaReceipt};
use laundry::models::order::Order;
use laundry::models::outbox::OutboxMessage;
use serde_json::{Value, json};
use std::time::Duration;

pub const PHONE: &str = "+254712345678";
pub const WAIT: Duration = Duration::from_secs(10);

/// A server whose M-PESA is the mock (`extra` added to its environment), on a clock stopped at the
/// start of today in Nairobi: the prompts' times (due, queried, asked again) are compared to the
/// second, and move only when the test moves the clock.
pub async fn paying_app_with(backend: Backend, extra: &[(&'static str, String)]) -> Option<(TestApp, FakeDaraja)> {
    let daraja = FakeDaraja::start().await;
    let mut env = mpesa_env(&daraja.url);
    env.extend_from_slice(extra);
    let app = TestApp::builder().on(backend).env(&env).retries(quick_retries()).clock(stopped_clock()).start().await;
    Some((app, daraja))
}

/// A server whose M-PESA is the fake, its clock stopped at the real time of now: for a test whose
/// prompts the worker sends and queries (they go by the database's clock).
pub async fn paying_app_today(backend: Backend) -> Option<(TestApp, FakeDaraja)> {
    let daraja = FakeDaraja::start().await;
    let clock = laundry::clock::Clock::stopped_at(time::OffsetDateTime::now_utc());
    let app =
        TestApp::builder().on(backend).env(&mpesa_env(&daraja.url)).retries(quick_retries()).clock(clock).start().await;
    Some((app, daraja))
}

/// A server whose M-PESA is the fake.
pub async fn paying_app(backend: Backend) -> Option<(TestApp, FakeDaraja)> {
    paying_app_with(backend, &[]).await
}

/// Places an order of 3 kg wash & fold (KSh 450) paid `method` ("pay-now", "pay-delivery") from
/// `phone`; its order ID.
pub async fn place(app: &TestApp, phone: &str, method: &str) -> String {
    super::orders::an_order().phone(phone).with("paymentMethod", method).place(app).await.reference
}

/// Places a "Pay Now (M-PESA)" order of 3 kg wash & fold (KSh 450); its order ID.
pub async fn place_pay_now(app: &TestApp, phone: &str) -> String {
    place(app, phone, "pay-now").await
}

pub fn order(app: &TestApp, reference: &str) -> Order {
    let reference = OrderReference::parse(reference).unwrap();
    app.with_db(|c| Order::find_by_reference(c, &reference).unwrap().unwrap())
}

/// The order's newest prompt once it has left `queued`/`sending`.
pub async fn sent_prompt(app: &TestApp, order_id: &str) -> MpesaPrompt {
    until_prompt(app, order_id, "sent", |p| !matches!(p.state, PromptState::Queued | PromptState::Sending)).await
}

/// The order's newest prompt once `done` holds for it.
pub async fn until_prompt(
    app: &TestApp,
    order_id: &str,
    what: &str,
    done: impl Fn(&MpesaPrompt) -> bool,
) -> MpesaPrompt {
    let deadline = std::time::Instant::now() + WAIT;
    loop {
        let prompt = app.with_db(|c| MpesaPrompt::latest(c, order_id).unwrap());
        if let Some(prompt) = prompt.filter(&done) {
            return prompt;
        }
        let now = app.with_db(|c| MpesaPrompt::latest(c, order_id).unwrap());
        assert!(std::time::Instant::now() < deadline, "the prompt was never {what}: {now:#?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A pay-now order whose prompt is on the phone: the order and the prompt's CheckoutRequestID.
pub async fn waiting_order(app: &TestApp, phone: &str) -> (Order, String) {
    let reference = place_pay_now(app, phone).await;
    let stored = order(app, &reference);
    let prompt = sent_prompt(app, &stored.id).await;
    assert_eq!(prompt.state, PromptState::Waiting, "{prompt:#?}");
    (stored, prompt.checkout_request_id.unwrap())
}

/// Daraja's success callback for `checkout` paying `amount` with `receipt`.
pub fn success_callback(checkout: &str, amount: i32, receipt: &str) -> Value {
    json!({"Body": {"stkCallback": {
        "MerchantRequestID": "29115-34620561-1",
        "CheckoutRequestID": checkout,
        "ResultCode": 0,
        "ResultDesc": "The service request is processed successfully.",
        "CallbackMetadata": {"Item": [
            {"Name": "Amount", "Value": f64::from(amount)},
            {"Name": "MpesaReceiptNumber", "Value": receipt},
            {"Name": "Balance"},
            {"Name": "TransactionDate", "Value": 20261124193015_u64},
            {"Name": "PhoneNumber", "Value": 254712345678_u64}
        ]}
    }}})
}

/// Daraja's callback for `checkout` ended with `code` (no payment).
pub fn failure_callback(checkout: &str, code: i64, desc: &str) -> Value {
    json!({"Body": {"stkCallback": {
        "MerchantRequestID": "29115-34620561-1", "CheckoutRequestID": checkout, "ResultCode": code, "ResultDesc": desc
    }}})
}

/// Posts a prompt callback with the secret.
pub async fn post_prompt_callback(app: &TestApp, body: &Value) -> reqwest::Response {
    app.post_json(&format!("/hooks/payments/prompt/{MPESA_HOOK_SECRET}"), body, &[]).await
}

/// The "payment received" texts written for the order `order_id`.
pub fn payment_texts(app: &TestApp, order_id: &str) -> usize {
    let all = app.with_db(|c| OutboxMessage::all(c).unwrap());
    all.iter().filter(|m| m.kind == MessageKind::SmsPaymentReceived && m.order_id.as_deref() == Some(order_id)).count()
}

/// The M-PESA payments recorded for the order `order_id`.
pub fn receipts_of(app: &TestApp, order_id: &str) -> Vec<MpesaReceipt> {
    app.with_db(|c| MpesaReceipt::for_order(c, order_id).unwrap())
}
