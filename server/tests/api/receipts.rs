//! Issue 49: the receipt tells the truth about money off and cancellation. A staff discount and a
//! claim's money off are lines of their own with their reason, with the bill after them; a
//! cancelled order's receipt says it was cancelled. On both backends.

use crate::helpers::{Backend, SignedIn, TestApp, order_token};
use laundry::domain::StaffRole;
use serde_json::{Value, json};

async fn post(app: &TestApp, session: &SignedIn, path: &str, body: Value) -> reqwest::Response {
    app.staff_request(reqwest::Method::POST, path, session, true).json(&body).send().await.unwrap()
}

async fn receipt(app: &TestApp, reference: &str) -> String {
    let page = app.get(&format!("/t/{}/receipt", order_token(app, reference))).await;
    assert_eq!(page.status(), 200);
    page.text().await.unwrap()
}

async fn money_off_is_a_line_with_its_reason_and_a_cancelled_order_says_so(backend: Backend) {
    let app = TestApp::builder().on(backend).start().await;
    let owner = app.sign_in_as("owner@example.com", "Kahawa-Chai-Mandazi-22", StaffRole::Owner).await;
    let order = json!({
        "customerName": "Amina Wanjiru", "phone": "0712 345 678", "location": "Kilimani",
        "serviceType": "wash-fold", "quantity": 3, "paymentMethod": "pay-delivery"
    });
    let placed = app.post_json("/api/orders", &order, &[]).await;
    let reference = placed.json::<Value>().await.unwrap()["id"].as_str().unwrap().to_owned();
    let path = |what: &str| format!("/api/admin/orders/{reference}/{what}");
    assert_eq!(post(&app, &owner, &path("payment"), json!({"method": "cash", "amount": 350})).await.status(), 200);
    let discount = json!({"amount": 100, "reason": "Delivered a day late"});
    assert_eq!(post(&app, &owner, &path("discount"), discount).await.status(), 200);

    let page = receipt(&app, &reference).await;
    assert!(page.contains("Delivered a day late"), "the reason of the money off");
    assert!(page.contains("−KSh 100"), "the KSh off");
    assert!(page.contains("Bill after money off") && page.contains("KSh 350"), "the bill after it");
    assert!(!page.contains("This order was cancelled"));

    let cancel = json!({"status": "cancelled", "reason": "The customer moved away"});
    assert_eq!(post(&app, &owner, &path("status"), cancel).await.status(), 200);
    let page = receipt(&app, &reference).await;
    assert!(page.contains("This order was cancelled on"), "a cancelled order's receipt says so");
    assert!(!page.contains("Bill after money off"), "a cancelled order has no bill");
}

crate::on_each_backend!(money_off_is_a_line_with_its_reason_and_a_cancelled_order_says_so);
