//! Issue 50: a phone's store credit pays an order only where the phone's owner shows the credit is
//! theirs. An order placed on the web names a number anyone could type: it is not paid from the
//! credit; its text, which goes to that phone, carries the link that offers the credit, and only
//! that link's key uses it (the order's page shown to whoever placed the order does not). A staff
//! member's phone booking uses it at once, as before.

use crate::helpers::orders::an_order;
use crate::helpers::{
    Backend, SignedIn, TestApp, money, order_token, quick_retries, stopped_clock, texted_credit_key, use_texted_credit,
};
use laundry::domain::{Method, StaffRole};
use laundry::models::ledger::Entry;
use serde_json::{Value, json};

const OWNER: &str = "wanjiru@example.com";
const PASSWORD: &str = "Kahawa-Chai-Mandazi-22";
const PHONE: &str = "+254712345678";

async fn post(app: &TestApp, session: &SignedIn, path: &str, body: Value) -> reqwest::Response {
    app.staff_request(reqwest::Method::POST, path, session, true).json(&body).send().await.unwrap()
}

/// An app whose phone `PHONE` holds KSh 400 of store credit: an order of KSh 450 paid KSh 850
/// cash, the rest kept as credit by staff.
async fn with_credit(app: &TestApp) -> SignedIn {
    let owner = app.sign_in_as(OWNER, PASSWORD, StaffRole::Owner).await;
    let first = an_order().phone(PHONE).place(app).await.reference;
    let path = |what: &str| format!("/api/admin/orders/{first}/{what}");
    assert_eq!(post(app, &owner, &path("payment"), json!({"method": "cash", "amount": 850})).await.status(), 200);
    assert_eq!(post(app, &owner, &path("credit"), json!({})).await.status(), 200);
    assert_eq!(app.with_db(|c| Entry::credit_of(c, PHONE).unwrap()), 400);
    owner
}

fn location(response: &reqwest::Response) -> String {
    response.headers()["location"].to_str().unwrap().to_owned()
}

async fn a_web_order_is_paid_from_the_phones_credit_only_from_the_link_texted_to_it(backend: Backend) {
    let app = TestApp::builder().on(backend).retries(quick_retries()).clock(stopped_clock()).start().await;
    with_credit(&app).await;

    // Anyone who types the number: the order is not paid from the credit.
    let second = an_order().phone("0712 345 678").place(&app).await.reference;
    assert_eq!(money(&app, &second).0.received(), 0, "typing a number spends nobody's credit");
    assert_eq!(app.with_db(|c| Entry::credit_of(c, PHONE).unwrap()), 400);
    let token = order_token(&app, &second);

    // The page shown to whoever placed it offers no credit, and its form without the key, or
    // with another, uses none.
    let page = app.get(&format!("/t/{token}")).await.text().await.unwrap();
    assert!(!page.contains("of store credit"), "no offer without the texted link");
    for key in ["", "k7mx2qpd0a1b2c3d", "../../x"] {
        let refused = app.post_form(&format!("/t/{token}/use-credit"), &[("key", key)]).await;
        assert_eq!(refused.status(), 303);
        assert_eq!(location(&refused), format!("/t/{token}?refused=not-the-texted-link"), "key {key:?}");
    }
    let refused = app.get(&format!("/t/{token}?refused=not-the-texted-link")).await.text().await.unwrap();
    let words = "Store credit is used only from the link in the text we sent to the order";
    assert!(refused.contains(words), "the reason where the form would be");
    assert_eq!(money(&app, &second).0.received(), 0);

    // The text to the phone says so and carries the key.
    let key = texted_credit_key(&app, &second).expect("the text offers the credit");
    let texts = app.with_db(|c| laundry::models::outbox::OutboxMessage::all(c).unwrap());
    let text = texts.iter().filter_map(laundry::models::outbox::OutboxMessage::sms_text).find(|t| t.contains(&key));
    let text = text.unwrap();
    assert!(text.contains("Your credit can pay KSh 400 of it: open the link to use it."), "{text}");
    assert!(text.ends_with(&format!("/t/{token}?credit={key}")), "{text}");

    // The page opened from that link offers it; its form uses it, once.
    let offered = app.get(&format!("/t/{token}?credit={key}")).await.text().await.unwrap();
    assert!(
        offered.contains("This phone number holds KSh 400 of store credit. It can pay KSh 400 of this"),
        "{offered}"
    );
    let used = use_texted_credit(&app, &second).await;
    assert_eq!((used.status().as_u16(), location(&used)), (303, format!("/t/{token}?done=credit-used")));
    let (balance, entries) = money(&app, &second);
    assert_eq!((balance.received(), balance.to_pay()), (400, 50));
    let paid = entries.last().unwrap();
    assert_eq!((paid.method, paid.amount), (Some(Method::Credit), 400));
    assert_eq!(app.with_db(|c| Entry::credit_of(c, PHONE).unwrap()), 0);
    let again = use_texted_credit(&app, &second).await;
    assert_eq!(location(&again), format!("/t/{token}?refused=no-credit"));
    assert_eq!(money(&app, &second).0.received(), 400, "used once");

    // The key is this order's: another order of the phone does not take it.
    let third = an_order().phone(PHONE).place(&app).await.reference;
    assert_eq!(texted_credit_key(&app, &third), None, "no credit left to offer");
    let third_token = order_token(&app, &third);
    let other = app.post_form(&format!("/t/{third_token}/use-credit"), &[("key", &key)]).await;
    assert_eq!(location(&other), format!("/t/{third_token}?refused=not-the-texted-link"));
}

async fn a_phone_booking_by_staff_is_paid_from_the_credit_at_once(backend: Backend) {
    let app = TestApp::builder().on(backend).retries(quick_retries()).clock(stopped_clock()).start().await;
    let owner = with_credit(&app).await;
    let booking = json!({
        "customerName": "Amina Wanjiru", "phone": "0712 345 678", "location": "Kilimani, Argwings Kodhek Rd",
        "serviceType": "wash-fold", "quantity": 3, "paymentMethod": "pay-delivery", "source": "phone", "confirmSlot": false
    });
    let booked = post(&app, &owner, "/api/admin/orders", booking).await;
    assert_eq!(booked.status(), 201, "{}", booked.text().await.unwrap());
    let reference = booked.json::<Value>().await.unwrap()["id"].as_str().unwrap().to_owned();
    assert_eq!(money(&app, &reference).0.received(), 400, "the caller is the phone's owner");
    assert_eq!(texted_credit_key(&app, &reference), None);
}

crate::on_each_backend!(
    a_web_order_is_paid_from_the_phones_credit_only_from_the_link_texted_to_it,
    a_phone_booking_by_staff_is_paid_from_the_credit_at_once,
);
