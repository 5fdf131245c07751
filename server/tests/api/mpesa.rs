//! M-PESA against a mock Daraja on loopback, on both backends: the prompt a "Pay Now (M-PESA)"
//! order sends (the exact request), its callback, and the payment recorded once.

use crate::helpers::{Backend, MPESA_HOOK_SECRET, TestApp, mpesa_env, quick_retries, spawn_app_with_env};
use crate::mpesa_mock::MockDaraja;
use laundry::domain::{OrderReference, PaymentStatus, PromptState};
use laundry::models::mpesa::MpesaPrompt;
use laundry::models::order::Order;
use serde_json::{Value, json};
use std::time::Duration;

const PHONE: &str = "+254712345678";
const WAIT: Duration = Duration::from_secs(10);

/// A server whose M-PESA is the mock.
pub async fn paying_app(backend: Backend) -> Option<(TestApp, MockDaraja)> {
    let daraja = MockDaraja::start().await;
    let app = spawn_app_with_env(backend, &mpesa_env(&daraja.url), quick_retries()).await?;
    Some((app, daraja))
}

/// Places a "Pay Now (M-PESA)" order of 3 kg wash & fold (KSh 600); its order ID.
pub async fn place_pay_now(app: &TestApp, phone: &str) -> String {
    let body = json!({
        "customerName": "Amina Wanjiru", "phone": phone, "email": null,
        "location": "Kilimani, Argwings Kodhek Rd", "serviceType": "wash-fold", "quantity": 3,
        "paymentMethod": "pay-now", "specialInstructions": ""
    });
    let key = uuid::Uuid::new_v4().to_string();
    let response = app.post_json("/api/orders", &body, &[("Idempotency-Key", &key)]).await;
    assert_eq!(response.status(), 201);
    response.json::<Value>().await.unwrap()["id"].as_str().unwrap().to_owned()
}

pub fn order(app: &TestApp, reference: &str) -> Order {
    let reference = OrderReference::parse(reference).unwrap();
    app.with_db(|c| Order::find_by_reference(c, &reference).unwrap().unwrap())
}

/// The order's newest prompt once it has left `queued`/`sending`.
pub async fn sent_prompt(app: &TestApp, order_id: &str) -> MpesaPrompt {
    let deadline = std::time::Instant::now() + WAIT;
    loop {
        let prompt = app.with_db(|c| MpesaPrompt::latest(c, order_id).unwrap());
        if let Some(prompt) = prompt.filter(|p| !matches!(p.state, PromptState::Queued | PromptState::Sending)) {
            return prompt;
        }
        assert!(std::time::Instant::now() < deadline, "the prompt was never sent");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
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

/// Posts a prompt callback with the secret.
pub async fn post_prompt_callback(app: &TestApp, body: &Value) -> reqwest::Response {
    app.post_json(&format!("/hooks/payments/prompt/{MPESA_HOOK_SECRET}"), body, &[]).await
}

async fn a_pay_now_order_prompts_the_phone_and_its_callback_pays_it(backend: Backend) {
    let Some((app, daraja)) = paying_app(backend).await else { return };
    let reference = place_pay_now(&app, PHONE).await;
    let stored = order(&app, &reference);
    let pushes = daraja.wait_for_pushes(1, WAIT).await;
    let body = &pushes[0].body;
    assert_eq!(body["BusinessShortCode"], json!(174379));
    assert_eq!(body["TransactionType"], "CustomerBuyGoodsOnline");
    assert_eq!(body["Amount"], json!(stored.total_amount));
    assert_eq!(body["PartyA"], json!(254712345678_u64));
    assert_eq!(body["PhoneNumber"], json!(254712345678_u64));
    assert_eq!(body["PartyB"], json!(3552248));
    assert_eq!(body["AccountReference"], reference);
    assert_eq!(body["CallBackURL"], format!("https://laundry.example.com/hooks/payments/prompt/{MPESA_HOOK_SECRET}"));
    let prompt = sent_prompt(&app, &stored.id).await;
    assert_eq!(prompt.state, PromptState::Waiting);
    let checkout = prompt.checkout_request_id.unwrap();

    let callback = success_callback(&checkout, stored.total_amount, "QKH94M1Z11");
    assert_eq!(post_prompt_callback(&app, &callback).await.status(), 200);
    let paid = order(&app, &reference);
    assert_eq!(paid.payment_status, PaymentStatus::Paid);
    assert_eq!(paid.mpesa_code.as_deref(), Some("QKH94M1Z11"));
    let ended = app.with_db(|c| MpesaPrompt::latest(c, &stored.id).unwrap().unwrap());
    assert_eq!(ended.state, PromptState::Paid);
}

crate::on_each_backend!(a_pay_now_order_prompts_the_phone_and_its_callback_pays_it);
