//! Issue 49: the clock moves an order's life. A pickup whose window passed with nothing recorded
//! is late: missed, its delivery gone from the run and from the customer's page, the customer
//! texted once (not once per look of the job, not twice by two instances at once), and staff see
//! it in "Needs attention" with how late it is. A collected order whose delivery window passed is
//! late the same way and listed; a stop done in time, or a window not over, is left alone.

use crate::helpers::orders::{Placed, an_order};
use crate::helpers::{Backend, SignedIn, TestApp, book_stop, quick_retries, set_status, stopped_clock};
use laundry::domain::{MessageKind, OrderStatus, StaffRole, StopKind, StopState};
use laundry::lifecycle::late::{REASON, mark_late_stops};
use laundry::models::outbox::OutboxMessage;
use laundry::models::stop::Stop;
use laundry::notify::NotifyCustomer;
use serde_json::Value;
use time::macros::{date, datetime};

const OWNER: &str = "owner@example.com";
/// 19:00-20:00, the window of the stops these tests book.
const EVENING: (i32, i32) = (19 * 60, 20 * 60);

fn stop(app: &TestApp, id: &str, kind: StopKind) -> Stop {
    app.with_db(|c| Stop::of_order(c, id, kind).unwrap().unwrap())
}

/// The texts "missed" or "late" written for the order `id`.
fn missed_texts(app: &TestApp, id: &str) -> Vec<String> {
    let all = app.with_db(|c| OutboxMessage::all(c).unwrap());
    all.into_iter()
        .filter(|m| m.kind == MessageKind::SmsMissed && m.order_id.as_deref() == Some(id))
        .filter_map(|m| m.sms_text())
        .collect()
}

/// The job's look at the app's clock, as the scheduler makes it.
fn look(app: &TestApp) -> usize {
    let notify = NotifyCustomer::customer(app.state.texts(), false);
    let schedule = app.state.settings().schedule.clone();
    app.with_db(|c| mark_late_stops(c, &schedule, &notify, app.now()).unwrap())
}

async fn waiting(app: &TestApp, session: &SignedIn) -> Vec<Value> {
    let response =
        app.staff_request(reqwest::Method::GET, "/api/admin/unconfirmed", session, false).send().await.unwrap();
    assert_eq!(response.status(), 200);
    response.json::<Value>().await.unwrap()["waiting"].as_array().unwrap().clone()
}

async fn a_pickup_left_unrecorded_past_its_window_is_late_once_and_has_no_delivery(backend: Backend) {
    let clock = stopped_clock();
    let app = TestApp::builder().on(backend).retries(quick_retries()).clock(clock.clone()).start().await;
    clock.set(datetime!(2026-11-02 10:00 +3));
    let Placed { key: late, reference: late_ref, .. } =
        an_order().phone("0712345678").location("Kilimani").place(&app).await;
    let Placed { key: kept, .. } = an_order().phone("0722000111").location("Kilimani").place(&app).await;
    for id in [&late, &kept] {
        book_stop(&app, id, StopKind::Pickup, date!(2026 - 11 - 02), EVENING);
        book_stop(&app, id, StopKind::Delivery, date!(2026 - 11 - 05), EVENING);
    }
    // During the window nothing is late; the valet collects one order in it.
    clock.set(datetime!(2026-11-02 19:59 +3));
    assert_eq!(look(&app), 0, "the window is not over");
    let nobody = NotifyCustomer::nobody();
    app.with_db(|c| set_status(c, &kept, OrderStatus::PickedUp, OWNER, &nobody, app.now()).unwrap());

    // Three days later nobody has recorded the other one.
    clock.set(datetime!(2026-11-05 12:00 +3));
    let first = look(&app);
    let again = look(&app);
    // Two instances looking at once change it once.
    let notify = NotifyCustomer::customer(app.state.texts(), false);
    let schedule = app.state.settings().schedule.clone();
    let (database, now) = (app.state.db().clone(), app.now());
    let at_once: usize = std::thread::scope(|scope| {
        let looks: Vec<_> = (0..2)
            .map(|_| {
                let (database, notify, schedule) = (database.clone(), notify.clone(), schedule.clone());
                scope.spawn(move || {
                    let mut connection = database.connection().unwrap();
                    mark_late_stops(&mut connection, &schedule, &notify, now).unwrap()
                })
            })
            .collect();
        looks.into_iter().map(|look| look.join().unwrap()).sum()
    });
    assert_eq!((first, again, at_once), (1, 0, 0), "marked once");

    let pickup = stop(&app, &late, StopKind::Pickup);
    assert_eq!((pickup.state, pickup.missed_reason.as_deref()), (StopState::Missed, Some(REASON)));
    assert_eq!(
        stop(&app, &late, StopKind::Delivery).state,
        StopState::Cancelled,
        "no delivery of laundry never collected"
    );
    assert_eq!(stop(&app, &kept, StopKind::Pickup).state, StopState::Done, "a pickup done in time is left alone");
    let texts = missed_texts(&app, &late);
    assert_eq!(texts.len(), 1, "one text: {texts:?}");
    assert!(
        texts[0]
            .contains(&format!("sorry, we did not come for order {late_ref} in its window. Choose a new pickup time:"))
    );

    // The run of the delivery's day does not list it; the customer's page asks for a new time.
    let owner = app.sign_in_as(OWNER, "Late-Stops-Pass-2026", StaffRole::Owner).await;
    let run = app
        .staff_request(reqwest::Method::GET, "/api/admin/run?date=2026-11-05", &owner, false)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(!run.contains(&late_ref), "the late pickup's delivery is not on the run: {run}");
    let token = crate::helpers::mpesa::order(&app, &late_ref).link_token.unwrap();
    let html = app.get(&format!("/t/{token}")).await.text().await.unwrap();
    assert!(html.contains("Choose a New Pickup Time"), "the customer chooses a new time");
    assert!(html.contains("Sorry, we did not come to collect your laundry on Mon 2 Nov."), "and reads why");
    assert!(!html.contains("You are next"), "no passed window shown as to come");

    // Staff see it in "Needs attention", with how late it is.
    let waiting = waiting(&app, &owner).await;
    let item = waiting.iter().find(|item| item["orderId"] == late_ref.as_str()).expect("the late pickup waits");
    assert_eq!(item["kind"], "missed-pickup");
    assert_eq!(item["what"], "Pickup late, Mon 2 Nov, 19:00-20:00: nobody came, 2 days ago");
}

