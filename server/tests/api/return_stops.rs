//! Issue 49: cancelling an order whose laundry was collected sends it back as it is. The
//! cancellation asks how (a return stop in a window, or "the customer collects it at the shop");
//! the text says when the clothes come back; the return is a stop on the valet page like a
//! delivery, marked "Return", with nothing to collect, and handing it back leaves the order
//! cancelled and texts the customer once.

use crate::helpers::{Backend, TestApp, quick_retries, set_status, stopped_clock, valet_post};
use diesel::prelude::*;
use laundry::db::schema::stops;
use laundry::domain::{MessageKind, OrderStatus, StaffRole, StopKind, StopState};
use laundry::models::outbox::OutboxMessage;
use laundry::models::stop::Stop;
use laundry::notify::NotifyCustomer;
use serde_json::{Value, json};
use time::macros::{date, datetime};

const OWNER: &str = "owner@example.com";

fn texts_of(app: &TestApp, id: &str, kind: MessageKind) -> Vec<String> {
    let all = app.with_db(|c| OutboxMessage::all(c).unwrap());
    all.into_iter()
        .filter(|m| m.kind == kind && m.order_id.as_deref() == Some(id))
        .filter_map(|m| m.sms_text())
        .collect()
}

/// Places a pay-on-delivery order for `name` and marks it `status` (collected): its key and ID.
async fn collected(app: &TestApp, name: &str, phone: &str, status: OrderStatus) -> (String, String) {
    let body = json!({
        "customerName": name, "phone": phone, "location": "Kilimani",
        "serviceType": "wash-fold", "quantity": 3, "paymentMethod": "pay-delivery",
    });
    let key = uuid::Uuid::new_v4().to_string();
    let response = app.post_json("/api/orders", &body, &[("Idempotency-Key", &key)]).await;
    let reference = response.json::<Value>().await.unwrap()["id"].as_str().unwrap().to_owned();
    let id = crate::helpers::mpesa::order(app, &reference).id;
    app.with_db(|c| set_status(c, &id, status, OWNER, &NotifyCustomer::nobody(), app.now()).unwrap());
    (id, reference)
}

async fn cancelling_collected_laundry_sends_it_back_on_a_return_stop(backend: Backend) {
    let clock = stopped_clock();
    let app = TestApp::builder().on(backend).retries(quick_retries()).clock(clock.clone()).start().await;
    clock.set(datetime!(2026-11-02 10:00 +3));
    let (id, reference) = collected(&app, "Amina Wanjiru", "0712345678", OrderStatus::PickedUp).await;
    let owner = app.sign_in_as(OWNER, "Return-Stops-Pass-2026", StaffRole::Owner).await;
    let cancel = |fields: Value| {
        let (app, owner, path) = (&app, &owner, format!("/api/admin/orders/{reference}/status"));
        async move { app.staff_request(reqwest::Method::POST, &path, owner, true).json(&fields).send().await.unwrap() }
    };

    // Collected laundry: the cancellation says how it goes back, in a window that can be booked.
    let asked = cancel(json!({ "status": "cancelled", "reason": "The customer moved" })).await;
    assert_eq!(asked.status(), 422);
    let errors: Value = asked.json().await.unwrap();
    assert!(errors.to_string().contains("returnStop"), "{errors}");
    let unreadable = cancel(json!({ "status": "cancelled", "reason": "Moved", "returnStop": "tomorrow" })).await;
    assert_eq!(unreadable.status(), 422);
    let past = cancel(json!({ "status": "cancelled", "reason": "Moved", "returnStop": "2026-11-01T19:00" })).await;
    assert_eq!(past.status(), 409, "a window that has passed is refused");
    assert_eq!(crate::helpers::mpesa::order(&app, &reference).status, OrderStatus::PickedUp, "nothing changed");

    let done = cancel(json!({ "status": "cancelled", "reason": "Moved", "returnStop": "2026-11-04T19:00" })).await;
    assert_eq!(done.status(), 200);
    assert_eq!(crate::helpers::mpesa::order(&app, &reference).status, OrderStatus::Cancelled);
    let back = app.with_db(|c| Stop::of_order(c, &id, StopKind::Delivery).unwrap().unwrap());
    assert_eq!(
        (back.state, back.day, back.slot().window.to_string()),
        (StopState::Planned, date!(2026 - 11 - 04), "19:00-20:00".to_owned())
    );
    let texts = texts_of(&app, &id, MessageKind::SmsCancelled);
    assert_eq!(texts.len(), 1);
    assert!(texts[0].contains("Your clothes come back as they are on Wed 4 Nov, 19:00-20:00."), "{}", texts[0]);

    // On the valet page of that day: a return, nothing to collect; handed back, the order stays
    // cancelled and the customer is texted once.
    app.with_db(|c| {
        diesel::update(stops::table.find(&back.id)).set(stops::run_position.eq(1)).execute(c).unwrap();
    });
    clock.set(datetime!(2026-11-04 19:10 +3));
    // Two days on, the desk signs in again (a staff session does not last that long).
    let owner = app.sign_in(OWNER, "Return-Stops-Pass-2026").await;
    let page = app.get_with("/valet?date=2026-11-04", &[("cookie", &owner.cookie)]).await.text().await.unwrap();
    assert!(page.contains("Return 19:00-20:00"), "the stop says it is a return: {page}");
    assert!(page.contains("The order was cancelled: hand the laundry back as it is. There is nothing to collect."));
    let handed = valet_post(&app, &owner, &format!("/valet/stops/{}/delivered", back.id), &[("paid", "none")]).await;
    assert_eq!(handed.status(), 303, "{:?}", handed.headers());
    let after = app.with_db(|c| Stop::of_order(c, &id, StopKind::Delivery).unwrap().unwrap());
    assert_eq!(after.state, StopState::Done);
    assert_eq!(
        crate::helpers::mpesa::order(&app, &reference).status,
        OrderStatus::Cancelled,
        "returned, not delivered"
    );
    let returned = texts_of(&app, &id, MessageKind::SmsDelivered);
    assert_eq!(returned.len(), 1, "{returned:?}");
    assert!(returned[0].contains(&format!("your clothes from cancelled order {reference} were handed back.")));
}

