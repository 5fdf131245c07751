//! Every shilling accounted for, on both backends: an order's money is its ledger, and every page,
//! text and figure reads it. A paid estimate weighed heavier asks for the difference only; a part
//! payment leaves the valet only the rest to collect; money paid beyond the bill becomes credit
//! that the phone number's next order uses; a cancelled paid order owes its money back until staff
//! refund it; a valet's cash-up counts the cash of the day's deliveries; and takings count each
//! shilling once.

use crate::helpers::mpesa::{
    PHONE, WAIT, order, paying_app, place, post_prompt_callback, sent_prompt, success_callback,
};
use crate::helpers::orders::put_in_run;
use crate::helpers::staff::{OWNER, owner, post, valet};
use crate::helpers::{Backend, MPESA_HOOK_SECRET, SignedIn, TestApp, money, use_texted_credit, valet_post};
use laundry::domain::{EntryKind, MessageKind, Method, Settlement, StopKind};
use laundry::models::ledger::Entry;
use laundry::models::outbox::OutboxMessage;
use serde_json::{Value, json};

/// A till payment (C2B confirmation) of `amount` with `code`, naming `bill_ref` as the account.
async fn pay_to_till(app: &TestApp, code: &str, amount: i32, bill_ref: &str) {
    let body = json!({
        "TransactionType": "Buy Goods", "TransID": code, "TransTime": "20261124193015",
        "TransAmount": format!("{amount}.00"), "BusinessShortCode": "3552248", "BillRefNumber": bill_ref,
        "InvoiceNumber": "", "OrgAccountBalance": "49197.00", "ThirdPartyTransID": "",
        "MSISDN": "254712345678", "FirstName": "AMINA", "MiddleName": "", "LastName": "WANJIRU"
    });
    let path = format!("/hooks/payments/till/confirmation/{MPESA_HOOK_SECRET}");
    assert_eq!(app.post_json(&path, &body, &[]).await.status(), 200);
}

/// The texts of `kind` written for the order `order_id`, oldest first.
fn texts(app: &TestApp, order_id: &str, kind: MessageKind) -> Vec<String> {
    let all = app.with_db(|c| OutboxMessage::all(c).unwrap());
    all.into_iter()
        .filter(|m| m.kind == kind && m.order_id.as_deref() == Some(order_id))
        .filter_map(|m| m.sms_text())
        .collect()
}

async fn get_json(app: &TestApp, session: &SignedIn, path: &str) -> Value {
    let response = app.get_with(path, &[("cookie", &session.cookie)]).await;
    assert_eq!(response.status(), 200, "{path}");
    response.json().await.unwrap()
}

/// The customer's view of the order's payment (`GET /t/{token}/payment`).
async fn customer_payment(app: &TestApp, reference: &str) -> Value {
    let token = order(app, reference).link_token.unwrap();
    app.get(&format!("/t/{token}/payment")).await.json().await.unwrap()
}

