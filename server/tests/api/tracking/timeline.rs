//! Every status set through the staff API gives a tracking timeline whose dates are the status
//! history's, in the API and on the page, and reads clearly; skipped steps and a move backwards
//! read truthfully.

use crate::helpers::orders::an_order;
use crate::helpers::staff::{move_through, staff};
use crate::helpers::{Backend, TestApp};
use laundry::domain::{OrderReference, OrderStatus};
use laundry::models::order::Order;
use serde_json::Value;
use time::PrimitiveDateTime;

/// The order's status history as stored, oldest first.
fn history(app: &TestApp, order_id: &str) -> Vec<(OrderStatus, PrimitiveDateTime)> {
    let order_id = OrderReference::parse(order_id).unwrap();
    app.with_db(|c| {
        let order = Order::find_by_reference(c, &order_id).unwrap().unwrap();
        Order::history(c, &order.id).unwrap().into_iter().map(|change| (change.status, change.changed_at)).collect()
    })
}

/// When the history last set `status`.
fn last_time(history: &[(OrderStatus, PrimitiveDateTime)], status: OrderStatus) -> PrimitiveDateTime {
    history.iter().rev().find(|(changed_to, _)| *changed_to == status).map(|(_, at)| *at).unwrap()
}

/// RFC 3339, as the API writes times.
fn rfc3339(at: PrimitiveDateTime) -> String {
    laundry::clock::rfc3339(at)
}

/// As the page shows a time: Nairobi's 'Mon 23 Nov, 19:40'.
fn shown(at: PrimitiveDateTime) -> String {
    let local = at.assume_utc().to_offset(laundry::clock::NAIROBI);
    let (weekday, month) = (local.weekday().to_string(), local.month().to_string());
    format!("{} {} {}, {:02}:{:02}", &weekday[..3], local.day(), &month[..3], local.hour(), local.minute())
}

/// The API's answer and the page's HTML for one order ID.
async fn tracked(app: &TestApp, order_id: &str) -> (Value, String) {
    let body: Value = app.track(order_id).await.json().await.unwrap();
    let page = app.get(&format!("/tracking?by=order&q={order_id}")).await;
    assert_eq!(page.status(), 200);
    (body["orders"][0].clone(), page.text().await.unwrap())
}

/// The times of the five steps of the bar, as the API gives them: (at, exact) or none.
fn steps(order: &Value) -> Vec<Option<(String, bool)>> {
    order["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|step| {
            let reached = &step["reached"];
            (!reached.is_null()).then(|| (reached["at"].as_str().unwrap().to_owned(), reached["exact"] == true))
        })
        .collect()
}

fn row(term: &str, value: &str) -> String {
    format!("<dt>{term}</dt><dd>{value}</dd>")
}

