//! Issue 50: money a careless click or an attacker could turn against the shop, on both backends
//! and, where two requests race, across two instances on one database. Store credit corrected
//! after it was spent is refused with what the phone still holds; a corrected cash entry is the
//! cash of whoever took it, not of whoever corrected it; a handover is at most what its holder
//! still holds that day, and one submitted twice is recorded once; a cancellation and a payment in
//! either order (or at once) give the cancellation's text the same words.

use crate::helpers::mpesa::place;
use crate::helpers::{Backend, SignedIn, TestApp, money, payments, quick_retries, stopped_clock, use_texted_credit};
use laundry::domain::{EntryKind, Method, StaffRole};
use laundry::models::ledger::{Entry, Handover};
use serde_json::{Value, json};

const OWNER: &str = "wanjiru@example.com";
const CLERK: &str = "kamau@example.com";
const VALET: &str = "otieno@example.com";
const PASSWORD: &str = "Kahawa-Chai-Mandazi-22";
const PHONE: &str = "+254712345678";

async fn post(app: &TestApp, session: &SignedIn, path: &str, body: Value) -> reqwest::Response {
    app.staff_request(reqwest::Method::POST, path, session, true).json(&body).send().await.unwrap()
}

async fn cash_up(app: &TestApp, session: &SignedIn) -> Value {
    let path = format!("/api/admin/cash-up?day={}", app.today());
    let response = app.staff_request(reqwest::Method::GET, &path, session, false).send().await.unwrap();
    assert_eq!(response.status(), 200);
    response.json().await.unwrap()
}

/// The holder `who` in a cash-up: what they collected and still hold.
fn held(cash_up: &Value, who: &str) -> Option<(i64, i64)> {
    let holders = cash_up["holders"].as_array().unwrap();
    let holder = holders.iter().find(|h| h["holder"] == who)?;
    Some((holder["collected"].as_i64().unwrap(), holder["stillHeld"].as_i64().unwrap()))
}

/// The id of the newest entry of the order `reference`.
fn newest_entry(app: &TestApp, reference: &str) -> i64 {
    money(app, reference).1.last().unwrap().id
}

/// `who` records KSh 450 cash taken for the order `reference`.
async fn cash_450(app: &TestApp, who: &SignedIn, reference: &str) {
    let paid = format!("/api/admin/orders/{reference}/payment");
    assert_eq!(post(app, who, &paid, json!({"method": "cash", "amount": 450})).await.status(), 200);
}

/// `who` corrects the newest entry of the order `reference`, saying `reason`.
async fn correct_newest(app: &TestApp, who: &SignedIn, reference: &str, reason: &str) {
    let correct = format!("/api/admin/orders/{reference}/entries/{}/correct", newest_entry(app, reference));
    assert_eq!(post(app, who, &correct, json!({"reason": reason})).await.status(), 200);
}

async fn credit_spent_on_another_order_cannot_be_taken_back_by_a_correction(backend: Backend) {
    let app = TestApp::builder().on(backend).retries(quick_retries()).clock(stopped_clock()).start().await;
    let owner = app.sign_in_as(OWNER, PASSWORD, StaffRole::Owner).await;
    let first = place(&app, PHONE, "pay-delivery").await;
    let path = |reference: &str, what: &str| format!("/api/admin/orders/{reference}/{what}");
    let paid = post(&app, &owner, &path(&first, "payment"), json!({"method": "cash", "amount": 850})).await;
    assert_eq!(paid.status(), 200);
    assert_eq!(post(&app, &owner, &path(&first, "credit"), json!({})).await.status(), 200);
    let kept = newest_entry(&app, &first);
    // The phone's next order is paid from the KSh 400 (from the link texted to the phone).
    let second = place(&app, PHONE, "pay-delivery").await;
    assert_eq!(use_texted_credit(&app, &second).await.status(), 303);
    let used = newest_entry(&app, &second);
    assert_eq!(money(&app, &second).0.received(), 400);

    let correct = |reference: &str, entry: i64| format!("/api/admin/orders/{reference}/entries/{entry}/correct");
    let refused = post(&app, &owner, &correct(&first, kept), json!({"reason": "Kept by mistake"})).await;
    assert_eq!(refused.status(), 409);
    let said = refused.json::<Value>().await.unwrap()["error"].as_str().unwrap_or_default().to_owned();
    assert!(said.contains("the phone number holds KSh 0 of it now"), "{said}");
    assert_eq!(money(&app, &first).0.owed_back(), 0, "nothing owed back: the credit stands");
    let cash_back = post(&app, &owner, &path(&first, "refund"), json!({"method": "cash", "amount": 400})).await;
    assert_eq!(cash_back.status(), 422, "no KSh 400 in cash on top of the credit spent");
    assert_eq!(app.with_db(|c| Entry::credit_of(c, PHONE).unwrap()), 0);

    // Undone in the right order, the money is given back once.
    let reason = json!({"reason": "Paid from the wrong credit"});
    assert_eq!(post(&app, &owner, &correct(&second, used), reason).await.status(), 200);
    assert_eq!(app.with_db(|c| Entry::credit_of(c, PHONE).unwrap()), 400);
    let reason = json!({"reason": "The customer wants cash"});
    assert_eq!(post(&app, &owner, &correct(&first, kept), reason).await.status(), 200);
    assert_eq!((money(&app, &first).0.owed_back(), app.with_db(|c| Entry::credit_of(c, PHONE).unwrap())), (400, 0));
    let cash_back = post(&app, &owner, &path(&first, "refund"), json!({"method": "cash", "amount": 400})).await;
    assert_eq!(cash_back.status(), 200);
    let (balance, entries) = money(&app, &first);
    let given_back: i64 = entries
        .iter()
        .filter(|entry| entry.kind == EntryKind::Refund && entry.method.is_some_and(Method::is_money))
        .map(|entry| i64::from(entry.amount))
        .sum();
    assert_eq!((given_back, balance.owed_back()), (400, 0), "KSh 400 over-paid, KSh 400 given back");
}

