//! Prompts for the bill, on both backends: the bill set at pickup (by the valet, or by staff
//! marking the order picked up) asks the phone for it, and the picked-up text promises that only
//! when it does; a paid estimate whose bill rises at pickup is asked for the difference only, and
//! the text says what was paid and what is left; a paid order is not cancelled from its page (its money must go back); a prompt
//! written for an order paid or cancelled since is not sent; a prompt Daraja never answered holds
//! back a second one for two minutes.

use crate::helpers::mpesa::{
    WAIT, order, paying_app, paying_app_with, place, place_pay_now, post_prompt_callback, receipts_of, sent_prompt,
    success_callback, until_prompt,
};
use crate::helpers::orders::put_in_run;
use crate::helpers::staff::valet;
use crate::helpers::valet_post;
use crate::helpers::{Backend, TestApp, is_paid, money, payments};
use laundry::clock::stored;
use laundry::db::write_transaction;
use laundry::domain::{MessageKind, Method, OrderStatus, PromptLimits, PromptState, StopKind};
use laundry::fakes::PushReply;
use laundry::lifecycle::payment::{StaffPayment, record_payment_within};
use laundry::models::mpesa::{AskRefusal, MpesaPrompt};
use laundry::models::outbox::OutboxMessage;
use laundry::notify::NotifyCustomer;
use std::time::Duration;

const PHONE: &str = "+254712345678";

/// The picked-up text of the order, its words.
fn picked_up_text(app: &TestApp, order_id: &str) -> Option<String> {
    let all = app.with_db(|c| OutboxMessage::all(c).unwrap());
    all.into_iter()
        .find(|m| m.kind == MessageKind::SmsPickedUp && m.order_id.as_deref() == Some(order_id))
        .and_then(|m| m.sms_text())
}

fn prompts_of(app: &TestApp, order_id: &str) -> Vec<MpesaPrompt> {
    app.with_db(|c| MpesaPrompt::for_order(c, order_id).unwrap())
}

async fn staff_marking_picked_up_prompts_for_the_bill_and_the_text_says_so(backend: Backend) {
    let Some((app, daraja)) = paying_app(backend).await else { return };
    let reference = place_pay_now(&app, PHONE).await;
    let placed = order(&app, &reference);
    let first = sent_prompt(&app, &placed.id).await;
    let cancelled =
        crate::helpers::mpesa::failure_callback(first.checkout_request_id.as_deref().unwrap(), 1032, "Cancelled");
    assert_eq!(post_prompt_callback(&app, &cancelled).await.status(), 200);

    let now = stored(app.clock.now());
    let notify = app.state.notify_customer();
    app.with_db(|c| {
        crate::helpers::set_status(c, &placed.id, OrderStatus::PickedUp, "njeri@example.com", &notify, now)
    })
    .unwrap();
    app.state.wake_prompts();

    // (Found by who asked: the test's clock is stopped, so both prompts carry one time.)
    let bills: Vec<MpesaPrompt> = prompts_of(&app, &placed.id).into_iter().filter(|p| p.id != first.id).collect();
    assert_eq!(bills.len(), 1, "{bills:#?}");
    assert_eq!((bills[0].asked_by.as_str(), bills[0].amount), ("bill", placed.total_amount));
    daraja.wait_for_pushes(2, WAIT).await;
    let text = picked_up_text(&app, &placed.id).unwrap();
    assert!(text.contains("M-PESA prompt coming"), "{text}");

    // Saved with "notify customer" off: neither a text nor a prompt.
    let quiet = place(&app, "+254712345679", "pay-now").await;
    let quiet = order(&app, &quiet);
    sent_prompt(&app, &quiet.id).await;
    app.with_db(|c| {
        crate::helpers::set_status(
            c,
            &quiet.id,
            OrderStatus::PickedUp,
            "njeri@example.com",
            &NotifyCustomer::nobody(),
            now,
        )
    })
    .unwrap();
    assert_eq!(prompts_of(&app, &quiet.id).len(), 1, "no second prompt");
    assert_eq!(picked_up_text(&app, &quiet.id), None);
}

