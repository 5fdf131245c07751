//! What texts may cost and whom they may reach (issue 28): order texts go before replies to texts,
//! a phone gets at most so many texts an hour (the rest are held, shown to staff, and the orders
//! stored), the shop's daily budget warns the owner at 80% and holds texts for the next day at
//! 100%, and a final delivery report is never replaced by another.

use crate::helpers::sms::{place, texting_app, texts, until_texts};
use crate::helpers::{Backend, SMS_HOOK_SECRET, SignedIn, TestApp, quick_retries, sms_env};
use diesel::prelude::*;
use laundry::db::schema::outbox_pace;
use laundry::domain::{Channel, Delivery, MessageKind, OutboxStatus, StaffRole};
use laundry::fakes::FakeAt;
use laundry::models::outbox::{Enqueued, OutboxMessage, Pace};
use serde_json::Value;
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(15);

crate::on_each_backend!(
    an_order_text_goes_before_fifty_replies_already_waiting,
    ten_orders_naming_one_phone_text_it_at_most_eight_times_and_every_order_is_stored,
    a_phone_gets_at_most_three_replies_an_hour,
    the_owner_is_warned_at_80_percent_of_the_daily_budget_and_texts_beyond_it_wait_for_the_next_day,
    a_final_delivery_report_is_never_replaced_by_another_in_either_order_or_repeated,
);

/// Writes `count` replies to texts, to as many numbers, written a minute ago (so that they are
/// due before anything written now), in one transaction that also holds the SMS API's pace back
/// for half a second: the worker takes at most one of them before the test writes its order.
fn write_replies(app: &TestApp, count: usize) -> Vec<String> {
    let at = app.now() - time::Duration::minutes(1);
    let limits = app.state.texts().limits;
    let phones: Vec<String> = (0..count).map(|i| format!("+2547110{i:05}")).collect();
    app.with_db(|c| {
        laundry::db::write_transaction(c, |c| {
            let now = laundry::db::database_clock(c)?;
            // Nothing goes until the test lets it (below): the order is placed behind the replies.
            Pace::hold_until(c, Channel::Sms, now + time::Duration::minutes(1))?;
            for (i, phone) in phones.iter().enumerate() {
                let reply = OutboxMessage::sms(
                    MessageKind::SmsReply,
                    None,
                    phone,
                    "Usafi: to book a pickup, order at https://usafi.example",
                    Some(format!("reply test-{i}")),
                    at,
                );
                assert_eq!(OutboxMessage::enqueue_sms(c, &reply, &limits)?, Enqueued::Written);
            }
            Ok::<_, diesel::result::Error>(())
        })
        .unwrap()
    });
    phones
}

/// With 50 replies to texts waiting, a new order's "order received" text is sent next: at most
/// the one reply already in the worker's hands goes before it.
async fn an_order_text_goes_before_fifty_replies_already_waiting(backend: Backend) {
    let mock = FakeAt::start().await;
    let Some(app) = texting_app(backend, &mock).await else { return };
    write_replies(&app, 50);
    let id = place(&app, "0722 000 111").await;
    // The channel free again: the next text taken is the one that goes first. (The server's own
    // worker may hold a reply it took while the channel was held; it sends it a minute later.)
    app.with_db(|c| {
        let now = laundry::db::database_clock(c).unwrap();
        diesel::update(outbox_pace::table.find(Channel::Sms)).set(outbox_pace::next_send_at.eq(now)).execute(c).unwrap()
    });
    app.deliver_outbox().await;
    app.deliver_outbox().await;

    let received = mock.wait_for(2, WAIT).await;
    let first_two: Vec<&str> = received[..2].iter().map(|r| r.field("to")).collect();
    assert!(first_two.contains(&"+254722000111"), "the order text waited behind the replies: {first_two:?}");
    let order_text = received.iter().find(|r| r.field("to") == "+254722000111").unwrap();
    assert!(order_text.field("message").contains(&format!("order {id} received")));
}

