//! Texts through the outbox, against a mock Africa's Talking on loopback: the exact request of a
//! text, and the delivery report that marks it; each class of answer (a recipient refused, no
//! credit, 5xx, a time-out, 401, 429 with Retry-After), the texts' pace apart from the e-mails',
//! two instances on one PostgreSQL, a text reported not delivered and sent again by staff, and a
//! text to a number that opted out after it was written.

use crate::helpers::sms::{place, texting_app, texts, until_texts};
use crate::helpers::{
    ARRIVAL_NOISE, Backend, SMS_HOOK_SECRET, SignedIn, TestApp, mail_env, postgres_url, quick_retries, sms_env,
};
use laundry::domain::{Delivery, OutboxStatus};
use laundry::fakes::FakeMail;
use laundry::fakes::{AtReply, FakeAt};
use laundry::models::outbox::{OptOut, OutboxMessage};
use serde_json::{Value, json};
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(15);

async fn an_order_texts_the_customer_and_the_delivery_report_marks_it(backend: Backend) {
    let mock = FakeAt::start().await;
    let Some(app) = texting_app(backend, &mock).await else { return };
    let id = place(&app, "0712 345 678").await;

    let received = mock.wait_for(1, WAIT).await;
    let request = &received[0];
    assert_eq!(request.headers.get("apikey").map(String::as_str), Some(laundry::fakes::AT_API_KEY));
    assert_eq!(request.headers.get("accept").map(String::as_str), Some("application/json"));
    assert!(request.headers["content-type"].starts_with("application/x-www-form-urlencoded"));
    let mut fields: Vec<&str> = request.form.keys().map(String::as_str).collect();
    fields.sort_unstable();
    assert_eq!(fields, ["from", "message", "to", "username"]);
    assert_eq!(request.field("username"), laundry::fakes::AT_USERNAME);
    assert_eq!(request.field("from"), "USAFI");
    assert_eq!(request.field("to"), "+254712345678");
    let text = request.field("message");
    assert!(text.contains(&format!("order {id} received")), "{text}");
    assert!(text.contains("/t/"), "the text carries the order's link: {text}");

    let rows = until_texts(&app, "sent", |row| row.status == OutboxStatus::Sent).await;
    assert_eq!(rows[0].provider_id, request.message_id, "the messageId is kept for the reports");

    let report = [
        ("id", request.message_id.clone().unwrap()),
        ("status", "Success".to_owned()),
        ("phoneNumber", "+254712345678".to_owned()),
        ("networkCode", "63902".to_owned()),
        ("failureReason", String::new()),
    ];
    let report: Vec<(&str, &str)> = report.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let path = format!("/hooks/sms/delivery/{SMS_HOOK_SECRET}");
    assert_eq!(app.post_form("/hooks/sms/delivery", &report).await.status(), 403, "no secret, no report");
    assert_eq!(texts(&app)[0].delivery, None);
    assert_eq!(app.post_form(&path, &report).await.status(), 200);
    assert_eq!(texts(&app)[0].delivery, Some(Delivery::Delivered));
    // A late "Buffered" does not undo it; the same report again changes nothing.
    let late: Vec<(&str, &str)> =
        report.iter().map(|&(k, v)| if k == "status" { (k, "Buffered") } else { (k, v) }).collect();
    assert_eq!(app.post_form(&path, &late).await.status(), 200);
    assert_eq!(app.post_form(&path, &report).await.status(), 200);
    let row = &texts(&app)[0];
    assert_eq!(row.delivery, Some(Delivery::Delivered));
    assert_eq!(row.delivery_detail.as_deref(), Some("Success (network 63902)"));
}

crate::on_each_backend!(
    an_order_texts_the_customer_and_the_delivery_report_marks_it,
    an_invalid_phone_number_fails_the_text_at_once,
    no_credit_blocks_the_texts_and_staff_see_it,
    server_errors_and_timeouts_are_retried_until_the_text_is_sent,
    an_unauthorised_key_blocks_the_texts_retried_slowly_and_shown_to_staff,
    too_many_requests_waits_as_long_as_retry_after_says,
    a_text_held_back_by_the_sms_api_does_not_hold_back_the_emails,
    a_text_reported_not_delivered_is_shown_to_staff_and_sent_again,
    a_text_to_a_number_that_opted_out_after_it_was_written_is_skipped,
    a_text_about_a_moment_that_has_passed_is_skipped_not_sent_late,
);