async fn laundry_the_customer_collects_at_the_shop_leaves_no_stop(backend: Backend) {
    let clock = stopped_clock();
    let app = TestApp::builder().on(backend).retries(quick_retries()).clock(clock.clone()).start().await;
    clock.set(datetime!(2026-11-02 10:00 +3));
    let (id, reference) = collected(&app, "Brian Otieno", "0722000111", OrderStatus::Ready).await;
    let owner = app.sign_in_as(OWNER, "Return-Stops-Pass-2026", StaffRole::Owner).await;
    let path = format!("/api/admin/orders/{reference}/status");
    let fields = json!({ "status": "cancelled", "reason": "Duplicate", "returnStop": "shop" });
    let done = app.staff_request(reqwest::Method::POST, &path, &owner, true).json(&fields).send().await.unwrap();
    assert_eq!(done.status(), 200);
    let delivery = app.with_db(|c| Stop::of_order(c, &id, StopKind::Delivery).unwrap().unwrap());
    assert_eq!(delivery.state, StopState::Cancelled, "no stop: the customer comes to the shop");
    let texts = texts_of(&app, &id, MessageKind::SmsCancelled);
    assert!(texts[0].contains("Your clothes are ready to collect at the shop."), "{}", texts[0]);
}

async fn a_return_nobody_made_is_late_like_a_delivery(backend: Backend) {
    let clock = stopped_clock();
    let app = TestApp::builder().on(backend).retries(quick_retries()).clock(clock.clone()).start().await;
    clock.set(datetime!(2026-11-02 10:00 +3));
    let (id, reference) = collected(&app, "Chebet Kiprono", "0733444555", OrderStatus::PickedUp).await;
    let owner = app.sign_in_as(OWNER, "Return-Stops-Pass-2026", StaffRole::Owner).await;
    let path = format!("/api/admin/orders/{reference}/status");
    let fields = json!({ "status": "cancelled", "reason": "Moved", "returnStop": "2026-11-04T19:00" });
    assert_eq!(
        app.staff_request(reqwest::Method::POST, &path, &owner, true).json(&fields).send().await.unwrap().status(),
        200
    );

    clock.set(datetime!(2026-11-05 09:00 +3));
    let notify = NotifyCustomer::customer(app.state.texts(), false);
    let schedule = app.state.settings().schedule.clone();
    let marked = app.with_db(|c| laundry::lifecycle::late::mark_late_stops(c, &schedule, &notify, app.now()).unwrap());

    assert_eq!(marked, 1);
    let back = app.with_db(|c| Stop::of_order(c, &id, StopKind::Delivery).unwrap().unwrap());
    assert_eq!(back.state, StopState::Missed, "late, waiting for a new window");
    assert_eq!(crate::helpers::mpesa::order(&app, &reference).status, OrderStatus::Cancelled);
}

crate::on_each_backend!(
    a_return_nobody_made_is_late_like_a_delivery,
    cancelling_collected_laundry_sends_it_back_on_a_return_stop,
    laundry_the_customer_collects_at_the_shop_leaves_no_stop
);
