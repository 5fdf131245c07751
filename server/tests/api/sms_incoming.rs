//! Pickup by texting one letter: Africa's Talking's incoming-message callback at
//! `/hooks/sms/incoming/{secret}`, against a mock Africa's Talking on loopback; and the home page,
//! which names the letter and the number only when texts are answered.

use crate::helpers::sms::{incoming_path, orders_of, place, place_delivered, replies, text_in, texting_app, texts};
use crate::helpers::{Backend, SMS_HOOK_SECRET, TestApp, quick_retries, sms_env};
use laundry::domain::{MessageKind, OrderSource, OrderStatus};
use laundry::fakes::FakeAt;
use laundry::models::incoming_text::IncomingText;
use std::time::Duration;

const PHONE: &str = "+254712345678";

async fn the_letter_from_a_known_phone_books_one_pickup_however_often_the_callback_comes(backend: Backend) {
    let mock = FakeAt::start().await;
    let Some(app) = texting_app(backend, &mock).await else { return };
    let first = place_delivered(&app, "0712 345 678").await;

    // The same callback twice at once, then once more.
    let (one, two) = tokio::join!(text_in(&app, "ATXid_in_1", PHONE, "P"), text_in(&app, "ATXid_in_1", PHONE, "P"));
    assert_eq!((one.status().as_u16(), two.status().as_u16()), (200, 200));
    assert_eq!(text_in(&app, "ATXid_in_1", PHONE, "P").await.status(), 200);

    let orders = orders_of(&app, PHONE);
    assert_eq!(orders.len(), 2, "one pickup booked: {orders:#?}");
    let booked = &orders[0];
    assert_eq!(booked.source, OrderSource::Sms);
    assert_eq!(booked.status, OrderStatus::Pending);
    assert_eq!(
        (booked.location.as_str(), booked.service_type.as_str(), booked.quantity),
        ("Kilimani, Argwings Kodhek Rd", "wash-fold", 3)
    );
    assert!(
        booked.special_instructions.contains(&format!("texting P to our number. Estimate as order {first}")),
        "{}",
        booked.special_instructions
    );

    let replies = replies(&app);
    assert_eq!(replies.len(), 1, "one reply: {replies:#?}");
    let reply = replies[0].sms_text().unwrap();
    assert_eq!(replies[0].to_phone.as_deref(), Some(PHONE));
    let token = booked.link_token.clone().unwrap();
    assert!(reply.contains("pickup booked") && reply.contains(&booked.reference), "{reply}");
    assert!(reply.ends_with(&format!("/t/{token}")), "the reply links the new order's page: {reply}");
    let pickup = app.with_db(|c| laundry::models::stop::Stop::for_order(c, &booked.id).unwrap())[0].slot();
    assert!(reply.contains(&pickup.label()), "the reply names the window {}: {reply}", pickup.label());
    // The reply is the only text about the booked order: no second "order received".
    let received = texts(&app).into_iter().filter(|row| row.kind == MessageKind::SmsOrderReceived).count();
    assert_eq!(received, 1, "only the web order's 'order received' text");
    let stored = app.with_db(|c| IncomingText::all(c).unwrap());
    assert_eq!(stored, [("ATXid_in_1".to_owned(), "booked".to_owned(), Some(booked.id.clone()))]);

    // The reply reaches Africa's Talking once.
    let sent = mock.wait_for(2, Duration::from_secs(15)).await;
    app.deliver_outbox().await;
    let to_phone: Vec<_> = mock.texts_to(PHONE).into_iter().filter(|text| text.contains("pickup booked")).collect();
    assert_eq!(to_phone, [reply], "{sent:#?}");
}