/// A text about a moment (the 5:30pm ETA, "on my way") that could not go out in time (the account
/// out of credit until the morning, say) is skipped as too late; one still in time is sent.
async fn a_text_about_a_moment_that_has_passed_is_skipped_not_sent_late(backend: Backend) {
    use laundry::domain::MessageKind;
    let mock = FakeAt::start().await;
    let Some(app) = texting_app(backend, &mock).await else { return };
    let now = app.now();
    let late =
        OutboxMessage::sms(MessageKind::SmsEta, None, "+254712000001", "comes tonight at 19:15-19:45", None, now)
            .until(now - time::Duration::minutes(1));
    let in_time =
        OutboxMessage::sms(MessageKind::SmsEta, None, "+254712000002", "comes tonight at 19:15-19:45", None, now)
            .until(now + time::Duration::hours(1));
    app.with_db(|c| {
        OutboxMessage::enqueue_sms(c, &late, &laundry::domain::SmsLimits::default()).unwrap();
        OutboxMessage::enqueue_sms(c, &in_time, &laundry::domain::SmsLimits::default()).unwrap();
    });
    app.state.wake_outbox();
    let rows = until_texts(&app, "sent or skipped", |row| row.status != OutboxStatus::Pending).await;
    let late_row = rows.iter().find(|row| row.id == late.id).unwrap();
    assert_eq!(late_row.status, OutboxStatus::Skipped);
    assert!(late_row.last_error.as_deref().unwrap().contains("too late"), "{late_row:?}");
    assert_eq!(rows.iter().find(|row| row.id == in_time.id).unwrap().status, OutboxStatus::Sent);
    assert_eq!(mock.texts_to("+254712000002").len(), 1);
    assert!(mock.texts_to("+254712000001").is_empty(), "nothing late reaches the customer");
}

// What each of Africa's Talking's answers does to a text, what staff see of it, and sending it again.

/// A signed-in owner of `app`.
async fn staff(app: &TestApp) -> SignedIn {
    app.create_staff("wanjiku@example.com", "Tumbo-Ngoma-47-Kazi");
    app.sign_in("wanjiku@example.com", "Tumbo-Ngoma-47-Kazi").await
}

/// The outbox report the dashboard reads.
async fn outbox_report(app: &TestApp, session: &SignedIn) -> Value {
    let response = app.staff_request(reqwest::Method::GET, "/api/admin/outbox", session, false).send().await.unwrap();
    assert_eq!(response.status(), 200);
    response.json().await.unwrap()
}

/// Staff press 'Send again' on `id`.
async fn send_again(app: &TestApp, session: &SignedIn, id: &str) -> reqwest::Response {
    let path = format!("/api/admin/outbox/{id}/resend");
    app.staff_request(reqwest::Method::POST, &path, session, true).json(&json!({})).send().await.unwrap()
}

/// How long until `row` is tried again, by the clock of `app`'s database (the outbox's).
fn retried_in(app: &TestApp, row: &OutboxMessage) -> time::Duration {
    row.next_attempt_at - app.database_now()
}

/// Posts a delivery report for `message_id` with `status` and `reason`.
async fn report_delivery(app: &TestApp, message_id: &str, status: &str, reason: &str) {
    let report = [
        ("id", message_id),
        ("status", status),
        ("phoneNumber", "+254712345678"),
        ("networkCode", "63902"),
        ("failureReason", reason),
    ];
    let path = format!("/hooks/sms/delivery/{SMS_HOOK_SECRET}");
    assert_eq!(app.post_form(&path, &report).await.status(), 200);
}

async fn an_invalid_phone_number_fails_the_text_at_once(backend: Backend) {
    let mock = FakeAt::start().await;
    mock.script(&[AtReply::Recipient(403)]);
    let Some(app) = texting_app(backend, &mock).await else { return };
    place(&app, "0712 345 678").await;

    let rows = until_texts(&app, "failed", |row| row.status == OutboxStatus::Failed).await;

    assert_eq!(rows[0].attempts, 1, "an invalid number is not tried again");
    let error = rows[0].last_error.as_deref().unwrap();
    assert!(error.contains("403 InvalidPhoneNumber"), "{error}");
    assert_eq!(rows[0].provider_id, None);
    app.deliver_outbox().await;
    assert_eq!(mock.received().len(), 1);
}