async fn a_paid_estimate_weighed_heavier_asks_for_the_difference_and_counts_each_shilling_once(backend: Backend) {
    let Some((app, daraja)) = paying_app(backend).await else { return };
    let reference = place(&app, PHONE, "pay-now").await;
    let placed = order(&app, &reference);
    let estimate = sent_prompt(&app, &placed.id).await;
    assert_eq!(estimate.amount, 450);
    let paid = success_callback(estimate.checkout_request_id.as_deref().unwrap(), 450, "QKH94M1Z11");
    assert_eq!(post_prompt_callback(&app, &paid).await.status(), 200);

    // Weighed at 5 kg instead of 3: KSh 750.
    let (me, session) = valet(&app, "otieno@example.com").await;
    let pickup = put_in_run(&app, &placed.id, StopKind::Pickup, &me, 1);
    let path = format!("/valet/stops/{pickup}/picked-up");
    assert_eq!(valet_post(&app, &session, &path, &[("bags", "1"), ("kg", "5")]).await.status(), 303);

    let (balance, entries) = money(&app, &reference);
    assert_eq!((balance.charged, balance.received(), balance.to_pay()), (750, 450, 300));
    assert_eq!(balance.settlement(), Settlement::PartPaid);
    let adjustment = entries.iter().find(|e| e.kind == EntryKind::Adjustment).unwrap();
    assert_eq!((adjustment.amount, adjustment.recorded_by.as_deref()), (300, Some("otieno@example.com")));
    // The prompt asks for the difference only, and the picked-up text says so.
    let top_up =
        crate::helpers::mpesa::until_prompt(&app, &placed.id, "asked for the rest", |p| p.id != estimate.id).await;
    assert_eq!((top_up.amount, top_up.asked_by.as_str()), (300, "bill"));
    let pushes = daraja.wait_for_pushes(2, WAIT).await;
    assert_eq!(pushes[1].body["Amount"], json!(300), "{:#?}", pushes[1].body);
    let picked_up = texts(&app, &placed.id, MessageKind::SmsPickedUp).concat();
    assert!(
        picked_up.contains("Bill KSh 750. Paid KSh 450, KSh 300 to pay: M-PESA prompt for KSh 300 coming."),
        "{picked_up}"
    );
    assert!(!picked_up.contains("Paid, thank you"), "{picked_up}");
    let payment = customer_payment(&app, &reference).await;
    assert_eq!(
        (payment["due"].clone(), payment["words"].clone()),
        (json!(300), json!("Paid KSh 450 · KSh 300 to pay"))
    );

    let top_up = sent_prompt(&app, &placed.id).await;
    let rest = success_callback(top_up.checkout_request_id.as_deref().unwrap(), 300, "QKH94M1Z22");
    assert_eq!(post_prompt_callback(&app, &rest).await.status(), 200);

    let (balance, entries) = money(&app, &reference);
    assert_eq!((balance.settlement(), balance.received()), (Settlement::Paid, 750));
    let codes: Vec<_> = entries.iter().filter_map(|e| e.reference.as_deref()).collect();
    assert_eq!(codes, ["QKH94M1Z11", "QKH94M1Z22"]);
    // Paid while the picked-up text waited for the prompt's answer: that text says it.
    let picked_up = texts(&app, &placed.id, MessageKind::SmsPickedUp).concat();
    assert!(picked_up.contains("Bill KSh 750. Paid KSh 750 (M-PESA QKH94M1Z22), thank you."), "{picked_up}");
    let received = texts(&app, &placed.id, MessageKind::SmsPaymentReceived);
    assert!(!received.iter().any(|t| t.contains("KSh 300 received")), "{received:#?}");
    // Today's takings: 450 and 300 by prompt, each once.
    let (staff, _) = owner(&app).await;
    let stats = get_json(&app, &staff, "/api/admin/stats").await;
    let takings = &stats["takings"]["takings"];
    assert_eq!(takings["total"], json!(750), "{stats:#}");
    assert_eq!(takings["received"], json!([{"method": "prompt", "label": "M-PESA prompt", "amount": 750}]));
    // The receipt says what was paid, with both codes.
    let token = placed.link_token.unwrap();
    let receipt = app.get(&format!("/t/{token}/receipt")).await.text().await.unwrap();
    assert!(receipt.contains("QKH94M1Z11") && receipt.contains("QKH94M1Z22"), "{receipt}");
    assert!(receipt.contains("Paid KSh 750"), "{receipt}");
}

