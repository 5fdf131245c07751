//! Payments made by hand to the till (C2B confirmations), on both backends: matched by the order
//! ID typed as the account, or by the phone and the amount of one unpaid order; otherwise left for
//! staff, who match them; each M-PESA code recorded once, also when the prompt's callback reports
//! the same payment (before, after, or at the same moment).

use crate::helpers::mpesa::{
    PHONE, order, paying_app, payment_texts, place, post_prompt_callback, receipts_of, success_callback, waiting_order,
};
use crate::helpers::{Backend, MPESA_HOOK_SECRET, TestApp, is_paid, payments};
use laundry::domain::{Method, PromptState, ReceiptSource};
use laundry::models::mpesa::{MatchRefusal, MpesaPrompt, MpesaReceipt, Recorded};
use serde_json::{Value, json};

/// A till confirmation as Daraja sends it.
fn confirmation(trans_id: &str, amount: &str, msisdn: &str, bill_ref: &str) -> Value {
    json!({
        "TransactionType": "Buy Goods", "TransID": trans_id, "TransTime": "20261124193015",
        "TransAmount": amount, "BusinessShortCode": "3552248", "BillRefNumber": bill_ref,
        "InvoiceNumber": "", "OrgAccountBalance": "49197.00", "ThirdPartyTransID": "",
        "MSISDN": msisdn, "FirstName": "AMINA", "MiddleName": "", "LastName": "WANJIRU"
    })
}

async fn post_confirmation(app: &TestApp, body: &Value) -> reqwest::Response {
    app.post_json(&format!("/hooks/payments/till/confirmation/{MPESA_HOOK_SECRET}"), body, &[]).await
}

async fn a_till_payment_naming_the_order_id_pays_that_order(backend: Backend) {
    let Some((app, _daraja)) = paying_app(backend).await else { return };
    // Another unpaid order of the same phone and bill: the order ID decides.
    place(&app, PHONE, "pay-delivery").await;
    let reference = place(&app, PHONE, "pay-delivery").await;
    let stored = order(&app, &reference);
    let typed = reference.to_ascii_lowercase();
    let response = post_confirmation(&app, &confirmation("RKTQDM7W6S", "450.00", "254712345678", &typed)).await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.json::<Value>().await.unwrap(), json!({"ResultCode": 0, "ResultDesc": "Accepted"}));
    assert!(is_paid(&app, &reference));
    assert_eq!(payments(&app, &reference), [(Method::Till, 450, Some("RKTQDM7W6S".to_owned()))]);
    let receipt = &receipts_of(&app, &stored.id)[0];
    assert_eq!((receipt.source, receipt.matched_by.as_deref()), (ReceiptSource::Till, Some("order-id")));
    assert_eq!(receipt.payer_name.as_deref(), Some("AMINA WANJIRU"));
    assert_eq!(payment_texts(&app, &stored.id), 1);
}

async fn a_till_payment_from_the_phone_of_one_unpaid_order_with_that_bill_pays_it(backend: Backend) {
    let Some((app, _daraja)) = paying_app(backend).await else { return };
    let reference = place(&app, PHONE, "pay-delivery").await;
    let response = post_confirmation(&app, &confirmation("RKTQDM7W6S", "450", "254712345678", "")).await;
    assert_eq!(response.status(), 200);
    let paid = order(&app, &reference);
    assert!(is_paid(&app, &reference));
    assert_eq!(payments(&app, &reference), [(Method::Till, 450, Some("RKTQDM7W6S".to_owned()))]);
    assert_eq!(receipts_of(&app, &paid.id)[0].matched_by.as_deref(), Some("phone-and-amount"));
    // The same TransID again records nothing more.
    assert_eq!(post_confirmation(&app, &confirmation("RKTQDM7W6S", "450", "254712345678", "")).await.status(), 200);
    assert_eq!(receipts_of(&app, &paid.id).len(), 1);
    assert_eq!(payments(&app, &reference).len(), 1, "entered once");
    assert_eq!(payment_texts(&app, &paid.id), 1);
}

async fn a_masked_number_waits_for_staff_who_match_it_to_its_order(backend: Backend) {
    let Some((app, _daraja)) = paying_app(backend).await else { return };
    let reference = place(&app, PHONE, "pay-delivery").await;
    let stored = order(&app, &reference);
    let masked = confirmation("RKTQDM7W6S", "450.00", "2547 ***** 678", "");
    assert_eq!(post_confirmation(&app, &masked).await.status(), 200);
    assert_eq!(payments(&app, &reference), [], "unpaid");
    let waiting = app.with_db(|c| MpesaReceipt::to_check(c, 10).unwrap());
    assert_eq!(waiting.len(), 1);
    assert_eq!((waiting[0].receipt.as_str(), waiting[0].order_id.as_deref()), ("RKTQDM7W6S", None));

    let notify = app.state.notify_customer();
    let now = laundry::clock::stored(app.clock.now());
    let matched = app.with_db(|c| {
        laundry::lifecycle::payment::match_to_order(c, "RKTQDM7W6S", &reference, "njeri@example.com", &notify, now)
            .unwrap()
    });
    assert_eq!(matched, Ok(Recorded::Paid(reference.clone())));
    assert!(is_paid(&app, &reference));
    assert_eq!(payments(&app, &reference), [(Method::Till, 450, Some("RKTQDM7W6S".to_owned()))]);
    assert_eq!(receipts_of(&app, &stored.id)[0].matched_by.as_deref(), Some("njeri@example.com"));
    assert_eq!(app.with_db(|c| MpesaReceipt::to_check(c, 10).unwrap()), vec![]);
    assert_eq!(payment_texts(&app, &stored.id), 1);
    // A second match is refused with the order that has it.
    let other = place(&app, "+254712345679", "pay-delivery").await;
    let again = app.with_db(|c| {
        laundry::lifecycle::payment::match_to_order(c, "RKTQDM7W6S", &other, "x@example.com", &notify, now)
    });
    assert_eq!(again.unwrap(), Err(MatchRefusal::AlreadyMatched(reference)));
    let nowhere = app.with_db(|c| {
        laundry::lifecycle::payment::match_to_order(c, "RKTQDM7W6S", "ZZZZZZZZ", "x@example.com", &notify, now)
    });
    assert_eq!(nowhere.unwrap(), Err(MatchRefusal::NoSuchOrder));
}