async fn no_credit_blocks_the_texts_and_staff_see_it(backend: Backend) {
    let mock = FakeAt::start().await;
    mock.script(&[AtReply::Recipient(405)]);
    let Some(app) = texting_app(backend, &mock).await else { return };
    let order_id = place(&app, "0712 345 678").await;

    let rows = until_texts(&app, "blocked", |row| row.status == OutboxStatus::Blocked).await;

    let error = rows[0].last_error.as_deref().unwrap();
    assert!(error.contains("405 InsufficientBalance") && error.contains("blocked"), "{error}");
    assert!(
        retried_in(&app, &rows[0]) > time::Duration::seconds(50),
        "retried slowly ({})",
        retried_in(&app, &rows[0])
    );
    let report = outbox_report(&app, &staff(&app).await).await;
    assert_eq!((report["sms"]["blocked"].as_i64(), report["email"]["blocked"].as_i64()), (Some(1), Some(0)));
    assert_eq!(report["problems"][0]["orderId"], order_id.as_str());
    assert_eq!(report["problems"][0]["to"], "+254712345678");
}

async fn server_errors_and_timeouts_are_retried_until_the_text_is_sent(backend: Backend) {
    let mock = FakeAt::start().await;
    // Longer than quick_retries().request_timeout (2 s): the worker gives up waiting.
    mock.script(&[AtReply::Status(503), AtReply::Hang(Duration::from_secs(4))]);
    let Some(app) = texting_app(backend, &mock).await else { return };
    place(&app, "0712 345 678").await;

    let rows = until_texts(&app, "sent", |row| row.status == OutboxStatus::Sent).await;

    assert_eq!(rows[0].attempts, 3, "the 503, the time-out, and the one that was sent");
    let received = mock.received();
    assert_eq!(received.len(), 3);
    assert!(received.iter().all(|r| r.field("message") == received[0].field("message")), "the same text each time");
    assert_eq!(rows[0].provider_id, received[2].message_id, "the id of the answer the worker read");
    assert_eq!(rows[0].last_error.as_deref().map(|e| e.contains("no answer within")), Some(true), "{rows:?}");
}

async fn an_unauthorised_key_blocks_the_texts_retried_slowly_and_shown_to_staff(backend: Backend) {
    let mock = FakeAt::start().await;
    mock.script(&[AtReply::Status(401)]);
    let Some(app) = texting_app(backend, &mock).await else { return };
    let order_id = place(&app, "0712 345 678").await;

    let rows = until_texts(&app, "blocked", |row| row.status == OutboxStatus::Blocked).await;

    assert!(rows[0].last_error.as_deref().unwrap().contains("401"), "{:?}", rows[0].last_error);
    assert!(
        retried_in(&app, &rows[0]) > time::Duration::seconds(50),
        "retried slowly ({})",
        retried_in(&app, &rows[0])
    );
    let session = staff(&app).await;
    let report = outbox_report(&app, &session).await;
    let sms = &report["sms"];
    assert_eq!((sms["configured"].as_bool(), sms["blocked"].as_i64()), (Some(true), Some(1)), "{report}");
    assert!(sms["lastError"].as_str().unwrap().contains("401"), "{report}");
    let problem = &report["problems"][0];
    assert_eq!((problem["channel"].as_str(), problem["status"].as_str()), (Some("sms"), Some("blocked")));
    assert_eq!(
        (problem["orderId"].as_str(), problem["kind"].as_str()),
        (Some(order_id.as_str()), Some("sms-order-received"))
    );
    assert!(!report.to_string().contains(laundry::fakes::AT_API_KEY), "the API key never reaches staff");
    let page = app.get_with("/admin", &[("cookie", &session.cookie)]).await.text().await.unwrap();
    assert!(
        page.contains("sms-order-received") && !page.contains(laundry::fakes::AT_API_KEY),
        "the dashboard carries it"
    );

    // Once the key is fixed, staff send it again without waiting half an hour.
    assert_eq!(send_again(&app, &session, &rows[0].id).await.status(), 200);
    until_texts(&app, "sent", |row| row.status == OutboxStatus::Sent).await;
    assert_eq!(mock.received().len(), 2);
}