async fn a_part_till_payment_before_delivery_leaves_the_valet_only_the_rest(backend: Backend) {
    let Some((app, _daraja)) = paying_app(backend).await else { return };
    let reference = place(&app, PHONE, "pay-delivery").await;
    let placed = order(&app, &reference);
    let (me, session) = valet(&app, "otieno@example.com").await;
    let pickup = put_in_run(&app, &placed.id, StopKind::Pickup, &me, 1);
    let delivery = put_in_run(&app, &placed.id, StopKind::Delivery, &me, 2);
    valet_post(&app, &session, &format!("/valet/stops/{pickup}/picked-up"), &[("bags", "1"), ("kg", "3")]).await;

    // KSh 300 of the KSh 450 to the till, with the order ID as the account: counted, not flagged.
    pay_to_till(&app, "RKTQDM7W6S", 300, &reference).await;
    let (balance, _) = money(&app, &reference);
    assert_eq!((balance.received(), balance.to_pay()), (300, 150));
    let received = texts(&app, &placed.id, MessageKind::SmsPaymentReceived).concat();
    assert!(received.contains("KSh 300 received") && received.contains("Paid KSh 300, KSh 150 to pay."), "{received}");
    let page = app.get_with("/valet", &[("cookie", &session.cookie)]).await.text().await.unwrap();
    assert!(page.contains("Received KSh 300 · collect KSh 150"), "{page}");

    // Cash of the whole bill is refused: only the rest is owed.
    let path = format!("/valet/stops/{delivery}/delivered");
    let too_much = valet_post(&app, &session, &path, &[("paid", "cash"), ("cash", "450")]).await;
    assert_eq!(too_much.status(), 422);
    assert!(too_much.text().await.unwrap().contains("Collect KSh 150 (what is owed)"));
    let delivered = valet_post(&app, &session, &path, &[("paid", "cash"), ("cash", "150")]).await;
    assert_eq!(delivered.status(), 303);

    let (balance, entries) = money(&app, &reference);
    assert_eq!((balance.settlement(), balance.received()), (Settlement::Paid, 450));
    let cash = entries.iter().find(|e| e.method == Some(Method::Cash)).unwrap();
    assert_eq!((cash.amount, cash.recorded_by.as_deref()), (150, Some("otieno@example.com")));
    let text = texts(&app, &placed.id, MessageKind::SmsDelivered).concat();
    assert!(text.contains("delivered, KSh 450 paid"), "{text}");
}

async fn money_paid_beyond_the_bill_becomes_credit_that_the_next_order_uses(backend: Backend) {
    let Some((app, _daraja)) = paying_app(backend).await else { return };
    let first = place(&app, PHONE, "pay-delivery").await;
    // KSh 1,000 for a KSh 450 bill: never lost.
    pay_to_till(&app, "RKTQDM7W6S", 1000, &first).await;
    let payment = customer_payment(&app, &first).await;
    assert_eq!(payment["words"], "Paid KSh 1,000 · KSh 550 to come back to you");
    assert_eq!((payment["owedBack"].clone(), payment["canKeepCredit"].clone()), (json!(550), json!(true)));

    // The customer keeps it as credit from the order's page (a plain form).
    let token = order(&app, &first).link_token.unwrap();
    let kept = app
        .client
        .post(format!("{}/t/{token}/credit", app.address))
        .header("content-type", "application/x-www-form-urlencoded")
        .header("sec-fetch-site", "same-origin")
        .body("")
        .send()
        .await
        .unwrap();
    assert_eq!(kept.status(), 303);
    assert_eq!(kept.headers()["location"], format!("/t/{token}?done=credit").as_str());
    let (balance, _) = money(&app, &first);
    assert_eq!((balance.settlement(), balance.refunded), (Settlement::Paid, 550));
    let again = app
        .client
        .post(format!("{}/t/{token}/credit", app.address))
        .header("content-type", "application/x-www-form-urlencoded")
        .header("sec-fetch-site", "same-origin")
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), 303, "nothing is owed back any more");
    let back = again.headers()["location"].to_str().unwrap().to_owned();
    assert_eq!(back, format!("/t/{token}?refused=nothing-owed-back"));
    assert!(app.get(&back).await.text().await.unwrap().contains("Nothing is owed back on this order."));

    // The next order of the phone number is paid by it, from the link texted to the phone (issue
    // 50: typing the number spends nothing); the one after uses what is left.
    let second = place(&app, "0712 345 678", "pay-delivery").await;
    assert_eq!(money(&app, &second).0.received(), 0, "not before the phone's owner asks");
    assert_eq!(use_texted_credit(&app, &second).await.status(), 303);
    let (balance, entries) = money(&app, &second);
    assert_eq!((balance.settlement(), balance.received()), (Settlement::Paid, 450));
    assert_eq!(entries.last().unwrap().method, Some(Method::Credit));
    let third = place(&app, PHONE, "pay-delivery").await;
    assert_eq!(use_texted_credit(&app, &third).await.status(), 303);
    let (balance, _) = money(&app, &third);
    assert_eq!((balance.received(), balance.to_pay()), (100, 350));
    assert_eq!(app.with_db(|c| Entry::credit_of(c, PHONE).unwrap()), 0);
    // Store credit is no takings: the KSh 1,000 came in once.
    let (staff, _) = owner(&app).await;
    let stats = get_json(&app, &staff, "/api/admin/stats").await;
    assert_eq!(stats["takings"]["takings"]["total"], json!(1000), "{stats:#}");
}

