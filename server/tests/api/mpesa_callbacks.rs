//! A prompt's result, on both backends: its callback (once, whatever arrives twice or at the same
//! time; refused without the secret; read strictly), the status query that settles a prompt whose
//! callback never came, and the results that are not payments.

use crate::helpers::mpesa::{
    PHONE, failure_callback, paying_app, payment_texts, post_prompt_callback, receipts_of, success_callback,
    until_prompt, waiting_order,
};
use crate::helpers::{Backend, MPESA_HOOK_SECRET, TestApp, is_paid, money, mpesa_env, payments};
use laundry::domain::{MessageKind, Method, PromptState, Settlement};
use laundry::fakes::QueryReply;
use laundry::models::mpesa::{MpesaPrompt, MpesaReceipt};
use laundry::models::outbox::OutboxMessage;
use serde_json::{Value, json};

/// The words of the "received" texts of the order `order_id`.
fn received_texts(app: &TestApp, order_id: &str) -> Vec<String> {
    let all = app.with_db(|c| OutboxMessage::all(c).unwrap());
    all.into_iter()
        .filter(|m| m.kind == MessageKind::SmsPaymentReceived && m.order_id.as_deref() == Some(order_id))
        .filter_map(|m| m.sms_text())
        .collect()
}

async fn a_success_callback_pays_the_order_with_its_receipt_and_texts_once(backend: Backend) {
    let Some((app, _daraja)) = paying_app(backend).await else { return };
    let (stored, checkout) = waiting_order(&app, PHONE).await;
    assert_eq!(payment_texts(&app, &stored.id), 0);

    let response = post_prompt_callback(&app, &success_callback(&checkout, 450, "QKH94M1Z11")).await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.json::<Value>().await.unwrap(), json!({"ResultCode": 0, "ResultDesc": "Accepted"}));
    assert!(is_paid(&app, &stored.reference));
    assert_eq!(payments(&app, &stored.reference), [(Method::Prompt, 450, Some("QKH94M1Z11".to_owned()))]);
    let receipts = receipts_of(&app, &stored.id);
    assert_eq!(receipts.len(), 1);
    assert_eq!((receipts[0].receipt.as_str(), receipts[0].amount, receipts[0].problem), ("QKH94M1Z11", 450, None));
    assert_eq!(receipts[0].matched_by.as_deref(), Some("prompt"));
    assert_eq!(payment_texts(&app, &stored.id), 1);
}

async fn the_same_callback_twice_or_two_at_once_record_one_payment(backend: Backend) {
    let Some((app, _daraja)) = paying_app(backend).await else { return };
    // One after the other.
    let (first, checkout) = waiting_order(&app, PHONE).await;
    let callback = success_callback(&checkout, 450, "QKH94M1Z11");
    for _ in 0..2 {
        assert_eq!(post_prompt_callback(&app, &callback).await.status(), 200);
    }
    assert_eq!(receipts_of(&app, &first.id).len(), 1);
    assert_eq!(payments(&app, &first.reference), [(Method::Prompt, 450, Some("QKH94M1Z11".to_owned()))]);
    assert_eq!(payment_texts(&app, &first.id), 1);

    // At the same moment.
    let (second, checkout) = waiting_order(&app, "+254712345679").await;
    let callback = success_callback(&checkout, 450, "QKH94M1Z12");
    let (a, b) = tokio::join!(post_prompt_callback(&app, &callback), post_prompt_callback(&app, &callback));
    assert_eq!((a.status().as_u16(), b.status().as_u16()), (200, 200));
    assert_eq!(payments(&app, &second.reference), [(Method::Prompt, 450, Some("QKH94M1Z12".to_owned()))]);
    assert_eq!(receipts_of(&app, &second.id).len(), 1);
    assert_eq!(payment_texts(&app, &second.id), 1);
}

