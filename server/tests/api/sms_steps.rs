//! A text at every step of an order, on both backends: each written in the transaction of its
//! change with the order ID, the order's link and the step's details (window, ETA, bill, payment),
//! none for a change refused or made twice, and all of them through a mock Africa's Talking. A
//! customer stops texts to their number from the order's page; staff switch a kind of text off.

use crate::helpers::orders::{an_order, put_in_run_at, stored};
use crate::helpers::sms::{place, texting_app, texts, until_texts};
use crate::helpers::staff::{OWNER, owner, post};
use crate::helpers::valet_post;
use crate::helpers::{Backend, TestApp, mail_env, quick_retries, sms_env};
use diesel::prelude::*;
use laundry::db::schema::stops;
use laundry::domain::schedule::eta;
use laundry::domain::{MessageKind, OutboxStatus, StopKind};
use laundry::fakes::{AtReply, FakeAt};
use laundry::models::outbox::OutboxMessage;
use laundry::models::stop::Stop;
use serde_json::{Value, json};
use std::time::Duration;

const PHONE: &str = "+254712345678";

/// The texts of `kind` in the outbox, oldest first.
fn texts_of(app: &TestApp, kind: MessageKind) -> Vec<OutboxMessage> {
    texts(app).into_iter().filter(|row| row.kind == kind).collect()
}

/// The one text of `kind`, its words.
fn only_text(app: &TestApp, kind: MessageKind) -> String {
    let rows = texts_of(app, kind);
    assert_eq!(rows.len(), 1, "one text of {kind:?}: {rows:#?}");
    assert_eq!(rows[0].to_phone.as_deref(), Some(PHONE));
    rows[0].sms_text().unwrap()
}

/// The ETA the order's page shows for the stop, from the one ETA function.
fn eta_of(app: &TestApp, stop_id: &str) -> String {
    let minutes_per_stop = app.state.settings().schedule.minutes_per_stop;
    app.with_db(|c| {
        let stop: Stop = stops::table.find(stop_id).select(Stop::as_select()).first(c).unwrap();
        eta(stop.run_position(c).unwrap().unwrap(), minutes_per_stop).to_string()
    })
}

