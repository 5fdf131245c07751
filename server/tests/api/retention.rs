//! Issue 32: the retention job summarises the messages older than `LAUNDRY_KEEP_MESSAGES_MONTHS`
//! for their order and deletes them, keeps those still waiting to be sent, deletes the staff
//! sessions that ended, and runs once a day.

use crate::helpers::*;
use diesel::prelude::*;
use laundry::db::schema::{outbox, outbox_archive, staff_sessions};
use laundry::domain::StaffRole;
use laundry::jobs::retention;
use serde_json::{Value, json};

async fn old_messages_are_summarised_for_their_order_and_the_waiting_ones_kept(backend: Backend) {
    let env = [("LAUNDRY_KEEP_MESSAGES_MONTHS", "1".to_owned())];
    let app = TestApp::builder().on(backend).env(&env).retries(quick_retries()).start().await;
    let owner = app.sign_in_as("owner@example.com", "Retention-Test-Pass-2026", StaffRole::Owner).await;
    let body = json!({
        "customerName": "Amina Wanjiru", "phone": "0712345678", "location": "Kilimani",
        "serviceType": "wash-fold", "quantity": "3", "paymentMethod": "pay-delivery",
    });
    let key = uuid::Uuid::new_v4().to_string();
    let placed: Value = app.post_json("/api/orders", &body, &[("Idempotency-Key", &key)]).await.json().await.unwrap();
    let reference = placed["id"].as_str().unwrap().to_owned();
    // Nothing is configured: the order's messages wait. All but one are marked sent, as a worker
    // would have; the last stays waiting.
    let now = app.now();
    let waiting: String = app.with_db(|c| {
        let ids: Vec<String> = outbox::table.order(outbox::created_at.asc()).select(outbox::id).load(c).unwrap();
        assert!(ids.len() >= 2, "an order writes the staff's e-mail and a text: {ids:?}");
        let (sent, waiting) = ids.split_at(ids.len() - 1);
        diesel::update(outbox::table.filter(outbox::id.eq_any(sent)))
            .set((outbox::status.eq("sent"), outbox::sent_at.eq(Some(now))))
            .execute(c)
            .unwrap();
        waiting[0].clone()
    });
    let kept_before = app.with_db(|c| outbox::table.count().get_result::<i64>(c).unwrap());

    // A month later nothing is old enough; two months later every sent message is.
    let day = app.today();
    let a_month_on = day + time::Duration::days(28);
    let done = app.with_db(|c| retention::run(c, Some(1), a_month_on, "test", now).unwrap().unwrap());
    assert_eq!(done.messages, 0);
    let two_months_on = day + time::Duration::days(62);
    let done = app.with_db(|c| retention::run(c, Some(1), two_months_on, "test", now).unwrap().unwrap());
    assert_eq!(done.messages as i64, kept_before - 1, "every sent message");
    let left: Vec<String> = app.with_db(|c| outbox::table.select(outbox::id).load(c).unwrap());
    assert_eq!(left, vec![waiting], "the waiting message stays");
    let summaries: i64 = app.with_db(|c| outbox_archive::table.count().get_result(c).unwrap());
    assert_eq!(summaries, kept_before - 1);
    // Once a day: the day's run is done.
    assert_eq!(app.with_db(|c| retention::run(c, Some(1), two_months_on, "test", now).unwrap()), None);

    // The order's detail still lists every message, the summarised ones without recipient or words.
    let detail: Value = app
        .staff_request(reqwest::Method::GET, &format!("/api/admin/orders/{reference}"), &owner, false)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let messages = detail["messages"].as_array().expect("the detail lists messages");
    assert_eq!(messages.len() as i64, kept_before, "{messages:#?}");
    let summarised: Vec<&Value> =
        messages.iter().filter(|m| m["id"].as_str().unwrap().starts_with("summary-")).collect();
    assert_eq!(summarised.len() as i64, kept_before - 1);
    for message in summarised {
        assert_eq!(message["status"], "sent");
        assert!(message["sentAt"].is_string(), "when it was sent: {message}");
        assert!(message["to"] == "the customer" || message["to"] == "staff", "no recipient kept: {message}");
    }
}

async fn sessions_that_ended_are_deleted_and_forever_keeps_every_message(backend: Backend) {
    let app = TestApp::builder().on(backend).start().await;
    app.sign_in_as("owner@example.com", "Retention-Test-Pass-2026", StaffRole::Owner).await;
    let now = app.now();
    app.with_db(|c| {
        diesel::update(staff_sessions::table)
            .set(staff_sessions::expires_at.eq(now - time::Duration::hours(1)))
            .execute(c)
            .unwrap();
        diesel::update(outbox::table).set(outbox::status.eq("sent")).execute(c).unwrap();
    });
    let later = app.today() + time::Duration::days(4000);
    let done = app.with_db(|c| retention::run(c, None, later, "test", now).unwrap().unwrap());
    assert_eq!(done.sessions, 1);
    assert_eq!(done.messages, 0, "LAUNDRY_KEEP_MESSAGES_MONTHS=forever keeps every message");
    assert_eq!(app.with_db(|c| staff_sessions::table.count().get_result::<i64>(c).unwrap()), 0);
}

crate::on_each_backend!(
    old_messages_are_summarised_for_their_order_and_the_waiting_ones_kept,
    sessions_that_ended_are_deleted_and_forever_keeps_every_message,
);