async fn a_cancelled_paid_order_owes_its_money_back_until_staff_refund_it(backend: Backend) {
    let Some((app, _daraja)) = paying_app(backend).await else { return };
    let (staff, _) = owner(&app).await;
    let reference = place(&app, PHONE, "pay-delivery").await;
    let placed = order(&app, &reference);
    let path = |what: &str| format!("/api/admin/orders/{reference}/{what}");
    let paid = post(&app, &staff, &path("payment"), json!({"method": "mpesa", "mpesaCode": "QKH94M1Z11"})).await;
    assert_eq!(paid.status(), 200);
    let body: Value = paid.json().await.unwrap();
    assert_eq!((body["order"]["settlement"].clone(), body["order"]["toPay"].clone()), (json!("paid"), json!(0)));

    let cancel = json!({"status": "cancelled", "reason": "The customer moved away"});
    assert_eq!(post(&app, &staff, &path("status"), cancel).await.status(), 200);
    let (balance, _) = money(&app, &reference);
    assert_eq!((balance.charged, balance.owed_back()), (0, 450));
    let cancelled = texts(&app, &placed.id, MessageKind::SmsCancelled).concat();
    assert!(cancelled.contains("We will send back your KSh 450."), "{cancelled}");
    let balances = get_json(&app, &staff, "/api/admin/balances").await;
    assert_eq!(balances["owedBack"][0]["orderId"], json!(reference), "{balances:#}");
    assert_eq!(balances["owedBack"][0]["amount"], json!(450));
    assert_eq!(balances["owing"], json!([]), "a cancelled order owes nothing");

    // More than is owed back is refused; the refund settles it.
    let too_much = json!({"amount": 500, "method": "mpesa-reversal"});
    let refused = post(&app, &staff, &path("refund"), too_much).await;
    assert_eq!(refused.status(), 422);
    let message: Value = refused.json().await.unwrap();
    assert_eq!(message["fields"]["amount"], "This order owes KSh 450 back; a refund cannot be more.", "{message}");
    let refund = json!({"amount": 450, "method": "mpesa-reversal", "reference": "RKT1REVRS1"});
    assert_eq!(post(&app, &staff, &path("refund"), refund).await.status(), 200);
    let (balance, entries) = money(&app, &reference);
    assert_eq!((balance.due(), balance.received()), (0, 0));
    let refund = entries.last().unwrap();
    assert_eq!(
        (refund.kind, refund.method, refund.recorded_by.as_deref()),
        (EntryKind::Refund, Some(Method::Reversal), Some(OWNER))
    );
    let balances = get_json(&app, &staff, "/api/admin/balances").await;
    assert_eq!(balances["owedBack"], json!([]));
    // The customer is told the money went back (issue 49).
    let told = texts(&app, &placed.id, MessageKind::SmsPaymentReceived).concat();
    assert!(told.contains(&format!("KSh 450 of order {reference} sent back to you by M-PESA.")), "{told}");
    // Taken in and given back on the same day: nothing taken.
    let stats = get_json(&app, &staff, "/api/admin/stats").await;
    assert_eq!(stats["takings"]["takings"]["total"], json!(0), "{stats:#}");
    assert_eq!(stats["takings"]["takings"]["refunded"][0]["amount"], json!(450));

    // A payment typed by mistake is corrected by an entry that names it, never rewritten.
    let other = place(&app, "+254712345679", "pay-delivery").await;
    let typo = json!({"method": "cash", "amount": 400});
    assert_eq!(post(&app, &staff, &format!("/api/admin/orders/{other}/payment"), typo).await.status(), 200);
    let (_, entries) = money(&app, &other);
    let typed = entries.last().unwrap().id;
    let correct = format!("/api/admin/orders/{other}/entries/{typed}/correct");
    let without_reason = post(&app, &staff, &correct, json!({"reason": " "})).await;
    assert_eq!(without_reason.status(), 422);
    assert_eq!(post(&app, &staff, &correct, json!({"reason": "Typed on the wrong order"})).await.status(), 200);
    assert_eq!(post(&app, &staff, &correct, json!({"reason": "Again"})).await.status(), 409);
    let (balance, entries) = money(&app, &other);
    assert_eq!((balance.received(), balance.to_pay(), entries.len()), (0, 450, 3));
    assert_eq!(entries.last().unwrap().corrects, Some(typed));
    // The customer is told what changed in what they paid (issue 49).
    let key = order(&app, &other).id;
    let told = texts(&app, &key, MessageKind::SmsPaymentReceived).concat();
    let said = format!(
        "correction for order {other}: we recorded KSh 400 received by mistake; nothing received yet. KSh 450 to pay."
    );
    assert!(told.contains(&said), "{told}");

    // An M-PESA code typed on the wrong order: refused on the right one until it is corrected.
    let code = json!({"method": "mpesa", "mpesaCode": "QKH94M1Z55"});
    let third = place(&app, "+254712345670", "pay-delivery").await;
    assert_eq!(post(&app, &staff, &format!("/api/admin/orders/{third}/payment"), code.clone()).await.status(), 200);
    let right = format!("/api/admin/orders/{other}/payment");
    let taken = post(&app, &staff, &right, code.clone()).await;
    assert_eq!(taken.status(), 422);
    assert!(taken.text().await.unwrap().contains(&format!("already recorded for order {third}")));
    let wrong = money(&app, &third).1.last().unwrap().id;
    let reason = json!({"reason": "Typed on the wrong order"});
    let correct = format!("/api/admin/orders/{third}/entries/{wrong}/correct");
    assert_eq!(post(&app, &staff, &correct, reason).await.status(), 200);
    assert_eq!(post(&app, &staff, &right, code).await.status(), 200);
    let (balance, entries) = money(&app, &other);
    assert_eq!((balance.to_pay(), entries.last().unwrap().reference.as_deref()), (0, Some("QKH94M1Z55")));
    assert_eq!(money(&app, &third).0.to_pay(), 450);
}