/// Issue 50: M-PESA reporting more receipts under one `CheckoutRequestID` than the one payment it
/// asked for: the first pays the order, every other waits for staff with the unmatched payments
/// (none dropped), whether they come one after the other or at once.
async fn a_second_receipt_for_one_prompt_waits_for_staff_and_is_never_dropped(backend: Backend) {
    let Some((app, daraja)) = paying_app(backend).await else { return };
    let (stored, checkout) = waiting_order(&app, PHONE).await;
    let receipt = |n: usize| format!("QKH94M1Z{n:02}");

    for n in 0..6 {
        let response = post_prompt_callback(&app, &success_callback(&checkout, 450, &receipt(n))).await;
        assert_eq!(response.status(), 200, "callback {n}");
    }
    // The rest at once, half of them to a second instance on the same database.
    let sibling = app.sibling().env(&mpesa_env(&daraja.url)).start().await;
    let at_once = (6..10).map(|n| success_callback(&checkout, 450, &receipt(n))).collect::<Vec<_>>();
    let sends = at_once
        .iter()
        .enumerate()
        .map(|(n, callback)| post_prompt_callback(if n % 2 == 0 { &app } else { &sibling }, callback));
    let answers = futures::future::join_all(sends).await;
    assert!(answers.iter().all(|answer| answer.status() == 200));

    assert_eq!(payments(&app, &stored.reference), [(Method::Prompt, 450, Some(receipt(0)))]);
    assert_eq!(payment_texts(&app, &stored.id), 1);
    let waiting = app.with_db(|c| MpesaReceipt::to_check(c, 100).unwrap());
    let mut codes: Vec<&str> = waiting.iter().map(|r| r.receipt.as_str()).collect();
    codes.sort_unstable();
    assert_eq!(codes, (1..10).map(receipt).collect::<Vec<_>>(), "every other receipt waits for staff");
    assert!(waiting.iter().all(|r| r.order_id.is_none() && r.amount == 450));
    assert_eq!(waiting.iter().map(|r| i64::from(r.amount)).sum::<i64>(), 4_050);
    // The same second receipt again is still one payment to check.
    assert_eq!(post_prompt_callback(&app, &success_callback(&checkout, 450, &receipt(1))).await.status(), 200);
    assert_eq!(app.with_db(|c| MpesaReceipt::to_check(c, 100).unwrap()).len(), 9);
}

async fn another_amount_than_the_prompts_counts_against_the_order(backend: Backend) {
    let Some((app, _daraja)) = paying_app(backend).await else { return };
    // Less than asked: a part payment, the rest still to pay.
    let (part, checkout) = waiting_order(&app, PHONE).await;
    assert_eq!(post_prompt_callback(&app, &success_callback(&checkout, 60, "QKH94M1Z11")).await.status(), 200);
    assert_eq!(payments(&app, &part.reference), [(Method::Prompt, 60, Some("QKH94M1Z11".to_owned()))]);
    let (balance, _) = money(&app, &part.reference);
    assert_eq!((balance.settlement(), balance.to_pay()), (Settlement::PartPaid, 390));
    let receipts = receipts_of(&app, &part.id);
    assert_eq!((receipts.len(), receipts[0].amount, receipts[0].problem), (1, 60, None));
    let texts = received_texts(&app, &part.id);
    assert_eq!(texts.len(), 1);
    assert!(
        texts[0].contains("KSh 60 received for order") && texts[0].contains("Paid KSh 60, KSh 390 to pay."),
        "{}",
        texts[0]
    );

    // More than asked: paid, and the difference is the customer's.
    let (over, checkout) = waiting_order(&app, "+254712345679").await;
    assert_eq!(post_prompt_callback(&app, &success_callback(&checkout, 600, "QKH94M1Z12")).await.status(), 200);
    let (balance, _) = money(&app, &over.reference);
    assert_eq!((balance.settlement(), balance.paid, balance.owed_back()), (Settlement::InCredit, 600, 150));
    assert!(received_texts(&app, &over.id)[0].contains("Paid KSh 600, KSh 150 to come back to you."));

    let to_check = app.with_db(|c| MpesaReceipt::to_check(c, 10).unwrap());
    assert_eq!(to_check, vec![], "nothing waits for staff: both are matched and counted");
}

