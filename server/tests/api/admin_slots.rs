//! Slot confirmation on the dashboard: the pickups awaiting it (oldest first, flagged past 30
//! minutes), confirming one (who and when, and the customer's e-mail in the same transaction), and
//! moving one (refused into a full window, with the reason, and nothing changed). On both backends.

use crate::helpers::orders::{day_after, place_with_pickup, slot_value, stored_with_pickup};
use crate::helpers::staff::{STAFF, staff_app};
use crate::helpers::{Backend, SignedIn, TestApp};
use diesel::prelude::*;
use laundry::db::schema::{orders, outbox, stops};
use laundry::domain::schedule::{Slot, Window};
use laundry::domain::{MessageKind, StopKind};
use laundry::models::outbox::OutboxMessage;
use laundry::models::stop::Stop;
use serde_json::{Value, json};

/// Runs each test on SQLite and on PostgreSQL (skipped when `TEST_DATABASE_URL` is unset).
#[macro_export]
macro_rules! staff_tests_on_both_backends {
    ($($name:ident => $body:path;)*) => {
        mod sqlite {
            $(#[actix_web::test] async fn $name() { $body($crate::helpers::Backend::Sqlite).await })*
        }
        mod postgres {
            $(#[actix_web::test] async fn $name() {
                if $crate::helpers::postgres_skipped() {
                    return;
                }
                $body($crate::helpers::Backend::Postgres).await
            })*
        }
    };
}

/// The slot e-mails queued for the order.
fn slot_emails(app: &TestApp, order_key: &str) -> Vec<OutboxMessage> {
    app.with_db(|c| {
        outbox::table
            .filter(outbox::order_id.eq(order_key))
            .filter(outbox::kind.eq(MessageKind::SlotConfirmed))
            .select(OutboxMessage::as_select())
            .load(c)
            .unwrap()
    })
}

async fn get_awaiting(app: &TestApp, session: &SignedIn) -> Value {
    let response =
        app.staff_request(reqwest::Method::GET, "/api/admin/unconfirmed", session, false).send().await.unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["cache-control"], "no-store");
    response.json().await.unwrap()
}

async fn post_slot(app: &TestApp, session: &SignedIn, id: &str, body: Value) -> reqwest::Response {
    app.staff_request(reqwest::Method::POST, &format!("/api/admin/orders/{id}/slot"), session, true)
        .json(&body)
        .send()
        .await
        .unwrap()
}

async fn pickups_awaiting_are_listed_oldest_first_and_flagged_past_30_minutes(backend: Backend) {
    let Some((app, session)) = staff_app(backend).await else { return };
    let tomorrow = day_after(1);
    let older = place_with_pickup(&app, "Amina Wanjiru", "0712 345 678", &slot_value(tomorrow, 19), json!({})).await;
    let newer = place_with_pickup(&app, "Brian Otieno", "0722 111 222", &slot_value(tomorrow, 20), json!({})).await;
    let (order, _) = stored_with_pickup(&app, &older);
    app.with_db(|c| {
        let long_ago = app.now() - time::Duration::minutes(45);
        diesel::update(orders::table.find(&order.id)).set(orders::created_at.eq(long_ago)).execute(c).unwrap();
        diesel::update(stops::table.filter(stops::order_id.eq(&order.id)))
            .set(stops::created_at.eq(long_ago))
            .execute(c)
            .unwrap();
    });

    let list = get_awaiting(&app, &session).await;

    let items = list["items"].as_array().unwrap();
    let ids: Vec<&str> = items.iter().map(|item| item["orderId"].as_str().unwrap()).collect();
    assert_eq!(ids, vec![older.as_str(), newer.as_str()], "oldest booking first");
    assert_eq!(items[0]["overdue"], true, "45 minutes is past the promise");
    assert!(items[0]["minutesWaiting"].as_i64().unwrap() >= 45);
    assert_eq!(items[1]["overdue"], false, "just booked");
    assert_eq!(items[1]["minutesWaiting"], 0);
    let slot = Slot { day: tomorrow, window: Window { start: 19 * 60, end: 20 * 60 } };
    assert_eq!(items[0]["pickup"], slot.value());
    assert_eq!(items[0]["pickupLabel"], slot.label());
    assert_eq!(items[0]["name"], "Amina Wanjiru");
    assert_eq!(items[0]["phone"], "+254712345678");
    assert!(items[0]["bookedAt"].as_str().unwrap().ends_with('Z'));
    let full = list["slots"].as_array().unwrap().iter().find(|s| s["value"] == slot.value()).unwrap();
    assert_eq!(full["remaining"], 0, "the window of capacity 1 is taken");
}