async fn each_step_texts_the_customer_once_with_its_details_and_all_reach_the_provider(backend: Backend) {
    let mock = FakeAt::start().await;
    let Some(app) = texting_app(backend, &mock).await else { return };
    let (session, staff_id) = owner(&app).await;
    let id = place(&app, "0712 345 678").await;
    let placed = stored(&app, &id);
    let link = format!("/t/{}", placed.link_token.clone().unwrap());

    // Slot confirmed: the window and the link; confirming again texts nothing more.
    let path = format!("/api/admin/orders/{id}/slot");
    assert_eq!(post(&app, &session, &path, json!({"action": "confirm"})).await.status(), 200);
    assert_eq!(post(&app, &session, &path, json!({"action": "confirm"})).await.status(), 200);
    let pickup = app.with_db(|c| Stop::of_order(c, &placed.id, StopKind::Pickup).unwrap().unwrap());
    let text = only_text(&app, MessageKind::SmsSlotConfirmed);
    assert!(text.contains(&format!("pickup of order {id} confirmed for {}", pickup.slot().label())), "{text}");
    assert!(text.ends_with(&link), "{text}");

    // On my way: the pickup's ETA as the order's page shows it; pressed twice, one text.
    let stop = put_in_run_at(&app, &placed.id, StopKind::Pickup, &staff_id, 1, 19 * 60);
    let on_my_way = format!("/valet/stops/{stop}/on-my-way");
    assert_eq!(valet_post(&app, &session, &on_my_way, &[]).await.status(), 303);
    assert_eq!(valet_post(&app, &session, &on_my_way, &[]).await.status(), 303);
    let text = only_text(&app, MessageKind::SmsOnTheWay);
    assert!(text.contains(&format!("on the way for order {id}, expected {}", eta_of(&app, &stop))), "{text}");
    assert!(text.ends_with(&link), "{text}");

    // Picked up with 5 kg weighed: the bill as repriced (3 kg were estimated) and how to pay.
    let picked_up = format!("/valet/stops/{stop}/picked-up");
    assert_eq!(valet_post(&app, &session, &picked_up, &[("bags", "2"), ("kg", "5")]).await.status(), 303);
    assert_eq!(valet_post(&app, &session, &picked_up, &[("bags", "2"), ("kg", "5")]).await.status(), 303);
    let text = only_text(&app, MessageKind::SmsPickedUp);
    assert!(text.contains(&format!("order {id} picked up. Bill KSh 750. Pay on delivery")), "{text}");

    // Ready, set twice and once back and forth: one text, with the delivery window.
    let status = format!("/api/admin/orders/{id}/status");
    for step in ["ready", "ready", "in-progress", "ready"] {
        assert_eq!(post(&app, &session, &status, json!({"status": step, "rack": "A1"})).await.status(), 200);
    }
    let delivery = app.with_db(|c| Stop::of_order(c, &placed.id, StopKind::Delivery).unwrap().unwrap());
    let text = only_text(&app, MessageKind::SmsReady);
    assert!(text.contains(&format!("order {id} is clean and ready. Delivery {}.", delivery.slot().label())), "{text}");

    // Out for delivery: the delivery's ETA and what is left to pay.
    let stop = put_in_run_at(&app, &placed.id, StopKind::Delivery, &staff_id, 1, 19 * 60);
    assert_eq!(valet_post(&app, &session, &format!("/valet/stops/{stop}/on-my-way"), &[]).await.status(), 303);
    let text = only_text(&app, MessageKind::SmsOutForDelivery);
    assert!(text.contains(&format!("order {id} is out for delivery, expected {}.", eta_of(&app, &stop))), "{text}");
    assert!(text.contains("To pay: KSh 750"), "{text}");

    // Delivered with the cash: one text naming the payment, and no second one about it.
    let delivered = format!("/valet/stops/{stop}/delivered");
    let paid = [("paid", "cash"), ("cash", "750")];
    assert_eq!(valet_post(&app, &session, &delivered, &paid).await.status(), 303);
    assert_eq!(valet_post(&app, &session, &delivered, &paid).await.status(), 303);
    let text = only_text(&app, MessageKind::SmsDelivered);
    assert!(text.contains(&format!("order {id} delivered, KSh 750 paid. Thank you! Receipt: ")), "{text}");
    assert!(text.ends_with(&format!("{link}/receipt")), "the receipt: {text}");
    assert!(texts_of(&app, MessageKind::SmsPaymentReceived).is_empty());

    // Every text reached Africa's Talking, in the order of the steps, exactly as written.
    let written: Vec<String> = texts(&app).iter().map(|row| row.sms_text().unwrap()).collect();
    assert_eq!(written.len(), 7, "{written:#?}");
    mock.wait_for(7, Duration::from_secs(15)).await;
    until_texts(&app, "sent", |row| row.status == OutboxStatus::Sent).await;
    assert_eq!(mock.texts_to(PHONE), written);
}

/// The status e-mails written for the order with this order ID.
fn status_emails(app: &TestApp, reference: &str) -> usize {
    let key = stored(app, reference).id;
    let rows = app.with_db(|c| OutboxMessage::all(c).unwrap());
    rows.iter().filter(|row| row.kind == MessageKind::OrderStatus && row.order_id.as_deref() == Some(&key)).count()
}

