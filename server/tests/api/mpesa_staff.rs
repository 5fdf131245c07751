//! M-PESA as staff and valets meet it, on both backends, against the mock Daraja: the payments to
//! check (unmatched till payments with masked numbers, searched by phone, code or amount; matched
//! to an order by staff, once; a code entered on another order flagged until checked; any other
//! amount counted against its order), the unpaid filter, the day's takings by method, the staff's "Send M-PESA prompt", and the valet's at the door.

use crate::helpers::mpesa::{order, paying_app, place_pay_now, post_prompt_callback, sent_prompt, success_callback};
use crate::helpers::orders::{Placed, an_order, put_in_run};
use crate::helpers::staff::{STAFF, get, post, staff, valet};
use crate::helpers::valet_post;
use crate::helpers::{Backend, SignedIn, TestApp, is_paid, money, payments, set_cookie};
use laundry::clock::{Clock, stored};
use laundry::domain::schedule::nairobi_day;
use laundry::domain::{ReceiptSource, Settlement, StaffRole, StopKind};
use laundry::lifecycle::payment::StaffPayment;
use laundry::models::mpesa::{ReceivedPayment, Recorded};
use laundry::notify::NotifyCustomer;
use reqwest::Method;
use serde_json::{Value, json};
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(10);

/// A till payment as M-PESA confirms it: `code`, `amount`, a masked number, an account reference.
fn till_payment(code: &str, amount: i32, phone: &str, bill_ref: Option<&str>) -> ReceivedPayment {
    ReceivedPayment {
        receipt: code.to_owned(),
        source: ReceiptSource::Till,
        amount,
        phone: Some(phone.to_owned()),
        payer_name: Some("AMINA".to_owned()),
        bill_ref: bill_ref.map(str::to_owned),
        paid_at: Some(Clock::system().utc()),
        raw: "{}".to_owned(),
    }
}

/// Records `payment` as the till's confirmation would, received at `at`.
fn receive(app: &TestApp, payment: &ReceivedPayment, at: time::PrimitiveDateTime) -> Recorded {
    app.with_db(|c| laundry::lifecycle::payment::record_receipt(c, payment, &NotifyCustomer::nobody(), at).unwrap())
}

/// Now by the app's clock, as the callbacks record payments.
fn clock_now(app: &TestApp) -> time::PrimitiveDateTime {
    stored(app.clock.now())
}

fn receipts(list: &Value) -> Vec<String> {
    list["items"].as_array().unwrap().iter().map(|p| p["receipt"].as_str().unwrap().to_owned()).collect()
}

async fn staff_find_unmatched_payments_by_phone_code_or_amount(backend: Backend) {
    let Some((app, _daraja)) = paying_app(backend).await else { return };
    let session = staff(&app).await;
    let now = clock_now(&app);
    for payment in [
        till_payment("QKH11A1A11", 1500, "2547 ***** 678", None),
        till_payment("QKH22B2B22", 800, "2547 ***** 111", None),
        till_payment("QKH33C3C33", 2300, "0f4a1c9e2b7d", Some("no order")),
    ] {
        assert_eq!(receive(&app, &payment, now), Recorded::Unmatched);
    }

    let all = get(&app, &session, "/api/admin/payments").await;
    let by_phone = get(&app, &session, "/api/admin/payments?q=0712%20345%20678").await;
    let by_code = get(&app, &session, "/api/admin/payments?q=qkh22b").await;
    let by_amount = get(&app, &session, "/api/admin/payments?q=KSh%202%2C300").await;

    assert_eq!(all["total"], 3);
    assert_eq!(receipts(&all).len(), 3);
    let first = all["items"].as_array().unwrap().iter().find(|p| p["receipt"] == "QKH11A1A11").unwrap();
    assert_eq!(first["phone"], "2547 ***** 678", "the number as M-PESA gave it");
    assert_eq!(first["orderId"], Value::Null);
    assert_eq!(receipts(&by_phone), ["QKH11A1A11"]);
    assert_eq!(receipts(&by_code), ["QKH22B2B22"]);
    assert_eq!(receipts(&by_amount), ["QKH33C3C33"]);
    let too_long = app
        .staff_request(Method::GET, &format!("/api/admin/payments?q={}", "7".repeat(41)), &session, false)
        .send()
        .await
        .unwrap();
    assert_eq!(too_long.status(), 400);
}

