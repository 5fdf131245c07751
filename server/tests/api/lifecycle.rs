//! The real day's exceptions, on both backends (issue 29): a valet marks a pickup or a delivery
//! "not home / not ready", the customer is texted (through a mock Africa's Talking) and chooses a
//! new window on the order's page, staff see the order waiting at the top of the dashboard, and a
//! missed pickup is never followed by a delivery; staff cancel a paid order with a reason (its
//! money owed back), take the cancellation back, and move a delivery.

use crate::helpers::mpesa::PHONE;
use crate::helpers::orders::{self, put_in_run_at};
use crate::helpers::sms::{place, texting_app, texts};
use crate::helpers::staff::{OWNER, owner, post};
use crate::helpers::{Backend, SignedIn, TestApp, money, valet_post};
use laundry::domain::{MessageKind, OrderStatus, StopKind, StopState};
use laundry::fakes::FakeAt;
use laundry::models::order::Order;
use laundry::models::stop::Stop;
use serde_json::{Value, json};
use std::time::Duration;

fn stop_of(app: &TestApp, order_key: &str, kind: StopKind) -> Stop {
    app.with_db(|c| Stop::of_order(c, order_key, kind).unwrap().unwrap())
}

/// The words of the texts of `kind`, oldest first.
fn texts_of(app: &TestApp, kind: MessageKind) -> Vec<String> {
    texts(app).into_iter().filter(|row| row.kind == kind).map(|row| row.sms_text().unwrap()).collect()
}

async fn api_get(app: &TestApp, session: &SignedIn, path: &str) -> Value {
    let response = app.staff_request(reqwest::Method::GET, path, session, false).send().await.unwrap();
    assert_eq!(response.status(), 200);
    response.json().await.unwrap()
}