async fn a_payment_texts_once_and_a_refused_or_silent_change_texts_nothing(backend: Backend) {
    let mock = FakeAt::start().await;
    // E-mail with the status template, towards a port nobody listens on: e-mails are written and wait.
    let mut env = sms_env(&mock.url);
    env.extend(mail_env("http://127.0.0.1:9", true));
    let app = TestApp::builder().on(backend).env(&env).retries(quick_retries()).start().await;
    let (session, _) = owner(&app).await;
    let first = an_order().email("amina@example.com").place(&app).await.reference;
    let second = an_order().email("amina@example.com").place(&app).await.reference;
    let before = texts(&app).len();

    // Staff record an M-PESA payment: the amount and the code; recording it again is refused (the
    // order owes nothing now) and texts nothing.
    let payment = json!({"method": "mpesa", "mpesaCode": "QKH94M1Z11"});
    let path = format!("/api/admin/orders/{first}/payment");
    assert_eq!(post(&app, &session, &path, payment.clone()).await.status(), 200);
    assert_eq!(post(&app, &session, &path, payment.clone()).await.status(), 409);
    let text = only_text(&app, MessageKind::SmsPaymentReceived);
    assert!(text.contains(&format!("KSh 450 received for order {first} (M-PESA QKH94M1Z11)")), "{text}");

    // Refused: the same code for another order, an unknown status, a window that is no window.
    let other = format!("/api/admin/orders/{second}/payment");
    assert_eq!(post(&app, &session, &other, payment).await.status(), 422);
    let status = format!("/api/admin/orders/{second}/status");
    assert_eq!(post(&app, &session, &status, json!({"status": "washed"})).await.status(), 400);
    let slot = format!("/api/admin/orders/{second}/slot");
    let moved = post(&app, &session, &slot, json!({"action": "move", "pickup": "2020-01-01T19:00"})).await;
    assert_eq!(moved.status(), 422);
    assert_eq!(texts(&app).len(), before + 1, "only the payment's text: {:#?}", texts(&app));

    // Saved with "notify customer" off: the status changes, and neither a text nor an e-mail is
    // written; saved as usual, both are.
    let silent = post(&app, &session, &status, json!({"status": "picked-up", "notifyCustomer": false})).await;
    assert_eq!(silent.status(), 200);
    assert_eq!(stored(&app, &second).status, laundry::domain::OrderStatus::PickedUp);
    assert!(texts_of(&app, MessageKind::SmsPickedUp).is_empty());
    assert_eq!(status_emails(&app, &second), 0);
    let told = format!("/api/admin/orders/{first}/status");
    assert_eq!(post(&app, &session, &told, json!({"status": "picked-up"})).await.status(), 200);
    assert_eq!(status_emails(&app, &first), 1);
    assert!(only_text(&app, MessageKind::SmsPickedUp).contains(&format!("order {first} picked up")));
}

/// Posts the texts form of the order's page, as a browser on that page does.
async fn choose_texts(app: &TestApp, token: &str, choice: &str, site: &str) -> reqwest::Response {
    app.client
        .post(format!("{}/t/{token}/texts", app.address))
        .header("content-type", "application/x-www-form-urlencoded")
        .header("sec-fetch-site", site)
        .body(format!("texts={choice}"))
        .send()
        .await
        .unwrap()
}

async fn opting_out_stops_every_later_text_to_that_number_until_opting_in(backend: Backend) {
    let mock = FakeAt::start().await;
    let Some(app) = texting_app(backend, &mock).await else { return };
    let (session, _) = owner(&app).await;
    let id = place(&app, "0712 345 678").await;
    until_texts(&app, "sent", |row| row.status == OutboxStatus::Sent).await;
    let token = stored(&app, &id).link_token.unwrap();

    // A text on its way when the customer opts out: the provider is slow, then it is not sent.
    mock.script(&[AtReply::Hang(Duration::from_secs(3))]);
    let status = format!("/api/admin/orders/{id}/status");
    assert_eq!(post(&app, &session, &status, json!({"status": "picked-up"})).await.status(), 200);

    // Another site's form, and a form without a choice, change nothing.
    assert_eq!(choose_texts(&app, &token, "off", "cross-site").await.status(), 403);
    assert_eq!(choose_texts(&app, &token, "maybe", "same-origin").await.status(), 422);
    assert!(!app.with_db(|c| laundry::models::outbox::OptOut::is_opted_out(c, PHONE).unwrap()));
    let page = app.get(&format!("/t/{token}")).await.text().await.unwrap();
    assert!(page.contains("Stop text messages"), "the page offers to stop texts");

    let stopped = choose_texts(&app, &token, "off", "same-origin").await;
    assert_eq!(stopped.status(), 303);
    assert_eq!(stopped.headers()["location"], format!("/t/{token}?done=texts-off"));
    let page = app.get(&format!("/t/{token}?done=texts-off")).await.text().await.unwrap();
    assert!(page.contains("Text messages are off for") && page.contains("+254 7** *** 678"), "{page}");
    assert!(page.contains("Send me texts again"));
    assert!(!page.contains("Stop text messages"));

    // The queued text is skipped when the worker takes it again; nothing later is written, from
    // this order or another order of the same number, however it is spelled.
    let skipped = until_texts(&app, "sent or skipped", |row| row.status != OutboxStatus::Pending).await;
    let picked_up: Vec<&OutboxMessage> = skipped.iter().filter(|row| row.kind == MessageKind::SmsPickedUp).collect();
    assert_eq!(picked_up[0].status, OutboxStatus::Skipped, "{picked_up:#?}");
    let another = place(&app, "+254 712 345678").await;
    assert_eq!(post(&app, &session, &status, json!({"status": "ready", "rack": "A1"})).await.status(), 200);
    assert!(texts_of(&app, MessageKind::SmsReady).is_empty());
    let received = texts(&app).into_iter().filter(|row| row.kind == MessageKind::SmsOrderReceived).count();
    assert_eq!(received, 1, "the second order {another} wrote no text");

    // Texts again: the next step is texted.
    let started = choose_texts(&app, &token, "on", "same-origin").await;
    assert_eq!(started.headers()["location"], format!("/t/{token}?done=texts-on"));
    assert_eq!(post(&app, &session, &status, json!({"status": "delivered"})).await.status(), 200);
    only_text(&app, MessageKind::SmsDelivered);
    mock.wait_for(2, Duration::from_secs(15)).await;
    until_texts(&app, "done", |row| row.status != OutboxStatus::Pending).await;
    assert!(mock.texts_to(PHONE).last().unwrap().contains(&format!("order {id} delivered")));
}

