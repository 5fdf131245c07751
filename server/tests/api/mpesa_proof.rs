//! A prompt's success callback that proves no payment of its order (issue 28), on both backends:
//! one whose receipt number is recorded for another order, and one without `CallbackMetadata`
//! (or without the receipt number or the amount). Each leaves the order unpaid, never shows the
//! prompt "paid" to the customer, and waits for staff in the payments to check; the same callback
//! again changes nothing more.

use crate::helpers::mpesa::{
    PHONE, failure_callback, order, paying_app, payment_texts, post_prompt_callback, success_callback, waiting_order,
};
use crate::helpers::{Backend, TestApp, is_paid, payments};
use laundry::domain::{PromptState, ReceiptProblem};
use laundry::models::mpesa::{CODE_ELSEWHERE_WORDS, MpesaPrompt, MpesaReceipt, UNPROVEN_WORDS};
use laundry::models::order::Order;
use serde_json::{Value, json};

/// The order's payment as its page reads it.
async fn customer_payment(app: &TestApp, order: &Order) -> Value {
    let token = order.link_token.clone().unwrap();
    app.get(&format!("/t/{token}/payment")).await.json().await.unwrap()
}

fn latest_prompt(app: &TestApp, order: &Order) -> MpesaPrompt {
    app.with_db(|c| MpesaPrompt::latest(c, &order.id).unwrap().unwrap())
}

fn to_check(app: &TestApp) -> Vec<MpesaReceipt> {
    app.with_db(|c| MpesaReceipt::to_check(c, 10).unwrap())
}

async fn a_success_callback_with_a_receipt_of_another_order_leaves_this_one_unpaid_and_flagged(backend: Backend) {
    let Some((app, _daraja)) = paying_app(backend).await else { return };
    let (first, first_checkout) = waiting_order(&app, PHONE).await;
    let (second, second_checkout) = waiting_order(&app, "+254712345679").await;
    assert_eq!(post_prompt_callback(&app, &success_callback(&first_checkout, 450, "QKH94M1Z11")).await.status(), 200);
    assert!(is_paid(&app, &first.reference));

    // The second prompt's callback names the first order's receipt.
    let reused = success_callback(&second_checkout, 450, "QKH94M1Z11");
    assert_eq!(post_prompt_callback(&app, &reused).await.status(), 200);

    let unpaid = order(&app, &second.reference);
    assert_eq!(payments(&app, &second.reference), [], "unpaid");
    let prompt = latest_prompt(&app, &second);
    assert_eq!(prompt.state, PromptState::Failed, "{prompt:#?}");
    assert_eq!(prompt.detail.as_deref(), Some(CODE_ELSEWHERE_WORDS));
    let shown = customer_payment(&app, &unpaid).await;
    assert_eq!(shown["prompt"]["state"], json!("failed"), "{shown}");
    assert_eq!(shown["paid"], Value::Null);
    let flagged = to_check(&app);
    assert_eq!(flagged.len(), 1, "{flagged:#?}");
    assert_eq!((flagged[0].receipt.as_str(), flagged[0].problem), ("QKH94M1Z11", Some(ReceiptProblem::Code)));
    let first_payment = [(laundry::domain::Method::Prompt, 450, Some("QKH94M1Z11".to_owned()))];
    assert_eq!(payments(&app, &first.reference), first_payment, "the first order stays paid, once");
    assert_eq!(payment_texts(&app, &second.id), 0);

    // The same callback again changes nothing more.
    assert_eq!(post_prompt_callback(&app, &reused).await.status(), 200);
    assert_eq!(latest_prompt(&app, &second), prompt);
    assert_eq!(to_check(&app), flagged);
    assert_eq!(payments(&app, &second.reference), []);
    assert_eq!(payment_texts(&app, &second.id), 0);
}

async fn a_success_callback_without_its_receipt_or_amount_leaves_the_order_unpaid_and_flagged(backend: Backend) {
    let Some((app, _daraja)) = paying_app(backend).await else { return };
    let (bare, bare_checkout) = waiting_order(&app, PHONE).await;
    let (no_amount, no_amount_checkout) = waiting_order(&app, "+254712345679").await;
    // ResultCode 0 without CallbackMetadata.
    let without_metadata = failure_callback(&bare_checkout, 0, "The service request is processed successfully.");
    // ResultCode 0 with the receipt number but no amount.
    let mut without_amount = success_callback(&no_amount_checkout, 450, "QKH94M1Z22");
    without_amount["Body"]["stkCallback"]["CallbackMetadata"]["Item"].as_array_mut().unwrap().remove(0);

    for (placed, callback) in [(&bare, &without_metadata), (&no_amount, &without_amount)] {
        assert_eq!(post_prompt_callback(&app, callback).await.status(), 200);
        let unpaid = order(&app, &placed.reference);
        assert_eq!(payments(&app, &placed.reference), [], "{callback}");
        let prompt = latest_prompt(&app, placed);
        assert_eq!((prompt.state, prompt.detail.as_deref()), (PromptState::Failed, Some(UNPROVEN_WORDS)));
        assert_eq!(prompt.next_query_at, None, "no status query will pay it either");
        let shown = customer_payment(&app, &unpaid).await;
        assert_eq!(shown["prompt"]["state"], json!("failed"), "{shown}");
        let flagged: Vec<MpesaReceipt> =
            to_check(&app).into_iter().filter(|r| r.order_id.as_deref() == Some(placed.id.as_str())).collect();
        assert_eq!(flagged.len(), 1, "{flagged:#?}");
        assert_eq!(flagged[0].problem, Some(ReceiptProblem::Code));
        assert!(flagged[0].receipt.starts_with("NOCODE"), "{}", flagged[0].receipt);

        // Again: nothing more.
        assert_eq!(post_prompt_callback(&app, callback).await.status(), 200);
        assert_eq!(latest_prompt(&app, placed), prompt);
        assert_eq!(app.with_db(|c| MpesaReceipt::for_order(c, &placed.id).unwrap()).len(), 1);
        assert_eq!(payments(&app, &placed.reference), []);
        assert_eq!(payment_texts(&app, &placed.id), 0);
    }
    assert_eq!(to_check(&app).len(), 2);
}

crate::on_each_backend!(
    a_success_callback_with_a_receipt_of_another_order_leaves_this_one_unpaid_and_flagged,
    a_success_callback_without_its_receipt_or_amount_leaves_the_order_unpaid_and_flagged,
);