async fn a_paid_estimate_whose_bill_rises_at_pickup_is_asked_for_the_difference_only(backend: Backend) {
    let Some((app, daraja)) = paying_app(backend).await else { return };
    let reference = place_pay_now(&app, PHONE).await;
    let placed = order(&app, &reference);
    let prompt = sent_prompt(&app, &placed.id).await;
    let paid = success_callback(prompt.checkout_request_id.as_deref().unwrap(), placed.total_amount, "QKH94M1Z11");
    assert_eq!(post_prompt_callback(&app, &paid).await.status(), 200);
    assert!(is_paid(&app, &reference));

    let (me, session) = valet(&app, "otieno@example.com").await;
    let pickup = put_in_run(&app, &placed.id, StopKind::Pickup, &me, 1);
    let path = format!("/valet/stops/{pickup}/picked-up");
    let weighed = valet_post(&app, &session, &path, &[("bags", "1"), ("kg", "5")]).await;
    assert_eq!(weighed.status(), 303);

    let billed = order(&app, &reference);
    assert_eq!((placed.total_amount, billed.total_amount), (450, 750), "5 kg cost more than 3");
    // The money received still counts, once: nothing about it to check.
    let receipts = receipts_of(&app, &placed.id);
    assert_eq!(receipts.len(), 1);
    assert_eq!((receipts[0].problem, receipts[0].amount), (None, 450), "{receipts:#?}");
    assert_eq!(payments(&app, &reference), [(Method::Prompt, 450, Some("QKH94M1Z11".to_owned()))]);
    let (balance, _) = money(&app, &reference);
    assert_eq!((balance.charged, balance.paid, balance.to_pay()), (750, 450, 300));
    // The prompt asks for the difference, and the picked-up text says so.
    let bills: Vec<MpesaPrompt> = prompts_of(&app, &placed.id).into_iter().filter(|p| p.id != prompt.id).collect();
    assert_eq!(bills.len(), 1, "{bills:#?}");
    assert_eq!((bills[0].asked_by.as_str(), bills[0].amount), ("bill", 300));
    let pushes = daraja.wait_for_pushes(2, WAIT).await;
    assert_eq!(pushes[1].body["Amount"], serde_json::json!(300));
    let text = picked_up_text(&app, &placed.id).unwrap();
    assert!(text.contains("Bill KSh 750. Paid KSh 450, KSh 300 to pay: M-PESA prompt for KSh 300 coming."), "{text}");
}

async fn a_paid_order_is_not_cancelled_from_its_page(backend: Backend) {
    let Some((app, _daraja)) = paying_app(backend).await else { return };
    let reference = place_pay_now(&app, PHONE).await;
    let placed = order(&app, &reference);
    let prompt = sent_prompt(&app, &placed.id).await;
    let paid = success_callback(prompt.checkout_request_id.as_deref().unwrap(), placed.total_amount, "QKH94M1Z11");
    assert_eq!(post_prompt_callback(&app, &paid).await.status(), 200);

    let token = placed.link_token.clone().unwrap();
    let response = app
        .client
        .post(format!("{}/t/{token}/cancel", app.address))
        .header("content-type", "application/x-www-form-urlencoded")
        .header("sec-fetch-site", "same-origin")
        .body("confirm=yes")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 409);
    let html = response.text().await.unwrap();
    assert!(html.contains("Money was paid for this order, so it cannot be cancelled online."), "{html}");
    assert_eq!(order(&app, &reference).status, OrderStatus::Pending);
}

async fn a_prompt_for_an_order_paid_since_it_was_written_is_not_sent(backend: Backend) {
    let Some((app, daraja)) = paying_app(backend).await else { return };
    let reference = place(&app, PHONE, "pay-delivery").await;
    let placed = order(&app, &reference);
    let now = stored(app.clock.now());
    // Written, and the order paid in cash, in one transaction: the worker finds it queued.
    app.with_db(|c| {
        write_transaction(c, |c| {
            let _ = MpesaPrompt::ask_within(c, &placed, "customer", PromptLimits::default(), now)?;
            let cash = StaffPayment::Cash(None);
            record_payment_within(c, &placed.id, &cash, "otieno@example.com", false, &NotifyCustomer::nobody(), now)
        })
    })
    .unwrap()
    .unwrap();
    app.state.wake_prompts();

    let ended = until_prompt(&app, &placed.id, "ended", |p| p.state.is_final()).await;
    assert_eq!(ended.state, PromptState::Failed);
    assert_eq!(ended.detail.as_deref(), Some(AskRefusal::Paid.message()));
    app.send_prompts().await;
    assert!(daraja.pushes().is_empty(), "no prompt for money nobody owes");
}

async fn a_prompt_daraja_never_answered_holds_back_a_second_for_two_minutes(backend: Backend) {
    let extra = [("MPESA_TIMEOUT_SECONDS", "1".to_owned())];
    let Some((app, daraja)) = paying_app_with(backend, &extra).await else { return };
    daraja.script_pushes(&[PushReply::Hang(Duration::from_secs(3))]);
    let reference = place_pay_now(&app, PHONE).await;
    let placed = order(&app, &reference);
    let unanswered = sent_prompt(&app, &placed.id).await;
    assert_eq!(unanswered.state, PromptState::Failed);

    app.clock.advance(time::Duration::seconds(90));
    let now = stored(app.clock.now());
    let again =
        app.with_db(|c| MpesaPrompt::ask_again(c, &placed.id, "customer", PromptLimits::default(), now).unwrap());
    assert_eq!(again.err(), Some(AskRefusal::TooSoon), "it may still be on the phone");

    app.clock.advance(time::Duration::seconds(31));
    let now = stored(app.clock.now());
    let again =
        app.with_db(|c| MpesaPrompt::ask_again(c, &placed.id, "customer", PromptLimits::default(), now).unwrap());
    assert!(again.is_ok(), "{again:?}");
}