async fn confirming_a_slot_records_who_and_when_and_queues_the_customers_email(backend: Backend) {
    let Some((app, session)) = staff_app(backend).await else { return };
    let tomorrow = day_after(1);
    let id = place_with_pickup(&app, "Amina Wanjiru", "0712 345 678", &slot_value(tomorrow, 19), json!({})).await;
    let (order, _) = stored_with_pickup(&app, &id);
    assert!(slot_emails(&app, &order.id).is_empty());
    let before = app.now();

    let response = post_slot(&app, &session, &id, json!({ "action": "confirm" })).await;

    assert_eq!(response.status(), 200);
    let answer: Value = response.json().await.unwrap();
    assert_eq!(answer["orderId"], id.as_str());
    assert_eq!(answer["confirmedBy"], STAFF);
    assert!(answer["awaiting"]["items"].as_array().unwrap().is_empty(), "no longer awaiting");
    let (_, pickup) = stored_with_pickup(&app, &id);
    assert_eq!(pickup.confirmed_by.as_deref(), Some(STAFF));
    let at = pickup.confirmed_at.expect("the time it was confirmed");
    assert!(at >= before && at <= app.now());
    let emails = slot_emails(&app, &order.id);
    assert_eq!(emails.len(), 1, "one e-mail to the customer");
    assert_eq!(emails[0].to_email.as_deref(), Some("amina@example.com"));
    let params: Value = serde_json::from_str(&emails[0].params).unwrap();
    let label = Slot { day: tomorrow, window: Window { start: 19 * 60, end: 20 * 60 } }.label();
    assert_eq!(params["order_id"], id.as_str());
    assert_eq!(params["pickup_window"], label.as_str());
    assert_eq!(params["status_label"], format!("Pickup confirmed for {label}"));
    assert!(get_awaiting(&app, &session).await["items"].as_array().unwrap().is_empty());

    let again = post_slot(&app, &session, &id, json!({ "action": "confirm" })).await;
    assert_eq!(again.status(), 200);
    assert_eq!(slot_emails(&app, &order.id).len(), 1, "confirming again sends nothing more");
    assert_eq!(stored_with_pickup(&app, &id).1.confirmed_at, Some(at), "and keeps the first confirmation");

    let other = place_with_pickup(&app, "Brian Otieno", "0722 111 222", &slot_value(tomorrow, 20), json!({})).await;
    let same = post_slot(&app, &session, &other, json!({ "action": "move", "pickup": slot_value(tomorrow, 20) })).await;
    assert_eq!(same.status(), 200, "moving a pickup to its own window confirms it");
    let (other_order, other_pickup) = stored_with_pickup(&app, &other);
    assert_eq!(other_pickup.confirmed_by.as_deref(), Some(STAFF));
    let params: Value = serde_json::from_str(&slot_emails(&app, &other_order.id)[0].params).unwrap();
    assert!(params["status_label"].as_str().unwrap().starts_with("Pickup confirmed for "), "{params}");
}