async fn too_many_requests_waits_as_long_as_retry_after_says(backend: Backend) {
    let mock = FakeAt::start().await;
    mock.script(&[AtReply::TooMany(3)]);
    let Some(app) = texting_app(backend, &mock).await else { return };
    place(&app, "0712 345 678").await;
    place(&app, "0722 000 111").await;

    let received = mock.wait_for(3, WAIT).await;

    let waited = received[1].at.duration_since(received[0].at);
    assert!(waited >= Duration::from_secs(3) - ARRIVAL_NOISE, "Retry-After: 3 was honoured by every text ({waited:?})");
    let rows = until_texts(&app, "sent", |row| row.status == OutboxStatus::Sent).await;
    assert_eq!(rows.len(), 2);
    assert_eq!(mock.texts_to("+254712345678").len() + mock.texts_to("+254722000111").len(), 3);
    for pair in received.windows(2) {
        let gap = pair[1].at.duration_since(pair[0].at);
        assert!(
            gap >= Duration::from_millis(200) - ARRIVAL_NOISE / 3,
            "texts keep their pace of five a second: {gap:?}"
        );
    }
}

async fn a_text_held_back_by_the_sms_api_does_not_hold_back_the_emails(backend: Backend) {
    let (texts_api, mail_api) = (FakeAt::start().await, FakeMail::start().await);
    texts_api.script(&[AtReply::TooMany(6)]);
    let mut env = sms_env(&texts_api.url);
    env.extend(mail_env(&mail_api.url, false));
    let app = TestApp::builder().on(backend).env(&env).retries(quick_retries()).start().await;
    let body = json!({
        "customerName": "Amina Wanjiru", "phone": "0712 345 678", "email": "amina@example.com",
        "location": "Kilimani, Argwings Kodhek Rd", "serviceType": "wash-fold", "quantity": 3,
        "paymentMethod": "pay-delivery", "specialInstructions": ""
    });
    assert_eq!(app.post_json("/api/orders", &body, &[]).await.status(), 201);

    let held = texts_api.wait_for(1, WAIT).await[0].at;
    let emails = mail_api.wait_for(2, WAIT).await;

    // The e-mails keep their own pace (one a second); the SMS API's 429 holds only the texts.
    assert!(emails[1].at < held + Duration::from_secs(4), "the e-mails waited for the texts' Retry-After");
    assert_eq!(texts_api.received().len(), 1, "the text waits out its Retry-After");
    let second = texts_api.wait_for(2, WAIT).await[1].at;
    assert!(second.duration_since(held) >= Duration::from_secs(6) - ARRIVAL_NOISE, "{:?}", second.duration_since(held));
    until_texts(&app, "sent", |row| row.status == OutboxStatus::Sent).await;
}

async fn a_text_reported_not_delivered_is_shown_to_staff_and_sent_again(backend: Backend) {
    let mock = FakeAt::start().await;
    let Some(app) = texting_app(backend, &mock).await else { return };
    let order_id = place(&app, "0712 345 678").await;
    let rows = until_texts(&app, "sent", |row| row.status == OutboxStatus::Sent).await;
    let first_id = rows[0].provider_id.clone().unwrap();
    let session = staff(&app).await;
    assert_eq!(outbox_report(&app, &session).await["problems"], json!([]), "a sent text needs no look");

    report_delivery(&app, &first_id, "Failed", "DeliveryFailure").await;

    let report = outbox_report(&app, &session).await;
    assert_eq!((report["sms"]["sent"].as_i64(), report["sms"]["undelivered"].as_i64()), (Some(1), Some(1)));
    assert_eq!(report["sms"]["lastError"], "Not delivered: Failed (network 63902): DeliveryFailure");
    let problem = &report["problems"][0];
    assert_eq!(problem["id"], rows[0].id.as_str());
    assert_eq!((problem["status"].as_str(), problem["delivery"].as_str()), (Some("sent"), Some("failed")));
    assert_eq!(problem["deliveryDetail"], "Failed (network 63902): DeliveryFailure");
    assert_eq!(problem["orderId"], order_id.as_str());
    let detail: Value = app
        .staff_request(reqwest::Method::GET, &format!("/api/admin/orders/{order_id}"), &session, false)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let text = detail["messages"].as_array().unwrap().iter().find(|m| m["channel"] == "sms").unwrap();
    assert_eq!((text["to"].as_str(), text["delivery"].as_str()), (Some("+254712345678"), Some("failed")));

    let resent = send_again(&app, &session, &rows[0].id).await;
    assert_eq!(resent.status(), 200);
    let resent: Value = resent.json().await.unwrap();
    assert_eq!((resent["message"]["status"].as_str(), resent["message"]["delivery"].as_str()), (Some("pending"), None));
    let received = mock.wait_for(2, WAIT).await;
    assert_eq!(received[1].field("message"), received[0].field("message"), "the same text");
    let rows = until_texts(&app, "sent", |row| row.status == OutboxStatus::Sent).await;
    assert_eq!((rows[0].delivery, rows[0].delivery_detail.as_deref()), (None, None), "the old report is forgotten");
    assert_eq!(rows[0].provider_id, received[1].message_id, "the new messageId, for the new reports");
    assert_eq!(outbox_report(&app, &session).await["problems"], json!([]));
    // A late report about the first sending does not mark the new one.
    report_delivery(&app, &first_id, "Failed", "DeliveryFailure").await;
    assert_eq!(texts(&app)[0].delivery, None);
    // A sent text that was delivered cannot be sent again.
    report_delivery(&app, rows[0].provider_id.as_deref().unwrap(), "Success", "").await;
    assert_eq!(send_again(&app, &session, &rows[0].id).await.status(), 404);
}