/// The order's rows of `kind` in the outbox.
fn texts_of(app: &TestApp, order_id: &str, kind: MessageKind) -> Vec<OutboxMessage> {
    let all = app.with_db(|c| OutboxMessage::all(c).unwrap());
    all.into_iter().filter(|m| m.kind == kind && m.order_id.as_deref() == Some(order_id)).collect()
}

/// A pay-now order whose estimate's prompt was cancelled on the phone, picked up by a valet at 5
/// kg: its order, with the bill's prompt on the phone.
async fn picked_up_with_the_bills_prompt(app: &TestApp) -> (laundry::models::order::Order, MpesaPrompt) {
    let reference = place_pay_now(app, PHONE).await;
    let placed = order(app, &reference);
    let estimate = sent_prompt(app, &placed.id).await;
    let cancelled =
        crate::helpers::mpesa::failure_callback(estimate.checkout_request_id.as_deref().unwrap(), 1032, "Cancelled");
    assert_eq!(post_prompt_callback(app, &cancelled).await.status(), 200);
    let (me, session) = valet(app, "otieno@example.com").await;
    let pickup = put_in_run(app, &placed.id, StopKind::Pickup, &me, 1);
    let path = format!("/valet/stops/{pickup}/picked-up");
    assert_eq!(valet_post(app, &session, &path, &[("bags", "1"), ("kg", "5")]).await.status(), 303);
    let bill =
        until_prompt(app, &placed.id, "the bill's, sent", |p| p.id != estimate.id && p.checkout_request_id.is_some())
            .await;
    (order(app, &reference), bill)
}

async fn a_bill_paid_at_the_door_is_said_in_the_picked_up_text_not_in_a_second(backend: Backend) {
    let Some((app, _daraja)) = paying_app(backend).await else { return };
    let (billed, bill) = picked_up_with_the_bills_prompt(&app).await;
    let held = texts_of(&app, &billed.id, MessageKind::SmsPickedUp);
    assert_eq!(held.len(), 1);
    assert!(held[0].next_attempt_at >= held[0].created_at + time::Duration::seconds(90), "it waits for the prompt");
    assert!(held[0].sms_text().unwrap().contains("M-PESA prompt coming"));

    let paid = success_callback(bill.checkout_request_id.as_deref().unwrap(), billed.total_amount, "QKH94M1Z12");
    assert_eq!(post_prompt_callback(&app, &paid).await.status(), 200);

    let told = texts_of(&app, &billed.id, MessageKind::SmsPickedUp);
    let text = told[0].sms_text().unwrap();
    assert!(text.contains("picked up. Bill KSh 750. Paid KSh 750 (M-PESA QKH94M1Z12), thank you."), "{text}");
    assert!(told[0].next_attempt_at <= stored(app.clock.now()), "sent now, with both");
    assert!(texts_of(&app, &billed.id, MessageKind::SmsPaymentReceived).is_empty(), "one text, not two");
}

async fn a_bill_paid_after_the_picked_up_text_went_gets_its_own_text(backend: Backend) {
    let Some((app, _daraja)) = paying_app(backend).await else { return };
    let (billed, bill) = picked_up_with_the_bills_prompt(&app).await;
    // The sender tried the picked-up text already: its words stay as they went.
    app.with_db(|c| {
        use diesel::prelude::*;
        use laundry::db::schema::outbox;
        diesel::update(
            outbox::table.filter(outbox::order_id.eq(&billed.id)).filter(outbox::kind.eq(MessageKind::SmsPickedUp)),
        )
        .set(outbox::attempts.eq(1))
        .execute(c)
        .unwrap()
    });

    let paid = success_callback(bill.checkout_request_id.as_deref().unwrap(), billed.total_amount, "QKH94M1Z13");
    assert_eq!(post_prompt_callback(&app, &paid).await.status(), 200);

    let text = texts_of(&app, &billed.id, MessageKind::SmsPickedUp)[0].sms_text().unwrap();
    assert!(text.contains("M-PESA prompt coming"), "{text}");
    let receipts = texts_of(&app, &billed.id, MessageKind::SmsPaymentReceived);
    assert_eq!(receipts.len(), 1);
    assert!(receipts[0].sms_text().unwrap().contains("KSh 750 received for order"));
}

crate::on_each_backend!(
    a_bill_paid_at_the_door_is_said_in_the_picked_up_text_not_in_a_second,
    a_bill_paid_after_the_picked_up_text_went_gets_its_own_text,
    staff_marking_picked_up_prompts_for_the_bill_and_the_text_says_so,
    a_paid_estimate_whose_bill_rises_at_pickup_is_asked_for_the_difference_only,
    a_prompt_for_an_order_paid_since_it_was_written_is_not_sent,
    a_paid_order_is_not_cancelled_from_its_page,
    a_prompt_daraja_never_answered_holds_back_a_second_for_two_minutes,
);
