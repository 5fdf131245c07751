//! What the customer sees of an M-PESA payment, on both backends, against a mock Daraja: the order's
//! page and its JSON (`/t/{token}/payment`) while the prompt waits, is being checked, is paid, failed
//! or cancelled; "Send the M-PESA prompt again"; the confirmation; the receipt; the delivered text.

use crate::helpers::mpesa::paying_app_today;
use crate::helpers::mpesa::{order, place_pay_now, post_prompt_callback, sent_prompt, success_callback};
use crate::helpers::sms::texts;
use crate::helpers::{Backend, TestApp};
use laundry::domain::{MessageKind, PromptState};
use laundry::models::mpesa::MpesaPrompt;
use serde_json::{Value, json};
use std::time::Duration;

const PHONE: &str = "+254712345678";
const WAIT: Duration = Duration::from_secs(10);

/// The order's page token.
fn token_of(app: &TestApp, reference: &str) -> String {
    order(app, reference).link_token.unwrap()
}

/// The order's page, with its status.
async fn page(app: &TestApp, token: &str) -> (u16, String) {
    let response = app.get(&format!("/t/{token}")).await;
    (response.status().as_u16(), response.text().await.unwrap())
}

/// `GET /t/{token}/payment`.
async fn payment(app: &TestApp, token: &str) -> Value {
    let response = app.get(&format!("/t/{token}/payment")).await;
    assert_eq!(response.status(), 200);
    assert!(response.headers()["cache-control"].to_str().unwrap().contains("no-store"));
    response.json().await.unwrap()
}

/// "Send the M-PESA prompt again", posted as a browser posts it from `site`.
async fn pay_again(app: &TestApp, token: &str, site: &str) -> reqwest::Response {
    let request = app.client.post(format!("{}/t/{token}/pay", app.address));
    let request = request.header("content-type", "application/x-www-form-urlencoded").header("sec-fetch-site", site);
    request.body("").send().await.unwrap()
}

/// A callback that ends `checkout` unpaid with `code`.
fn failure_callback(checkout: &str, code: i64, desc: &str) -> Value {
    json!({"Body": {"stkCallback": {
        "MerchantRequestID": "29115-34620561-1", "CheckoutRequestID": checkout, "ResultCode": code, "ResultDesc": desc
    }}})
}

/// A pay-now order whose prompt is on the phone: its order ID, token and CheckoutRequestID.
async fn waiting_order(app: &TestApp) -> (String, String, String) {
    let reference = place_pay_now(app, PHONE).await;
    let prompt = sent_prompt(app, &order(app, &reference).id).await;
    assert_eq!(prompt.state, PromptState::Waiting);
    (reference.clone(), token_of(app, &reference), prompt.checkout_request_id.unwrap())
}

fn prompts_of(app: &TestApp, reference: &str) -> usize {
    let id = order(app, reference).id;
    app.with_db(|c| MpesaPrompt::for_order(c, &id).unwrap()).len()
}

async fn a_waiting_prompt_says_check_your_phone_then_checking_never_failed(backend: Backend) {
    let Some((app, _daraja)) = paying_app_today(backend).await else { return };
    let (_, token, _) = waiting_order(&app).await;

    let (status, html) = page(&app, &token).await;
    assert_eq!(status, 200);
    assert!(html.contains("Check your phone: enter your M-PESA PIN to pay KSh 450"), "{html}");
    assert!(html.contains("Send the M-PESA prompt again"));
    let json = payment(&app, &token).await;
    assert_eq!(json["prompt"]["state"], "waiting");
    assert_eq!(json["poll"], true);

    // 90 seconds without an answer: the page checks with M-PESA, and says nothing failed.
    app.clock.advance(time::Duration::seconds(91));
    let (_, html) = page(&app, &token).await;
    assert!(html.contains("Checking with M-PESA"), "{html}");
    assert!(!html.contains("Not paid") && !html.contains("did not go through"), "{html}");
    assert_eq!(payment(&app, &token).await["prompt"]["state"], "checking");
}