/// The customer spends kept credit from the link texted to them (on one instance) while the owner
/// corrects the keeping of it (on another, same database), ten times: one of the two wins each
/// time, the phone never holds less than nothing, and no more goes back than was paid over.
async fn credit_kept_is_either_spent_or_taken_back_when_both_come_at_once_to_two_instances(backend: Backend) {
    let app = TestApp::builder().on(backend).retries(quick_retries()).clock(stopped_clock()).start().await;
    let sibling = app.sibling().retries(quick_retries()).start().await;
    let owner = app.sign_in_as(OWNER, PASSWORD, StaffRole::Owner).await;
    let path = |reference: &str, what: &str| format!("/api/admin/orders/{reference}/{what}");
    for round in 0..10 {
        let phone = format!("+2547123400{round:02}");
        let first = place(&app, &phone, "pay-delivery").await;
        let paid = post(&app, &owner, &path(&first, "payment"), json!({"method": "cash", "amount": 850})).await;
        assert_eq!(paid.status(), 200);
        assert_eq!(post(&app, &owner, &path(&first, "credit"), json!({})).await.status(), 200);
        let kept = newest_entry(&app, &first);
        let second = place(&app, &phone, "pay-delivery").await;

        let correct = format!("/api/admin/orders/{first}/entries/{kept}/correct");
        let (corrected, used) = futures::future::join(
            post(&app, &owner, &correct, json!({"reason": "Kept by mistake"})),
            use_texted_credit(&sibling, &second),
        )
        .await;
        let corrected = corrected.status() == 200;
        let spent = money(&app, &second).0.received();
        assert!(corrected != (spent == 400), "round {round}: one of the two, corrected {corrected}, spent {spent}");
        assert_eq!(used.status(), 303, "round {round}: the page answers either way");
        let credit = app.with_db(|c| Entry::credit_of(c, &phone).unwrap());
        assert_eq!(credit, 0, "round {round}: spent or taken back, never both, never below nothing");
        assert_eq!(money(&app, &first).0.owed_back(), if corrected { 400 } else { 0 }, "round {round}");
    }
}

async fn a_corrected_cash_entry_is_the_cash_of_whoever_took_it(backend: Backend) {
    let app = TestApp::builder().on(backend).retries(quick_retries()).clock(stopped_clock()).start().await;
    let owner = app.sign_in_as(OWNER, PASSWORD, StaffRole::Owner).await;
    let clerk = app.sign_in_as(CLERK, PASSWORD, StaffRole::Staff).await;
    // Ten times: the clerk records KSh 450 cash, the owner corrects it.
    for _ in 0..10 {
        let reference = place(&app, PHONE, "pay-delivery").await;
        cash_450(&app, &clerk, &reference).await;
        correct_newest(&app, &owner, &reference, "Not paid yet").await;
    }
    let day = cash_up(&app, &owner).await;
    assert_eq!(held(&day, CLERK), Some((0, 0)), "{day:#}");
    assert_eq!(held(&day, OWNER), None, "the owner took no cash: {day:#}");

    // Cash entered on the wrong order, entered again on the right one, the slip corrected: the
    // clerk hands it in once.
    let wrong = place(&app, "+254712345671", "pay-delivery").await;
    let right = place(&app, "+254712345672", "pay-delivery").await;
    for reference in [&wrong, &right] {
        cash_450(&app, &clerk, reference).await;
    }
    correct_newest(&app, &owner, &wrong, "Wrong order").await;
    let day = cash_up(&app, &owner).await;
    assert_eq!(held(&day, CLERK), Some((450, 450)), "{day:#}");
    assert_eq!(held(&day, OWNER), None, "{day:#}");
}

