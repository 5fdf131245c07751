//! One order opened from the dashboard (`GET /api/admin/orders/{orderId}`) against both backends:
//! what the customer gave, the lines, the status history with who and when, the payment, the
//! e-mails about it; only by its order ID, and only for staff.

use crate::helpers::TestApp;
use crate::helpers::orders::{order_id, order_with, stored};
use crate::helpers::staff::{STAFF, get, post, staff};
use crate::on_both_backends;
use reqwest::Method;
use serde_json::{Value, json};

/// An order with an e-mail, instructions, a kg line and two kinds of pieces, paid on delivery.
async fn detailed_order(app: &TestApp) -> Value {
    order_with(
        app,
        json!({
            "customerName": "Achieng Odhiambo", "phone": "0712 345 678", "email": "achieng@example.com",
            "location": "Kilimani, Argwings Kodhek Rd, Hse 4", "serviceType": "wash-fold", "quantity": 3,
            "paymentMethod": "pay-delivery", "specialInstructions": "Gate code 1234. Call on arrival.",
            "pieces": { "shirt": 2, "graduation-gown": 1 }
        }),
    )
    .await
}

on_both_backends! {
    async fn the_detail_shows_what_the_customer_gave_the_lines_the_history_and_the_emails(app: TestApp) {
        let session = staff(&app).await;
        let placed = detailed_order(&app).await;
        let id = order_id(&placed);
        for status in ["picked-up", "in-progress"] {
            let changed = post(&app, &session, &format!("/api/admin/orders/{id}/status"), json!({ "status": status })).await;
            assert_eq!(changed.status(), 200);
        }
        let paid = post(&app, &session, &format!("/api/admin/orders/{id}/payment"),
            json!({ "method": "cash" })).await;
        assert_eq!(paid.status(), 200);

        let detail = get(&app, &session, &format!("/api/admin/orders/{id}")).await;

        assert_eq!(detail["id"], id);
        for (field, value) in [
            ("customerName", "Achieng Odhiambo"), ("phone", "+254712345678"), ("email", "achieng@example.com"),
            ("location", "Kilimani, Argwings Kodhek Rd, Hse 4"), ("specialInstructions", "Gate code 1234. Call on arrival."),
            ("paymentMethod", "pay-delivery"), ("status", "in-progress"), ("settlement", "paid"),
            ("moneyWords", "Paid KSh 1,550"),
        ] {
            assert_eq!(detail[field], value, "{field}");
        }
        // The ledger: a charge per line when it was placed, then the cash, under who took it.
        type Row<'a> = (&'a str, Option<&'a str>, &'a str, i64, Option<&'a str>, bool);
        let ledger: Vec<Row<'_>> = detail["ledger"].as_array().unwrap().iter().map(|entry| {
            (entry["kind"].as_str().unwrap(), entry["method"].as_str(), entry["what"].as_str().unwrap(),
             entry["amount"].as_i64().unwrap(), entry["by"].as_str(), entry["correctable"].as_bool().unwrap())
        }).collect();
        assert_eq!(ledger, vec![
            ("charge", None, "Wash & Fold × 3", 450, None, false),
            ("charge", None, "Shirt × 2", 400, None, false),
            ("charge", None, "Graduation Gown", 700, None, false),
            ("payment", Some("cash"), "Cash", 1550, Some(STAFF), true),
        ]);
        let lines: Vec<(&str, &str, i64, i64)> = detail["lines"].as_array().unwrap().iter().map(|line| {
            (line["kind"].as_str().unwrap(), line["item"].as_str().unwrap(), line["quantity"].as_i64().unwrap(), line["amount"].as_i64().unwrap())
        }).collect();
        assert_eq!(lines, vec![("kg", "wash-fold", 3, 450), ("piece", "shirt", 2, 400), ("piece", "graduation-gown", 1, 700)]);
        assert_eq!(detail["totalAmount"], 1550, "the total is the sum of the lines");

        let history: Vec<(&str, Option<&str>)> = detail["history"].as_array().unwrap().iter()
            .map(|change| (change["status"].as_str().unwrap(), change["by"].as_str())).collect();
        assert_eq!(history, vec![("pending", None), ("picked-up", Some(STAFF)), ("in-progress", Some(STAFF))]);
        let times: Vec<time::OffsetDateTime> = detail["history"].as_array().unwrap().iter().map(|change| {
            time::OffsetDateTime::parse(change["at"].as_str().unwrap(), &time::format_description::well_known::Rfc3339).unwrap()
        }).collect();
        assert!(times.windows(2).all(|pair| pair[0] <= pair[1]), "oldest first, each with its time: {times:?}");
        assert_eq!(detail["history"][0]["at"], detail["createdAt"], "the order was placed pending");

        // The server of this test has no e-mail or SMS settings: both e-mails and the texts (order
        // received, picked up with the bill) wait in the outbox; the payment, made while the
        // picked-up text waits, is said in it rather than in a text of its own.
        let mut messages: Vec<(&str, &str, &str, &str, &str)> = detail["messages"].as_array().unwrap().iter().map(|message| {
            (message["kind"].as_str().unwrap(), message["channel"].as_str().unwrap(), message["to"].as_str().unwrap(), message["status"].as_str().unwrap(), message["orderId"].as_str().unwrap())
        }).collect();
        messages.sort(); // several written at one time
        assert_eq!(messages, vec![
            ("order-admin", "email", "staff", "pending", id),
            ("order-customer", "email", "achieng@example.com", "pending", id),
            ("sms-order-received", "sms", "+254712345678", "pending", id),
            ("sms-picked-up", "sms", "+254712345678", "pending", id),
        ]);
        assert!(detail["messages"].as_array().unwrap().iter().all(|m| m["delivery"].is_null()), "no report yet");
        let internal = stored(&app, id).id;
        assert!(!detail.to_string().contains(&internal), "the internal id never leaves the server");
    }

    async fn an_unknown_order_id_and_the_internal_id_find_no_order(app: TestApp) {
        let session = staff(&app).await;
        let placed = detailed_order(&app).await;
        let internal = stored(&app, order_id(&placed)).id;

        for missing in ["ZZZZZZZZ", internal.as_str(), "not-an-id"] {
            let response = app.staff_request(Method::GET, &format!("/api/admin/orders/{missing}"), &session, false).send().await.unwrap();
            assert_eq!(response.status(), 404, "{missing}");
            let body: Value = response.json().await.unwrap();
            assert_eq!(body["error"], "There is no such order.");
        }
        let typed = get(&app, &session, &format!("/api/admin/orders/%23{}", order_id(&placed).to_lowercase())).await;
        assert_eq!(typed["id"], order_id(&placed), "as the table shows it, in any case");
    }

    async fn the_detail_is_for_signed_in_staff_only(app: TestApp) {
        let placed = detailed_order(&app).await;

        let response = app.get(&format!("/api/admin/orders/{}", order_id(&placed))).await;

        assert_eq!(response.status(), 401);
        let body = response.text().await.unwrap();
        assert!(!body.contains("Achieng") && !body.contains("Gate code"), "nothing of the order: {body}");
    }
}
