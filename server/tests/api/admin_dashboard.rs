//! The staff dashboard against both backends: stats, pagination, filters, status and payment
//! changes by the order ID, handled messages, the server-rendered first page, and signing out.

use crate::helpers::money;
use crate::helpers::orders::{an_order, order_id, order_with, stored};
use crate::helpers::staff::{STAFF, get, post, staff};
use crate::on_both_backends;
use laundry::models::order::Order;
use laundry::views::requests::PaymentBody;
use reqwest::Method;
use serde_json::{Value, json};

/// A payment as the dashboard's payment panel sends it (the generated `PaymentBody`): cash, or an
/// M-PESA code, for what the order owes.
pub fn payment(mpesa_code: Option<&str>) -> Value {
    let method = if mpesa_code.is_some() { "mpesa" } else { "cash" };
    let body = PaymentBody {
        method: method.to_owned(),
        amount: None,
        mpesa_code: mpesa_code.map(str::to_owned),
        taken_by: None,
    };
    serde_json::to_value(body).unwrap()
}

fn order_ids(page: &Value) -> Vec<String> {
    page["items"].as_array().unwrap().iter().map(|o| o["id"].as_str().unwrap().to_owned()).collect()
}

on_both_backends! {
    async fn the_stats_count_revenue_orders_pending_and_messages(app: TestApp) {
        let session = staff(&app).await;
        let first = an_order().name("Amina Wanjiru").phone("0712345678").service("dry-cleaning", 3).location("Kilimani").pay_now().place(&app).await.answer; // 1500
        an_order().name("Brian Otieno").phone("0722000111").service("ironing", 2).location("Kilimani").pay_now().place(&app).await; // 400
        let contact = json!({ "name": "Njeri", "email": "njeri@example.com", "subject": "Hours", "message": "Open Sunday?" });
        assert_eq!(app.post_json("/api/contacts", &contact, &[]).await.status(), 201);

        let mut stats = get(&app, &session, "/api/admin/stats").await;
        let takings = stats.as_object_mut().unwrap().remove("takings").unwrap();
        let recleans = stats.as_object_mut().unwrap().remove("recleansPerMonth").unwrap();
        assert!(recleans.as_array().unwrap().iter().all(|month| month["count"] == 0), "no re-cleans: {recleans}");
        assert_eq!(stats, json!({
            "totalRevenue": 1900, "paidRevenue": 0, "cancelledRevenue": 0, "totalOrders": 2, "pendingOrders": 2,
            "messages": 1, "newMessages": 1, "unreadTexts": 0
        }));
        assert_eq!(takings["takings"], json!({ "received": [], "refunded": [], "total": 0 }));

        let id = order_id(&first);
        let changed = post(&app, &session, &format!("/api/admin/orders/{id}/status"), json!({ "status": "picked-up" })).await;
        assert_eq!(changed.status(), 200);
        let paid = post(&app, &session, &format!("/api/admin/orders/{id}/payment"), payment(Some("qjk3l5x9tz"))).await;
        assert_eq!(paid.status(), 200);
        let paid: Value = paid.json().await.unwrap();
        assert_eq!((paid["order"]["settlement"].as_str(), paid["order"]["moneyWords"].as_str()), (Some("paid"), Some("Paid KSh 1,500")));
        let (_, entries) = money(&app, id);
        let entered = entries.last().unwrap();
        assert_eq!(
            (entered.method, entered.amount, entered.reference.as_deref(), entered.recorded_by.as_deref()),
            (Some(laundry::domain::Method::Code), 1500, Some("QJK3L5X9TZ"), Some(STAFF)),
            "what the order owed, with the code as typed (upper case), under the staff member"
        );
        assert_eq!(paid["order"]["status"], "picked-up", "payment is kept apart from the work status");
        assert_eq!(paid["stats"]["pendingOrders"], 1);
        assert_eq!(paid["stats"]["paidRevenue"], 1500);
        assert_eq!(paid["stats"]["totalRevenue"], 1900);
        // A code staff typed in from the customer's message: today's takings, as an M-PESA code.
        let received = json!([{ "method": "code", "label": "M-PESA code", "amount": 1500 }]);
        assert_eq!(paid["stats"]["takings"]["takings"], json!({ "received": received, "refunded": [], "total": 1500 }));
    }

    async fn total_revenue_leaves_cancelled_orders_out_and_says_how_much_they_are(app: TestApp) {
        let session = staff(&app).await;
        an_order().name("Amina Wanjiru").phone("0712345678").service("dry-cleaning", 3).location("Kilimani").pay_now().place(&app).await; // 1500
        let cancelled = an_order().name("Brian Otieno").phone("0722000111").service("ironing", 6).location("Kilimani").pay_now().place(&app).await.answer; // 1200

        let path = format!("/api/admin/orders/{}/status", order_id(&cancelled));
        let changed: Value = post(&app, &session, &path, json!({ "status": "cancelled", "reason": "The customer asked" })).await.json().await.unwrap();

        assert_eq!(changed["stats"]["totalRevenue"], 1500, "the ledger's net bill of the orders not cancelled");
        assert_eq!(changed["stats"]["cancelledRevenue"], 1200);
        let page = app.get_with("/admin", &[("cookie", &session.cookie)]).await.text().await.unwrap();
        assert!(page.contains("KSh 1,500") && page.contains("excl. KSh 1,200 cancelled"), "the stat card says both");
    }

    async fn orders_are_paginated_newest_first(app: TestApp) {
        let session = staff(&app).await;
        let mut placed = Vec::new();
        for n in 0..23 {
            placed.push(order_id(&an_order().name(&format!("Customer {n}")).phone("0712345678").service("wash-fold", 1).location("Kilimani").pay_now().place(&app).await.answer).to_owned());
        }
        placed.reverse();

        let first = get(&app, &session, "/api/admin/orders").await;
        let second = get(&app, &session, "/api/admin/orders?page=2").await;

        assert_eq!((first["total"].as_i64(), first["pageSize"].as_i64(), first["page"].as_i64()), (Some(23), Some(20), Some(1)));
        assert_eq!(order_ids(&first), placed[..20].to_vec());
        assert_eq!(order_ids(&second), placed[20..].to_vec());
        assert_eq!(order_ids(&get(&app, &session, "/api/admin/orders?page=3").await), Vec::<String>::new());
        for bad in ["page=0", "page=abc", "page=99999999", "status=lost"] {
            let response = app.staff_request(Method::GET, &format!("/api/admin/orders?{bad}"), &session, false).send().await.unwrap();
            assert_eq!(response.status(), 400, "{bad}");
        }
    }

    async fn orders_are_filtered_by_status_and_found_by_name_location_phone_or_order_id(app: TestApp) {
        let session = staff(&app).await;
        let amina = an_order().name("Amina Wanjiru").phone("0712345678").service("ironing", 2).location("Kilimani").pay_now().place(&app).await.answer;
        let brian = order_with(&app, json!({
            "customerName": "Brian Otieno", "phone": "0722000111", "serviceType": "bedding", "quantity": 4,
            "location": "Westlands, Woodvale Grove"
        })).await;
        an_order().name("Percent 100% Sure_Name").phone("0733444555").service("ironing", 1).location("Kilimani").pay_now().place(&app).await;
        let id = order_id(&brian);
        post(&app, &session, &format!("/api/admin/orders/{id}/status"), json!({ "status": "ready", "rack": "A1" })).await;

        let amina_ref = order_id(&amina).to_owned();
        let brian_ref = order_id(&brian).to_owned();
        let found = |query: &'static str| {
            let (app, session) = (&app, &session);
            async move { order_ids(&get(app, session, &format!("/api/admin/orders?{query}")).await) }
        };
        assert_eq!(found("status=ready").await, vec![brian_ref.clone()]);
        assert_eq!(found("status=pending").await.len(), 2);
        assert_eq!(found("q=wanJIRU").await, vec![amina_ref.clone()], "a part of the name, any case");
        assert_eq!(found("q=0722%20000%20111").await, vec![brian_ref.clone()], "a phone number as typed");
        assert_eq!(found("q=000111").await, vec![brian_ref.clone()], "the last digits of a phone number");
        assert_eq!(found("q=woodvale").await, vec![brian_ref.clone()], "a part of the pickup location, any case");
        assert_eq!(found("q=kilimani").await.len(), 2, "every order picked up there");
        let by_order_id = get(&app, &session, &format!("/api/admin/orders?q={}", amina_ref.to_lowercase())).await;
        assert_eq!(order_ids(&by_order_id), vec![amina_ref.clone()]);
        assert_eq!(found("q=100%25").await.len(), 1, "% is a character to find");
        assert_eq!(found("q=e_nam").await.len(), 1, "so is _");
        assert_eq!(found("q=1%25").await.len(), 0, "names and places match from three characters");
        let by_shown_id = get(&app, &session, &format!("/api/admin/orders?q=%23{amina_ref}")).await;
        assert_eq!(order_ids(&by_shown_id), vec![amina_ref.clone()], "the order ID as the table shows it, #K7MX2QPD");
        assert_eq!(found("status=ready&q=amina").await.len(), 0, "filters combine");
    }

    async fn a_status_change_is_recorded_with_its_time_and_staff_and_shows_in_tracking(app: TestApp) {
        let session = staff(&app).await;
        let placed = an_order().name("Amina Wanjiru").phone("0712345678").service("ironing", 2).location("Kilimani").pay_now().place(&app).await.answer;
        let id = order_id(&placed);

        // A cancellation says why (the lifecycle tests cover its refusal without a reason).
        for status in ["ready", "pending", "cancelled", "delivered"] {
            let body = json!({ "status": status, "reason": "The customer asked", "rack": "A1" });
            let response = post(&app, &session, &format!("/api/admin/orders/{id}/status"), body).await;
            assert_eq!(response.status(), 200, "any status to any other: {status}");
        }
        let internal = stored(&app, id).id;
        let history = app.with_db(|c| Order::history(c, &internal).unwrap());
        let statuses: Vec<(&str, Option<&str>)> =
            history.iter().map(|h| (h.status.as_str(), h.changed_by.as_deref())).collect();
        assert_eq!(statuses, vec![
            ("pending", None), ("ready", Some(STAFF)), ("pending", Some(STAFF)), ("cancelled", Some(STAFF)), ("delivered", Some(STAFF)),
        ]);
        assert!(history.windows(2).all(|pair| pair[0].changed_at <= pair[1].changed_at));

        let tracked: Value = app.track(id).await.json().await.unwrap();
        assert_eq!(tracked["orders"][0]["status"], "delivered");

        let unknown = post(&app, &session, &format!("/api/admin/orders/{id}/status"), json!({ "status": "lost" })).await;
        assert_eq!(unknown.status(), 400);
        for missing in ["no-such-id", "ZZZZZZZZ", internal.as_str()] {
            let path = format!("/api/admin/orders/{missing}/status");
            let response = post(&app, &session, &path, json!({ "status": "ready", "rack": "A1" })).await;
            assert_eq!(response.status(), 404, "{missing} is no order ID");
        }
        assert_eq!(stored(&app, id).status, laundry::domain::OrderStatus::Delivered);
    }

    async fn a_wrong_payment_is_refused_per_field_and_changes_nothing(app: TestApp) {
        let session = staff(&app).await;
        let placed = an_order().name("Amina Wanjiru").phone("0712345678").service("ironing", 2).location("Kilimani").pay_now().place(&app).await.answer;
        let path = format!("/api/admin/orders/{}/payment", order_id(&placed));

        for (body, field) in [
            (json!({ "method": "mpesa", "mpesaCode": "SHORT" }), "mpesaCode"),
            (json!({ "method": "cheque" }), "method"),
            (json!({ "method": "cash", "amount": "lots" }), "amount"),
            (json!({ "method": "cash", "amount": 0 }), "amount"),
        ] {
            let response = post(&app, &session, &path, body).await;
            assert_eq!(response.status(), 422);
            let error: Value = response.json().await.unwrap();
            assert!(error["fields"][field].is_string(), "{error}");
        }
        assert_eq!(post(&app, &session, &path, json!("paid")).await.status(), 400);
        let unpaid = stored(&app, order_id(&placed));
        let (balance, entries) = money(&app, order_id(&placed));
        assert_eq!((balance.paid, balance.to_pay()), (0, 400), "nothing entered");
        assert!(entries.iter().all(|entry| entry.method.is_none()), "only the charges: {entries:?}");
        let internal = format!("/api/admin/orders/{}/payment", unpaid.id);
        let by_internal_id = post(&app, &session, &internal, json!({ "method": "cash" })).await;
        assert_eq!(by_internal_id.status(), 404, "the internal id names no order");
        assert_eq!(money(&app, order_id(&placed)).0.paid, 0);

        // A payment entered by mistake is corrected by a new entry, with a reason; both stay.
        let cash: Value = post(&app, &session, &path, payment(None)).await.json().await.unwrap();
        assert_eq!((cash["order"]["settlement"].as_str(), cash["order"]["toPay"].as_i64()), (Some("paid"), Some(0)));
        let detail = get(&app, &session, &format!("/api/admin/orders/{}", order_id(&placed))).await;
        let entry = detail["ledger"].as_array().unwrap().last().unwrap().clone();
        assert_eq!((entry["method"].as_str(), entry["amount"].as_i64(), entry["correctable"].as_bool()), (Some("cash"), Some(400), Some(true)));
        let correct = format!("/api/admin/orders/{}/entries/{}/correct", order_id(&placed), entry["id"]);
        let without_reason = post(&app, &session, &correct, json!({ "reason": "  " })).await;
        assert_eq!(without_reason.status(), 422);
        assert!(without_reason.json::<Value>().await.unwrap()["fields"]["reason"].is_string());
        let undone = post(&app, &session, &correct, json!({ "reason": "Entered on the wrong order" })).await;
        let undone: Value = undone.json().await.unwrap();
        assert_eq!((undone["order"]["settlement"].as_str(), undone["order"]["toPay"].as_i64()), (Some("unpaid"), Some(400)));
        let (balance, entries) = money(&app, order_id(&placed));
        assert_eq!(balance.paid, 0);
        let correction = entries.last().unwrap();
        assert_eq!(
            (correction.amount, correction.corrects, correction.note.as_str()),
            (-400, entry["id"].as_i64(), "Entered on the wrong order"),
        );
        assert_eq!(post(&app, &session, &correct, json!({ "reason": "Again" })).await.status(), 409, "corrected once");
    }

    async fn one_mpesa_code_pays_for_one_order_only(app: TestApp) {
        let session = staff(&app).await;
        let first = an_order().name("Amina Wanjiru").phone("0712345678").service("ironing", 2).location("Kilimani").pay_now().place(&app).await.answer;
        let second = an_order().name("Brian Otieno").phone("0722000111").service("ironing", 3).location("Kilimani").pay_now().place(&app).await.answer;
        let pay = |placed: &Value, code: &str| {
            let path = format!("/api/admin/orders/{}/payment", order_id(placed));
            (path, payment(Some(code)))
        };
        let expected = format!(
            "This M-PESA code is already recorded for order {}. Check the code in the customer's M-PESA message.",
            order_id(&first)
        );

        let (path, body) = pay(&first, "qjk3l5x9tz");
        assert_eq!(post(&app, &session, &path, body).await.status(), 200);
        let (path, body) = pay(&first, "QJK3L5X9TZ");
        let again = post(&app, &session, &path, body).await;
        assert_eq!(again.status(), 409, "the same payment typed twice is entered once");
        assert_eq!(again.json::<Value>().await.unwrap()["error"], "This order has nothing to pay.");
        assert_eq!(money(&app, order_id(&first)).0.paid, 400);
        let (path, body) = pay(&second, " QJK3L5X9TZ ");
        let refused = post(&app, &session, &path, body).await;

        assert_eq!(refused.status(), 422);
        let error: Value = refused.json().await.unwrap();
        assert_eq!(error["fields"]["mpesaCode"], expected.as_str());
        let (unchanged, _) = money(&app, order_id(&second));
        assert_eq!((unchanged.paid, unchanged.to_pay()), (0, 600), "the second order is unchanged");

        // The rule is the ledger's, whoever asks (the valet's form, a till payment): checked under
        // the code's lock, so two staff typing it at once wait for each other.
        let second_key = stored(&app, order_id(&second)).id;
        let notify = laundry::notify::NotifyCustomer::nobody();
        let twice = app.with_db(|c| {
            let pay = laundry::lifecycle::money::Pay {
                method: laundry::domain::Method::Code,
                amount: 600,
                code: Some("QJK3L5X9TZ"),
                prompt_id: None,
                by: STAFF,
                entered_by: None,
                tell: false,
            };
            laundry::db::write_transaction(c, |c| laundry::lifecycle::money::pay(c, &second_key, &pay, &notify, app.now()))
        });
        let holder = order_id(&first).to_owned();
        assert!(matches!(twice, Ok(Err(laundry::lifecycle::money::MoneyRefusal::CodeUsed(ref held))) if *held == holder), "{twice:?}");
    }

    async fn a_message_is_marked_handled_and_filtered_by_status(app: TestApp) {
        let session = staff(&app).await;
        for subject in ["First", "Second"] {
            let contact = json!({ "name": "Njeri", "email": "njeri@example.com", "subject": subject, "message": "Hello" });
            app.post_json("/api/contacts", &contact, &[]).await;
        }
        let all = get(&app, &session, "/api/admin/messages").await;
        assert_eq!(all["items"][0]["subject"], "Second", "newest first");
        let id = all["items"][1]["id"].as_str().unwrap();

        let handled = post(&app, &session, &format!("/api/admin/messages/{id}/status"), json!({ "status": "handled" })).await;
        assert_eq!(handled.status(), 200);
        let handled: Value = handled.json().await.unwrap();
        assert_eq!((handled["message"]["status"].as_str(), handled["message"]["handledBy"].as_str()), (Some("handled"), Some(STAFF)));
        assert_eq!(handled["stats"]["newMessages"], 1);

        let new_only = get(&app, &session, "/api/admin/messages?status=new").await;
        assert_eq!((new_only["total"].as_i64(), new_only["items"][0]["subject"].as_str()), (Some(1), Some("Second")));
        assert_eq!(get(&app, &session, "/api/admin/messages?status=handled").await["total"], 1);
        let bad = post(&app, &session, &format!("/api/admin/messages/{id}/status"), json!({ "status": "archived" })).await;
        assert_eq!(bad.status(), 400);
    }

    async fn the_dashboard_is_rendered_on_the_server_with_its_first_page(app: TestApp) {
        let session = staff(&app).await;
        let placed = an_order().name("Amina Wanjiru").phone("0712345678").service("ironing", 2).location("Kilimani").pay_now().place(&app).await.answer;

        let response = app.get_with("/admin", &[("cookie", &session.cookie)]).await;

        assert_eq!(response.status(), 200);
        assert!(response.headers()["cache-control"].to_str().unwrap().contains("no-store"));
        let page = response.text().await.unwrap();
        for text in ["Admin Dashboard", "Manage orders and customer inquiries", "Total Revenue", "Total Orders", "Pending Orders", "Amina Wanjiru"] {
            assert!(page.contains(text), "the server-rendered dashboard lacks {text}");
        }
        assert!(page.contains(&format!("#{}", order_id(&placed))), "the order ID column: '#' and the order ID");
        assert!(page.contains("Pickup: Kilimani"), "the pickup location");
    }

    async fn signing_out_lands_on_the_login_page_saying_so(app: TestApp) {
        let session = staff(&app).await;

        let out = app.staff_request(Method::POST, "/admin/logout", &session, true).send().await.unwrap();

        assert_eq!(out.status(), 303);
        let location = out.headers()["location"].to_str().unwrap().to_owned();
        let page = app.get(&location).await.text().await.unwrap();
        assert!(page.contains("You have signed out."), "the login page at {location} says so");
        assert!(!app.get("/admin/login").await.text().await.unwrap().contains("You have signed out."), "only then");
        let after = app.staff_request(Method::GET, "/api/admin/stats", &session, false).send().await.unwrap();
        assert_eq!(after.status(), 401, "the session is over");
    }
}