/// A valet comes back with KSh 450 for an order the valet page did not record; the clerk types it
/// in "taken by" the valet: the valet holds it in the cash-up, not the clerk, and the entry says
/// who typed it. A correction of it takes it off the valet.
async fn cash_a_valet_took_and_staff_typed_in_is_the_valets_to_hand_in(backend: Backend) {
    let app = TestApp::builder().on(backend).retries(quick_retries()).clock(stopped_clock()).start().await;
    let owner = app.sign_in_as(OWNER, PASSWORD, StaffRole::Owner).await;
    let clerk = app.sign_in_as(CLERK, PASSWORD, StaffRole::Staff).await;
    app.create_staff_as(VALET, PASSWORD, StaffRole::Valet);
    app.create_staff_as("gone@example.com", PASSWORD, StaffRole::Valet);
    let now = app.now();
    app.with_db(|c| laundry::models::staff::Staff::set_disabled(c, "gone@example.com", true, now).unwrap());
    let reference = place(&app, PHONE, "pay-delivery").await;
    let paid = format!("/api/admin/orders/{reference}/payment");

    let refusals = [
        (
            json!({"method": "cash", "amount": 450, "takenBy": "nobody@example.com"}),
            "There is no active account nobody@example.com",
        ),
        (
            json!({"method": "cash", "amount": 450, "takenBy": "gone@example.com"}),
            "There is no active account gone@example.com",
        ),
        (json!({"method": "mpesa", "mpesaCode": "QJK3L5X9TZ", "takenBy": VALET}), "Only cash is taken by someone"),
    ];
    for (body, says) in refusals {
        let refused = post(&app, &clerk, &paid, body.clone()).await;
        assert_eq!(refused.status(), 422, "{body}");
        let answer: Value = refused.json().await.unwrap();
        assert!(answer["fields"]["takenBy"].as_str().unwrap_or_default().starts_with(says), "{answer}");
    }
    assert!(payments(&app, &reference).is_empty(), "nothing entered");

    let taken = json!({"method": "cash", "amount": 450, "takenBy": " Otieno@Example.com "});
    assert_eq!(post(&app, &clerk, &paid, taken).await.status(), 200);
    let entry = money(&app, &reference).1.last().unwrap().clone();
    assert_eq!((entry.recorded_by.as_deref(), entry.note.as_str()), (Some(VALET), "Entered by kamau@example.com"));
    let day = cash_up(&app, &owner).await;
    assert_eq!(held(&day, VALET), Some((450, 450)), "{day:#}");
    assert_eq!(held(&day, CLERK), None, "the clerk only typed it: {day:#}");

    correct_newest(&app, &owner, &reference, "Not this order").await;
    let day = cash_up(&app, &owner).await;
    assert_eq!(held(&day, VALET), Some((0, 0)), "{day:#}");
}

