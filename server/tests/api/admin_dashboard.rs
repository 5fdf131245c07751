//! The staff dashboard against both backends: stats, pagination, filters, status and payment
//! changes, handled messages, and the server-rendered first page.

use crate::helpers::{SignedIn, TestApp};
use crate::on_both_backends;
use laundry::models::order::Order;
use reqwest::Method;
use serde_json::{Value, json};

const EMAIL: &str = "wanjiku@example.com";
const PASSWORD: &str = "Tumbo-Ngoma-47-Kazi";

/// Places an order; returns its JSON.
async fn order(app: &TestApp, name: &str, phone: &str, service: &str, kg: u32) -> Value {
    let body = json!({
        "customerName": name, "phone": phone, "location": "Kilimani",
        "serviceType": service, "quantity": kg, "paymentMethod": "pay-now"
    });
    let key = uuid::Uuid::new_v4().to_string(); // each call a new order
    let response = app.post_json("/api/orders", &body, &[("Idempotency-Key", &key)]).await;
    assert_eq!(response.status(), 201);
    response.json().await.unwrap()
}

async fn staff(app: &TestApp) -> SignedIn {
    app.create_staff(EMAIL, PASSWORD);
    app.sign_in(EMAIL, PASSWORD).await
}

async fn get(app: &TestApp, session: &SignedIn, path: &str) -> Value {
    let response = app.staff_request(Method::GET, path, session, false).send().await.unwrap();
    assert_eq!(response.status(), 200, "GET {path}");
    response.json().await.unwrap()
}

async fn post(app: &TestApp, session: &SignedIn, path: &str, body: Value) -> reqwest::Response {
    app.staff_request(Method::POST, path, session, true).json(&body).send().await.unwrap()
}

fn references(page: &Value) -> Vec<String> {
    page["items"].as_array().unwrap().iter().map(|o| o["reference"].as_str().unwrap().to_owned()).collect()
}