async fn callbacks_without_their_secret_or_with_bad_bodies_are_refused_and_store_nothing(backend: Backend) {
    let Some((app, _daraja)) = paying_app(backend).await else { return };
    let (stored, checkout) = waiting_order(&app, PHONE).await;
    let callback = success_callback(&checkout, 450, "QKH94M1Z11");
    for path in [
        "/hooks/payments/prompt".to_owned(),
        "/hooks/payments/prompt/not-the-secret-0123456789abcdef".to_owned(),
        format!("/hooks/payments/prompt?secret={}", &MPESA_HOOK_SECRET[1..]),
    ] {
        assert_eq!(app.post_json(&path, &callback, &[]).await.status(), 403, "{path}");
    }
    let till = json!({"TransID": "RKTQDM7W6S", "TransAmount": "450.00", "MSISDN": "254712345678"});
    assert_eq!(app.post_json("/hooks/payments/till/confirmation", &till, &[]).await.status(), 403);
    assert_eq!(
        app.post_json("/hooks/payments/till/confirmation/wrong-secret-0123456789ab", &till, &[]).await.status(),
        403
    );

    let path = format!("/hooks/payments/prompt/{MPESA_HOOK_SECRET}");
    let not_json = app
        .client
        .post(format!("{}{path}", app.address))
        .header("content-type", "application/json")
        .body("{\"Body\": ")
        .send()
        .await
        .unwrap();
    assert_eq!(not_json.status(), 400);
    assert!(not_json.text().await.unwrap().contains("JSON"));
    let mut without_id = callback.clone();
    without_id["Body"]["stkCallback"].as_object_mut().unwrap().remove("CheckoutRequestID");
    let missing = post_prompt_callback(&app, &without_id).await;
    assert_eq!(missing.status(), 400);
    assert!(missing.text().await.unwrap().contains("CheckoutRequestID"));
    let mut fractional = callback.clone();
    fractional["Body"]["stkCallback"]["CallbackMetadata"]["Item"][0]["Value"] = json!(450.5);
    let amount = post_prompt_callback(&app, &fractional).await;
    assert_eq!(amount.status(), 400);
    assert!(amount.text().await.unwrap().contains("Amount"));

    assert_eq!(payments(&app, &stored.reference), [], "unpaid");
    assert_eq!(receipts_of(&app, &stored.id), vec![]);
    assert_eq!(app.with_db(|c| MpesaReceipt::to_check(c, 10).unwrap()), vec![]);
    let prompt = app.with_db(|c| MpesaPrompt::latest(c, &stored.id).unwrap().unwrap());
    assert_eq!((prompt.state, prompt.raw_callback), (PromptState::Waiting, None));
}

async fn results_that_are_not_payments_end_the_prompt_with_words(backend: Backend) {
    let Some((app, _daraja)) = paying_app(backend).await else { return };
    let cases = [
        (1032, "Request cancelled by user", PromptState::Cancelled, "Cancelled on the phone."),
        (1037, "DS timeout user cannot be reached", PromptState::Failed, "The phone did not answer"),
        (2001, "The initiator information is invalid.", PromptState::Failed, "The M-PESA PIN was wrong."),
        (1, "The balance is insufficient for the transaction.", PromptState::Failed, "Not enough money"),
    ];
    for (n, (code, desc, state, words)) in cases.into_iter().enumerate() {
        let (stored, checkout) = waiting_order(&app, &format!("+25471234567{n}")).await;
        assert_eq!(post_prompt_callback(&app, &failure_callback(&checkout, code, desc)).await.status(), 200);
        let prompt = app.with_db(|c| MpesaPrompt::latest(c, &stored.id).unwrap().unwrap());
        assert_eq!((prompt.state, prompt.result_code), (state, Some(code as i32)), "{code}");
        assert!(prompt.detail.as_deref().unwrap_or_default().starts_with(words), "{prompt:#?}");
        assert_eq!(prompt.next_query_at, None);
        assert_eq!(payments(&app, &stored.reference), [], "unpaid");
        assert_eq!(payment_texts(&app, &stored.id), 0);
        // A later result without money changes nothing.
        assert_eq!(post_prompt_callback(&app, &failure_callback(&checkout, 0, "")).await.status(), 200);
        assert_eq!(app.with_db(|c| MpesaPrompt::latest(c, &stored.id).unwrap().unwrap()).state, state);
    }
}

