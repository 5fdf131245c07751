//! Bookings staff take on the phone or from WhatsApp (`POST /api/admin/orders`): stored exactly
//! as the public form stores the same order, recorded as taken by the staff member, counted in
//! the window's places, texted to the customer (confirmed in the same step when agreed), refused
//! per field as the public API refuses; and the caller found by their number
//! (`GET /api/admin/customers?phone=`). On both backends.

use crate::helpers::orders::{a_callers_order, day_after, slot_value};
use crate::helpers::staff::booking_app;
use crate::helpers::{Backend, SignedIn, TestApp};
use laundry::domain::schedule::day_label;
use laundry::domain::{LineKind, OrderReference, OrderSource, StaffRole, StopKind};
use laundry::fakes::FakeAt;
use laundry::models::order::{Order, OrderLine};
use laundry::models::stop::Stop;
use serde_json::{Value, json};
use std::time::Duration;

const STAFF: &str = "wanjiku@example.com";
const PASSWORD: &str = "Tumbo-Ngoma-47-Kazi";
const CALLER: &str = "+254712345678";
const WAIT: Duration = Duration::from_secs(10);

async fn post_booking(app: &TestApp, session: &SignedIn, body: &Value, key: Option<&str>) -> reqwest::Response {
    let mut request = app.staff_request(reqwest::Method::POST, "/api/admin/orders", session, true).json(body);
    if let Some(key) = key {
        request = request.header("Idempotency-Key", key);
    }
    request.send().await.unwrap()
}

/// The stored order, its lines and its pickup.
fn stored(app: &TestApp, id: &str) -> (Order, Vec<OrderLine>, Stop) {
    let reference = OrderReference::parse(id).unwrap();
    app.with_db(|c| {
        let order = Order::find_by_reference(c, &reference).unwrap().unwrap();
        let lines = Order::lines(c, &order.id).unwrap();
        let pickup = Stop::of_order(c, &order.id, StopKind::Pickup).unwrap().unwrap();
        (order, lines, pickup)
    })
}

/// What makes a line's price: kind, item, quantity, unit price, amount.
fn priced(lines: &[OrderLine]) -> Vec<(LineKind, String, i32, i32, i32)> {
    lines.iter().map(|line| (line.kind, line.item.clone(), line.quantity, line.unit_price, line.amount)).collect()
}