async fn a_text_to_a_number_that_opted_out_after_it_was_written_is_skipped(backend: Backend) {
    // Without SMS settings the order's text waits; the customer opts out before it goes.
    let quiet = TestApp::builder().on(backend).start().await;
    place(&quiet, "0712 345 678").await;
    quiet.with_db(|c| OptOut::opt_out(c, "+254712345678", None, quiet.now()).unwrap());
    let mock = FakeAt::start().await;
    let app = quiet.sibling().env(&sms_env(&mock.url)).retries(quick_retries()).start().await;
    place(&app, "0722 000 111").await;

    mock.wait_for(1, WAIT).await;
    let rows = until_texts(&app, "settled", |row| row.status != OutboxStatus::Pending).await;

    let skipped: Vec<_> = rows.iter().filter(|row| row.status == OutboxStatus::Skipped).collect();
    assert_eq!(skipped.len(), 1, "{rows:#?}");
    assert_eq!(skipped[0].to_phone.as_deref(), Some("+254712345678"));
    assert_eq!(skipped[0].last_error.as_deref(), Some("the customer opted out of texts"));
    assert_eq!(mock.texts_to("+254712345678"), Vec::<String>::new());
    assert_eq!(mock.texts_to("+254722000111").len(), 1, "other numbers still get theirs");

    // Every later text to that number is not even written.
    place(&app, "0712 345 678").await;
    app.deliver_outbox().await;
    assert_eq!(texts(&app).len(), 2);
    assert_eq!(mock.texts_to("+254712345678"), Vec::<String>::new());
    let report = outbox_report(&app, &staff(&app).await).await;
    assert_eq!((report["sms"]["skipped"].as_i64(), report["sms"]["sent"].as_i64()), (Some(1), Some(1)));
    assert_eq!(report["problems"], json!([]), "an opt-out is the customer's wish, not a problem");
}

#[actix_web::test]
async fn two_instances_on_one_postgresql_send_each_text_once() {
    if postgres_url().is_none() {
        eprintln!("TEST_DATABASE_URL is not set: this PostgreSQL test is skipped");
        return;
    }
    let mock = FakeAt::start().await;
    let env = sms_env(&mock.url);
    let first = TestApp::builder().on(Backend::Postgres).env(&env).retries(quick_retries()).start().await;
    let second = first.sibling().env(&env).retries(quick_retries()).start().await;
    let mut placed = Vec::new();
    for n in 0..6 {
        placed.push(place(if n % 2 == 0 { &first } else { &second }, &format!("0712 000 00{n}")).await);
    }

    mock.wait_for(6, Duration::from_secs(30)).await;
    until_texts(&first, "sent", |row| row.status == OutboxStatus::Sent).await;
    // A round of each instance's worker more: neither sends anything again.
    assert_eq!(first.deliver_outbox().await + second.deliver_outbox().await, 0);

    let received = mock.received();
    assert_eq!(received.len(), 6, "each text once");
    for (n, order_id) in placed.iter().enumerate() {
        let to = format!("+25471200000{n}");
        let texts = mock.texts_to(&to);
        assert_eq!(texts.len(), 1, "{to}");
        assert!(texts[0].contains(&format!("order {order_id} received")), "{}", texts[0]);
    }
}
