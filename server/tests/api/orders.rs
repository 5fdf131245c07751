//! Placing orders through the API and the plain form, on both backends.

use crate::helpers::TestApp;
use crate::on_both_backends;
use laundry::domain::PaymentMethod;
use laundry::models::order::Order;
use laundry::views::requests::OrderBody;
use serde_json::{Value, json};

fn valid_order() -> Value {
    json!({
        "customerName": "Amina Wanjiru",
        "phone": "0712 345 678",
        "email": "amina@example.com",
        "location": "Kilimani, Argwings Kodhek Rd",
        "serviceType": "dry-cleaning",
        "quantity": 3,
        "paymentMethod": "pay-now",
        "specialInstructions": "Red wine stain on the white shirt"
    })
}

fn with(field: &str, value: Value) -> Value {
    let mut order = valid_order();
    order[field] = value;
    order
}

/// An order as the plain form sends it.
const FORM_ORDER: [(&str, &str); 6] = [
    ("customerName", "Brian Otieno"),
    ("phone", "0722 000 111"),
    ("location", "Westlands"),
    ("serviceType", "ironing"),
    ("quantity", "2"),
    ("paymentMethod", "pay-delivery"),
];

/// [`FORM_ORDER`] with some fields changed or added.
fn form_with<'a>(changes: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut fields: Vec<(&str, &str)> = FORM_ORDER.to_vec();
    for &(name, value) in changes {
        match fields.iter_mut().find(|(field, _)| *field == name) {
            Some(field) => field.1 = value,
            None => fields.push((name, value)),
        }
    }
    fields
}

fn stored_orders(app: &TestApp) -> i64 {
    app.with_db(|c| Order::count(c).unwrap())
}

