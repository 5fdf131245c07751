//! Texts to the shop's number that cannot be farmed (issue 28): a reply only to a number with a
//! recent order, a few a day; STOP and START; and the staff inbox where every text waits, with
//! staff's answers by text.

use crate::helpers::sms::{orders_of, place_delivered, replies, text_in};
use crate::helpers::sms::{place, texting_app, texts};
use crate::helpers::{Backend, SignedIn, TestApp};
use diesel::prelude::*;
use laundry::db::schema::orders;
use laundry::domain::{MessageKind, OutboxStatus, StaffRole};
use laundry::fakes::FakeAt;
use laundry::models::outbox::{OptOut, OutboxMessage};
use reqwest::Method;
use serde_json::{Value, json};

const PHONE: &str = "+254712345678";
const PASSWORD: &str = "correct horse battery staple";

async fn inbox(app: &TestApp, session: &SignedIn, query: &str) -> Value {
    let response =
        app.staff_request(Method::GET, &format!("/api/admin/inbox{query}"), session, false).send().await.unwrap();
    assert_eq!(response.status(), 200);
    response.json().await.unwrap()
}

async fn post(app: &TestApp, session: &SignedIn, path: &str, body: &Value) -> reqwest::Response {
    app.staff_request(Method::POST, path, session, true).json(body).send().await.unwrap()
}

fn order_texts_to(app: &TestApp, phone: &str) -> usize {
    texts(app)
        .iter()
        .filter(|row| row.kind == MessageKind::SmsOrderReceived && row.to_phone.as_deref() == Some(phone))
        .count()
}

async fn thirty_texts_from_thirty_unknown_numbers_write_no_reply_and_all_wait_in_the_inbox(backend: Backend) {
    let mock = FakeAt::start().await;
    let Some(app) = texting_app(backend, &mock).await else { return };
    for n in 0..30 {
        let words = if n % 2 == 0 { "P" } else { "Hello, what are your prices?" };
        let response = text_in(&app, &format!("ATXid_flood_{n}"), &format!("+2547220001{n:02}"), words).await;
        assert_eq!(response.status(), 200);
    }
    assert!(replies(&app).is_empty(), "no paid reply to a stranger");
    assert!(texts(&app).is_empty(), "no text of any kind");

    let owner = app.sign_in_as("owner@usafi.example", PASSWORD, StaffRole::Owner).await;
    let page = inbox(&app, &owner, "").await;
    assert_eq!((page["total"].as_i64(), page["unread"].as_i64()), (Some(30), Some(30)), "{page:#}");
    let items = page["items"].as_array().unwrap();
    assert_eq!(items.len(), 20, "a page of 20");
    assert_eq!(items[0]["id"], "ATXid_flood_29", "newest first");
    assert_eq!(items[0]["from"], "+254722000129");
    assert_eq!(items[0]["text"], "Hello, what are your prices?");
    assert!(items.iter().all(|item| item["reply"] == "stranger" && item["status"] == "new"), "{items:#?}");
    assert_eq!(items[1]["outcome"], "unknown", "the letter from a stranger books nothing");
    let second = inbox(&app, &owner, "?page=2").await;
    assert_eq!(second["items"].as_array().unwrap().len(), 10);
    let stats: Value =
        app.staff_request(Method::GET, "/api/admin/stats", &owner, false).send().await.unwrap().json().await.unwrap();
    assert_eq!(stats["unreadTexts"], 30, "the tab's count");
}

async fn a_known_number_gets_at_most_the_daily_cap_of_replies(backend: Backend) {
    let mock = FakeAt::start().await;
    let Some(app) = texting_app(backend, &mock).await else { return };
    place_delivered(&app, PHONE).await;
    for n in 0..12 {
        assert_eq!(text_in(&app, &format!("ATXid_many_{n}"), PHONE, "Are you open today?").await.status(), 200);
    }
    let replies = replies(&app);
    assert_eq!(replies.len(), 3, "LAUNDRY_SMS_REPLIES_PER_DAY's default: {replies:#?}");
    assert!(replies.iter().all(|reply| reply.to_phone.as_deref() == Some(PHONE)));

    let owner = app.sign_in_as("owner@usafi.example", PASSWORD, StaffRole::Owner).await;
    let page = inbox(&app, &owner, "").await;
    let capped = page["items"].as_array().unwrap().iter().filter(|item| item["reply"] == "daily-cap").count();
    assert_eq!((page["total"].as_i64(), capped), (Some(12), 9), "every text is kept; 9 went unanswered");
    let item = &page["items"][0];
    assert_eq!(item["order"]["customerName"], "Amina Wanjiru", "the customer's recent order beside the text");
    assert_eq!(item["order"]["status"], "delivered");
}

