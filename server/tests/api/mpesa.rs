//! M-PESA prompts against a mock Daraja on loopback, on both backends: the exact request a "Pay
//! Now (M-PESA)" order sends, the token (cached, renewed, asked again when refused), prompts
//! Daraja refuses or never answers, two instances sending each prompt once, and a server without
//! M-PESA. (The helpers they share with other files are the kit's: `helpers::mpesa`.)

use crate::helpers::mpesa::{
    PHONE, WAIT, order, paying_app, paying_app_with, place_pay_now, post_prompt_callback, sent_prompt,
    success_callback, waiting_order,
};
use crate::helpers::{Backend, MPESA_HOOK_SECRET, TestApp, is_paid, mpesa_env, payments, quick_retries};
use base64::Engine as _;
use laundry::domain::{Method, PromptState};
use laundry::fakes::PushReply;
use laundry::models::mpesa::MpesaPrompt;
use serde_json::json;
use std::time::Duration;

/// `YYYYMMDDHHmmss` of the app's clock in Nairobi (UTC+3), written out independently of the server.
fn nairobi_timestamp(app: &TestApp) -> String {
    let at = app.clock.now().to_offset(time::UtcOffset::from_hms(3, 0, 0).unwrap());
    format!(
        "{:04}{:02}{:02}{:02}{:02}{:02}",
        at.year(),
        u8::from(at.month()),
        at.day(),
        at.hour(),
        at.minute(),
        at.second()
    )
}

async fn a_pay_now_order_prompts_the_phone_with_the_exact_request_and_its_callback_pays_it(backend: Backend) {
    let Some((app, daraja)) = paying_app(backend).await else { return };
    let reference = place_pay_now(&app, PHONE).await;
    let stored = order(&app, &reference);
    let pushes = daraja.wait_for_pushes(1, WAIT).await;
    let push = &pushes[0];
    let body = &push.body;
    let timestamp = nairobi_timestamp(&app);
    let password =
        base64::engine::general_purpose::STANDARD.encode(format!("174379test-passkey-bfb279f9aa9bdbcf{timestamp}"));
    assert_eq!(body["Timestamp"], timestamp);
    assert_eq!(body["Password"], password);
    assert_eq!(body["BusinessShortCode"], json!(174379));
    assert_eq!(body["TransactionType"], "CustomerBuyGoodsOnline");
    assert_eq!(body["Amount"], json!(450));
    assert_eq!(body["Amount"], json!(stored.total_amount));
    assert_eq!(body["PartyA"], json!(254712345678_u64));
    assert_eq!(body["PhoneNumber"], json!(254712345678_u64));
    assert_eq!(body["PartyB"], json!(3552248));
    assert_eq!(body["AccountReference"], reference);
    assert!(body["TransactionDesc"].as_str().unwrap().len() <= 13, "{body}");
    assert_eq!(body["CallBackURL"], format!("https://laundry.example.com/hooks/payments/prompt/{MPESA_HOOK_SECRET}"));
    let bearer = push.headers.get("authorization").cloned().unwrap_or_default();
    assert!(bearer.starts_with("Bearer fake-token-"), "{bearer}");
    let prompt = sent_prompt(&app, &stored.id).await;
    assert_eq!(prompt.state, PromptState::Waiting);
    let checkout = prompt.checkout_request_id.unwrap();

    let callback = success_callback(&checkout, stored.total_amount, "QKH94M1Z11");
    assert_eq!(post_prompt_callback(&app, &callback).await.status(), 200);
    assert!(is_paid(&app, &reference));
    assert_eq!(payments(&app, &reference), [(Method::Prompt, 450, Some("QKH94M1Z11".to_owned()))]);
    let ended = app.with_db(|c| MpesaPrompt::latest(c, &stored.id).unwrap().unwrap());
    assert_eq!(ended.state, PromptState::Paid);
    assert_eq!(ended.receipt.as_deref(), Some("QKH94M1Z11"));
}