on_both_backends! {
    async fn an_order_sent_as_the_hydrated_form_sends_it_is_stored(app: TestApp) {
        // Every field of the generated `OrderBody`, values as typed.
        let order = OrderBody {
            customer_name: "Amina Wanjiru".to_owned(),
            phone: "0712 345 678".to_owned(),
            email: Some(String::new()),
            location: "Kilimani, Argwings Kodhek Rd".to_owned(),
            landmark: Some("Opposite Yaya Centre, blue gate".to_owned()),
            service_type: "wash-fold".to_owned(),
            quantity: " 3 ".to_owned(),
            payment_method: PaymentMethod::PayDelivery,
            special_instructions: "Call at the gate".to_owned(),
            pickup: Some(String::new()),
            rush: true,
            pin_lat: Some("-1.2921".to_owned()),
            pin_lng: Some("36.7873".to_owned()),
            pieces: [("shirt".to_owned(), "2".to_owned()), ("graduation-gown".to_owned(), String::new())].into(),
        };

        let response = app.post_json("/api/orders", &serde_json::to_value(&order).unwrap(), &[]).await;

        assert_eq!(response.status(), 201);
        let body: Value = response.json().await.unwrap();
        assert_eq!((body["phone"].as_str(), body["paymentMethod"].as_str()), (Some("+254712345678"), Some("pay-delivery")));
        assert_eq!(body["email"], Value::Null, "an empty e-mail is none");
        let lines: Vec<(&str, i64)> = body["lines"]
            .as_array()
            .unwrap()
            .iter()
            .map(|line| (line["item"].as_str().unwrap(), line["quantity"].as_i64().unwrap()))
            .collect();
        assert_eq!(&lines[..2], &[("wash-fold", 3), ("shirt", 2)], "the kg line, then the pieces given");
        assert!(lines.contains(&(laundry::domain::RUSH_ITEM, 1)), "next-day rush: {lines:?}");
        assert_eq!(stored_orders(&app), 1);
    }

    async fn a_valid_order_is_stored_pending_with_its_order_id_line_and_history(app: TestApp) {
        let response = app.post_json("/api/orders", &valid_order(), &[]).await;

        assert_eq!(response.status(), 201);
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["status"], "pending");
        assert_eq!(body["phone"], "+254712345678");
        assert_eq!(body["totalAmount"], 1500);
        assert_eq!(body["pricePerKg"], 500);
        assert_eq!(body["serviceLabel"], "Dry Cleaning");
        let order_id = body["id"].as_str().unwrap().to_owned();
        assert_eq!(order_id.len(), 8, "the 8-character order ID, not the database's key");
        assert_eq!(body["lines"], json!([{"kind": "kg", "item": "dry-cleaning", "label": "Dry Cleaning", "quantity": 3, "unit": "kg", "unitPrice": 500, "amount": 1500}]));
        let reference = laundry::domain::OrderReference::parse(&order_id).unwrap();
        let stored = app.with_db(|c| Order::find_by_reference(c, &reference).unwrap().unwrap());
        let history = app.with_db(|c| Order::history(c, &stored.id).unwrap());
        assert_eq!(history.len(), 1);
        assert_eq!(history[0].status, laundry::domain::OrderStatus::Pending);
        assert_eq!(stored_orders(&app), 1);
    }

    async fn each_invalid_field_is_refused_with_its_own_message_and_nothing_is_stored(app: TestApp) {
        let cases = [
            ("customerName", json!("  ")),
            ("phone", json!("12345")),
            ("phone", json!("+1 202 555 0100")),
            ("email", json!("amina@")),
            ("location", json!("")),
            ("serviceType", json!("washing")),
            ("quantity", json!(0)),
            ("quantity", json!(1.5)),
            ("quantity", json!(501)),
            ("quantity", json!("two")),
            ("paymentMethod", json!("card")),
            ("specialInstructions", json!("x".repeat(1001))),
            ("customerName", json!("x".repeat(101))),
        ];
        for (field, value) in cases {
            let response = app.post_json("/api/orders", &with(field, value.clone()), &[]).await;

            assert_eq!(response.status(), 422, "{field} = {value}");
            let body: Value = response.json().await.unwrap();
            assert!(body["fields"][field].as_str().is_some_and(|m| !m.is_empty()), "{field} = {value}: {body}");
        }
        assert_eq!(stored_orders(&app), 0);
    }

    async fn the_total_is_computed_on_the_server_and_the_clients_is_ignored(app: TestApp) {
        let mut order = with("serviceType", json!("wash-fold"));
        order["quantity"] = json!(4);
        order["totalAmount"] = json!(1);
        order["pricePerKg"] = json!(1);

        let body: Value = app.post_json("/api/orders", &order, &[]).await.json().await.unwrap();

        assert_eq!(body["totalAmount"], 600);
        assert_eq!(body["pricePerKg"], 150);
    }

    async fn a_retry_with_the_same_key_returns_the_same_order(app: TestApp) {
        let key = [("Idempotency-Key", "order-form-7f3a")];
        let first: Value = app.post_json("/api/orders", &valid_order(), &key).await.json().await.unwrap();

        let retry = app.post_json("/api/orders", &valid_order(), &key).await;

        assert_eq!(retry.status(), 201);
        assert_eq!(retry.headers()["idempotent-replayed"], "true");
        let second: Value = retry.json().await.unwrap();
        assert_eq!(first["id"], second["id"]);
        assert_eq!(stored_orders(&app), 1);
    }

    async fn the_same_key_with_a_different_order_is_refused(app: TestApp) {
        let key = [("Idempotency-Key", "order-form-7f3a")];
        app.post_json("/api/orders", &valid_order(), &key).await;

        let response = app.post_json("/api/orders", &with("quantity", json!(9)), &key).await;

        assert_eq!(response.status(), 409);
        assert_eq!(stored_orders(&app), 1);
    }

    async fn twenty_concurrent_submissions_with_one_key_store_one_order(app: TestApp) {
        let key = [("Idempotency-Key", "double-click-123")];
        let order = valid_order();

        let responses = futures::future::join_all((0..20).map(|_| app.post_json("/api/orders", &order, &key))).await;

        let mut ids = std::collections::HashSet::new();
        for response in responses {
            assert_eq!(response.status(), 201);
            let body: Value = response.json().await.unwrap();
            ids.insert(body["id"].as_str().unwrap().to_owned());
        }
        assert_eq!(ids.len(), 1, "one order for one key");
        assert_eq!(stored_orders(&app), 1);
    }

    async fn malformed_json_is_a_clear_400(app: TestApp) {
        let response = app
            .client
            .post(format!("{}/api/orders", app.address))
            .header("content-type", "application/json")
            .body("{not json")
            .send()
            .await
            .unwrap();

        assert_eq!(response.status(), 400);
        let body: Value = response.json().await.unwrap();
        assert!(body["error"].as_str().unwrap().starts_with("The body must be a JSON object"));
    }

    async fn a_form_post_without_javascript_goes_to_the_confirmation_with_payment_details(app: TestApp) {
        let fields = form_with(&[("phone", "+254 722 000 111"), ("paymentMethod", "pay-now"), ("email", ""), ("specialInstructions", "")]);

        let response = app.post_form("/order", &fields).await;

        assert_eq!(response.status(), 303);
        let location = response.headers()["location"].to_str().unwrap().to_owned();
        assert!(location.starts_with("/confirmation?ref="), "{location}");
        let html = app.get(&location).await.text().await.unwrap();
        let reference = location.trim_start_matches("/confirmation?ref=");
        assert!(html.contains("Order Confirmed!"));
        assert!(html.contains(reference));
        assert!(html.contains("3552248"));
        assert!(html.contains("KSh 400"));
        assert!(html.contains("+254 7** *** 111"));
        assert_eq!(stored_orders(&app), 1);
    }

    async fn a_form_post_with_mistakes_shows_the_form_again_with_the_values_and_messages(app: TestApp) {
        let response = app.post_form("/order", &form_with(&[("phone", "12345"), ("quantity", "0")])).await;

        assert_eq!(response.status(), 422);
        let html = response.text().await.unwrap();
        assert!(html.contains(r#"value="Brian Otieno""#), "the entered name is kept");
        assert!(html.contains("Please enter a Kenyan phone number"));
        assert!(html.contains("Please enter a whole number of kilograms from 1 to 500."));
        assert_eq!(stored_orders(&app), 0);
    }

    async fn the_same_form_sent_twice_without_javascript_stores_one_order(app: TestApp) {
        let fields = form_with(&[("idempotencyKey", "")]);

        let (first, second) = futures::join!(app.post_form("/order", &fields), app.post_form("/order", &fields));

        assert_eq!((first.status(), second.status()), (303.try_into().unwrap(), 303.try_into().unwrap()));
        assert_eq!(first.headers()["location"], second.headers()["location"], "both land on the one order");
        assert_eq!(stored_orders(&app), 1);
        assert_eq!(app.post_form("/order", &form_with(&[("idempotencyKey", ""), ("quantity", "3")])).await.status(), 303);
        assert_eq!(stored_orders(&app), 2, "a different order is a new one");
    }

    async fn an_idempotency_key_that_is_not_visible_ascii_is_refused(app: TestApp) {
        let response = app
            .client
            .post(format!("{}/api/orders", app.address))
            .header("Idempotency-Key", reqwest::header::HeaderValue::from_bytes("clé-\u{e9}".as_bytes()).unwrap())
            .json(&valid_order())
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 400);
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["error"], "The Idempotency-Key must be 1 to 100 visible ASCII characters.");

        let form = app.post_form("/order", &form_with(&[("idempotencyKey", "has spaces in it")])).await;
        assert_eq!(form.status(), 400);
        assert_eq!(stored_orders(&app), 0);
    }
}