/// Waits for the text to `phone`.
async fn text_to(mock: &FakeAt, phone: &str) -> String {
    let deadline = std::time::Instant::now() + WAIT;
    loop {
        if let Some(text) = mock.texts_to(phone).pop() {
            return text;
        }
        assert!(std::time::Instant::now() < deadline, "no text to {phone}: {:#?}", mock.received());
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn a_phone_booking_is_stored_exactly_as_the_public_form_stores_it(backend: Backend) {
    let mock = FakeAt::start().await;
    let Some((app, session)) = booking_app(backend, Some(&mock), 5).await else { return };
    let pickup = slot_value(day_after(1), 19);

    let answer = a_callers_order("0712 345 678", &pickup).source("phone").book(&app, &session).await;
    let online = app.post_json("/api/orders", &a_callers_order("0722 000 111", &pickup).body(), &[]).await;
    assert_eq!(online.status(), 201);
    let online: Value = online.json().await.unwrap();

    let (order, lines, stop) = stored(&app, answer["id"].as_str().unwrap());
    let (web_order, web_lines, _) = stored(&app, online["id"].as_str().unwrap());
    assert_eq!(priced(&lines), priced(&web_lines));
    assert!(lines.iter().any(|line| line.item == "first-order-discount" && line.amount == -200), "{lines:#?}");
    assert!(lines.iter().any(|line| line.kind == LineKind::Surcharge), "{lines:#?}");
    assert_eq!(order.total_amount, web_order.total_amount);
    assert_eq!(answer["totalAmount"], order.total_amount);
    assert_eq!((order.source, web_order.source), (OrderSource::Phone, OrderSource::Web));
    assert_eq!((order.phone.as_str(), order.landmark.as_str()), (CALLER, "Opposite Yaya Centre"));
    let history = app.with_db(|c| Order::history(c, &order.id).unwrap());
    assert_eq!(history[0].changed_by.as_deref(), Some(STAFF));
    assert_eq!(stop.slot().value(), pickup);
    assert!(stop.confirmed_at.is_none() && stop.confirmed_by.is_none());
    assert_eq!(answer["source"], "phone");
    assert_eq!(answer["pickupConfirmed"], false);
    assert_eq!(answer["pickup"], stop.slot().label());

    let text = text_to(&mock, CALLER).await;
    assert!(text.contains(&format!("order {} received.", order.reference)), "{text}");
    assert!(text.contains(&format!("Pickup {}, to be confirmed soon.", stop.slot().label())), "{text}");
}

async fn a_whatsapp_booking_with_the_window_agreed_is_confirmed_by_the_staff_member(backend: Backend) {
    let mock = FakeAt::start().await;
    let Some((app, session)) = booking_app(backend, Some(&mock), 5).await else { return };
    let pickup = slot_value(day_after(2), 20);

    let answer = a_callers_order(CALLER, &pickup).source("whatsapp").confirm_slot(true).book(&app, &session).await;

    let (order, _, stop) = stored(&app, answer["id"].as_str().unwrap());
    assert_eq!(order.source, OrderSource::Whatsapp);
    assert_eq!(stop.confirmed_by.as_deref(), Some(STAFF));
    assert!(stop.confirmed_at.is_some());
    assert_eq!(answer["pickupConfirmed"], true);
    let text = text_to(&mock, CALLER).await;
    assert!(text.contains(&format!("Pickup {}, confirmed.", stop.slot().label())), "{text}");
    assert!(!text.contains("to be confirmed soon"), "{text}");
}

async fn a_staff_booking_takes_a_place_in_its_window_and_a_full_one_is_refused_as_online(backend: Backend) {
    let Some((app, session)) = booking_app(backend, None, 1).await else { return };
    let (first, second) = (slot_value(day_after(1), 19), slot_value(day_after(1), 20));
    let full =
        |hour: &str| format!("The {}, {hour} window is full. Please choose another window.", day_label(day_after(1)));

    a_callers_order(CALLER, &first).source("phone").book(&app, &session).await;
    let online = app.post_json("/api/orders", &a_callers_order("0722 000 111", &first).body(), &[]).await;
    assert_eq!(online.status(), 422);
    assert_eq!(online.json::<Value>().await.unwrap()["fields"]["pickup"], full("19:00-20:00"));

    let online = app.post_json("/api/orders", &a_callers_order("0722 000 111", &second).body(), &[]).await;
    assert_eq!(online.status(), 201);
    let refused =
        post_booking(&app, &session, &a_callers_order("0733 000 222", &second).source("phone").body(), None).await;
    assert_eq!(refused.status(), 422);
    assert_eq!(refused.json::<Value>().await.unwrap()["fields"]["pickup"], full("20:00-21:00"));
    assert_eq!(app.with_db(|c| Order::count(c).unwrap()), 2);
}

async fn a_booking_with_mistakes_is_refused_per_field_and_only_staff_may_book(backend: Backend) {
    let Some((app, session)) = booking_app(backend, None, 5).await else { return };
    let order = a_callers_order("0812", &slot_value(day_after(1), 19))
        .with("serviceType", "")
        .with("quantity", "")
        .pieces(json!({}));

    let refused = post_booking(&app, &session, &order.clone().source("web").body(), None).await;
    assert_eq!(refused.status(), 422);
    let fields = refused.json::<Value>().await.unwrap()["fields"].clone();
    assert_eq!(fields["source"], "Please choose how the booking came in: Phone or WhatsApp.");
    assert_eq!(fields["phone"], "Please enter a Kenyan phone number, like 0712 345 678 or +254 712 345 678.");
    assert!(fields["serviceType"].is_string(), "{fields}");
    let refused = post_booking(&app, &session, &order.source("phone").body(), None).await;
    let fields = refused.json::<Value>().await.unwrap()["fields"].clone();
    assert!(fields["source"].is_null() && fields["phone"].is_string() && fields["serviceType"].is_string());

    let good = a_callers_order(CALLER, &slot_value(day_after(1), 19)).source("phone").body();
    let key = "booking-0001";
    let first = post_booking(&app, &session, &good, Some(key)).await;
    assert_eq!(first.status(), 201);
    let again = post_booking(&app, &session, &good, Some(key)).await;
    assert_eq!(again.headers()["idempotent-replayed"], "true");
    let mut other = good.clone();
    other["quantity"] = json!(9);
    assert_eq!(post_booking(&app, &session, &other, Some(key)).await.status(), 409);

    let without_csrf = app.staff_request(reqwest::Method::POST, "/api/admin/orders", &session, false).json(&good);
    assert_eq!(without_csrf.send().await.unwrap().status(), 403);
    let valet = app.sign_in_as("otieno@example.com", PASSWORD, StaffRole::Valet).await;
    let refused = post_booking(&app, &valet, &good, None).await;
    assert_eq!(refused.status(), 403);
    assert_eq!(refused.json::<Value>().await.unwrap()["error"], "Your account cannot use this part of the site.");
    assert_eq!(app.with_db(|c| Order::count(c).unwrap()), 1);
}

async fn look_up(app: &TestApp, session: &SignedIn, phone: &str) -> (u16, Value) {
    let path = format!("/api/admin/customers?{}", serde_urlencoded::to_string([("phone", phone)]).unwrap());
    let response = app.staff_request(reqwest::Method::GET, &path, session, false).send().await.unwrap();
    let status = response.status().as_u16();
    if status == 200 {
        assert_eq!(response.headers()["cache-control"], "no-store");
    }
    (status, response.json().await.unwrap())
}

async fn the_look_up_fills_in_from_the_last_order_and_lists_the_earlier_ones(backend: Backend) {
    let Some((app, session)) = booking_app(backend, None, 5).await else { return };
    let first = a_callers_order("0712 345 678", &slot_value(day_after(1), 19)).location("Kileleshwa, Othaya Rd").body();
    let first = app.post_json("/api/orders", &first, &[]).await.json::<Value>().await.unwrap();
    let last = a_callers_order("+254 712 345 678", &slot_value(day_after(1), 20))
        .with("pinLat", -1.2921)
        .with("pinLng", 36.8219)
        .pieces(json!({}))
        .with("rush", false)
        .source("whatsapp")
        .book(&app, &session)
        .await;

    let (status, found) = look_up(&app, &session, "0712-345-678").await;
    assert_eq!(status, 200);
    assert_eq!((found["found"].clone(), found["phone"].clone()), (json!(true), json!(CALLER)));
    let customer = &found["customer"];
    assert_eq!(customer["customerName"], "Amina Wanjiru");
    assert_eq!(customer["location"], "Kilimani, Argwings Kodhek Rd");
    assert_eq!(customer["landmark"], "Opposite Yaya Centre");
    assert_eq!((customer["pinLat"].as_f64(), customer["pinLng"].as_f64()), (Some(-1.2921), Some(36.8219)));
    let ids: Vec<&Value> = found["orders"].as_array().unwrap().iter().map(|order| &order["id"]).collect();
    assert_eq!(ids, [&last["id"], &first["id"]]);
    assert_eq!(found["orders"][0]["source"], "whatsapp");
    assert_eq!(found["orders"][0]["summary"], "Wash & Fold 4 kg");
    assert_eq!(found["orders"][1]["source"], "web");
    assert!(found["orders"][1]["summary"].as_str().unwrap().contains("× 2"), "{found}");

    let (status, unknown) = look_up(&app, &session, "0799 999 999").await;
    assert_eq!((status, unknown["found"].clone(), unknown["orders"].clone()), (200, json!(false), json!([])));
    let (status, bad) = look_up(&app, &session, "12345").await;
    assert_eq!(status, 400);
    assert_eq!(bad["error"], "Please enter a Kenyan phone number, like 0712 345 678 or +254 712 345 678.");
}

crate::on_each_backend!(
    a_phone_booking_is_stored_exactly_as_the_public_form_stores_it,
    a_whatsapp_booking_with_the_window_agreed_is_confirmed_by_the_staff_member,
    a_staff_booking_takes_a_place_in_its_window_and_a_full_one_is_refused_as_online,
    a_booking_with_mistakes_is_refused_per_field_and_only_staff_may_book,
    the_look_up_fills_in_from_the_last_order_and_lists_the_earlier_ones,
);