async fn a_kind_staff_switch_off_is_not_written_while_the_others_are(backend: Backend) {
    let mock = FakeAt::start().await;
    let Some(app) = texting_app(backend, &mock).await else { return };
    let (session, _) = owner(&app).await;
    let listed: Value = app
        .staff_request(reqwest::Method::GET, "/api/admin/texts", &session, false)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let kinds = listed["kinds"].as_array().unwrap();
    assert_eq!(kinds.len(), MessageKind::SMS.len());
    assert!(kinds.iter().all(|kind| kind["enabled"] == true && kind["changedBy"].is_null()), "{listed}");

    // Refused: an unknown kind (named), an e-mail kind, no CSRF token.
    let unknown = post(&app, &session, "/api/admin/texts", json!({"kind": "sms-weather", "enabled": false})).await;
    assert_eq!(unknown.status(), 422);
    let body: Value = unknown.json().await.unwrap();
    assert!(body["error"].as_str().unwrap().contains("'sms-weather'"), "{body}");
    let email = post(&app, &session, "/api/admin/texts", json!({"kind": "order-admin", "enabled": false})).await;
    assert_eq!(email.status(), 422);
    let no_csrf = app
        .staff_request(reqwest::Method::POST, "/api/admin/texts", &session, false)
        .json(&json!({"kind": "sms-order-received", "enabled": false}))
        .send()
        .await
        .unwrap();
    assert_eq!(no_csrf.status(), 403);
    let switch = json!({"kind": "sms-order-received", "enabled": false});
    let switched = post(&app, &session, "/api/admin/texts", switch).await;
    assert_eq!(switched.status(), 200);
    let switched: Value = switched.json().await.unwrap();
    let received = switched["kinds"].as_array().unwrap().iter().find(|kind| kind["kind"] == "sms-order-received");
    assert_eq!(received.unwrap()["enabled"], false);
    assert_eq!(received.unwrap()["changedBy"], OWNER);

    let id = place(&app, "0712 345 678").await;
    assert!(texts_of(&app, MessageKind::SmsOrderReceived).is_empty());
    let status = format!("/api/admin/orders/{id}/status");
    assert_eq!(post(&app, &session, &status, json!({"status": "picked-up"})).await.status(), 200);
    only_text(&app, MessageKind::SmsPickedUp);
    mock.wait_for(1, Duration::from_secs(15)).await;
    assert!(mock.texts_to(PHONE)[0].contains("picked up"));
}

crate::on_each_backend!(
    each_step_texts_the_customer_once_with_its_details_and_all_reach_the_provider,
    a_payment_texts_once_and_a_refused_or_silent_change_texts_nothing,
    opting_out_stops_every_later_text_to_that_number_until_opting_in,
    a_kind_staff_switch_off_is_not_written_while_the_others_are,
);