async fn a_number_whose_last_order_is_older_than_the_reply_months_gets_no_reply(backend: Backend) {
    let mock = FakeAt::start().await;
    let Some(app) = texting_app(backend, &mock).await else { return };
    place_delivered(&app, PHONE).await;
    // Placed seven months ago (LAUNDRY_SMS_REPLY_MONTHS is 6 by default).
    let long_ago = app.now() - time::Duration::days(7 * 31);
    app.with_db(|c| {
        diesel::update(orders::table.filter(orders::phone.eq(PHONE))).set(orders::created_at.eq(long_ago)).execute(c)
    })
    .unwrap();

    assert_eq!(text_in(&app, "ATXid_old_1", PHONE, "P").await.status(), 200);
    assert_eq!(text_in(&app, "ATXid_old_2", PHONE, "Hello?").await.status(), 200);
    assert!(replies(&app).is_empty(), "no reply");
    assert_eq!(orders_of(&app, PHONE).len(), 1, "the letter books nothing: the address may be old");

    let owner = app.sign_in_as("owner@usafi.example", PASSWORD, StaffRole::Owner).await;
    let page = inbox(&app, &owner, "").await;
    let items = page["items"].as_array().unwrap();
    assert_eq!(items.len(), 2);
    assert!(items.iter().all(|item| item["reply"] == "stranger"), "{items:#?}");
    assert_eq!(items[1]["outcome"], "unknown");
    assert!(items[1]["order"]["reference"].is_string(), "staff see the old order, to call back");
}

async fn stop_opts_the_number_out_and_start_opts_it_back_in(backend: Backend) {
    let mock = FakeAt::start().await;
    let Some(app) = texting_app(backend, &mock).await else { return };
    place_delivered(&app, PHONE).await;
    assert_eq!(order_texts_to(&app, PHONE), 1);

    assert_eq!(text_in(&app, "ATXid_stop", PHONE, " Stop \n").await.status(), 200);
    assert!(app.with_db(|c| OptOut::is_opted_out(c, PHONE).unwrap()), "the order page's switch is off");
    assert!(replies(&app).is_empty(), "nothing is sent after STOP, not even a confirmation");
    place(&app, PHONE).await;
    assert_eq!(order_texts_to(&app, PHONE), 1, "a later order's text is not written");
    // Any other text now gets no reply either.
    assert_eq!(text_in(&app, "ATXid_after", PHONE, "hello").await.status(), 200);
    assert!(replies(&app).is_empty());

    assert_eq!(text_in(&app, "ATXid_start", PHONE, "START").await.status(), 200);
    assert!(!app.with_db(|c| OptOut::is_opted_out(c, PHONE).unwrap()), "texts on again");
    let replies = replies(&app);
    assert_eq!(replies.len(), 1, "START is confirmed");
    assert!(replies[0].sms_text().unwrap().contains("texts about your orders are on again"));
    place(&app, PHONE).await;
    assert_eq!(order_texts_to(&app, PHONE), 2, "the next order's text is written");

    // The bulk-SMS variants, from another known number.
    const OTHER: &str = "+254722000777";
    place(&app, OTHER).await;
    assert_eq!(text_in(&app, "ATXid_stop_all", OTHER, "stop all").await.status(), 200);
    assert!(app.with_db(|c| OptOut::is_opted_out(c, OTHER).unwrap()));

    let owner = app.sign_in_as("owner@usafi.example", PASSWORD, StaffRole::Owner).await;
    let page = inbox(&app, &owner, "").await;
    let outcomes: Vec<_> = page["items"].as_array().unwrap().iter().map(|item| item["outcome"].clone()).collect();
    assert_eq!(outcomes, [json!("stop"), json!("start"), json!("help"), json!("stop")]);
    assert_eq!(page["items"][0]["optedOut"], true);
    let statuses: Vec<_> = page["items"].as_array().unwrap().iter().map(|item| item["status"].clone()).collect();
    assert_eq!(
        statuses,
        [json!("handled"), json!("handled"), json!("new"), json!("handled")],
        "STOP and START need no one"
    );
    assert_eq!(page["items"][3]["reply"], "none");
}

async fn the_inbox_is_for_owners_and_staff_and_valets_get_403(backend: Backend) {
    let mock = FakeAt::start().await;
    let Some(app) = texting_app(backend, &mock).await else { return };
    assert_eq!(text_in(&app, "ATXid_q", "+254722000111", "Do you iron shirts?").await.status(), 200);

    let valet = app.sign_in_as("valet@usafi.example", PASSWORD, StaffRole::Valet).await;
    let refused = app.staff_request(Method::GET, "/api/admin/inbox", &valet, false).send().await.unwrap();
    assert_eq!(refused.status(), 403);
    let refused = post(&app, &valet, "/api/admin/inbox/ATXid_q/answer", &json!({"text": "Yes"})).await;
    assert_eq!(refused.status(), 403);
    assert_eq!(app.get("/api/admin/inbox").await.status(), 401, "nobody signed in");

    let staff = app.sign_in_as("staff@usafi.example", PASSWORD, StaffRole::Staff).await;
    let page = inbox(&app, &staff, "?status=new").await;
    assert_eq!(page["items"][0]["text"], "Do you iron shirts?");
    assert_eq!(page["answerLimit"]["gsmChars"], 459);
    let bad = app.staff_request(Method::GET, "/api/admin/inbox?status=lost", &staff, false).send().await.unwrap();
    assert_eq!(bad.status(), 400);

    // Opened: no longer unread; handled.
    let opened = post(&app, &staff, "/api/admin/inbox/ATXid_q/status", &json!({"status": "read"})).await;
    assert_eq!(opened.status(), 200);
    let opened: Value = opened.json().await.unwrap();
    assert_eq!((opened["text"]["status"].as_str(), opened["unread"].as_i64()), (Some("read"), Some(0)));
    assert_eq!(opened["text"]["statusBy"], "staff@usafi.example");
    let missing = post(&app, &staff, "/api/admin/inbox/ATXid_none/status", &json!({"status": "read"})).await;
    assert_eq!(missing.status(), 404);
}