async fn a_till_confirmation_of_a_payment_the_prompt_reported_changes_nothing(backend: Backend) {
    let Some((app, _daraja)) = paying_app(backend).await else { return };
    let (stored, checkout) = waiting_order(&app, PHONE).await;
    assert_eq!(post_prompt_callback(&app, &success_callback(&checkout, 450, "QKH94M1Z11")).await.status(), 200);
    let before = receipts_of(&app, &stored.id);
    assert_eq!(post_confirmation(&app, &confirmation("QKH94M1Z11", "450.00", "254712345678", "")).await.status(), 200);
    assert_eq!(receipts_of(&app, &stored.id), before);
    assert_eq!(before[0].source, ReceiptSource::Prompt);
    assert_eq!(payments(&app, &stored.reference), [(Method::Prompt, 450, Some("QKH94M1Z11".to_owned()))], "once");
    assert_eq!(payment_texts(&app, &stored.id), 1);
}

async fn a_payment_the_till_reported_unmatched_is_matched_by_its_prompt_callback(backend: Backend) {
    let Some((app, _daraja)) = paying_app(backend).await else { return };
    let (stored, checkout) = waiting_order(&app, PHONE).await;
    let masked = confirmation("QKH94M1Z11", "450.00", "0f4a1c9e2b7d", "");
    assert_eq!(post_confirmation(&app, &masked).await.status(), 200);
    assert_eq!(payments(&app, &stored.reference), [], "unpaid");

    assert_eq!(post_prompt_callback(&app, &success_callback(&checkout, 450, "QKH94M1Z11")).await.status(), 200);
    assert!(is_paid(&app, &stored.reference));
    assert_eq!(payments(&app, &stored.reference), [(Method::Prompt, 450, Some("QKH94M1Z11".to_owned()))]);
    let receipts = receipts_of(&app, &stored.id);
    assert_eq!(receipts.len(), 1);
    assert_eq!(receipts[0].matched_by.as_deref(), Some("prompt"));
    assert_eq!(app.with_db(|c| MpesaReceipt::to_check(c, 10).unwrap()), vec![]);
    assert_eq!(payment_texts(&app, &stored.id), 1);
}

async fn the_prompt_callback_and_the_till_confirmation_at_once_record_one_payment(backend: Backend) {
    let Some((app, _daraja)) = paying_app(backend).await else { return };
    for n in 0..3 {
        let (stored, checkout) = waiting_order(&app, &format!("+25471234567{n}")).await;
        let receipt = format!("QKH94M1Z1{n}");
        let callback = success_callback(&checkout, 450, &receipt);
        let till = confirmation(&receipt, "450.00", &format!("25471234567{n}"), "");
        let (a, b) = tokio::join!(post_prompt_callback(&app, &callback), post_confirmation(&app, &till));
        assert_eq!((a.status().as_u16(), b.status().as_u16()), (200, 200), "{n}");
        // Entered once, by whichever came first (the prompt's, or the till's matched by phone).
        let entered = payments(&app, &stored.reference);
        assert_eq!(entered.len(), 1, "{n}: {entered:?}");
        assert_eq!((entered[0].1, entered[0].2.as_deref()), (450, Some(receipt.as_str())));
        assert_eq!(receipts_of(&app, &stored.id).len(), 1);
        assert_eq!(payment_texts(&app, &stored.id), 1);
        let prompt = app.with_db(|c| MpesaPrompt::latest(c, &stored.id).unwrap().unwrap());
        assert_eq!(prompt.state, PromptState::Paid);
    }
}

crate::on_each_backend!(
    a_till_payment_naming_the_order_id_pays_that_order,
    a_till_payment_from_the_phone_of_one_unpaid_order_with_that_bill_pays_it,
    a_masked_number_waits_for_staff_who_match_it_to_its_order,
    a_till_confirmation_of_a_payment_the_prompt_reported_changes_nothing,
    a_payment_the_till_reported_unmatched_is_matched_by_its_prompt_callback,
    the_prompt_callback_and_the_till_confirmation_at_once_record_one_payment,
);
