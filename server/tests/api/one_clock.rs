//! One clock (docs/time.md): what a request stamps is the time of the app's clock, the settings'
//! `Clock`, never the system's; a test that stops the clock at a moment finds that moment stored.

use crate::helpers::{Backend, TestApp, quick_retries};
use diesel::prelude::*;
use laundry::clock::{Clock, stored};
use laundry::db::schema::contact_messages;
use laundry::domain::{OrderReference, OrderStatus, StaffRole};
use laundry::models::order::Order;
use serde_json::{Value, json};
use time::macros::datetime;

crate::on_each_backend!(placing_a_message_and_a_status_change_store_the_moment_the_clock_says);

/// A Tuesday morning of another year than this one, to the microsecond.
const MOMENT: time::OffsetDateTime = datetime!(2025-03-04 10:15:30.123456 +3);

async fn placing_a_message_and_a_status_change_store_the_moment_the_clock_says(backend: Backend) {
    let app = TestApp::builder().on(backend).retries(quick_retries()).clock(Clock::stopped_at(MOMENT)).start().await;
    let order = json!({
        "customerName": "Amina Wanjiru", "phone": "0712 345 678", "location": "Kilimani",
        "serviceType": "wash-fold", "quantity": 3, "paymentMethod": "pay-delivery"
    });
    let message = json!({ "name": "Achieng", "email": "achieng@example.com", "phone": "", "subject": "Curtains", "message": "Do you take sheers?" });

    let placed = app.post_json("/api/orders", &order, &[]).await;
    let sent = app.post_json("/api/contacts", &message, &[]).await;

    assert_eq!((placed.status().as_u16(), sent.status().as_u16()), (201, 201));
    let reference: Value = placed.json().await.unwrap();
    let reference = OrderReference::parse(reference["id"].as_str().unwrap()).unwrap();
    let stored_order = app.with_db(|c| Order::find_by_reference(c, &reference).unwrap().unwrap());
    assert_eq!(stored_order.created_at, stored(MOMENT), "the order is placed at the clock's moment");
    let history = app.with_db(|c| Order::history(c, &stored_order.id).unwrap());
    assert_eq!(history.iter().map(|change| change.changed_at).collect::<Vec<_>>(), [stored(MOMENT)]);
    let message_at: time::PrimitiveDateTime =
        app.with_db(|c| contact_messages::table.select(contact_messages::created_at).first(c).unwrap());
    assert_eq!(message_at, stored(MOMENT), "the message is stored at the clock's moment");

    // Staff sign in and mark it picked up an hour and a half later, by the same clock.
    let session = app.sign_in_as("owner@example.com", "Tumbo-Ngoma-47-Kazi", StaffRole::Owner).await;
    assert!(app.clock.advance(time::Duration::minutes(90)));
    let path = format!("/api/admin/orders/{}/status", reference.as_str());
    let changed = app
        .staff_request(reqwest::Method::POST, &path, &session, true)
        .json(&json!({ "status": "in-progress", "notifyCustomer": false }))
        .send()
        .await
        .unwrap();

    assert_eq!(changed.status(), 200);
    let history = app.with_db(|c| Order::history(c, &stored_order.id).unwrap());
    let last = history.last().unwrap();
    assert_eq!((last.status, last.changed_at), (OrderStatus::InProgress, stored(MOMENT + time::Duration::minutes(90))));
    // The pages go by it too: the copyright line is the clock's year.
    let home = app.get("/").await.text().await.unwrap();
    assert!(home.contains("© <!-- -->2025"), "the clock's year in the footer");
}