/// The first `<option value="…">` after `name="{field}"` on a page that is not `but`: a window the
/// form offers.
fn first_choice(html: &str, field: &str, but: &str) -> String {
    let form = html.split(&format!(r#"name="{field}""#)).nth(1).expect("the form's select");
    let mut options =
        form.split(r#"<option value="20"#).skip(1).map(|option| format!("20{}", option.split('"').next().unwrap()));
    options.find(|value| value != but).expect("a window to choose")
}

async fn a_missed_pickup_texts_the_customer_who_chooses_a_new_window_and_it_never_becomes_a_delivery(backend: Backend) {
    let mock = FakeAt::start().await;
    let Some(app) = texting_app(backend, &mock).await else { return };
    let (session, staff_id) = owner(&app).await;
    let id = place(&app, "0712 345 678").await;
    let placed = orders::stored(&app, &id);
    let link = format!("/t/{}", placed.link_token.clone().unwrap());
    let pickup = put_in_run_at(&app, &placed.id, StopKind::Pickup, &staff_id, 1, 19 * 60);
    // Its delivery lands in today's run too (an order whose pickup never happened).
    let delivery = put_in_run_at(&app, &placed.id, StopKind::Delivery, &staff_id, 2, 19 * 60);

    // The valet page shows the pickup and not the delivery of laundry the shop does not have, and
    // its forms are refused.
    let html = app.get_with("/valet", &[("cookie", &session.cookie)]).await.text().await.unwrap();
    assert!(html.contains(&format!("/valet/stops/{pickup}/not-home")), "the pickup offers Not home");
    assert!(!html.contains(&format!("stop-{delivery}")), "no delivery for a pending order");
    // Each form is complete, so that what refuses it is the order's life, not a missing field
    // (prompts are not configured here: that form is refused for that reason first).
    let forms: [(&str, &[(&str, &str)]); 3] =
        [("on-my-way", &[]), ("delivered", &[("paid", "cash"), ("cash", "450")]), ("prompt", &[])];
    for (action, fields) in forms {
        let refused = valet_post(&app, &session, &format!("/valet/stops/{delivery}/{action}"), fields).await;
        assert_eq!(refused.status(), 409, "{action}");
        if action != "prompt" {
            let html = refused.text().await.unwrap();
            assert!(html.contains("This order has not been picked up yet."), "{action}: the reason is shown");
        }
    }
    assert!(texts_of(&app, MessageKind::SmsOutForDelivery).is_empty(), "no 'out for delivery'");

    // "Not home" needs a reason; with one, the stop is missed and the customer texted the link.
    let not_home = format!("/valet/stops/{pickup}/not-home");
    assert_eq!(valet_post(&app, &session, &not_home, &[]).await.status(), 422);
    let marked = valet_post(&app, &session, &not_home, &[("reason", "Not home")]).await;
    assert_eq!(marked.status(), 303);
    assert!(marked.headers()["location"].to_str().unwrap().contains("notice=missed"));
    let again = valet_post(&app, &session, &not_home, &[("reason", "Not home")]).await;
    assert!(again.headers()["location"].to_str().unwrap().contains("notice=unchanged"));
    let missed = stop_of(&app, &placed.id, StopKind::Pickup);
    assert_eq!((missed.state, missed.missed_reason.as_deref()), (StopState::Missed, Some("Not home")));
    assert_eq!(missed.missed_by.as_deref(), Some(OWNER));
    assert_eq!(stop_of(&app, &placed.id, StopKind::Delivery).state, StopState::Cancelled, "delivery withdrawn");
    assert_eq!(orders::stored(&app, &id).status, OrderStatus::Pending);
    let words = texts_of(&app, MessageKind::SmsMissed);
    assert_eq!(words.len(), 1, "one text: {words:?}");
    assert!(words[0].contains(&format!("could not collect order {id} today. Choose a new pickup time:")));
    assert!(words[0].ends_with(&link), "{}", words[0]);
    let sent = mock.wait_for(2, Duration::from_secs(15)).await;
    assert!(!sent.is_empty());
    assert!(mock.texts_to(PHONE).iter().any(|text| text == &words[0]), "the text reached the provider");

    // Staff see it at the top of the dashboard.
    let list = api_get(&app, &session, "/api/admin/unconfirmed").await;
    let waiting = list["waiting"].as_array().unwrap();
    assert_eq!(waiting.len(), 1, "{waiting:#?}");
    assert_eq!(waiting[0]["kind"], "missed-pickup");
    assert_eq!(waiting[0]["orderId"], id.as_str());
    assert!(waiting[0]["what"].as_str().unwrap().ends_with(": Not home"));

    // The customer's page asks for a new window, and the order never shows a delivery meanwhile.
    let html = app.get(&link).await.text().await.unwrap();
    assert!(html.contains("Choose a New Pickup Time"), "the form, headed for a missed pickup");
    assert!(html.contains("Our valet could not collect your laundry on"), "and why");
    assert!(!html.contains("· Cancelled"), "the withdrawn delivery is not shown as cancelled");
    let to = first_choice(&html, "pickup", "");
    let moved = app.post_form(&format!("{link}/reschedule"), &[("pickup", &to)]).await;
    assert_eq!(moved.status(), 303);

    let pickup = stop_of(&app, &placed.id, StopKind::Pickup);
    assert_eq!((pickup.state, pickup.slot().value()), (StopState::Planned, to));
    assert_eq!(pickup.missed_reason, None);
    let delivery = stop_of(&app, &placed.id, StopKind::Delivery);
    assert_eq!(delivery.state, StopState::Planned, "the delivery is booked again after the new pickup");
    assert!(delivery.slot() > pickup.slot());
    let list = api_get(&app, &session, "/api/admin/unconfirmed").await;
    assert_eq!(list["waiting"].as_array().unwrap().len(), 0, "nothing waits any more");
}

async fn staff_cancel_a_paid_order_with_a_reason_and_take_the_cancellation_back(backend: Backend) {
    let mock = FakeAt::start().await;
    let Some(app) = texting_app(backend, &mock).await else { return };
    let (session, _) = owner(&app).await;
    let id = place(&app, "0712 345 678").await;
    let key = orders::stored(&app, &id).id;
    let paid = json!({"method": "mpesa", "mpesaCode": "QKH94M1Z11"});
    assert_eq!(post(&app, &session, &format!("/api/admin/orders/{id}/payment"), paid).await.status(), 200);
    let status = format!("/api/admin/orders/{id}/status");
    assert_eq!(post(&app, &session, &status, json!({"status": "picked-up"})).await.status(), 200);

    // A cancellation without a reason is refused, and nothing changes.
    let refused = post(&app, &session, &status, json!({"status": "cancelled"})).await;
    assert_eq!(refused.status(), 422);
    let body: Value = refused.json().await.unwrap();
    assert!(body["fields"]["reason"].as_str().unwrap().starts_with("Say why"), "{body}");
    assert_eq!(orders::stored(&app, &id).status, OrderStatus::PickedUp);

    // With one: cancelled, its delivery out of the runs, the money owed back, the customer told.
    let cancel = json!({"status": "cancelled", "reason": "Customer moved away", "returnStop": "shop"});
    let cancelled = post(&app, &session, &status, cancel).await;
    assert_eq!(cancelled.status(), 200);
    let stored = orders::stored(&app, &id);
    assert_eq!(stored.status, OrderStatus::Cancelled);
    assert_eq!(stored.cancel_reason.as_deref(), Some("Customer moved away"));
    assert_eq!(money(&app, &id).0.owed_back(), 450, "the KSh 450 paid is owed back");
    let balances = api_get(&app, &session, "/api/admin/balances").await;
    let due = balances["owedBack"].as_array().unwrap();
    assert_eq!(
        (due.len(), due[0]["orderId"].as_str(), due[0]["status"].as_str(), due[0]["amount"].as_i64()),
        (1, Some(id.as_str()), Some("cancelled"), Some(450)),
        "listed for staff as a refund due"
    );
    assert_eq!(stop_of(&app, &key, StopKind::Delivery).state, StopState::Cancelled);
    assert_eq!(stop_of(&app, &key, StopKind::Pickup).state, StopState::Done, "what happened stays");
    let words = texts_of(&app, MessageKind::SmsCancelled);
    assert_eq!(words.len(), 1);
    let said = format!(
        "order {id} has been cancelled. We will send back your KSh 450. Your clothes are ready to collect at the shop."
    );
    assert!(words[0].contains(&said), "{}", words[0]);

    // Taken back, to where it was: the delivery is booked again (its window is still ahead) and
    // nothing is owed any more.
    let undone = post(&app, &session, &status, json!({"status": "picked-up"})).await;
    assert_eq!(undone.status(), 200);
    let stored = orders::stored(&app, &id);
    assert_eq!((stored.status, money(&app, &id).0.owed_back(), stored.cancel_reason), (OrderStatus::PickedUp, 0, None));
    assert_eq!(api_get(&app, &session, "/api/admin/balances").await["owedBack"], json!([]), "no refund due");
    assert_eq!(stop_of(&app, &key, StopKind::Delivery).state, StopState::Planned);
    let words = texts_of(&app, MessageKind::SmsReinstated);
    assert_eq!(words.len(), 1);
    assert!(words[0].contains(&format!("order {id} is back on. Delivery ")), "{}", words[0]);
    let history = app.with_db(|c| Order::history(c, &key).unwrap());
    let steps: Vec<OrderStatus> = history.iter().map(|change| change.status).collect();
    assert_eq!(steps, [OrderStatus::Pending, OrderStatus::PickedUp, OrderStatus::Cancelled, OrderStatus::PickedUp]);

    // Cancelled again without a word to the customer: no text.
    let quiet = json!({"status": "cancelled", "reason": "Duplicate", "notifyCustomer": false, "returnStop": "shop"});
    assert_eq!(post(&app, &session, &status, quiet).await.status(), 200);
    assert_eq!(texts_of(&app, MessageKind::SmsCancelled).len(), 1);
}

async fn a_missed_delivery_is_booked_again_by_the_customer_and_staff_move_a_delivery(backend: Backend) {
    let mock = FakeAt::start().await;
    let Some(app) = texting_app(backend, &mock).await else { return };
    let (session, staff_id) = owner(&app).await;
    let id = place(&app, "0712 345 678").await;
    let placed = orders::stored(&app, &id);
    let link = format!("/t/{}", placed.link_token.clone().unwrap());
    let status = format!("/api/admin/orders/{id}/status");
    assert_eq!(post(&app, &session, &status, json!({"status": "ready", "rack": "A1"})).await.status(), 200);
    let delivery = put_in_run_at(&app, &placed.id, StopKind::Delivery, &staff_id, 1, 19 * 60);

    let marked =
        valet_post(&app, &session, &format!("/valet/stops/{delivery}/not-home"), &[("reason", "Not home")]).await;
    assert_eq!(marked.status(), 303);
    assert_eq!(stop_of(&app, &placed.id, StopKind::Delivery).state, StopState::Missed);
    assert_eq!(orders::stored(&app, &id).status, OrderStatus::Ready, "still ready");
    let words = texts_of(&app, MessageKind::SmsMissed);
    assert!(words[0].contains(&format!("could not deliver order {id} today. Choose a new delivery time:")));
    let list = api_get(&app, &session, "/api/admin/unconfirmed").await;
    assert_eq!(list["waiting"][0]["kind"], "missed-delivery");

    // The customer picks a window on the order's page.
    let html = app.get(&link).await.text().await.unwrap();
    assert!(html.contains("Choose a New Delivery Time"));
    let missed = stop_of(&app, &placed.id, StopKind::Delivery).slot().value();
    let to = first_choice(&html, "delivery", &missed);
    let booked = app.post_form(&format!("{link}/delivery"), &[("delivery", &to)]).await;
    assert_eq!(booked.status(), 303);
    let delivery = stop_of(&app, &placed.id, StopKind::Delivery);
    assert_eq!((delivery.state, delivery.slot().value(), delivery.valet_id.clone()), (StopState::Planned, to, None));
    // Booked, it is no longer the customer's to move.
    let again = app.post_form(&format!("{link}/delivery"), &[("delivery", &delivery.slot().value())]).await;
    assert_eq!(again.status(), 409);

    // Staff move it, and the customer is told the new window.
    let slot = format!("/api/admin/orders/{id}/slot");
    let choices = list["slots"].as_array().unwrap();
    let other =
        choices.iter().map(|choice| choice["value"].as_str().unwrap()).find(|value| *value != delivery.slot().value());
    let moved = post(&app, &session, &slot, json!({"action": "move-delivery", "delivery": other.unwrap()})).await;
    assert_eq!(moved.status(), 200);
    let delivery = stop_of(&app, &placed.id, StopKind::Delivery);
    assert_eq!(delivery.slot().value(), other.unwrap());
    let words = texts_of(&app, MessageKind::SmsMoved);
    assert_eq!(words.len(), 1);
    assert!(
        words[0].contains(&format!("the delivery of order {id} is now {}", delivery.slot().label())),
        "{}",
        words[0]
    );

    // Delivered, it does not move.
    assert_eq!(post(&app, &session, &status, json!({"status": "delivered"})).await.status(), 200);
    let late = post(&app, &session, &slot, json!({"action": "move-delivery", "delivery": other.unwrap()})).await;
    assert_eq!(late.status(), 422);
}

crate::on_each_backend!(
    a_missed_pickup_texts_the_customer_who_chooses_a_new_window_and_it_never_becomes_a_delivery,
    staff_cancel_a_paid_order_with_a_reason_and_take_the_cancellation_back,
    a_missed_delivery_is_booked_again_by_the_customer_and_staff_move_a_delivery,
);