async fn a_handover_is_at_most_what_its_holder_holds_and_a_second_submit_is_the_same_one(backend: Backend) {
    let app = TestApp::builder().on(backend).retries(quick_retries()).clock(stopped_clock()).start().await;
    let owner = app.sign_in_as(OWNER, PASSWORD, StaffRole::Owner).await;
    let clerk = app.sign_in_as(CLERK, PASSWORD, StaffRole::Staff).await;
    // A second instance on the same database takes half of the handovers sent at once.
    let sibling = app.sibling().retries(quick_retries()).start().await;
    cash_450(&app, &clerk, &place(&app, PHONE, "pay-delivery").await).await;
    let day = app.today().to_string();
    let handover = |amount: i64| json!({"holder": CLERK, "day": day, "amount": amount});

    let too_much = post(&app, &owner, "/api/admin/cash-up", handover(99_999)).await;
    assert_eq!(too_much.status(), 422);
    let said = too_much.json::<Value>().await.unwrap()["fields"]["amount"].clone();
    assert_eq!(said, format!("{CLERK} holds KSh 450 of this day's cash; a handover cannot be more."));
    let nobody = json!({"holder": "nobody@example.com", "day": day, "amount": 5000});
    let refused = post(&app, &owner, "/api/admin/cash-up", nobody).await;
    assert_eq!(refused.status(), 422);
    let said = refused.json::<Value>().await.unwrap()["fields"]["amount"].clone();
    assert_eq!(said, "nobody@example.com holds none of this day's cash.");

    // Six handovers of KSh 450 at once, each with its own key: one is recorded.
    let keys: Vec<String> = (0..6).map(|n| format!("handover-{n}")).collect();
    let sends = keys.iter().enumerate().map(|(n, key)| {
        let to = if n % 2 == 0 { &app } else { &sibling };
        owner_with_key(to, &owner, key, handover(450))
    });
    let answers = futures::future::join_all(sends).await;
    let statuses: Vec<u16> = answers.into_iter().map(|answer| answer.status().as_u16()).collect();
    assert_eq!(statuses.iter().filter(|&&status| status == 200).count(), 1, "{statuses:?}");
    assert_eq!(statuses.iter().filter(|&&status| status == 422).count(), 5, "{statuses:?}");
    let recorded = app.with_db(|c| Handover::of_day(c, app.today()).unwrap());
    assert_eq!(recorded.iter().map(|h| h.amount).collect::<Vec<_>>(), [450]);
    assert_eq!(held(&cash_up(&app, &owner).await, CLERK), Some((450, 0)));

    // The same key again (a double click, a retry): the same handover, answered as before.
    let key = recorded[0].idempotency_key.clone().unwrap();
    let again = owner_with_key(&sibling, &owner, &key, handover(450)).await;
    assert_eq!(again.status(), 200);
    assert_eq!(app.with_db(|c| Handover::of_day(c, app.today()).unwrap()).len(), 1);
    let other = owner_with_key(&app, &owner, &key, handover(100)).await;
    assert_eq!(other.status(), 409, "one key, another handover");
    let bad_key = owner_with_key(&app, &owner, "not a key", handover(0)).await;
    assert_eq!(bad_key.status(), 400);
}

async fn a_cancellation_racing_a_payment_says_what_goes_back_whichever_comes_first(backend: Backend) {
    let Some((app, _daraja)) = crate::helpers::mpesa::paying_app(backend).await else { return };
    let owner = app.sign_in_as(OWNER, PASSWORD, StaffRole::Owner).await;
    let cancel = json!({"status": "cancelled", "reason": "The customer is travelling"});
    for n in 0..6 {
        let (placed, checkout) = crate::helpers::mpesa::waiting_order(&app, &format!("+2547123456{n:02}")).await;
        let paid = crate::helpers::mpesa::success_callback(&checkout, 450, &format!("QKH94M1Z{n:02}"));
        let status = format!("/api/admin/orders/{}/status", placed.reference);
        let (cancelled, callback) = match n {
            // The payment first, the cancellation first, and both at once.
            0 | 1 => {
                let callback = crate::helpers::mpesa::post_prompt_callback(&app, &paid).await;
                (post(&app, &owner, &status, cancel.clone()).await, callback)
            }
            2 | 3 => {
                let cancelled = post(&app, &owner, &status, cancel.clone()).await;
                (cancelled, crate::helpers::mpesa::post_prompt_callback(&app, &paid).await)
            }
            _ => tokio::join!(
                post(&app, &owner, &status, cancel.clone()),
                crate::helpers::mpesa::post_prompt_callback(&app, &paid)
            ),
        };
        assert_eq!((cancelled.status().as_u16(), callback.status().as_u16()), (200, 200), "order {n}");
        assert_eq!(money(&app, &placed.reference).0.owed_back(), 450, "order {n}");
        let all = app.with_db(|c| laundry::models::outbox::OutboxMessage::all(c).unwrap());
        let words: Vec<String> = all
            .into_iter()
            .filter(|m| {
                m.kind == laundry::domain::MessageKind::SmsCancelled && m.order_id.as_deref() == Some(&placed.id)
            })
            .filter_map(|m| m.sms_text())
            .collect();
        assert_eq!(words.len(), 1, "order {n}: {words:?}");
        assert!(words[0].contains("has been cancelled. We will send back your KSh 450."), "order {n}: {}", words[0]);
    }
}

async fn owner_with_key(app: &TestApp, owner: &SignedIn, key: &str, body: Value) -> reqwest::Response {
    app.staff_request(reqwest::Method::POST, "/api/admin/cash-up", owner, true)
        .header("Idempotency-Key", key)
        .json(&body)
        .send()
        .await
        .unwrap()
}

crate::on_each_backend!(
    credit_spent_on_another_order_cannot_be_taken_back_by_a_correction,
    a_corrected_cash_entry_is_the_cash_of_whoever_took_it,
    a_handover_is_at_most_what_its_holder_holds_and_a_second_submit_is_the_same_one,
    a_cancellation_racing_a_payment_says_what_goes_back_whichever_comes_first,
    cash_a_valet_took_and_staff_typed_in_is_the_valets_to_hand_in,
    credit_kept_is_either_spent_or_taken_back_when_both_come_at_once_to_two_instances,
);