async fn staff_match_a_payment_to_an_order_once(backend: Backend) {
    let Some((app, _daraja)) = paying_app(backend).await else { return };
    let session = staff(&app).await;
    let Placed { reference, order: placed, .. } =
        an_order().phone("0733444555").service("wash-fold", 3).location("Kilimani").place(&app).await;
    let Placed { reference: other, .. } =
        an_order().phone("0733444666").service("wash-fold", 4).location("Kilimani").place(&app).await;
    receive(&app, &till_payment("QKH44D4D44", placed.total_amount, "2547 ***** 555", None), clock_now(&app));

    let matched = post(&app, &session, "/api/admin/payments/QKH44D4D44/match", json!({"orderId": reference})).await;

    assert_eq!(matched.status(), 200);
    let answer: Value = matched.json().await.unwrap();
    assert_eq!(answer["paid"], true);
    assert_eq!(answer["payment"]["orderId"], reference.as_str());
    assert_eq!(answer["payment"]["matchedBy"], STAFF);
    assert_eq!(answer["message"], format!("Matched to order {reference} and entered on its ledger: Paid KSh 450."));
    assert!(is_paid(&app, &reference));
    let till = laundry::domain::Method::Till;
    assert_eq!(payments(&app, &reference), [(till, placed.total_amount, Some("QKH44D4D44".to_owned()))]);
    assert!(receipts(&get(&app, &session, "/api/admin/payments").await).is_empty());

    let again = post(&app, &session, "/api/admin/payments/QKH44D4D44/match", json!({"orderId": other})).await;
    assert_eq!(again.status(), 422);
    let refusal: Value = again.json().await.unwrap();
    assert_eq!(refusal["error"], format!("This payment is matched to order {reference} already."));
    assert_eq!(payments(&app, &other), [], "the other order is unchanged");

    receive(&app, &till_payment("QKH55E5E55", 700, "2547 ***** 555", None), clock_now(&app));
    let unknown_order =
        post(&app, &session, "/api/admin/payments/QKH55E5E55/match", json!({"orderId": "ZZZZ9999"})).await;
    assert_eq!(unknown_order.status(), 422);
    let refusal: Value = unknown_order.json().await.unwrap();
    assert_eq!(refusal["fields"]["orderId"], "No order has that order ID.");
    let not_an_id = post(&app, &session, "/api/admin/payments/QKH55E5E55/match", json!({"orderId": "12"})).await;
    assert_eq!(not_an_id.status(), 422);
    let no_body = post(&app, &session, "/api/admin/payments/QKH55E5E55/match", json!({"order": reference})).await;
    assert_eq!(no_body.status(), 400);
    let unknown_payment = post(&app, &session, "/api/admin/payments/QKH00X0X00/match", json!({"orderId": other})).await;
    assert_eq!(unknown_payment.status(), 404);
    assert_eq!(receipts(&get(&app, &session, "/api/admin/payments").await), ["QKH55E5E55"]);
}