async fn without_a_callback_the_status_query_settles_the_prompt(backend: Backend) {
    let Some((app, daraja)) = paying_app(backend).await else { return };
    let (paid, paid_checkout) = waiting_order(&app, PHONE).await;
    let (cancelled, cancelled_checkout) = waiting_order(&app, "+254712345679").await;
    let (pending, _) = waiting_order(&app, "+254712345680").await;
    daraja.answer_query(&paid_checkout, QueryReply::Ended(0, "The service request is processed successfully."));
    daraja.answer_query(&cancelled_checkout, QueryReply::Ended(1032, "Request cancelled by user"));
    assert!(daraja.requests_to("/mpesa/stkpushquery/v1/query").is_empty());

    // The first query is due 90 s after Daraja accepted the prompt.
    let sent = app.with_db(|c| MpesaPrompt::latest(c, &pending.id).unwrap().unwrap());
    assert_eq!(sent.next_query_at, Some(sent.sent_at.unwrap() + time::Duration::seconds(90)));

    app.clock.advance(time::Duration::seconds(91));
    let settled = until_prompt(&app, &paid.id, "paid by the query", |p| p.state == PromptState::Paid).await;
    assert_eq!(settled.receipt, None);
    assert!(is_paid(&app, &paid.reference));
    assert_eq!(payments(&app, &paid.reference), [(Method::Prompt, 450, None)], "the amount asked, its code to come");
    assert_eq!(payment_texts(&app, &paid.id), 1);
    until_prompt(&app, &cancelled.id, "cancelled by the query", |p| p.state == PromptState::Cancelled).await;
    assert_eq!(payments(&app, &cancelled.reference), [], "unpaid");
    // "Still being processed": waiting, asked again two minutes later.
    let asked = until_prompt(&app, &pending.id, "asked", |p| p.queries == 1).await;
    assert_eq!(asked.state, PromptState::Waiting);
    let expected = laundry::clock::stored(app.clock.now()) + time::Duration::minutes(2);
    assert_eq!(asked.next_query_at, Some(expected));
    let query = &daraja.requests_to("/mpesa/stkpushquery/v1/query")[0];
    assert_eq!(query.body["BusinessShortCode"], json!(174379));
    assert!(query.body["Password"].is_string() && query.body["Timestamp"].is_string());

    // The receipt number comes later with the callback: it names the payment, entered once, and
    // no second text.
    let late = success_callback(&paid_checkout, 450, "QKH94M1Z11");
    assert_eq!(post_prompt_callback(&app, &late).await.status(), 200);
    assert_eq!(payments(&app, &paid.reference), [(Method::Prompt, 450, Some("QKH94M1Z11".to_owned()))]);
    assert_eq!(receipts_of(&app, &paid.id).len(), 1);
    assert_eq!(payment_texts(&app, &paid.id), 1);
}

async fn money_reported_after_a_query_said_failed_is_recorded(backend: Backend) {
    let Some((app, daraja)) = paying_app(backend).await else { return };
    let (stored, checkout) = waiting_order(&app, PHONE).await;
    daraja.answer_query(&checkout, QueryReply::Ended(1037, "DS timeout user cannot be reached"));
    app.clock.advance(time::Duration::seconds(91));
    until_prompt(&app, &stored.id, "failed by the query", |p| p.state == PromptState::Failed).await;

    assert_eq!(post_prompt_callback(&app, &success_callback(&checkout, 450, "QKH94M1Z11")).await.status(), 200);
    let prompt = app.with_db(|c| MpesaPrompt::latest(c, &stored.id).unwrap().unwrap());
    assert_eq!((prompt.state, prompt.receipt.as_deref()), (PromptState::Paid, Some("QKH94M1Z11")));
    assert!(is_paid(&app, &stored.reference));
    assert_eq!(payments(&app, &stored.reference), [(Method::Prompt, 450, Some("QKH94M1Z11".to_owned()))]);
    assert_eq!(payment_texts(&app, &stored.id), 1);
}

async fn money_for_a_checkout_request_we_do_not_know_is_recorded_and_matched_like_a_till_payment(backend: Backend) {
    let Some((app, _daraja)) = paying_app(backend).await else { return };
    let (stored, _) = waiting_order(&app, PHONE).await;
    let unknown = success_callback("ws_CO_999999999999", 450, "QKH94M1Z11");
    assert_eq!(post_prompt_callback(&app, &unknown).await.status(), 200);
    assert_eq!(payments(&app, &stored.reference), [(Method::Till, 450, Some("QKH94M1Z11".to_owned()))]);
    assert_eq!(receipts_of(&app, &stored.id)[0].matched_by.as_deref(), Some("phone-and-amount"));
    // A failure for an unknown one is answered and changes nothing.
    let failure = failure_callback("ws_CO_999999999998", 1032, "Request cancelled by user");
    assert_eq!(post_prompt_callback(&app, &failure).await.status(), 200);
}

crate::on_each_backend!(
    a_success_callback_pays_the_order_with_its_receipt_and_texts_once,
    the_same_callback_twice_or_two_at_once_record_one_payment,
    a_second_receipt_for_one_prompt_waits_for_staff_and_is_never_dropped,
    another_amount_than_the_prompts_counts_against_the_order,
    callbacks_without_their_secret_or_with_bad_bodies_are_refused_and_store_nothing,
    results_that_are_not_payments_end_the_prompt_with_words,
    without_a_callback_the_status_query_settles_the_prompt,
    money_reported_after_a_query_said_failed_is_recorded,
    money_for_a_checkout_request_we_do_not_know_is_recorded_and_matched_like_a_till_payment,
);