/// The hourly limit on orders and messages per client, here 3 (`LAUNDRY_SUBMISSIONS_PER_HOUR`).
#[actix_web::test]
async fn a_client_over_the_submission_limit_gets_429_and_nothing_more_is_stored() {
    let env = [("LAUNDRY_SUBMISSIONS_PER_HOUR", "3".to_owned())];
    let app = TestApp::builder().on(crate::helpers::Backend::Sqlite).env(&env).start().await;
    let message = json!({ "name": "Achieng", "email": "achieng@example.com", "phone": "", "subject": "Curtains", "message": "Do you take sheers?" });
    for key in ["limit-1", "limit-2"] {
        assert_eq!(app.post_json("/api/orders", &valid_order(), &[("Idempotency-Key", key)]).await.status(), 201);
    }
    assert_eq!(
        app.post_json("/api/orders", &with("quantity", json!(0)), &[]).await.status(),
        422,
        "mistakes are not counted"
    );
    assert_eq!(app.post_json("/api/contacts", &message, &[]).await.status(), 201, "messages share the limit");

    let refused = app.post_json("/api/orders", &valid_order(), &[("Idempotency-Key", "limit-4")]).await;
    assert_eq!(refused.status(), 429);
    let retry_after: u64 = refused.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((3590..=3600).contains(&retry_after), "an hour from the first order: {retry_after}");
    let body: Value = refused.json().await.unwrap();
    assert_eq!(
        body["error"],
        "Too many orders and messages from your connection. Please wait 60 minutes and try again, or call us on +254 700 000 000."
    );
    let another = json!({ "name": "Achieng", "email": "achieng@example.com", "phone": "", "subject": "Duvets", "message": "And king-size duvets?" });
    assert_eq!(app.post_json("/api/contacts", &another, &[]).await.status(), 429, "a new message is refused too");
    let retry = app.post_json("/api/orders", &valid_order(), &[("Idempotency-Key", "limit-1")]).await;
    assert_eq!(retry.status(), 201, "a retry of a stored order is still answered");
    assert_eq!(retry.headers()["idempotent-replayed"], "true");

    let form = app.post_form("/order", &FORM_ORDER).await;
    assert_eq!(form.status(), 429);
    assert!(form.headers().contains_key("retry-after"));
    let html = form.text().await.unwrap();
    assert!(html.contains("Too many orders and messages from your connection."), "the form says why");
    assert!(html.contains(r#"value="Brian Otieno""#), "and keeps what was typed");
    let contact = app
        .post_form(
            "/contact",
            &[("name", "Achieng"), ("email", "achieng@example.com"), ("subject", "Hello"), ("message", "Hi!")],
        )
        .await;
    assert_eq!(contact.status(), 429);
    assert!(contact.text().await.unwrap().contains("Too many orders and messages from your connection."));

    assert_eq!(stored_orders(&app), 2);
    assert_eq!(app.with_db(|c| laundry::models::contact_message::ContactMessage::count(c).unwrap()), 1);
}

/// Orders sent all at once from one address: the limit (here 5) holds, because each order reserves
/// its place before it is stored.
async fn orders_sent_at_once_from_one_address_store_at_most_the_limit(backend: crate::helpers::Backend) {
    let env = [("LAUNDRY_SUBMISSIONS_PER_HOUR", "5".to_owned())];
    let app = TestApp::builder().on(backend).env(&env).start().await;
    let orders: Vec<Value> = (1..=40).map(|kg| with("quantity", json!(kg))).collect();

    let answers = futures::future::join_all(orders.iter().map(|order| app.post_json("/api/orders", order, &[]))).await;

    let created = answers.iter().filter(|answer| answer.status() == 201).count();
    let refused = answers.iter().filter(|answer| answer.status() == 429).count();
    assert_eq!((created, refused), (5, 35));
    assert_eq!(app.with_db(|c| Order::count(c).unwrap()), 5, "only the limit is stored");
}

#[actix_web::test]
async fn orders_sent_at_once_store_at_most_the_limit_on_sqlite() {
    orders_sent_at_once_from_one_address_store_at_most_the_limit(crate::helpers::Backend::Sqlite).await;
}

#[actix_web::test]
async fn orders_sent_at_once_store_at_most_the_limit_on_postgres() {
    if crate::helpers::postgres_skipped() {
        return;
    }
    orders_sent_at_once_from_one_address_store_at_most_the_limit(crate::helpers::Backend::Postgres).await;
}

#[actix_web::test]
async fn confirmation_look_ups_by_reference_are_limited_per_client() {
    let app = TestApp::builder().start().await;
    let placed = app.post_form("/order", &FORM_ORDER).await;
    let location = placed.headers()["location"].to_str().unwrap().to_owned();
    for _ in 0..30 {
        assert_eq!(app.get(&location).await.status(), 200);
    }

    let refused = app.get(&location).await;

    assert_eq!(refused.status(), 429);
    assert!(refused.headers().contains_key("retry-after"));
    let html = refused.text().await.unwrap();
    let shown = html.split(r#"<script id="page-data""#).next().unwrap();
    assert!(shown.contains("Too many look-ups from your connection."), "the page says why");
    let reference = location.trim_start_matches("/confirmation?ref=");
    assert!(!html.contains(reference), "and shows nothing of the order");
    assert_eq!(app.get("/confirmation").await.status(), 200, "the page without a reference is not limited");
}