async fn a_short_till_payment_counts_and_a_code_entered_elsewhere_is_flagged_until_checked(backend: Backend) {
    let Some((app, _daraja)) = paying_app(backend).await else { return };
    let session = staff(&app).await;
    let Placed { reference, order: placed, .. } =
        an_order().phone("0733444555").service("wash-fold", 3).location("Kilimani").place(&app).await;
    // Less than the bill, with the order ID: entered on the order, the rest still to pay.
    let short = till_payment("QKH66F6F66", placed.total_amount - 100, "2547 ***** 555", Some(&reference));
    assert_eq!(receive(&app, &short, clock_now(&app)), Recorded::Paid(reference.clone()));
    let till = laundry::domain::Method::Till;
    assert_eq!(payments(&app, &reference), [(till, placed.total_amount - 100, Some("QKH66F6F66".to_owned()))]);
    let (balance, _) = money(&app, &reference);
    assert_eq!((balance.settlement(), balance.to_pay()), (Settlement::PartPaid, 100));
    assert!(receipts(&get(&app, &session, "/api/admin/payments").await).is_empty(), "nothing to check");
    let listed = get(&app, &session, "/api/admin/orders").await;
    assert_eq!(
        (listed["items"][0]["paymentsToCheck"].as_i64(), listed["items"][0]["toPay"].as_i64()),
        (Some(0), Some(100))
    );

    // A code staff typed on another order, then reported by the till for this one: it is not
    // entered twice, and waits for staff.
    let Placed { reference: elsewhere, .. } =
        an_order().phone("0733444556").service("wash-fold", 3).location("Kilimani").place(&app).await;
    let typed = json!({"method": "mpesa", "mpesaCode": "QKH67F6F67"});
    assert_eq!(post(&app, &session, &format!("/api/admin/orders/{elsewhere}/payment"), typed).await.status(), 200);
    let reported = till_payment("QKH67F6F67", 100, "2547 ***** 555", Some(&reference));
    assert!(matches!(receive(&app, &reported, clock_now(&app)), Recorded::Flagged(..)));

    let list = get(&app, &session, "/api/admin/payments").await;
    let orders = get(&app, &session, &format!("/api/admin/orders?q={reference}")).await;

    assert_eq!(receipts(&list), ["QKH67F6F67"]);
    assert_eq!(list["items"][0]["problem"], "code");
    assert_eq!(list["items"][0]["orderId"], reference.as_str());
    assert_eq!(money(&app, &reference).0.to_pay(), 100, "never counted twice");
    assert_eq!(orders["items"][0]["paymentsToCheck"], 1);
    let detail = get(&app, &session, &format!("/api/admin/orders/{reference}")).await;
    let listed: Vec<&str> =
        detail["payments"].as_array().unwrap().iter().map(|p| p["receipt"].as_str().unwrap()).collect();
    assert_eq!(listed, ["QKH66F6F66", "QKH67F6F67"]);

    let checked = post(&app, &session, "/api/admin/payments/QKH67F6F67/checked", json!({})).await;

    assert_eq!(checked.status(), 200);
    let answer: Value = checked.json().await.unwrap();
    assert_eq!(answer["payment"]["checkedBy"], STAFF);
    assert!(receipts(&get(&app, &session, "/api/admin/payments").await).is_empty());
    assert_eq!(
        get(&app, &session, &format!("/api/admin/orders?q={reference}")).await["items"][0]["paymentsToCheck"],
        0
    );
    receive(&app, &till_payment("QKH77G7G77", 300, "2547 ***** 555", None), clock_now(&app));
    let unmatched = post(&app, &session, "/api/admin/payments/QKH77G7G77/checked", json!({})).await;
    assert_eq!(unmatched.status(), 422, "an unmatched payment is matched, not checked");
    let unknown = post(&app, &session, "/api/admin/payments/QKH00X0X00/checked", json!({})).await;
    assert_eq!(unknown.status(), 404);
}

async fn payments_to_check_are_for_staff_with_their_csrf_token(backend: Backend) {
    let Some((app, _daraja)) = paying_app(backend).await else { return };
    let session = staff(&app).await;
    let Placed { reference, order: placed, .. } =
        an_order().phone("0733444555").service("wash-fold", 3).location("Kilimani").place(&app).await;
    receive(&app, &till_payment("QKH88H8H88", placed.total_amount, "2547 ***** 555", None), clock_now(&app));
    app.create_staff_as("otieno@example.com", "a long valet password", StaffRole::Valet);
    let valet = app.post_login("otieno@example.com", "a long valet password", None).await;
    let valet_cookie =
        format!("{}={}", laundry::auth::SESSION_COOKIE, set_cookie(&valet, laundry::auth::SESSION_COOKIE).unwrap());

    let anonymous = app.get("/api/admin/payments").await;
    let as_valet = app.get_with("/api/admin/payments", &[("cookie", &valet_cookie)]).await;
    let without_csrf = app
        .staff_request(Method::POST, "/api/admin/payments/QKH88H8H88/match", &session, false)
        .json(&json!({"orderId": reference}))
        .send()
        .await
        .unwrap();
    let prompt_without_csrf = app
        .staff_request(Method::POST, &format!("/api/admin/orders/{reference}/prompt"), &session, false)
        .send()
        .await
        .unwrap();

    assert_eq!(anonymous.status(), 401);
    assert_eq!(as_valet.status(), 403);
    assert_eq!(without_csrf.status(), 403);
    assert_eq!(prompt_without_csrf.status(), 403);
    assert_eq!(payments(&app, &reference), [], "unpaid");
}