async fn a_collected_order_whose_delivery_window_passed_is_late_and_listed(backend: Backend) {
    let clock = stopped_clock();
    let app = TestApp::builder().on(backend).retries(quick_retries()).clock(clock.clone()).start().await;
    clock.set(datetime!(2026-11-02 10:00 +3));
    let Placed { key: id, reference, .. } = an_order().phone("0712345678").location("Kilimani").place(&app).await;
    book_stop(&app, &id, StopKind::Pickup, date!(2026 - 11 - 02), EVENING);
    book_stop(&app, &id, StopKind::Delivery, date!(2026 - 11 - 05), EVENING);
    clock.set(datetime!(2026-11-02 19:30 +3));
    let nobody = NotifyCustomer::nobody();
    app.with_db(|c| set_status(c, &id, OrderStatus::PickedUp, OWNER, &nobody, app.now()).unwrap());

    // A week after the delivery's window: not delivered, not "Not home".
    clock.set(datetime!(2026-11-12 09:00 +3));
    assert_eq!(look(&app), 1);
    assert_eq!(look(&app), 0);
    let delivery = stop(&app, &id, StopKind::Delivery);
    assert_eq!((delivery.state, delivery.missed_reason.as_deref()), (StopState::Missed, Some(REASON)));
    let texts = missed_texts(&app, &id);
    assert_eq!(texts.len(), 1, "{texts:?}");
    assert!(
        texts[0].contains(&format!(
            "sorry, we did not deliver order {reference} in its window. We will text you a new time"
        ))
    );
    let owner = app.sign_in_as(OWNER, "Late-Stops-Pass-2026", StaffRole::Owner).await;
    let waiting = waiting(&app, &owner).await;
    let item = waiting.iter().find(|item| item["orderId"] == reference.as_str()).expect("the late delivery waits");
    assert_eq!(item["kind"], "missed-delivery");
    assert_eq!(item["what"], "Delivery late, Thu 5 Nov, 19:00-20:00: not delivered, 6 days ago");

    // The customer's page says the delivery did not come, and shows its passed window as nothing to come.
    let token = crate::helpers::mpesa::order(&app, &reference).link_token.unwrap();
    let html = app.get(&format!("/t/{token}")).await.text().await.unwrap();
    assert!(
        html.contains(
            "Sorry, we did not deliver your laundry on Thu 5 Nov. We will text you a new time, or choose one here."
        ),
        "{html}"
    );
    assert!(!html.contains("You are next") && !html.contains("Expected"), "no passed window shown as to come");
    assert!(html.contains("<dt>Delivery</dt><dd>Thu 5 Nov, 19:00-20:00 · Missed: please choose a new time</dd>"));

    // Staff book it again; that window passes too, with nothing recorded: late again, texted again.
    let path = format!("/api/admin/orders/{reference}/slot");
    let body = serde_json::json!({ "action": "move-delivery", "delivery": "2026-11-13T19:00" });
    let moved = app.staff_request(reqwest::Method::POST, &path, &owner, true).json(&body).send().await.unwrap();
    assert_eq!(moved.status(), 200, "{}", moved.text().await.unwrap());
    assert_eq!(stop(&app, &id, StopKind::Delivery).state, StopState::Planned);
    clock.set(datetime!(2026-11-14 09:00 +3));
    assert_eq!(look(&app), 1);
    let delivery = stop(&app, &id, StopKind::Delivery);
    assert_eq!((delivery.state, delivery.missed_reason.as_deref()), (StopState::Missed, Some(REASON)));
    assert_eq!(missed_texts(&app, &id).len(), 2, "one text for each window that passed");
}

async fn the_scheduler_marks_a_passed_window_late_as_a_production_server_does(backend: Backend) {
    let clock = stopped_clock();
    let app =
        TestApp::builder().on(backend).retries(quick_retries()).clock(clock.clone()).marking_late_stops().start().await;
    clock.set(datetime!(2026-11-02 10:00 +3));
    let Placed { key: id, .. } = an_order().phone("0712345678").place(&app).await;
    book_stop(&app, &id, StopKind::Pickup, date!(2026 - 11 - 02), EVENING);
    book_stop(&app, &id, StopKind::Delivery, date!(2026 - 11 - 05), EVENING);

    clock.set(datetime!(2026-11-03 09:00 +3));
    app.run_jobs().await;

    let pickup = stop(&app, &id, StopKind::Pickup);
    assert_eq!((pickup.state, pickup.missed_reason.as_deref()), (StopState::Missed, Some(REASON)));
    assert_eq!(missed_texts(&app, &id).len(), 1);
}

crate::on_each_backend!(
    a_pickup_left_unrecorded_past_its_window_is_late_once_and_has_no_delivery,
    a_collected_order_whose_delivery_window_passed_is_late_and_listed,
    the_scheduler_marks_a_passed_window_late_as_a_production_server_does
);