on_both_backends! {
    async fn the_stats_count_revenue_orders_pending_and_messages(app: TestApp) {
        let session = staff(&app).await;
        let first = order(&app, "Amina Wanjiru", "0712345678", "dry-cleaning", 3).await; // 1500
        order(&app, "Brian Otieno", "0722000111", "ironing", 2).await; // 400
        let contact = json!({ "name": "Njeri", "email": "njeri@example.com", "subject": "Hours", "message": "Open Sunday?" });
        assert_eq!(app.post_json("/api/contacts", &contact, &[]).await.status(), 201);

        let stats = get(&app, &session, "/api/admin/stats").await;
        assert_eq!(stats, json!({
            "totalRevenue": 1900, "paidRevenue": 0, "totalOrders": 2, "pendingOrders": 2, "messages": 1, "newMessages": 1
        }));

        let id = first["id"].as_str().unwrap();
        let changed = post(&app, &session, &format!("/api/admin/orders/{id}/status"), json!({ "status": "picked-up" })).await;
        assert_eq!(changed.status(), 200);
        let paid = post(&app, &session, &format!("/api/admin/orders/{id}/payment"),
            json!({ "paymentStatus": "paid", "paidVia": "mpesa", "mpesaCode": "qjk3l5x9tz" })).await;
        assert_eq!(paid.status(), 200);
        let paid: Value = paid.json().await.unwrap();
        assert_eq!(paid["order"]["mpesaCode"], "QJK3L5X9TZ");
        assert_eq!(paid["order"]["paymentStatus"], "paid");
        assert_eq!(paid["order"]["status"], "picked-up", "payment is kept apart from the work status");
        assert_eq!(paid["stats"]["pendingOrders"], 1);
        assert_eq!(paid["stats"]["paidRevenue"], 1500);
        assert_eq!(paid["stats"]["totalRevenue"], 1900);
    }

    async fn orders_are_paginated_newest_first(app: TestApp) {
        let session = staff(&app).await;
        let mut placed = Vec::new();
        for n in 0..23 {
            placed.push(order(&app, &format!("Customer {n}"), "0712345678", "wash-fold", 1).await["reference"].as_str().unwrap().to_owned());
        }
        placed.reverse();

        let first = get(&app, &session, "/api/admin/orders").await;
        let second = get(&app, &session, "/api/admin/orders?page=2").await;

        assert_eq!((first["total"].as_i64(), first["pageSize"].as_i64(), first["page"].as_i64()), (Some(23), Some(20), Some(1)));
        assert_eq!(references(&first), placed[..20].to_vec());
        assert_eq!(references(&second), placed[20..].to_vec());
        assert_eq!(references(&get(&app, &session, "/api/admin/orders?page=3").await), Vec::<String>::new());
        for bad in ["page=0", "page=abc", "page=99999999", "status=lost"] {
            let response = app.staff_request(Method::GET, &format!("/api/admin/orders?{bad}"), &session, false).send().await.unwrap();
            assert_eq!(response.status(), 400, "{bad}");
        }
    }

    async fn orders_are_filtered_by_status_and_found_by_name_phone_or_reference(app: TestApp) {
        let session = staff(&app).await;
        let amina = order(&app, "Amina Wanjiru", "0712345678", "ironing", 2).await;
        let brian = order(&app, "Brian Otieno", "0722000111", "bedding", 4).await;
        order(&app, "Percent 100% Sure_Name", "0733444555", "ironing", 1).await;
        let id = brian["id"].as_str().unwrap();
        post(&app, &session, &format!("/api/admin/orders/{id}/status"), json!({ "status": "ready" })).await;

        let amina_ref = amina["reference"].as_str().unwrap().to_owned();
        let brian_ref = brian["reference"].as_str().unwrap().to_owned();
        let found = |query: &'static str| {
            let (app, session) = (&app, &session);
            async move { references(&get(app, session, &format!("/api/admin/orders?{query}")).await) }
        };
        assert_eq!(found("status=ready").await, vec![brian_ref.clone()]);
        assert_eq!(found("status=pending").await.len(), 2);
        assert_eq!(found("q=wanJIRU").await, vec![amina_ref.clone()], "a part of the name, any case");
        assert_eq!(found("q=0722%20000%20111").await, vec![brian_ref.clone()], "a phone number as typed");
        assert_eq!(found("q=000111").await, vec![brian_ref.clone()], "the last digits of a phone number");
        let by_reference = get(&app, &session, &format!("/api/admin/orders?q={}", amina_ref.to_lowercase())).await;
        assert_eq!(references(&by_reference), vec![amina_ref.clone()]);
        assert_eq!(found("q=%25").await.len(), 1, "% is a character to find, not a wildcard");
        let shown_id = format!("%23{}", &amina["id"].as_str().unwrap()[28..]);
        let by_shown_id = get(&app, &session, &format!("/api/admin/orders?q={shown_id}")).await;
        assert_eq!(references(&by_shown_id), vec![amina_ref.clone()], "the id as the table shows it, #1a2b3c4d");
        assert_eq!(found("status=ready&q=amina").await.len(), 0, "filters combine");
    }

    async fn a_status_change_is_recorded_with_its_time_and_staff_and_shows_in_tracking(app: TestApp) {
        let session = staff(&app).await;
        let placed = order(&app, "Amina Wanjiru", "0712345678", "ironing", 2).await;
        let id = placed["id"].as_str().unwrap();
        let reference = placed["reference"].as_str().unwrap();

        for status in ["ready", "pending", "cancelled", "delivered"] {
            let response = post(&app, &session, &format!("/api/admin/orders/{id}/status"), json!({ "status": status })).await;
            assert_eq!(response.status(), 200, "any status to any other: {status}");
        }
        let history = app.with_db(|c| Order::history(c, id).unwrap());
        let statuses: Vec<(&str, Option<&str>)> =
            history.iter().map(|h| (h.status.as_str(), h.changed_by.as_deref())).collect();
        assert_eq!(statuses, vec![
            ("pending", None), ("ready", Some(EMAIL)), ("pending", Some(EMAIL)), ("cancelled", Some(EMAIL)), ("delivered", Some(EMAIL)),
        ]);
        assert!(history.windows(2).all(|pair| pair[0].changed_at <= pair[1].changed_at));

        let tracked: Value = app.get(&format!("/api/tracking?by=order&q={reference}")).await.json().await.unwrap();
        assert_eq!(tracked["orders"][0]["status"], "delivered");

        let unknown = post(&app, &session, &format!("/api/admin/orders/{id}/status"), json!({ "status": "lost" })).await;
        assert_eq!(unknown.status(), 400);
        let missing = post(&app, &session, "/api/admin/orders/no-such-id/status", json!({ "status": "ready" })).await;
        assert_eq!(missing.status(), 404);
        assert_eq!(app.with_db(|c| Order::find(c, id).unwrap().unwrap().status), laundry::domain::OrderStatus::Delivered);
    }

    async fn a_wrong_payment_is_refused_per_field_and_changes_nothing(app: TestApp) {
        let session = staff(&app).await;
        let placed = order(&app, "Amina Wanjiru", "0712345678", "ironing", 2).await;
        let path = format!("/api/admin/orders/{}/payment", placed["id"].as_str().unwrap());

        for (body, field) in [
            (json!({ "paymentStatus": "paid", "paidVia": "mpesa", "mpesaCode": "SHORT" }), "mpesaCode"),
            (json!({ "paymentStatus": "paid", "paidVia": "cheque" }), "paidVia"),
            (json!({ "paymentStatus": "maybe" }), "paymentStatus"),
        ] {
            let response = post(&app, &session, &path, body).await;
            assert_eq!(response.status(), 422);
            let error: Value = response.json().await.unwrap();
            assert!(error["fields"][field].is_string(), "{error}");
        }
        assert_eq!(post(&app, &session, &path, json!("paid")).await.status(), 400);
        let stored = app.with_db(|c| Order::find(c, placed["id"].as_str().unwrap()).unwrap().unwrap());
        assert_eq!((stored.payment_status.as_str(), stored.mpesa_code), ("unpaid", None));

        let cash = post(&app, &session, &path, json!({ "paymentStatus": "paid", "paidVia": "cash" })).await;
        assert_eq!(cash.json::<Value>().await.unwrap()["order"]["paidVia"], "cash");
        let undone = post(&app, &session, &path, json!({ "paymentStatus": "unpaid" })).await;
        let undone: Value = undone.json().await.unwrap();
        assert_eq!((undone["order"]["paymentStatus"].as_str(), &undone["order"]["paidAt"]), (Some("unpaid"), &Value::Null));
    }

    async fn one_mpesa_code_pays_for_one_order_only(app: TestApp) {
        let session = staff(&app).await;
        let first = order(&app, "Amina Wanjiru", "0712345678", "ironing", 2).await;
        let second = order(&app, "Brian Otieno", "0722000111", "ironing", 3).await;
        let pay = |placed: &Value, code: &str| {
            let path = format!("/api/admin/orders/{}/payment", placed["id"].as_str().unwrap());
            (path, json!({ "paymentStatus": "paid", "paidVia": "mpesa", "mpesaCode": code }))
        };

        let (path, body) = pay(&first, "qjk3l5x9tz");
        assert_eq!(post(&app, &session, &path, body).await.status(), 200);
        let (path, body) = pay(&first, "QJK3L5X9TZ");
        assert_eq!(post(&app, &session, &path, body).await.status(), 200, "the same order again is fine");
        let (path, body) = pay(&second, " QJK3L5X9TZ ");
        let refused = post(&app, &session, &path, body).await;

        assert_eq!(refused.status(), 422);
        let error: Value = refused.json().await.unwrap();
        let expected = format!(
            "This M-PESA code is already recorded for order {}. Check the code in the customer's M-PESA message.",
            first["reference"].as_str().unwrap()
        );
        assert_eq!(error["fields"]["mpesaCode"], expected.as_str());
        let stored = app.with_db(|c| Order::find(c, second["id"].as_str().unwrap()).unwrap().unwrap());
        assert_eq!((stored.payment_status.as_str(), stored.mpesa_code), ("unpaid", None), "the second order is unchanged");

        let (path, _) = pay(&first, "");
        assert_eq!(post(&app, &session, &path, json!({ "paymentStatus": "unpaid" })).await.status(), 200);
        let (path, body) = pay(&second, "QJK3L5X9TZ");
        assert_eq!(post(&app, &session, &path, body).await.status(), 200, "a code freed by undoing a payment can be used");

        // Two staff members typing one code at once: the database holds the line as well.
        let twice = app.with_db(|c| {
            use diesel::prelude::*;
            use laundry::db::schema::orders;
            diesel::update(orders::table.find(first["id"].as_str().unwrap()))
                .set(orders::mpesa_code.eq("QJK3L5X9TZ"))
                .execute(c)
        });
        assert!(
            matches!(twice, Err(diesel::result::Error::DatabaseError(diesel::result::DatabaseErrorKind::UniqueViolation, _))),
            "{twice:?}"
        );
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
        assert_eq!((handled["message"]["status"].as_str(), handled["message"]["handledBy"].as_str()), (Some("handled"), Some(EMAIL)));
        assert_eq!(handled["stats"]["newMessages"], 1);

        let new_only = get(&app, &session, "/api/admin/messages?status=new").await;
        assert_eq!((new_only["total"].as_i64(), new_only["items"][0]["subject"].as_str()), (Some(1), Some("Second")));
        assert_eq!(get(&app, &session, "/api/admin/messages?status=handled").await["total"], 1);
        let bad = post(&app, &session, &format!("/api/admin/messages/{id}/status"), json!({ "status": "archived" })).await;
        assert_eq!(bad.status(), 400);
    }

    async fn the_dashboard_is_rendered_on_the_server_with_its_first_page(app: TestApp) {
        let session = staff(&app).await;
        let placed = order(&app, "Amina Wanjiru", "0712345678", "ironing", 2).await;
        let id = placed["id"].as_str().unwrap();

        let response = app.get_with("/admin", &[("cookie", &session.cookie)]).await;

        assert_eq!(response.status(), 200);
        assert!(response.headers()["cache-control"].to_str().unwrap().contains("no-store"));
        let page = response.text().await.unwrap();
        for text in ["Admin Dashboard", "Manage orders and customer inquiries", "Total Revenue", "Total Orders", "Pending Orders", "Amina Wanjiru"] {
            assert!(page.contains(text), "the server-rendered dashboard lacks {text}");
        }
        assert!(page.contains(&format!("#{}", &id[id.len() - 8..])), "the order id column");
    }
}