async fn the_unpaid_filter_shows_orders_still_to_pay(backend: Backend) {
    let Some((app, _daraja)) = paying_app(backend).await else { return };
    let session = staff(&app).await;
    let Placed { reference: unpaid, .. } =
        an_order().phone("0733444001").service("wash-fold", 3).location("Kilimani").place(&app).await;
    let Placed { reference: paid, .. } =
        an_order().phone("0733444002").service("wash-fold", 3).location("Kilimani").place(&app).await;
    let Placed { reference: cancelled, .. } =
        an_order().phone("0733444003").service("wash-fold", 3).location("Kilimani").place(&app).await;
    let cash = json!({"method": "cash"});
    assert_eq!(post(&app, &session, &format!("/api/admin/orders/{paid}/payment"), cash).await.status(), 200);
    let cancel = json!({"status": "cancelled", "notifyCustomer": false, "reason": "Duplicate"});
    assert_eq!(post(&app, &session, &format!("/api/admin/orders/{cancelled}/status"), cancel).await.status(), 200);

    let to_pay = get(&app, &session, "/api/admin/orders?payment=unpaid").await;
    let done = get(&app, &session, "/api/admin/orders?payment=paid").await;
    let bad = app.staff_request(Method::GET, "/api/admin/orders?payment=maybe", &session, false).send().await.unwrap();

    let ids = |page: &Value| -> Vec<String> {
        page["items"].as_array().unwrap().iter().map(|o| o["id"].as_str().unwrap().to_owned()).collect()
    };
    assert_eq!(ids(&to_pay), [unpaid]);
    assert_eq!(to_pay["filter"]["payment"], "unpaid");
    assert_eq!(ids(&done), [paid]);
    assert_eq!(bad.status(), 400);
    let page = app.get_with("/admin?payment=unpaid", &[("cookie", &session.cookie)]).await.text().await.unwrap();
    assert!(page.contains(r#""payment":"unpaid""#), "the dashboard renders the filter on the server");
}

async fn the_days_takings_are_counted_by_method_for_today_only(backend: Backend) {
    let Some((app, daraja)) = paying_app(backend).await else { return };
    let session = staff(&app).await;
    let now = clock_now(&app);
    let yesterday = now - time::Duration::hours(1);
    // Cash, by staff.
    let Placed { reference: cash, order: cash_order, .. } =
        an_order().phone("0733444001").service("wash-fold", 3).location("Kilimani").place(&app).await;
    let body = json!({"method": "cash"});
    assert_eq!(post(&app, &session, &format!("/api/admin/orders/{cash}/payment"), body).await.status(), 200);
    // By a prompt: its callback.
    let prompted = place_pay_now(&app, "+254712345678").await;
    let prompted_order = order(&app, &prompted);
    daraja.wait_for_pushes(1, WAIT).await;
    let checkout = sent_prompt(&app, &prompted_order.id).await.checkout_request_id.unwrap();
    let callback = success_callback(&checkout, prompted_order.total_amount, "QKH94M1Z11");
    assert_eq!(post_prompt_callback(&app, &callback).await.status(), 200);
    // At the till, with the order ID as the account number.
    let Placed { reference: till, order: till_order, .. } =
        an_order().phone("0733444003").service("wash-fold", 5).location("Kilimani").place(&app).await;
    let paid = till_payment("QKH12T1T12", till_order.total_amount, "2547 ***** 003", Some(&till));
    assert!(matches!(receive(&app, &paid, now), Recorded::Paid(_)));
    // Yesterday's cash, and money that paid no order today and yesterday.
    let Placed { order: old, .. } =
        an_order().phone("0733444004").service("wash-fold", 3).location("Kilimani").place(&app).await;
    app.with_db(|c| {
        let cash = StaffPayment::Cash(None);
        laundry::lifecycle::payment::record_payment(
            c,
            &old.id,
            &cash,
            "desk",
            false,
            &NotifyCustomer::nobody(),
            yesterday,
        )
    })
    .unwrap()
    .unwrap();
    receive(&app, &till_payment("QKH13U1U13", 999, "2547 ***** 999", None), now);
    receive(&app, &till_payment("QKH14V1V14", 444, "2547 ***** 444", None), yesterday);
    // Less than the bill, with the order ID: it counts, as the till's.
    let Placed { reference: short, order: short_order, .. } =
        an_order().phone("0733444005").service("wash-fold", 3).location("Kilimani").place(&app).await;
    receive(&app, &till_payment("QKH15W1W15", short_order.total_amount - 50, "2547 ***** 005", Some(&short)), now);

    let takings = get(&app, &session, "/api/admin/stats").await["takings"].clone();

    assert_eq!(takings["day"], nairobi_day(app.clock.now()).to_string());
    let at_till = till_order.total_amount + short_order.total_amount - 50;
    let received = json!([
        {"method": "prompt", "label": "M-PESA prompt", "amount": prompted_order.total_amount},
        {"method": "till", "label": "M-PESA till", "amount": at_till},
        {"method": "cash", "label": "Cash", "amount": cash_order.total_amount},
    ]);
    let all = cash_order.total_amount + prompted_order.total_amount + at_till;
    assert_eq!(takings["takings"], json!({"received": received, "refunded": [], "total": all}));
    assert_eq!(takings["unmatched"], json!({"count": 1, "amount": 999}));
}

async fn staff_send_a_prompt_that_reaches_daraja(backend: Backend) {
    let Some((app, daraja)) = paying_app(backend).await else { return };
    let session = staff(&app).await;
    let Placed { reference, order: placed, .. } =
        an_order().phone("0712345678").service("wash-fold", 3).location("Kilimani").place(&app).await;
    let path = format!("/api/admin/orders/{reference}/prompt");

    let sent = post(&app, &session, &path, json!({})).await;

    assert_eq!(sent.status(), 200);
    let answer: Value = sent.json().await.unwrap();
    assert_eq!(answer["order"]["prompt"]["askedBy"], STAFF);
    let pushes = daraja.wait_for_pushes(1, WAIT).await;
    assert_eq!(pushes[0].body["AccountReference"], reference.as_str());
    assert_eq!(pushes[0].body["Amount"], json!(placed.total_amount));
    assert_eq!(pushes[0].body["PhoneNumber"], json!(254712345678_u64));
    let waiting = sent_prompt(&app, &placed.id).await;
    assert_eq!(waiting.state, laundry::domain::PromptState::Waiting);
    let listed = get(&app, &session, &format!("/api/admin/orders?q={reference}")).await;
    assert_eq!(listed["items"][0]["prompt"]["state"], "waiting");
    let detail = get(&app, &session, &format!("/api/admin/orders/{reference}")).await;
    assert_eq!(detail["prompts"].as_array().unwrap().len(), 1);

    let again = post(&app, &session, &path, json!({})).await;
    assert_eq!(again.status(), 422);
    let refusal: Value = again.json().await.unwrap();
    assert!(refusal["error"].as_str().unwrap().contains("less than a minute ago"), "{refusal}");
    let cash = json!({"method": "cash"});
    post(&app, &session, &format!("/api/admin/orders/{reference}/payment"), cash).await;
    let paid = post(&app, &session, &path, json!({})).await;
    assert_eq!(paid.status(), 422);
    assert_eq!(paid.json::<Value>().await.unwrap()["error"], "This order is paid already.");
    assert_eq!(post(&app, &session, "/api/admin/orders/ZZZZ9999/prompt", json!({})).await.status(), 404);
    assert_eq!(daraja.pushes().len(), 1, "refused prompts reach nobody");
}

async fn valet_page(app: &TestApp, session: &SignedIn) -> String {
    app.get_with("/valet", &[("cookie", &session.cookie)]).await.text().await.unwrap()
}

async fn a_valet_sends_the_prompt_at_the_door_and_sees_it_paid(backend: Backend) {
    let Some((app, daraja)) = paying_app(backend).await else { return };
    let (me, session) = valet(&app, "otieno@example.com").await;
    let (other, _) = valet(&app, "kamau@example.com").await;
    let Placed { reference, order: placed, .. } =
        an_order().phone("0712345678").service("wash-fold", 3).location("Kilimani").place(&app).await;
    let Placed { order: elsewhere, .. } =
        an_order().phone("0712345679").service("wash-fold", 3).location("Kilimani").place(&app).await;
    let pickup = put_in_run(&app, &placed.id, StopKind::Pickup, &me, 1);
    let delivery = put_in_run(&app, &placed.id, StopKind::Delivery, &me, 2);
    let not_mine = put_in_run(&app, &elsewhere.id, StopKind::Delivery, &other, 1);
    valet_post(&app, &session, &format!("/valet/stops/{pickup}/picked-up"), &[("bags", "1"), ("kg", "3")]).await;
    assert!(valet_page(&app, &session).await.contains(&format!("/valet/stops/{delivery}/prompt")));

    let sent = valet_post(&app, &session, &format!("/valet/stops/{delivery}/prompt"), &[]).await;

    assert_eq!(sent.status(), 303);
    assert!(sent.headers()["location"].to_str().unwrap().contains("notice=prompt-sent"));
    let pushes = daraja.wait_for_pushes(1, WAIT).await;
    assert_eq!(pushes[0].body["AccountReference"], reference.as_str());
    let prompt = sent_prompt(&app, &placed.id).await;
    assert_eq!(prompt.asked_by, "otieno@example.com");
    let waiting = valet_page(&app, &session).await;
    assert_eq!(waiting.matches("M-PESA prompt: waiting").count(), 1, "at the delivery, not the pay-on-delivery pickup");

    let again = valet_post(&app, &session, &format!("/valet/stops/{delivery}/prompt"), &[]).await;
    assert_eq!(again.status(), 409);
    assert!(again.text().await.unwrap().contains("less than a minute ago: ask them to check it."));
    let refused = valet_post(&app, &session, &format!("/valet/stops/{not_mine}/prompt"), &[]).await;
    assert_eq!(refused.status(), 403);

    let callback = success_callback(&prompt.checkout_request_id.unwrap(), placed.total_amount, "QKH94M1Z16");
    assert_eq!(post_prompt_callback(&app, &callback).await.status(), 200);
    let page = valet_page(&app, &session).await;
    assert!(page.contains("M-PESA prompt: paid"), "the stop shows the prompt paid");
    assert!(!page.contains(&format!("/valet/stops/{delivery}/prompt")), "a paid order is not prompted again");
    assert!(is_paid(&app, &reference));
    assert_eq!(daraja.pushes().len(), 1);
}

crate::on_each_backend!(
    staff_find_unmatched_payments_by_phone_code_or_amount,
    staff_match_a_payment_to_an_order_once,
    a_short_till_payment_counts_and_a_code_entered_elsewhere_is_flagged_until_checked,
    payments_to_check_are_for_staff_with_their_csrf_token,
    the_unpaid_filter_shows_orders_still_to_pay,
    the_days_takings_are_counted_by_method_for_today_only,
    staff_send_a_prompt_that_reaches_daraja,
    a_valet_sends_the_prompt_at_the_door_and_sees_it_paid,
);