/// 40 orders naming one victim's phone once sent it 30 texts in 15 s. Now ten orders naming one
/// phone are all stored, eight texts are written to it, and the other two are held: not sent,
/// marked with the limit, and listed for staff with 'Send again'.
async fn ten_orders_naming_one_phone_text_it_at_most_eight_times_and_every_order_is_stored(backend: Backend) {
    let app = TestApp::builder().on(backend).start().await;
    let mut ids = Vec::new();
    for _ in 0..10 {
        ids.push(place(&app, "0733 444 555").await);
    }
    let stored = app.with_db(|c| laundry::models::order::Order::recent_for_phone(c, "+254733444555", 20).unwrap());
    assert_eq!(stored.len(), 10, "every order is stored");

    let rows: Vec<OutboxMessage> =
        texts(&app).into_iter().filter(|row| row.to_phone.as_deref() == Some("+254733444555")).collect();
    assert_eq!(rows.len(), 10, "each order has its text row");
    let waiting = rows.iter().filter(|row| row.status == OutboxStatus::Pending).count();
    let held: Vec<&OutboxMessage> = rows.iter().filter(|row| row.status == OutboxStatus::Skipped).collect();
    assert_eq!((waiting, held.len()), (8, 2), "{rows:#?}");
    for row in &held {
        let why = row.last_error.as_deref().unwrap();
        assert!(why.starts_with("Not sent: over the limit of 8 texts an hour to one phone"), "{why}");
    }

    let session = owner(&app).await;
    let report = outbox(&app, &session).await;
    let problems = report["problems"].as_array().unwrap();
    let shown: Vec<&Value> = problems.iter().filter(|p| p["to"] == "+254733444555").collect();
    assert_eq!(shown.len(), 2, "staff see the held texts: {problems:#?}");
    assert!(shown.iter().all(|p| p["status"] == "skipped"
        && p["lastError"].as_str().unwrap().contains("LAUNDRY_SMS_SERVICE_PER_PHONE_PER_HOUR")));
    // Staff may still send one by hand.
    let id = shown[0]["id"].as_str().unwrap();
    let path = format!("/api/admin/outbox/{id}/resend");
    let resent = app
        .staff_request(reqwest::Method::POST, &path, &session, true)
        .json(&serde_json::json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(resent.status(), 200);
    let row = texts(&app).into_iter().find(|row| row.id == id).unwrap();
    assert_eq!(row.status, OutboxStatus::Pending);
}

/// Replies to texts are held to three an hour per phone, and count against the phone's cap of
/// eight: after three replies and five order texts, the phone gets nothing more this hour.
async fn a_phone_gets_at_most_three_replies_an_hour(backend: Backend) {
    let app = TestApp::builder().on(backend).start().await;
    let limits = app.state.texts().limits;
    let phone = "+254744555666";
    let now = app.now();
    let text = |kind: MessageKind, i: usize| {
        OutboxMessage::sms(kind, None, phone, "Usafi: text", Some(format!("{kind} test-{i}")), now)
    };
    let outcomes: Vec<Enqueued> = app.with_db(|c| {
        let mut outcomes = Vec::new();
        for i in 0..5 {
            outcomes.push(OutboxMessage::enqueue_sms(c, &text(MessageKind::SmsReply, i), &limits).unwrap());
        }
        for i in 0..6 {
            outcomes.push(OutboxMessage::enqueue_sms(c, &text(MessageKind::SmsReady, i), &limits).unwrap());
        }
        outcomes.push(OutboxMessage::enqueue_sms(c, &text(MessageKind::SmsReply, 9), &limits).unwrap());
        outcomes
    });
    use Enqueued::{OverLimit, Written};
    assert_eq!(
        outcomes,
        [
            Written, Written, Written, OverLimit, OverLimit, Written, Written, Written, Written, Written, OverLimit,
            OverLimit
        ]
    );
    let held = texts(&app).into_iter().filter(|row| row.status == OutboxStatus::Skipped).collect::<Vec<_>>();
    let reasons = |limit: &str| held.iter().filter(|row| row.last_error.as_deref().unwrap().contains(limit)).count();
    assert_eq!((reasons("of 3 replies an hour"), reasons("of 8 texts an hour")), (2, 2), "{held:#?}");
    // A text written more than an hour after the others is not held by them.
    let later = OutboxMessage::sms(
        MessageKind::SmsReply,
        None,
        phone,
        "Usafi: text",
        Some("later".to_owned()),
        now + time::Duration::minutes(61),
    );
    assert_eq!(app.with_db(|c| OutboxMessage::enqueue_sms(c, &later, &limits).unwrap()), Written);
}

/// A budget of five texts a day: at four the owner's dashboard says "Texts today: 4 of 5" (staff
/// without the owner's role see nothing of it); the sixth text waits, the owner reads that the
/// budget is used up, and the text goes out the next Nairobi day.
async fn the_owner_is_warned_at_80_percent_of_the_daily_budget_and_texts_beyond_it_wait_for_the_next_day(
    backend: Backend,
) {
    let mock = FakeAt::start().await;
    let mut env = sms_env(&mock.url);
    env.push(("LAUNDRY_SMS_DAILY_BUDGET", "5".to_owned()));
    let app = TestApp::builder().on(backend).env(&env).retries(quick_retries()).start().await;
    let owner = owner(&app).await;
    app.create_staff_as("otieno@example.com", "Mvua-Kubwa-Leo-2026", StaffRole::Staff);
    let staff = app.sign_in("otieno@example.com", "Mvua-Kubwa-Leo-2026").await;

    for i in 0..3 {
        place(&app, &format!("0712 000 00{i}")).await;
    }
    mock.wait_for(3, WAIT).await;
    assert_eq!(outbox(&app, &owner).await["textBudget"], Value::Null, "60% is no news");
    place(&app, "0712 000 003").await;
    until_texts(&app, "sent", |row| row.status == OutboxStatus::Sent).await;
    let warned = outbox(&app, &owner).await["textBudget"].clone();
    assert_eq!(warned["sent"], 4);
    assert_eq!(warned["usedUp"], false);
    assert!(warned["message"].as_str().unwrap().starts_with("Texts today: 4 of 5."), "{warned}");
    assert_eq!(outbox(&app, &staff).await["textBudget"], Value::Null, "only the owner is warned");
    let page = app.get_with("/admin", &[("cookie", &owner.cookie)]).await.text().await.unwrap();
    assert!(page.contains("Texts today: 4 of 5."), "the dashboard page shows the owner's warning");

    place(&app, "0712 000 004").await;
    place(&app, "0712 000 005").await;
    mock.wait_for(5, WAIT).await;
    // The fake records a text before it answers: the fifth is marked sent a moment later.
    let sent = || texts(&app).into_iter().filter(|row| row.status == OutboxStatus::Sent).count();
    crate::helpers::until("five texts marked sent", || (sent() == 5).then_some(())).await;
    // Another round of the worker: the sixth stays in the outbox.
    assert_eq!(app.deliver_outbox().await, 0);
    assert_eq!(mock.received().len(), 5, "the budget holds the sixth text back");
    let waiting: Vec<OutboxMessage> =
        texts(&app).into_iter().filter(|row| row.status == OutboxStatus::Pending).collect();
    assert_eq!(waiting.len(), 1, "it waits, not lost");
    let used_up = outbox(&app, &owner).await["textBudget"].clone();
    assert_eq!((used_up["sent"].clone(), used_up["usedUp"].clone()), (Value::from(5), Value::Bool(true)));
    assert!(used_up["message"].as_str().unwrap().contains("used up"), "{used_up}");

    // The next Nairobi day, the text goes.
    app.clock.advance(time::Duration::DAY);
    app.state.wake_outbox();
    let received = mock.wait_for(6, WAIT).await;
    assert_eq!(Some(received[5].field("to")), waiting[0].to_phone.as_deref());
}

/// Delivery reports arrive in any order and more than once: the first final one ("Success" or
/// "Failed") stays, whatever comes after it.
async fn a_final_delivery_report_is_never_replaced_by_another_in_either_order_or_repeated(backend: Backend) {
    let mock = FakeAt::start().await;
    let Some(app) = texting_app(backend, &mock).await else { return };
    place(&app, "0712 111 222").await;
    place(&app, "0712 333 444").await;
    let received = mock.wait_for(2, WAIT).await;
    until_texts(&app, "sent", |row| row.status == OutboxStatus::Sent).await;
    let id_of = |phone: &str| received.iter().find(|r| r.field("to") == phone).unwrap().message_id.clone().unwrap();
    let (delivered, failed) = (id_of("+254712111222"), id_of("+254712333444"));

    for status in ["Success", "Failed", "Success", "Rejected", "Buffered"] {
        report(&app, &delivered, status).await;
    }
    for status in ["Failed", "Success", "Failed", "Buffered"] {
        report(&app, &failed, status).await;
    }
    let row = |provider_id: &str| texts(&app).into_iter().find(|r| r.provider_id.as_deref() == Some(provider_id));
    let first = row(&delivered).unwrap();
    assert_eq!(first.delivery, Some(Delivery::Delivered));
    assert_eq!(first.delivery_detail.as_deref(), Some("Success (network 63902)"));
    let second = row(&failed).unwrap();
    assert_eq!(second.delivery, Some(Delivery::Failed));
    assert_eq!(second.delivery_detail.as_deref(), Some("Failed (network 63902)"));
}

/// Posts a delivery report of `status` for `message_id`.
async fn report(app: &TestApp, message_id: &str, status: &str) {
    let form = [("id", message_id), ("status", status), ("phoneNumber", "+254712111222"), ("networkCode", "63902")];
    let path = format!("/hooks/sms/delivery/{SMS_HOOK_SECRET}");
    assert_eq!(app.post_form(&path, &form).await.status(), 200);
}

/// A signed-in owner of `app`.
async fn owner(app: &TestApp) -> SignedIn {
    app.create_staff("wanjiku@example.com", "Tumbo-Ngoma-47-Kazi");
    app.sign_in("wanjiku@example.com", "Tumbo-Ngoma-47-Kazi").await
}

/// The outbox report as `session` reads it.
async fn outbox(app: &TestApp, session: &SignedIn) -> Value {
    let response = app.staff_request(reqwest::Method::GET, "/api/admin/outbox", session, false).send().await.unwrap();
    assert_eq!(response.status(), 200);
    response.json().await.unwrap()
}