async fn a_paid_prompt_shows_its_code_and_links_the_receipt(backend: Backend) {
    let Some((app, _daraja)) = paying_app_today(backend).await else { return };
    let (reference, token, checkout) = waiting_order(&app).await;
    let (_, before) = page(&app, &token).await;
    assert!(!before.contains(&format!("/t/{token}/receipt")), "no receipt before it is paid");

    let callback = success_callback(&checkout, order(&app, &reference).total_amount, "QKH94M1Z11");
    assert_eq!(post_prompt_callback(&app, &callback).await.status(), 200);

    let (_, html) = page(&app, &token).await;
    assert!(html.contains("QKH94M1Z11"), "{html}");
    assert!(html.contains(&format!("/t/{token}/receipt")), "{html}");
    assert!(!html.contains("Send the M-PESA prompt again"));
    let json = payment(&app, &token).await;
    assert_eq!(json["paid"]["code"], "QKH94M1Z11");
    assert_eq!((json["paid"]["method"].as_str(), json["paid"]["amount"].as_i64()), (Some("prompt"), Some(450)));
    assert_eq!((json["settlement"].as_str(), json["words"].as_str()), (Some("paid"), Some("Paid KSh 450")));
    assert_eq!((json["due"].clone(), json["poll"].clone()), (json!(0), json!(false)));
    // Paid: another prompt is refused, back on the order's page with the reason where the button
    // was; reloading that page shows it again and posts nothing.
    let again = pay_again(&app, &token, "same-origin").await;
    assert_eq!(again.status(), 303);
    assert_eq!(again.headers()["location"], format!("/t/{token}?refused=paid").as_str());
    for _ in 0..2 {
        let (status, html) = page(&app, &format!("{token}?refused=paid")).await;
        assert_eq!(status, 200);
        assert!(html.contains("This order is paid already."), "{html}");
    }
    assert_eq!(prompts_of(&app, &reference), 1);
}

async fn a_failed_prompt_shows_its_words_and_a_cancelled_one_says_so(backend: Backend) {
    let Some((app, daraja)) = paying_app_today(backend).await else { return };
    let (reference, token, checkout) = waiting_order(&app).await;

    let failed = failure_callback(&checkout, 1, "The balance is insufficient for the transaction.");
    assert_eq!(post_prompt_callback(&app, &failed).await.status(), 200);
    let (_, html) = page(&app, &token).await;
    assert!(html.contains("Not enough money in the M-PESA account."), "{html}");
    assert_eq!(payment(&app, &token).await["prompt"]["state"], "failed");

    // Sent again (the failed one is no longer on the phone), then cancelled on the phone.
    app.clock.advance(time::Duration::seconds(61));
    assert_eq!(pay_again(&app, &token, "same-origin").await.status(), 303);
    daraja.wait_for_pushes(2, WAIT).await;
    let second = sent_prompt(&app, &order(&app, &reference).id).await;
    assert_ne!(second.checkout_request_id.as_deref(), Some(checkout.as_str()));
    let cancelled = failure_callback(second.checkout_request_id.as_deref().unwrap(), 1032, "Request cancelled by user");
    assert_eq!(post_prompt_callback(&app, &cancelled).await.status(), 200);
    let (_, html) = page(&app, &token).await;
    assert!(html.contains("The M-PESA prompt was cancelled on the phone. Nothing was paid."), "{html}");
    assert_eq!(payment(&app, &token).await["prompt"]["state"], "cancelled");
}