async fn the_cash_up_of_a_day_counts_the_cash_of_three_deliveries(backend: Backend) {
    let Some((app, _daraja)) = paying_app(backend).await else { return };
    let (staff, _) = owner(&app).await;
    let (me, session) = valet(&app, "otieno@example.com").await;
    let mut references = Vec::new();
    for (n, phone) in ["+254712345671", "+254712345672", "+254712345673"].into_iter().enumerate() {
        let reference = place(&app, phone, "pay-delivery").await;
        let placed = order(&app, &reference);
        let position = i32::try_from(n).unwrap() * 2 + 1;
        let pickup = put_in_run(&app, &placed.id, StopKind::Pickup, &me, position);
        let delivery = put_in_run(&app, &placed.id, StopKind::Delivery, &me, position + 1);
        valet_post(&app, &session, &format!("/valet/stops/{pickup}/picked-up"), &[("bags", "1"), ("kg", "3")]).await;
        if n == 2 {
            // Part paid to the till first: the valet collects the rest.
            pay_to_till(&app, "RKTQDM7W6S", 200, &reference).await;
        }
        let cash = if n == 2 { "250" } else { "450" };
        let path = format!("/valet/stops/{delivery}/delivered");
        assert_eq!(valet_post(&app, &session, &path, &[("paid", "cash"), ("cash", cash)]).await.status(), 303);
        references.push(reference);
    }

    let day = app.today().to_string();
    let cash_up = get_json(&app, &staff, &format!("/api/admin/cash-up?day={day}")).await;
    let holder = &cash_up["holders"][0];
    assert_eq!(holder["holder"], "otieno@example.com", "{cash_up:#}");
    assert_eq!((holder["collected"].clone(), holder["stillHeld"].clone()), (json!(1150), json!(1150)));
    let orders: Vec<&str> =
        holder["entries"].as_array().unwrap().iter().map(|e| e["orderId"].as_str().unwrap()).collect();
    assert_eq!(orders, references.iter().map(String::as_str).collect::<Vec<_>>());
    let takings = &cash_up["takings"];
    assert_eq!(takings["total"], json!(1350));
    assert_eq!(
        takings["received"],
        json!([
            {"method": "till", "label": "M-PESA till", "amount": 200},
            {"method": "cash", "label": "Cash", "amount": 1150}
        ])
    );

    // The valet hands in KSh 1,000: KSh 150 still held.
    let handover = json!({"holder": "otieno@example.com", "day": day, "amount": 1000, "note": "Short by 150"});
    let answer = post(&app, &staff, "/api/admin/cash-up", handover).await;
    assert_eq!(answer.status(), 200);
    let cash_up: Value = answer.json().await.unwrap();
    let holder = &cash_up["holders"][0];
    assert_eq!((holder["handedIn"].clone(), holder["stillHeld"].clone()), (json!(1000), json!(150)));
    assert_eq!(holder["handovers"][0]["by"], OWNER);
    let bad = post(&app, &staff, "/api/admin/cash-up", json!({"holder": "", "day": "yesterday", "amount": -5})).await;
    assert_eq!(bad.status(), 422);
    let fields: Value = bad.json().await.unwrap();
    for field in ["holder", "day", "amount"] {
        assert!(fields["fields"][field].is_string(), "{field}: {fields}");
    }
    // Another day has none of it.
    let yesterday = (app.today() - time::Duration::days(1)).to_string();
    let before = get_json(&app, &staff, &format!("/api/admin/cash-up?day={yesterday}")).await;
    assert_eq!((before["holders"].clone(), before["takings"]["total"].clone()), (json!([]), json!(0)));
}