async fn an_answer_writes_one_text_to_the_number_and_bad_answers_are_refused(backend: Backend) {
    let mock = FakeAt::start().await;
    let Some(app) = texting_app(backend, &mock).await else { return };
    const ASKER: &str = "+254722000111";
    assert_eq!(text_in(&app, "ATXid_q", ASKER, "Do you iron shirts?").await.status(), 200);
    let owner = app.sign_in_as("owner@usafi.example", PASSWORD, StaffRole::Owner).await;
    let answers =
        |app: &TestApp| -> Vec<_> { texts(app).into_iter().filter(|row| row.kind == MessageKind::SmsAnswer).collect() };

    for (body, says) in [
        (json!({"text": "   "}), "cannot be empty"),
        (json!({}), "cannot be empty"),
        (json!({"text": "a".repeat(460)}), "at most 3 texts, that is 459 characters"),
        (json!({"text": format!("{}\u{1F600}", "a".repeat(200))}), "201 characters"),
    ] {
        let response = post(&app, &owner, "/api/admin/inbox/ATXid_q/answer", &body).await;
        assert_eq!(response.status(), 422, "{body}");
        let error: Value = response.json().await.unwrap();
        let field = error["fields"]["text"].as_str().unwrap_or_default();
        assert!(field.contains(says), "{body}: {error:#}");
    }
    let no_csrf = app
        .staff_request(Method::POST, "/api/admin/inbox/ATXid_q/answer", &owner, false)
        .json(&json!({"text": "Yes"}))
        .send()
        .await
        .unwrap();
    assert_eq!(no_csrf.status(), 403);
    assert!(answers(&app).is_empty(), "nothing written");

    let words = "Yes, shirts are ironed at KSh 50 each. Text P after your first order to book.";
    let response =
        post(&app, &owner, "/api/admin/inbox/ATXid_q/answer", &json!({"text": format!("  {words}\n")})).await;
    assert_eq!(response.status(), 200);
    let changed: Value = response.json().await.unwrap();
    assert_eq!(changed["text"]["status"], "handled");
    assert_eq!(changed["text"]["answers"][0]["text"], words);
    assert_eq!(changed["text"]["answers"][0]["by"], "owner@usafi.example");
    assert_eq!(changed["text"]["answers"][0]["sending"], "pending");
    let written = answers(&app);
    assert_eq!(written.len(), 1, "one text");
    assert_eq!(written[0].to_phone.as_deref(), Some(ASKER));
    assert_eq!(written[0].sms_text().as_deref(), Some(words));
    let sent = mock.wait_for(1, std::time::Duration::from_secs(15)).await;
    assert_eq!(mock.texts_to(ASKER), [words.to_owned()], "{sent:#?}");
    // The worker records the answer sent just after the API took it.
    let is_sent = |row: &OutboxMessage| row.kind == MessageKind::SmsAnswer && row.status == OutboxStatus::Sent;
    crate::helpers::until("the answer marked sent", || texts(&app).into_iter().find(is_sent)).await;
    assert!(replies(&app).is_empty(), "the automatic reply is still not written");

    // A number that opted out is not answered by text.
    assert_eq!(text_in(&app, "ATXid_stop", ASKER, "STOP").await.status(), 200);
    let refused = post(&app, &owner, "/api/admin/inbox/ATXid_q/answer", &json!({"text": "One more thing"})).await;
    assert_eq!(refused.status(), 422);
    let error: Value = refused.json().await.unwrap();
    assert!(error["error"].as_str().unwrap().contains("opted out"), "{error:#}");
    assert_eq!(answers(&app).len(), 1, "nothing more written");
    let missing = post(&app, &owner, "/api/admin/inbox/ATXid_none/answer", &json!({"text": "Hi"})).await;
    assert_eq!(missing.status(), 404);
}

crate::on_each_backend!(
    thirty_texts_from_thirty_unknown_numbers_write_no_reply_and_all_wait_in_the_inbox,
    a_known_number_gets_at_most_the_daily_cap_of_replies,
    a_number_whose_last_order_is_older_than_the_reply_months_gets_no_reply,
    stop_opts_the_number_out_and_start_opts_it_back_in,
    the_inbox_is_for_owners_and_staff_and_valets_get_403,
    an_answer_writes_one_text_to_the_number_and_bad_answers_are_refused,
);