async fn a_second_letter_while_the_pickup_is_open_names_it_again_and_books_nothing(backend: Backend) {
    let mock = FakeAt::start().await;
    let Some(app) = texting_app(backend, &mock).await else { return };
    place_delivered(&app, PHONE).await;

    // Lower case and spaces, then a new text (a new id) while that pickup is still to come.
    assert_eq!(text_in(&app, "ATXid_in_1", PHONE, "  p \n").await.status(), 200);
    assert_eq!(text_in(&app, "ATXid_in_2", "0712345678", "P").await.status(), 200);
    let orders = orders_of(&app, PHONE);
    assert_eq!(orders.len(), 2, "one pickup booked by text: {orders:#?}");
    let replies = replies(&app);
    assert_eq!(replies.len(), 2, "each text is answered");
    let token = orders[0].link_token.clone().unwrap();
    for reply in &replies {
        let reply = reply.sms_text().unwrap();
        assert!(reply.contains("pickup booked") && reply.ends_with(&format!("/t/{token}")), "{reply}");
    }
    let outcomes: Vec<_> =
        app.with_db(|c| IncomingText::all(c).unwrap()).into_iter().map(|(_, outcome, _)| outcome).collect();
    assert_eq!(outcomes, ["booked", "booked"]);

    // Once that pickup is cancelled, the letter books a new one.
    app.with_db(|c| {
        crate::helpers::set_status(
            c,
            &orders[0].id,
            OrderStatus::Cancelled,
            "staff",
            &laundry::notify::NotifyCustomer::nobody(),
            app.now(),
        )
        .unwrap()
    });
    assert_eq!(text_in(&app, "ATXid_in_3", PHONE, "P").await.status(), 200);
    assert_eq!(orders_of(&app, PHONE).len(), 3);

    // A pickup booked on the site and still to come is named too: no second visit that evening.
    const OTHER: &str = "+254722000777";
    let web = place(&app, OTHER).await;
    assert_eq!(text_in(&app, "ATXid_in_4", OTHER, "P").await.status(), 200);
    assert_eq!(orders_of(&app, OTHER).len(), 1, "nothing more booked");
    let reply = self::replies(&app).into_iter().find(|row| row.to_phone.as_deref() == Some(OTHER)).unwrap();
    let reply = reply.sms_text().unwrap();
    assert!(reply.contains("pickup booked") && reply.contains(&web), "{reply}");
}

async fn the_letter_from_an_unknown_phone_books_nothing_and_gets_no_reply(backend: Backend) {
    let mock = FakeAt::start().await;
    let Some(app) = texting_app(backend, &mock).await else { return };
    place(&app, PHONE).await;

    assert_eq!(text_in(&app, "ATXid_in_9", "+254722000111", "P").await.status(), 200);
    assert!(orders_of(&app, "+254722000111").is_empty(), "nothing booked");
    // A reply to anyone who texts would be paid for by the shop (SMS pumping): the text waits for
    // staff in the inbox instead (tests in sms_inbox.rs).
    assert!(replies(&app).is_empty(), "no reply to a number without a recent order");
    assert_eq!(app.with_db(|c| IncomingText::all(c).unwrap())[0].1, "unknown");
}

async fn any_other_text_gets_help_and_books_nothing(backend: Backend) {
    let mock = FakeAt::start().await;
    let Some(app) = texting_app(backend, &mock).await else { return };
    place(&app, PHONE).await;

    for (id, words) in [("ATXid_a", "Hello, when do you open?"), ("ATXid_b", "PP"), ("ATXid_c", "")] {
        assert_eq!(text_in(&app, id, PHONE, words).await.status(), 200, "{words:?}");
    }
    assert_eq!(orders_of(&app, PHONE).len(), 1, "nothing booked");
    let replies = replies(&app);
    assert_eq!(replies.len(), 3);
    for reply in replies {
        let reply = reply.sms_text().unwrap();
        assert!(reply.contains("text P to book a pickup"), "{reply}");
    }
}

async fn a_callback_without_the_secret_or_with_bad_fields_is_refused_and_nothing_is_stored(backend: Backend) {
    let mock = FakeAt::start().await;
    let Some(app) = texting_app(backend, &mock).await else { return };
    place_delivered(&app, PHONE).await;
    let fields = [("from", PHONE), ("to", "22384"), ("text", "P"), ("id", "ATXid_in_1")];

    assert_eq!(app.post_form("/hooks/sms/incoming", &fields).await.status(), 403, "no secret");
    assert_eq!(app.post_form("/hooks/sms/incoming/wrong-secret-0123456789abcdef", &fields).await.status(), 403);
    assert_eq!(app.post_form("/hooks/sms/incoming?secret=wrong", &fields).await.status(), 403);
    for (name, value) in [("from", ""), ("from", "+12025550100"), ("id", ""), ("id", "two words"), ("to", "22384 OR 1")]
    {
        let bad: Vec<_> = fields.iter().map(|&(k, v)| if k == name { (k, value) } else { (k, v) }).collect();
        let response = app.post_form(&incoming_path(), &bad).await;
        assert_eq!(response.status(), 400, "{name}={value:?}");
        let body = response.text().await.unwrap();
        assert!(body.contains(name), "the answer names {name}: {body}");
    }
    let long = "x".repeat(2000);
    let too_long: Vec<_> = fields.iter().map(|&(k, v)| if k == "text" { (k, long.as_str()) } else { (k, v) }).collect();
    assert_eq!(app.post_form(&incoming_path(), &too_long).await.status(), 400);
    assert!(app.with_db(|c| IncomingText::all(c).unwrap()).is_empty(), "nothing stored");
    assert_eq!(orders_of(&app, PHONE).len(), 1, "nothing booked");
    assert!(replies(&app).is_empty(), "no reply");

    // The secret in the query works as well as in the path.
    let query = format!("/hooks/sms/incoming?secret={SMS_HOOK_SECRET}");
    assert_eq!(app.post_form(&query, &fields).await.status(), 200);
    assert_eq!(orders_of(&app, PHONE).len(), 2);
}