async fn every_status_gives_a_timeline_that_agrees_with_the_history(backend: Backend) {
    let app = TestApp::builder().on(backend).set("LAUNDRY_TRACKING_PER_10_MINUTES", "1000").start().await;
    let session = staff(&app).await;
    let paths: [(&str, &[&str]); 6] = [
        ("pending", &[]),
        ("picked-up", &["picked-up"]),
        ("in-progress", &["picked-up", "in-progress"]),
        ("ready", &["picked-up", "in-progress", "ready"]),
        ("delivered", &["picked-up", "in-progress", "ready", "delivered"]),
        ("cancelled", &["picked-up", "cancelled"]),
    ];
    for (status, path) in paths {
        let placed = an_order().phone("0712345678").service("wash-fold", 5).place(&app).await;
        move_through(&app, &session, &placed.reference, path).await;
        let history = history(&app, &placed.reference);
        let at = |status| last_time(&history, status);

        let (order, html) = tracked(&app, &placed.reference).await;

        assert_eq!(order["status"], status);
        let expected_steps: Vec<Option<(String, bool)>> = [
            OrderStatus::Pending,
            OrderStatus::PickedUp,
            OrderStatus::InProgress,
            OrderStatus::Ready,
            OrderStatus::Delivered,
        ]
        .iter()
        .map(|step| match step {
            OrderStatus::Pending => Some((rfc3339(history[0].1), true)),
            later => path.contains(&later.as_str()).then(|| (rfc3339(at(*later)), true)),
        })
        .collect();
        assert_eq!(steps(&order), expected_steps, "{status}: each step done at its history row");
        assert_eq!(order["placedAt"], rfc3339(history[0].1), "{status}: placed when the history began");
        let placed_row = row("Order placed", &shown(history[0].1));
        assert!(html.contains(&placed_row), "{status}: {placed_row}");
        let picked_up = if path.is_empty() { "Awaiting pickup".to_owned() } else { shown(at(OrderStatus::PickedUp)) };
        assert!(html.contains(&row("Pickup Date", &picked_up)), "{status}: pickup {picked_up}");
        match status {
            "pending" => {
                assert!(order["estimatedCompletion"].is_null());
                assert!(html.contains(&row("Estimated Completion", "3-4 days after pickup")), "{status}");
                assert!(html.contains(r#"<span class="badge badge--primary">Pending</span>"#), "{status}");
            }
            "picked-up" | "in-progress" => {
                let estimate = at(OrderStatus::PickedUp) + time::Duration::days(3);
                assert_eq!(order["estimatedCompletion"], rfc3339(estimate), "{status}: pickup + 3 days");
                let day = shown(estimate);
                let day = day.split(',').next().unwrap();
                assert!(html.contains(&row("Estimated Completion", day)), "{status}: estimate {day}");
                assert!(html.contains(&row("Delivery Date", "Not yet delivered")), "{status}");
            }
            "ready" => {
                assert!(html.contains(&row("Completed", &shown(at(OrderStatus::Ready)))), "{status}");
                assert!(html.contains(&row("Delivery Date", "Not yet delivered")), "{status}");
                assert!(html.contains(r#"<span class="badge badge--primary">Ready for Delivery</span>"#), "{status}");
            }
            "delivered" => {
                assert!(html.contains(&row("Delivery Date", &shown(at(OrderStatus::Delivered)))), "{status}");
                assert!(html.contains(r#"<span class="badge badge--success">Delivered</span>"#), "{status}");
            }
            _ => {
                let cancelled = at(OrderStatus::Cancelled);
                assert_eq!(order["cancelledAt"], rfc3339(cancelled), "{status}");
                assert!(html.contains(r#"<span class="badge badge--danger">Cancelled</span>"#), "{status}");
                assert!(html.contains("This order was cancelled"), "{status}");
                assert!(html.contains(&row("Cancelled", &shown(cancelled))), "{status}");
                assert!(html.contains("Call or WhatsApp us"), "{status}: what to do");
                assert!(!html.contains(r#"class="progress""#), "{status}: no half-done bar");
                assert!(!html.contains("Estimated Completion"), "{status}: nothing is coming");
            }
        }
        if status == "in-progress" {
            assert!(html.contains(r#"<span class="badge badge--warning">In Progress</span>"#), "{status}");
        }
        if status != "cancelled" {
            assert!(order["cancelledAt"].is_null(), "{status}");
            assert!(html.contains(r#"class="progress""#), "{status}: the bar");
        }
    }
}

async fn a_move_backwards_shows_the_state_it_was_set_back_to(backend: Backend) {
    let app = TestApp::builder().on(backend).set("LAUNDRY_TRACKING_PER_10_MINUTES", "1000").start().await;
    let session = staff(&app).await;
    let placed = an_order().phone("0712345678").service("wash-fold", 5).place(&app).await;
    move_through(&app, &session, &placed.reference, &["picked-up", "in-progress", "ready", "delivered", "in-progress"])
        .await;
    let history = history(&app, &placed.reference);
    let back_in_progress = last_time(&history, OrderStatus::InProgress);
    let picked_up = last_time(&history, OrderStatus::PickedUp);

    let (order, html) = tracked(&app, &placed.reference).await;

    assert_eq!(order["status"], "in-progress");
    let steps = steps(&order);
    assert_eq!(steps[1], Some((rfc3339(picked_up), true)));
    assert_eq!(steps[2], Some((rfc3339(back_in_progress), true)), "in progress since it was set back");
    assert_eq!(steps[3..], [None, None], "ready and delivered are undone");
    assert_eq!(order["estimatedCompletion"], rfc3339(picked_up + time::Duration::days(3)));
    assert!(html.contains(r#"<span class="badge badge--warning">In Progress</span>"#));
    assert!(html.contains(&row("Delivery Date", "Not yet delivered")), "no longer delivered");
    assert!(!html.contains("<dt>Completed</dt>"), "no longer ready");
}

async fn skipped_steps_read_as_done_by_the_time_of_the_next_step(backend: Backend) {
    let app = TestApp::builder().on(backend).set("LAUNDRY_TRACKING_PER_10_MINUTES", "1000").start().await;
    let session = staff(&app).await;
    let placed = an_order().phone("0712345678").service("wash-fold", 5).place(&app).await;
    move_through(&app, &session, &placed.reference, &["ready"]).await;
    let ready = last_time(&history(&app, &placed.reference), OrderStatus::Ready);

    let (order, html) = tracked(&app, &placed.reference).await;

    let by_ready = Some((rfc3339(ready), false));
    assert_eq!(steps(&order)[1..], [by_ready.clone(), by_ready, Some((rfc3339(ready), true)), None]);
    assert!(html.contains(&row("Pickup Date", &format!("Picked up by {}", shown(ready)))));
    assert!(html.contains(&row("Completed", &shown(ready))));
}

#[actix_web::test]
async fn every_status_gives_a_timeline_that_agrees_with_the_history_on_sqlite() {
    every_status_gives_a_timeline_that_agrees_with_the_history(Backend::Sqlite).await;
}

#[actix_web::test]
async fn every_status_gives_a_timeline_that_agrees_with_the_history_on_postgres() {
    if crate::helpers::postgres_skipped() {
        return;
    }
    every_status_gives_a_timeline_that_agrees_with_the_history(Backend::Postgres).await;
}

#[actix_web::test]
async fn a_move_backwards_shows_the_state_it_was_set_back_to_on_sqlite() {
    a_move_backwards_shows_the_state_it_was_set_back_to(Backend::Sqlite).await;
}

#[actix_web::test]
async fn a_move_backwards_shows_the_state_it_was_set_back_to_on_postgres() {
    if crate::helpers::postgres_skipped() {
        return;
    }
    a_move_backwards_shows_the_state_it_was_set_back_to(Backend::Postgres).await;
}

#[actix_web::test]
async fn skipped_steps_read_as_done_by_the_time_of_the_next_step_on_sqlite() {
    skipped_steps_read_as_done_by_the_time_of_the_next_step(Backend::Sqlite).await;
}

#[actix_web::test]
async fn skipped_steps_read_as_done_by_the_time_of_the_next_step_on_postgres() {
    if crate::helpers::postgres_skipped() {
        return;
    }
    skipped_steps_read_as_done_by_the_time_of_the_next_step(Backend::Postgres).await;
}
