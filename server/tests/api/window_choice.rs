//! The next open pickup window is chosen under the windows' locks (issue 28): orders without a
//! pickup sent at once, to two instances on one PostgreSQL database (one instance on SQLite), are
//! all stored while later windows have room, none over its capacity; texted pickup letters racing
//! web orders are all answered, never with a 500.

use crate::helpers::{Backend, SMS_HOOK_SECRET, TestApp, quick_retries, sms_env};
use laundry::domain::{OrderReference, OrderStatus};
use laundry::fakes::FakeAt;
use laundry::models::incoming_text::IncomingText;
use laundry::models::order::Order;
use laundry::models::stop::Stop;
use laundry::notify::NotifyCustomer;
use serde_json::{Value, json};
use time::Duration;

/// An order without a pickup from phone `0713 NNN NNN` (`n` below 1000), paid on delivery.
fn without_pickup(n: u32) -> Value {
    json!({
        "customerName": "Wanjiku Kamau", "phone": format!("0713 000 {n:03}"), "location": "Kileleshwa, Othaya Rd",
        "serviceType": "wash-fold", "quantity": 3, "paymentMethod": "pay-delivery"
    })
}

/// The app, and on PostgreSQL a second instance on its database.
async fn instances(backend: Backend, env: &[(&'static str, String)]) -> Option<Vec<TestApp>> {
    let app = TestApp::builder().on(backend).env(env).retries(quick_retries()).start().await;
    let mut all = Vec::new();
    if backend == Backend::Postgres {
        all.push(app.sibling().env(env).retries(quick_retries()).start().await);
    }
    all.insert(0, app);
    Some(all)
}

/// The pickups booked in each window of the horizon: none over `capacity`; how many in all.
fn booked_within(app: &TestApp, capacity: i64) -> i64 {
    let today = app.today();
    let booked = app.with_db(|c| Stop::pickups_booked_between(c, today, today + Duration::days(13)).unwrap());
    assert!(booked.iter().all(|(_, _, count)| *count <= capacity), "a window over its capacity: {booked:?}");
    booked.iter().map(|(_, _, count)| count).sum()
}

async fn orders_without_a_pickup_sent_at_once_are_all_stored_while_windows_have_room(backend: Backend) {
    let env = [("LAUNDRY_WINDOW_CAPACITY", "4".to_owned())];
    let Some(apps) = instances(backend, &env).await else { return };
    let orders: Vec<Value> = (0..50).map(without_pickup).collect();

    let answers = futures::future::join_all(
        orders.iter().enumerate().map(|(n, order)| apps[n % apps.len()].post_json("/api/orders", order, &[])),
    )
    .await;

    let statuses: Vec<u16> = answers.iter().map(|answer| answer.status().as_u16()).collect();
    assert!(statuses.iter().all(|status| *status == 201), "{statuses:?}");
    assert_eq!(apps[0].with_db(|c| Order::count(c).unwrap()), 50);
    assert_eq!(booked_within(&apps[0], 4), 50, "every order has its pickup, in windows of 4");
}

/// Africa's Talking's callback for the letter P from `from`, with the id `id`.
async fn letter_from(app: &TestApp, id: &str, from: &str) -> reqwest::Response {
    let fields = [("from", from), ("to", "22384"), ("text", "P"), ("date", "2026-11-25 14:03:11"), ("id", id)];
    app.post_form(&format!("/hooks/sms/incoming/{SMS_HOOK_SECRET}"), &fields).await
}

async fn texted_letters_racing_web_orders_are_all_answered_never_with_500(backend: Backend) {
    let mock = FakeAt::start().await;
    let mut env = sms_env(&mock.url);
    env.push(("LAUNDRY_WINDOW_CAPACITY", "2".to_owned()));
    let Some(apps) = instances(backend, &env).await else { return };
    // Twenty customers with an earlier order, delivered: their letter books a new pickup.
    let known: Vec<String> = (0..20).map(|n| format!("+2547140001{n:02}")).collect();
    for phone in &known {
        let body = json!({"customerName": "Amina Wanjiru", "phone": phone, "location": "Kilimani, Argwings Kodhek Rd",
            "serviceType": "wash-fold", "quantity": 3, "paymentMethod": "pay-delivery"});
        let response = apps[0].post_json("/api/orders", &body, &[]).await;
        assert_eq!(response.status(), 201);
        let reference: Value = response.json().await.unwrap();
        let reference = OrderReference::parse(reference["id"].as_str().unwrap()).unwrap();
        apps[0].with_db(|c| {
            let order = Order::find_by_reference(c, &reference).unwrap().unwrap();
            let now = apps[0].now();
            crate::helpers::set_status(c, &order.id, OrderStatus::Delivered, "staff", &NotifyCustomer::nobody(), now)
                .unwrap();
        });
    }

    let ids: Vec<String> = (0..known.len()).map(|n| format!("ATXid_race_{n}")).collect();
    let orders: Vec<Value> = (0..20).map(without_pickup).collect();
    let letters = futures::future::join_all(
        known.iter().zip(&ids).enumerate().map(|(n, (phone, id))| letter_from(&apps[n % apps.len()], id, phone)),
    );
    let web = futures::future::join_all(
        orders.iter().enumerate().map(|(n, order)| apps[(n + 1) % apps.len()].post_json("/api/orders", order, &[])),
    );
    let (letters, web) = tokio::join!(letters, web);

    let letters: Vec<u16> = letters.iter().map(|answer| answer.status().as_u16()).collect();
    assert!(letters.iter().all(|status| *status == 200), "{letters:?}");
    let web: Vec<u16> = web.iter().map(|answer| answer.status().as_u16()).collect();
    assert!(web.iter().all(|status| *status == 201), "{web:?}");
    let outcomes: Vec<String> =
        apps[0].with_db(|c| IncomingText::all(c).unwrap()).into_iter().map(|(_, outcome, _)| outcome).collect();
    assert_eq!(outcomes, vec!["booked".to_owned(); 20]);
    assert_eq!(apps[0].with_db(|c| Order::count(c).unwrap()), 60);
    assert_eq!(booked_within(&apps[0], 2), 60);
}

crate::on_each_backend!(
    orders_without_a_pickup_sent_at_once_are_all_stored_while_windows_have_room,
    texted_letters_racing_web_orders_are_all_answered_never_with_500,
);