async fn an_opted_out_number_gets_its_pickup_but_no_reply(backend: Backend) {
    let mock = FakeAt::start().await;
    let Some(app) = texting_app(backend, &mock).await else { return };
    place_delivered(&app, PHONE).await;
    app.with_db(|c| laundry::models::outbox::OptOut::opt_out(c, PHONE, None, app.now()).unwrap());

    assert_eq!(text_in(&app, "ATXid_in_1", PHONE, "P").await.status(), 200);
    assert_eq!(orders_of(&app, PHONE).len(), 2, "booked");
    assert!(replies(&app).is_empty(), "no text to a number that opted out");
}

crate::on_each_backend!(
    the_letter_from_a_known_phone_books_one_pickup_however_often_the_callback_comes,
    a_second_letter_while_the_pickup_is_open_names_it_again_and_books_nothing,
    the_letter_from_an_unknown_phone_books_nothing_and_gets_no_reply,
    any_other_text_gets_help_and_books_nothing,
    a_callback_without_the_secret_or_with_bad_fields_is_refused_and_nothing_is_stored,
    an_opted_out_number_gets_its_pickup_but_no_reply,
);

#[actix_web::test]
async fn the_home_page_names_the_letter_and_the_number_only_when_texts_are_answered() {
    const PROMISE: &str = "A pickup can be requested by texting a single letter to the provider&#x27;s number.";
    let mock = FakeAt::start().await;
    let mut env = sms_env(&mock.url);
    env.push(("LAUNDRY_SMS_PICKUP_LETTER", "u".to_owned()));
    let app = TestApp::builder().env(&env).retries(quick_retries()).start().await;
    let home = app.get("/").await.text().await.unwrap();
    assert!(home.contains(PROMISE), "the spec's line, exactly");
    assert!(home.contains("Text U to 22384"), "the letter and the number");

    // Without a short code (or without the callback's secret) nobody answers the letter.
    for missing in ["AT_SHORTCODE", "LAUNDRY_SMS_HOOK_SECRET"] {
        let env: Vec<_> = sms_env(&mock.url).into_iter().filter(|(name, _)| *name != missing).collect();
        let app = TestApp::builder().env(&env).retries(quick_retries()).start().await;
        let home = app.get("/").await.text().await.unwrap();
        assert!(!home.contains("texting a single letter") && !home.contains("22384"), "without {missing}");
        assert!(home.contains(ETA_PROMISE), "texts are still sent without {missing}");
    }
}

const ETA_PROMISE: &str = "At 5:30pm a text gives a 30-minute ETA window.";
const LINK_PROMISE: &str = "A link to track the valet and the order is sent.";

#[actix_web::test]
async fn the_home_page_promises_the_texts_only_when_they_are_sent() {
    let mock = FakeAt::start().await;
    let app = TestApp::builder().env(&sms_env(&mock.url)).retries(quick_retries()).start().await;
    let home = app.get("/").await.text().await.unwrap();
    assert!(home.contains(ETA_PROMISE) && home.contains(LINK_PROMISE), "the spec's lines, exactly");

    // Without Africa's Talking the texts wait in the outbox: the page does not promise them.
    let app = TestApp::builder().start().await;
    let home = app.get("/").await.text().await.unwrap();
    assert!(!home.contains(ETA_PROMISE) && !home.contains(LINK_PROMISE) && !home.contains("texting a single letter"));
    assert!(home.contains("between 7pm and 10pm"), "{home}");
}
