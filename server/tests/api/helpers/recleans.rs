//! Free re-cleans in the tests: a delivered order to ask about, the form as the customer posts
//! it, and the rows it makes.

use super::orders::stored;
use super::staff::owner;
use super::{SignedIn, TestApp};
use diesel::prelude::*;
use laundry::db::schema::{orders, reclean_lines, recleans};
use laundry::domain::schedule::nairobi_day;
use laundry::models::order::Order;
use serde_json::{Value, json};
use time::{Duration, OffsetDateTime};

/// A delivered order: its database key, order ID and page token.
pub struct Delivered {
    pub(crate) key: String,
    pub(crate) reference: String,
    pub(crate) token: String,
}

/// Places 3 kg of wash & fold, 2 shirts and a graduation gown through the API, paid on delivery.
pub async fn place(app: &TestApp) -> Delivered {
    let body = json!({
        "customerName": "Amina Wanjiru", "phone": "0712345678", "location": "Kilimani, Argwings Kodhek Rd",
        "landmark": "Opposite Yaya Centre", "serviceType": "wash-fold", "quantity": 3,
        "paymentMethod": "pay-delivery", "pieces": { "shirt": 2, "graduation-gown": 1 }
    });
    let key = uuid::Uuid::new_v4().to_string();
    let response = app.post_json("/api/orders", &body, &[("Idempotency-Key", &key)]).await;
    assert_eq!(response.status(), 201, "{}", response.text().await.unwrap());
    let reference = response.json::<Value>().await.unwrap()["id"].as_str().unwrap().to_owned();
    let order = stored(app, &reference);
    Delivered { key: order.id, reference, token: order.link_token.unwrap() }
}

/// Staff set the order's status (as the dashboard does).
pub async fn set_status(app: &TestApp, session: &SignedIn, reference: &str, status: &str) {
    let path = format!("/api/admin/orders/{reference}/status");
    let response = app
        .staff_request(reqwest::Method::POST, &path, session, true)
        .json(&json!({"status": status, "reason": "Cancelled in a test"}))
        .send()
        .await;
    assert_eq!(response.unwrap().status(), 200);
}

/// An order placed and delivered.
pub async fn delivered(app: &TestApp) -> Delivered {
    let order = place(app).await;
    let (session, _) = owner(app).await;
    set_status(app, &session, &order.reference, "delivered").await;
    order
}

/// The position of the order's line of `item`.
pub fn position(app: &TestApp, order: &Delivered, item: &str) -> String {
    let lines = app.with_db(|c| Order::lines(c, &order.key).unwrap());
    lines.iter().find(|line| line.item == item).unwrap().position.to_string()
}

/// A pickup window three days ahead, 19:00.
pub fn window() -> String {
    format!("{}T19:00", nairobi_day(OffsetDateTime::now_utc()) + Duration::days(3))
}

/// Posts the re-clean form from `site` (`Sec-Fetch-Site`).
pub async fn ask_from(app: &TestApp, token: &str, fields: &[(&str, &str)], site: &str) -> reqwest::Response {
    app.client
        .post(format!("{}/t/{token}/reclean", app.address))
        .header("content-type", "application/x-www-form-urlencoded")
        .header("sec-fetch-site", site)
        .body(serde_urlencoded::to_string(fields).unwrap())
        .send()
        .await
        .unwrap()
}

pub async fn ask(app: &TestApp, token: &str, fields: &[(&str, &str)]) -> reqwest::Response {
    ask_from(app, token, fields, "same-origin").await
}

/// Asks for the lines of `items` to be cleaned again because of `problem`; the answer.
pub async fn ask_for(app: &TestApp, order: &Delivered, items: &[&str], problem: &str) -> reqwest::Response {
    let positions: Vec<String> = items.iter().map(|item| position(app, order, item)).collect();
    let pickup = window();
    let mut fields: Vec<(&str, &str)> = positions.iter().map(|p| ("line", p.as_str())).collect();
    fields.extend([("problem", problem), ("pickup", pickup.as_str())]);
    ask(app, &order.token, &fields).await
}

/// The re-clean order a 303 leads to.
pub fn reclean_of(app: &TestApp, response: &reqwest::Response) -> Order {
    assert_eq!(response.status(), 303);
    let location = response.headers()["location"].to_str().unwrap();
    let token = location.strip_prefix("/t/").unwrap().strip_suffix("?done=reclean").unwrap().to_owned();
    app.with_db(|c| Order::find_by_link_token(c, &token).unwrap().unwrap())
}

/// `(recleans, reclean_lines, orders)` rows.
pub fn counts(app: &TestApp) -> (i64, i64, i64) {
    app.with_db(|c| {
        (
            recleans::table.count().get_result(c).unwrap(),
            reclean_lines::table.count().get_result(c).unwrap(),
            orders::table.count().get_result(c).unwrap(),
        )
    })
}
