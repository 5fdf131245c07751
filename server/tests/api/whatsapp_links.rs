//! The site's WhatsApp links start the chat with what staff need: a booking's details to fill in
//! from a general link, the order ID from a page about one order (its confirmation, its own page,
//! its receipt); each carries the provider's number and opens in a new tab.

use crate::helpers::TestApp;
use crate::helpers::orders::{order_id, order_with, stored};
use crate::helpers::staff::{post, staff};
use serde_json::json;

/// The chat link about order `id`, as the pages render it.
fn about_order(id: &str) -> String {
    format!(
        r#"href="https://wa.me/254700000000?text=Hello%20Usafi%20Express%20Laundry%2C%20about%20my%20order%20{id}%3A%20" target="_blank" rel="noopener noreferrer""#
    )
}

#[actix_web::test]
async fn the_pages_of_one_order_start_the_chat_with_its_order_id() {
    let app = TestApp::builder().start().await;
    let session = staff(&app).await;
    let placed = order_with(
        &app,
        json!({ "customerName": "Amina Wanjiru", "phone": "0712345678",
        "serviceType": "wash-fold", "quantity": 3, "paymentMethod": "pay-delivery" }),
    )
    .await;
    let id = order_id(&placed).to_owned();
    let delivered =
        post(&app, &session, &format!("/api/admin/orders/{id}/status"), json!({ "status": "delivered" })).await;
    assert_eq!(delivered.status(), 200);
    let token = stored(&app, &id).link_token.unwrap();

    for path in [format!("/confirmation?ref={id}"), format!("/t/{token}"), format!("/t/{token}/receipt")] {
        let response = app.get(&path).await;
        assert_eq!(response.status(), 200, "{path}");
        let html = response.text().await.unwrap();
        assert!(html.contains(&about_order(&id)), "{path}: the chat about the order");
    }
    let tracking = app.get("/tracking").await.text().await.unwrap();
    assert!(
        tracking
            .contains("wa.me/254700000000?text=Hello%20Usafi%20Express%20Laundry%2C%20I%20would%20like%20to%20book"),
        "a general link starts a booking"
    );
    assert!(!tracking.contains(r#"href="https://wa.me/254700000000""#), "no chat link without its first words");
}