/// A busy shop has more orders owing than the money tab lists: it lists the oldest 50, and says
/// how many owe how much in all, cancelled orders left out (and so does the unpaid list's count).
async fn the_balances_count_every_order_owing_beyond_those_listed(backend: Backend) {
    use diesel::connection::SimpleConnection;
    let app = TestApp::builder().on(backend).start().await;
    let (staff, _) = owner(&app).await;
    app.with_db(|c| {
        for n in 0..61 {
            let status = if n == 60 { "cancelled" } else { "pending" };
            let at = format!("2026-11-20 {:02}:{:02}:00", 6 + n / 60, n % 60);
            c.batch_execute(&format!(
                "INSERT INTO orders (id, reference, customer_name, phone, location, service_type, service_label, \
                 quantity, payment_method, price_per_kg, total_amount, status, created_at, updated_at, \
                 estimate_amount) VALUES ('owing-{n:02}', 'OW{n:06}', 'Amina', '+254712345678', 'Kilimani', \
                 'wash-fold', 'Wash & Fold', 3, 'pay-delivery', 150, 450, '{status}', '{at}', '{at}', 450); \
                 INSERT INTO ledger_entries (order_id, kind, amount, note, recorded_at) \
                 VALUES ('owing-{n:02}', 'charge', {}, 'test', '{at}')",
                100 + n
            ))
            .unwrap();
        }
    });
    let balances = get_json(&app, &staff, "/api/admin/balances").await;
    assert_eq!(balances["owing"].as_array().unwrap().len(), 50, "the oldest 50 are listed");
    assert_eq!(balances["owing"][0]["orderId"], json!("OW000000"), "oldest first");
    // 60 orders owe KSh 100 to 159; the cancelled 61st is not chased.
    assert_eq!(balances["owingCount"], json!(60));
    assert_eq!(balances["owingTotal"], json!((100..160).sum::<i64>()));
    let unpaid = get_json(&app, &staff, "/api/admin/orders?payment=unpaid").await;
    assert_eq!((unpaid["total"].clone(), unpaid["more"].clone()), (json!(60), json!(false)));
    let paid = get_json(&app, &staff, "/api/admin/orders?payment=paid").await;
    assert_eq!(paid["total"], json!(0), "none of the others is paid");
}

crate::on_each_backend!(
    the_balances_count_every_order_owing_beyond_those_listed,
    a_paid_estimate_weighed_heavier_asks_for_the_difference_and_counts_each_shilling_once,
    a_part_till_payment_before_delivery_leaves_the_valet_only_the_rest,
    money_paid_beyond_the_bill_becomes_credit_that_the_next_order_uses,
    a_cancelled_paid_order_owes_its_money_back_until_staff_refund_it,
    the_cash_up_of_a_day_counts_the_cash_of_three_deliveries,
);