async fn moving_into_a_full_window_is_refused_with_its_reason_and_changes_nothing(backend: Backend) {
    let Some((app, session)) = staff_app(backend).await else { return };
    let tomorrow = day_after(1);
    place_with_pickup(&app, "Amina Wanjiru", "0712 345 678", &slot_value(tomorrow, 19), json!({})).await;
    let id = place_with_pickup(&app, "Brian Otieno", "0722 111 222", &slot_value(tomorrow, 20), json!({})).await;
    let (order, before) = stored_with_pickup(&app, &id);

    let refused = post_slot(&app, &session, &id, json!({ "action": "move", "pickup": slot_value(tomorrow, 19) })).await;

    assert_eq!(refused.status(), 422);
    let body: Value = refused.json().await.unwrap();
    let full = Slot { day: tomorrow, window: Window { start: 19 * 60, end: 20 * 60 } }.label();
    let reason = format!("The {full} window is full. Please choose another window.");
    assert_eq!(body["error"], reason.as_str());
    assert_eq!(body["fields"]["pickup"], reason.as_str());
    assert_eq!(stored_with_pickup(&app, &id).1, before, "the pickup is where it was, unconfirmed");
    assert!(slot_emails(&app, &order.id).is_empty(), "and the customer is told nothing");

    let moved = post_slot(&app, &session, &id, json!({ "action": "move", "pickup": slot_value(tomorrow, 21) })).await;

    assert_eq!(moved.status(), 200);
    let (_, pickup) = stored_with_pickup(&app, &id);
    assert_eq!((pickup.day, pickup.window_start), (tomorrow, 21 * 60));
    assert_eq!(pickup.confirmed_by.as_deref(), Some(STAFF), "moved by staff is confirmed at once");
    let delivery = app.with_db(|c| Stop::of_order(c, &order.id, StopKind::Delivery).unwrap().unwrap());
    assert_eq!((delivery.day, delivery.window_start), (tomorrow + time::Duration::days(3), 21 * 60));
    let emails = slot_emails(&app, &order.id);
    assert_eq!(emails.len(), 1);
    let params: Value = serde_json::from_str(&emails[0].params).unwrap();
    assert!(params["status_label"].as_str().unwrap().starts_with("Pickup moved to "), "{params}");
}

async fn a_slot_change_names_what_is_wrong(backend: Backend) {
    let Some((app, session)) = staff_app(backend).await else { return };
    let id = place_with_pickup(&app, "Amina Wanjiru", "0712 345 678", &slot_value(day_after(1), 19), json!({})).await;

    let unknown = post_slot(&app, &session, &id, json!({ "action": "approve" })).await;
    assert_eq!(unknown.status(), 422);
    assert_eq!(unknown.json::<Value>().await.unwrap()["fields"]["action"], "Choose confirm, move or move-delivery.");
    let no_slot = post_slot(&app, &session, &id, json!({ "action": "move", "pickup": "tomorrow evening" })).await;
    assert_eq!(no_slot.status(), 422);
    let closed =
        post_slot(&app, &session, &id, json!({ "action": "move", "pickup": slot_value(day_after(1), 3) })).await;
    assert_eq!(closed.json::<Value>().await.unwrap()["error"], "Please choose one of the pickup windows shown.");
    assert_eq!(post_slot(&app, &session, "ZZZZZZZZ", json!({ "action": "confirm" })).await.status(), 404);
    assert!(stored_with_pickup(&app, &id).1.confirmed_at.is_none(), "nothing was confirmed");
}

crate::staff_tests_on_both_backends! {
    pickups_awaiting_are_listed_oldest_first_and_flagged_past_30_minutes =>
        super::pickups_awaiting_are_listed_oldest_first_and_flagged_past_30_minutes;
    confirming_a_slot_records_who_and_when_and_queues_the_customers_email =>
        super::confirming_a_slot_records_who_and_when_and_queues_the_customers_email;
    moving_into_a_full_window_is_refused_with_its_reason_and_changes_nothing =>
        super::moving_into_a_full_window_is_refused_with_its_reason_and_changes_nothing;
    a_slot_change_names_what_is_wrong => super::a_slot_change_names_what_is_wrong;
}