async fn the_token_is_cached_asked_again_when_refused_and_renewed_before_it_runs_out(backend: Backend) {
    let Some((app, daraja)) = paying_app(backend).await else { return };
    daraja.token_lifetime(120);
    waiting_order(&app, PHONE).await;
    waiting_order(&app, "+254712345679").await;
    assert_eq!(daraja.pushes().len(), 2);
    assert_eq!(daraja.token_requests(), 1, "two prompts, one token");

    daraja.revoke_tokens();
    waiting_order(&app, "+254712345680").await;
    let pushes = daraja.pushes();
    assert_eq!(pushes.len(), 4, "the refused prompt is sent again");
    assert_eq!(pushes[2].body, pushes[3].body);
    assert_ne!(pushes[2].headers["authorization"], pushes[3].headers["authorization"]);
    assert_eq!(daraja.token_requests(), 2, "one new token after the 401");

    // 120 s tokens are renewed a minute before they run out.
    app.clock.advance(time::Duration::seconds(61));
    waiting_order(&app, "+254712345681").await;
    assert_eq!(daraja.token_requests(), 3, "renewed");
    assert_eq!(daraja.pushes().len(), 5);
}

async fn a_prompt_daraja_refuses_or_never_answers_ends_failed_with_words_and_the_order_unpaid(backend: Backend) {
    let extra = [("MPESA_TIMEOUT_SECONDS", "1".to_owned())];
    let Some((app, daraja)) = paying_app_with(backend, &extra).await else { return };
    daraja.script_pushes(&[
        PushReply::Error(400, "Bad Request - Invalid PhoneNumber"),
        PushReply::Hang(Duration::from_secs(3)),
    ]);
    for words in ["M-PESA refused the prompt", "M-PESA did not answer"] {
        let reference = place_pay_now(&app, PHONE).await;
        let stored = order(&app, &reference);
        let prompt = sent_prompt(&app, &stored.id).await;
        assert_eq!(prompt.state, PromptState::Failed, "{prompt:#?}");
        assert!(prompt.detail.as_deref().unwrap_or_default().starts_with(words), "{prompt:#?}");
        assert!(prompt.detail.as_deref().unwrap_or_default().contains("till"), "{prompt:#?}");
        assert_eq!(prompt.checkout_request_id, None);
        assert_eq!(payments(&app, &reference), [], "unpaid");
    }
}

async fn two_instances_send_each_prompt_once(backend: Backend) {
    let Some((app, daraja)) = paying_app(backend).await else { return };
    let sibling = app.sibling().env(&mpesa_env(&daraja.url)).retries(quick_retries()).start().await;
    let mut orders = Vec::new();
    for n in 0..6 {
        let instance = if n % 2 == 0 { &app } else { &sibling };
        orders.push(order(&app, &place_pay_now(instance, &format!("+25471234560{n}")).await));
    }
    for stored in &orders {
        assert_eq!(sent_prompt(&app, &stored.id).await.state, PromptState::Waiting);
    }
    let mut references: Vec<String> =
        daraja.pushes().iter().map(|p| p.body["AccountReference"].as_str().unwrap().to_owned()).collect();
    references.sort();
    let mut expected: Vec<String> = orders.iter().map(|o| o.reference.clone()).collect();
    expected.sort();
    assert_eq!(references, expected, "each prompt pushed once");
}

async fn without_mpesa_a_pay_now_order_writes_no_prompt_and_the_server_runs(backend: Backend) {
    let app = TestApp::builder().on(backend).start().await;
    assert!(!app.state.sends_prompts());
    let reference = place_pay_now(&app, PHONE).await;
    let stored = order(&app, &reference);
    assert_eq!(app.with_db(|c| MpesaPrompt::for_order(c, &stored.id).unwrap()), vec![]);
    assert_eq!(payments(&app, &reference), [], "unpaid");
    assert_eq!(app.get("/healthz").await.status(), 200);
    // Its callbacks are off.
    let callback = success_callback("ws_CO_1", 450, "QKH94M1Z11");
    assert_eq!(post_prompt_callback(&app, &callback).await.status(), 404);
}

crate::on_each_backend!(
    a_pay_now_order_prompts_the_phone_with_the_exact_request_and_its_callback_pays_it,
    the_token_is_cached_asked_again_when_refused_and_renewed_before_it_runs_out,
    a_prompt_daraja_refuses_or_never_answers_ends_failed_with_words_and_the_order_unpaid,
    two_instances_send_each_prompt_once,
    without_mpesa_a_pay_now_order_writes_no_prompt_and_the_server_runs,
);
