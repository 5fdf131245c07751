//! Orders with lines: a service by the kg and price-list items by the piece, priced on the server
//! from the catalogue; the form that an item picked elsewhere lands in; the first-order discount.

use crate::helpers::orders::an_order;
use crate::helpers::{Backend, TestApp, quick_retries};
use crate::on_both_backends;
use laundry::domain::{LineKind, OrderReference};
use laundry::models::order::{Order, OrderLine};
use serde_json::{Value, json};

/// The stored order with this order ID, and its lines.
fn stored(app: &TestApp, order_id: &str) -> (Order, Vec<OrderLine>) {
    let reference = OrderReference::parse(order_id).expect("an order ID");
    app.with_db(|c| {
        let order = Order::find_by_reference(c, &reference).unwrap().expect("stored");
        let lines = Order::lines(c, &order.id).unwrap();
        (order, lines)
    })
}

fn summary(lines: &[OrderLine]) -> Vec<(String, i32, i32)> {
    lines.iter().map(|line| (line.item.clone(), line.quantity, line.amount)).collect()
}

on_both_backends! {
    async fn an_order_with_a_kg_line_and_pieces_is_priced_from_the_catalogue_whatever_the_client_says(app: TestApp) {
        let response = app.post_json("/api/orders", &an_order().phone("0712345678").pieces(json!({"graduation-gown": 1})).with("piece.shirt", "2").with("piece.vest", "").with("totalAmount", 1).with("pricePerKg", 1).body(), &[]).await;

        assert_eq!(response.status(), 201);
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["totalAmount"], 450 + 400 + 700);
        let labels: Vec<&str> = body["lines"].as_array().unwrap().iter().map(|l| l["label"].as_str().unwrap()).collect();
        assert_eq!(labels, ["Wash & Fold", "Shirt", "Graduation Gown"]);
        let (order, lines) = stored(&app, body["id"].as_str().unwrap());
        assert_eq!(
            summary(&lines),
            [("wash-fold".into(), 3, 450), ("shirt".into(), 2, 400), ("graduation-gown".into(), 1, 700)]
        );
        // The spec's fields describe the main (kg) line; the total is the order's.
        assert_eq!((order.service_type.as_str(), order.quantity, order.price_per_kg), ("wash-fold", 3, 150));
        assert_eq!(order.total_amount, 1550);
        let tracked: Value = app.track(&order.reference).await.json().await.unwrap();
        let tracked_lines: Vec<&str> =
            tracked["orders"][0]["lines"].as_array().unwrap().iter().map(|l| l["item"].as_str().unwrap()).collect();
        assert_eq!(tracked_lines, ["wash-fold", "shirt", "graduation-gown"], "tracking shows what the total is made of");
        assert_eq!(tracked["orders"][0]["total"], 1550);
    }

    async fn general_laundry_is_500_for_up_to_5_kg_and_100_for_each_additional_kg(app: TestApp) {
        let mut body = an_order().phone("0712345678").pieces(json!({"graduation-gown": 1})).with("piece.shirt", "2").with("piece.vest", "").with("totalAmount", 1).with("pricePerKg", 1).body();
        body["serviceType"] = json!("general-laundry");
        body["quantity"] = json!(7);
        body["pieces"] = json!({});
        body["piece.shirt"] = json!("");

        let response = app.post_json("/api/orders", &body, &[]).await;

        assert_eq!(response.status(), 201);
        let body: Value = response.json().await.unwrap();
        assert_eq!((body["serviceLabel"].as_str(), body["totalAmount"].as_i64()), (Some("General Laundry"), Some(700)));
    }

    async fn a_price_list_item_can_be_ordered_alone_at_its_price(app: TestApp) {
        let mut body = an_order().phone("0712345678").pieces(json!({"graduation-gown": 1})).with("piece.shirt", "2").with("piece.vest", "").with("totalAmount", 1).with("pricePerKg", 1).body();
        body["serviceType"] = json!("");
        body["quantity"] = json!("");
        body["piece.shirt"] = json!("0");

        let response = app.post_json("/api/orders", &body, &[]).await;

        let status = response.status();
        let body: Value = response.json().await.unwrap();
        assert_eq!(status, 201, "{body}");
        let (order, lines) = stored(&app, body["id"].as_str().unwrap());
        assert_eq!(summary(&lines), [("graduation-gown".into(), 1, 700)]);
        assert_eq!((order.service_type.as_str(), order.quantity, order.total_amount), ("pieces", 0, 700));
        assert_eq!(body["serviceLabel"], "Items by the piece");
    }

    async fn a_wrong_piece_is_refused_by_name_and_nothing_is_stored(app: TestApp) {
        for (field, value) in [("piece.shirt", json!(51)), ("piece.rocket", json!(1)), ("piece.towel", json!(2.5))] {
            let mut body = an_order().phone("0712345678").pieces(json!({"graduation-gown": 1})).with("piece.shirt", "2").with("piece.vest", "").with("totalAmount", 1).with("pricePerKg", 1).body();
            body[field] = value.clone();

            let response = app.post_json("/api/orders", &body, &[]).await;

            assert_eq!(response.status(), 422, "{field} = {value}");
            let answer: Value = response.json().await.unwrap();
            assert!(answer["fields"][field].as_str().is_some_and(|m| !m.is_empty()), "{field}: {answer}");
        }
        assert_eq!(app.with_db(|c| Order::count(c).unwrap()), 0);
    }

    async fn a_plain_form_post_with_pieces_stores_them_and_the_confirmation_lists_every_line(app: TestApp) {
        let response = app
            .post_form(
                "/order",
                &[
                    ("customerName", "Brian Otieno"), ("phone", "0722000111"), ("location", "Westlands"),
                    ("serviceType", "ironing"), ("quantity", "2"), ("paymentMethod", "pay-now"),
                    ("piece.teddy-bear-large", "1"), ("piece.shirt", "0"), ("piece.towel", ""),
                ],
            )
            .await;

        assert_eq!(response.status(), 303);
        let location = response.headers()["location"].to_str().unwrap().to_owned();
        let order_id = location.rsplit('=').next().unwrap().to_owned();
        let (order, lines) = stored(&app, &order_id);
        assert_eq!(summary(&lines), [("ironing".into(), 2, 400), ("teddy-bear-large".into(), 1, 500)]);
        assert_eq!(order.total_amount, 900);
        let page = app.get(&location).await.text().await.unwrap();
        assert!(page.contains(&order_id), "the confirmation shows the order ID");
        assert!(page.contains("Teddy Bear (Large)") && page.contains("Ironing"), "and every line");
        assert!(page.contains("900"), "and the total");
    }

    async fn a_form_sent_back_with_mistakes_keeps_the_pieces(app: TestApp) {
        let response = app
            .post_form("/order", &[("customerName", ""), ("serviceType", "ironing"), ("quantity", "2"), ("piece.buibui", "3")])
            .await;

        assert_eq!(response.status(), 422);
        let page = response.text().await.unwrap();
        assert!(page.contains(r#""piece.buibui":"3""#), "the piece comes back in the form's values");
    }

    async fn an_item_not_on_the_price_list_is_said_above_the_form_sent_back(app: TestApp) {
        let response = app
            .post_form("/order", &[("customerName", "Brian"), ("phone", "0722000111"), ("location", "Westlands"), ("piece.spaceship", "1")])
            .await;

        assert_eq!(response.status(), 422);
        let page = response.text().await.unwrap();
        assert!(page.contains(">Some items could not be read."), "the message is rendered, not only in the props");
        assert_eq!(app.with_db(|c| Order::count(c).unwrap()), 0);
    }
}

#[actix_web::test]
async fn an_item_picked_elsewhere_lands_in_the_order_form_without_javascript() {
    let app = TestApp::builder().start().await;

    let with_shirt = app.get("/order?add=shirt").await;
    let with_general = app.get("/order?add=additional-kg").await;
    let unknown = app.get("/order?add=spaceship").await;

    assert_eq!(with_shirt.status(), 200);
    assert!(with_shirt.text().await.unwrap().contains(r#""piece.shirt":"1""#));
    assert!(with_general.text().await.unwrap().contains(r#""serviceType":"general-laundry""#));
    assert_eq!(unknown.status(), 200, "an unknown item shows the plain form");
    assert!(!unknown.text().await.unwrap().contains(r#""values":"#), "the plain form, nothing filled in");
}

async fn first_order_discount_is_a_line_of_a_phone_numbers_first_order_only(backend: Backend) {
    let app = TestApp::builder()
        .on(backend)
        .set("LAUNDRY_FIRST_ORDER_DISCOUNT_KES", "200")
        .retries(quick_retries())
        .start()
        .await;
    let place = |phone: &str, key: &str| {
        let order = an_order()
            .phone(phone)
            .pieces(json!({"graduation-gown": 1}))
            .with("piece.shirt", "2")
            .with("piece.vest", "")
            .with("totalAmount", 1)
            .with("pricePerKg", 1)
            .idempotency_key(key);
        async { stored(&app, &order.place(&app).await.reference) }
    };

    let (first, first_lines) = place("0712345678", "first").await;
    let (second, second_lines) = place("+254712345678", "second").await;
    let (other, _) = place("0799000111", "other").await;

    let discount = first_lines.last().unwrap();
    assert_eq!((discount.kind, discount.amount), (LineKind::Discount, -200));
    assert_eq!(first.total_amount, 1550 - 200);
    assert!(second_lines.iter().all(|line| line.kind != LineKind::Discount), "the same phone's second order");
    assert_eq!(second.total_amount, 1550);
    assert_eq!(other.total_amount, 1350, "another phone's first order");
}

#[actix_web::test]
async fn first_order_discount_on_sqlite() {
    first_order_discount_is_a_line_of_a_phone_numbers_first_order_only(Backend::Sqlite).await;
}

#[actix_web::test]
async fn first_order_discount_on_postgres() {
    if crate::helpers::postgres_skipped() {
        return;
    }
    first_order_discount_is_a_line_of_a_phone_numbers_first_order_only(Backend::Postgres).await;
}

/// Several first orders from one new phone at once (two tabs, two people of one household): one
/// discount, on both backends.
async fn first_orders_sent_at_once_get_one_discount(backend: Backend) {
    let app = TestApp::builder()
        .on(backend)
        .set("LAUNDRY_FIRST_ORDER_DISCOUNT_KES", "200")
        .retries(quick_retries())
        .start()
        .await;
    let keys: Vec<String> = (0..6).map(|n| format!("at-once-{n}")).collect();

    let body = an_order()
        .phone("0733444555")
        .pieces(json!({"graduation-gown": 1}))
        .with("piece.shirt", "2")
        .with("piece.vest", "")
        .with("totalAmount", 1)
        .with("pricePerKg", 1)
        .body();
    let headers: Vec<[(&str, &str); 1]> = keys.iter().map(|key| [("Idempotency-Key", key.as_str())]).collect();

    let answers =
        futures::future::join_all(headers.iter().map(|header| app.post_json("/api/orders", &body, header))).await;

    assert!(answers.iter().all(|answer| answer.status() == 201));
    let discounts: i64 = app.with_db(|c| {
        use diesel::prelude::*;
        use laundry::db::schema::order_lines;
        order_lines::table.filter(order_lines::kind.eq(LineKind::Discount)).count().get_result(c).unwrap()
    });
    assert_eq!(discounts, 1);
}

#[actix_web::test]
async fn first_orders_at_once_on_sqlite() {
    first_orders_sent_at_once_get_one_discount(Backend::Sqlite).await;
}

#[actix_web::test]
async fn first_orders_at_once_on_postgres() {
    if crate::helpers::postgres_skipped() {
        return;
    }
    first_orders_sent_at_once_get_one_discount(Backend::Postgres).await;
}