async fn sending_the_prompt_again_reaches_daraja_unless_too_soon_or_from_another_site(backend: Backend) {
    let Some((app, daraja)) = paying_app_today(backend).await else { return };
    let (reference, token, _) = waiting_order(&app).await;

    // Refused: back to the page, where the reason stays however often it is reloaded.
    let too_soon = pay_again(&app, &token, "same-origin").await;
    assert_eq!(too_soon.status(), 303);
    assert_eq!(too_soon.headers()["location"], format!("/t/{token}?refused=too-soon"));
    app.clock.advance(time::Duration::seconds(7));
    for _ in 0..3 {
        let (status, html) = page(&app, &format!("{token}?refused=too-soon")).await;
        assert_eq!(status, 200);
        assert!(html.contains("A prompt was sent less than a minute ago"), "{html}");
    }
    let (_, unknown) = page(&app, &format!("{token}?refused=anything")).await;
    assert!(!unknown.contains(r#"class="alert alert--error""#), "an unknown reason is not shown");
    let cross_site = pay_again(&app, &token, "cross-site").await;
    assert_eq!(cross_site.status(), 403);
    assert_eq!(prompts_of(&app, &reference), 1);

    app.clock.advance(time::Duration::seconds(61));
    let sent = pay_again(&app, &token, "same-origin").await;
    assert_eq!(sent.status(), 303);
    assert_eq!(sent.headers()["location"], format!("/t/{token}?done=prompt"));
    let pushes = daraja.wait_for_pushes(2, WAIT).await;
    assert_eq!(pushes[1].body["AccountReference"], reference);
    let (_, html) = page(&app, &format!("{token}?done=prompt")).await;
    assert!(html.contains("We are sending the M-PESA prompt to your phone"), "{html}");
    assert_eq!(prompts_of(&app, &reference), 2);
}

async fn the_confirmation_shows_the_prompt_to_the_browser_that_placed_the_order(backend: Backend) {
    let Some((app, _daraja)) = paying_app_today(backend).await else { return };
    let body = json!({
        "customerName": "Amina Wanjiru", "phone": PHONE, "email": null, "location": "Kilimani",
        "serviceType": "wash-fold", "quantity": 3, "paymentMethod": "pay-now", "specialInstructions": ""
    });
    let placed = app.post_json("/api/orders", &body, &[("Idempotency-Key", "confirmation-prompt")]).await;
    let cookie = crate::helpers::set_cookie(&placed, "laundry_placed").expect("the placed cookie");
    let reference = placed.json::<Value>().await.unwrap()["id"].as_str().unwrap().to_owned();
    sent_prompt(&app, &order(&app, &reference).id).await;
    let path = format!("/confirmation?ref={reference}");

    let here = app.get_with(&path, &[("cookie", &format!("laundry_placed={cookie}"))]).await.text().await.unwrap();
    let elsewhere = app.get(&path).await.text().await.unwrap();

    assert!(here.contains("enter your M-PESA PIN to pay KSh 450"), "{here}");
    assert!(here.contains("Send the M-PESA prompt again"));
    assert!(elsewhere.contains("Check your phone: we send an M-PESA prompt for KSh 450."), "{elsewhere}");
    assert!(!elsewhere.contains("Send the M-PESA prompt again"), "only with the order's link");
}

async fn the_receipt_lists_the_lines_total_and_code_and_is_kept_out_of_search(backend: Backend) {
    let Some((app, _daraja)) = paying_app_today(backend).await else { return };
    let (reference, token, checkout) = waiting_order(&app).await;
    let unpaid = app.get(&format!("/t/{token}/receipt")).await.text().await.unwrap();
    assert!(unpaid.contains("KSh 450 to pay") && !unpaid.contains("M-PESA prompt"), "{unpaid}");

    let callback = success_callback(&checkout, 450, "QKH94M1Z11");
    assert_eq!(post_prompt_callback(&app, &callback).await.status(), 200);
    let response = app.get(&format!("/t/{token}/receipt")).await;

    assert_eq!(response.status(), 200);
    let headers = response.headers().clone();
    assert!(headers["cache-control"].to_str().unwrap().contains("no-store"));
    assert!(headers["x-robots-tag"].to_str().unwrap().contains("noindex"));
    let html = response.text().await.unwrap();
    assert!(html.contains(r#"<meta name="robots" content="noindex">"#));
    assert!(html.contains(&reference) && html.contains("Receipt"));
    assert!(html.contains("Wash &amp; Fold") && html.contains("KSh 450"), "{html}");
    assert!(html.contains("<dt>M-PESA prompt</dt><dd>KSh 450</dd>") && html.contains("code QKH94M1Z11 · "), "{html}");
    assert!(html.contains("Paid KSh 450") && !html.contains("to pay"), "the balance: {html}");
    assert!(html.contains("M-PESA till 3552248"), "the shop's details");
    assert!(!html.contains("size: 80mm"));
    let thermal = app.get(&format!("/t/{token}/receipt?paper=80mm")).await.text().await.unwrap();
    assert!(thermal.contains("@page { size: 80mm 297mm; margin: 0 }"), "{thermal}");
    assert_eq!(app.get("/t/zzzzzzzzzzzzzzzz/receipt").await.status(), 404);
    assert_eq!(app.get("/t/zzzzzzzzzzzzzzzz/payment").await.status(), 404);
}

crate::on_each_backend!(
    a_waiting_prompt_says_check_your_phone_then_checking_never_failed,
    a_paid_prompt_shows_its_code_and_links_the_receipt,
    a_failed_prompt_shows_its_words_and_a_cancelled_one_says_so,
    sending_the_prompt_again_reaches_daraja_unless_too_soon_or_from_another_site,
    the_confirmation_shows_the_prompt_to_the_browser_that_placed_the_order,
    the_receipt_lists_the_lines_total_and_code_and_is_kept_out_of_search,
);

/// Without Daraja: the till instructions as the spec gives them, and no prompt to send.
mod unconfigured {
    use super::*;

    async fn without_prompts_the_page_keeps_the_till_instructions(backend: Backend) {
        let app = TestApp::builder().on(backend).start().await;
        let reference = place_pay_now(&app, PHONE).await;
        let token = token_of(&app, &reference);

        let (_, html) = page(&app, &token).await;
        assert!(html.contains("Buy Goods and Services") && html.contains("3552248"), "{html}");
        assert!(html.contains("Reference: <strong>your phone number"), "{html}");
        assert!(!html.contains("Check your phone") && !html.contains("Send the M-PESA prompt again"));
        let refused = pay_again(&app, &token, "same-origin").await;
        assert_eq!(refused.status(), 303);
        let (_, html) = page(&app, &format!("{token}?refused=prompts-off")).await;
        assert!(html.contains("We cannot send M-PESA prompts"), "{html}");
    }

    async fn the_delivered_text_links_the_receipt(backend: Backend) {
        let app = TestApp::builder().on(backend).start().await;
        let reference = place_pay_now(&app, PHONE).await;
        let token = token_of(&app, &reference);
        app.create_staff("njeri@example.com", "Kahawa-Chai-Mandazi-22");
        let session = app.sign_in("njeri@example.com", "Kahawa-Chai-Mandazi-22").await;
        let path = format!("/api/admin/orders/{reference}/status");
        let request = app.staff_request(reqwest::Method::POST, &path, &session, true);
        assert_eq!(request.json(&json!({"status": "delivered"})).send().await.unwrap().status(), 200);

        let delivered: Vec<String> = texts(&app)
            .into_iter()
            .filter(|row| row.kind == MessageKind::SmsDelivered)
            .filter_map(|row| row.sms_text())
            .collect();
        assert_eq!(delivered.len(), 1);
        assert!(delivered[0].ends_with(&format!("/t/{token}/receipt")), "{}", delivered[0]);
        let (_, html) = page(&app, &token).await;
        assert!(html.contains(&format!("/t/{token}/receipt")), "a delivered order links its receipt");
    }

    crate::on_each_backend!(without_prompts_the_page_keeps_the_till_instructions, the_delivered_text_links_the_receipt);
}
