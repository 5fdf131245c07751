//! The order's own page, `/t/{token}`, on both backends: it opens that order and no other, shows
//! the windows and the confirmation, moves and cancels the pickup until the cut-off, and on the day
//! of the run says where the valet is.

use crate::helpers::orders::{Placed, an_order};
use crate::helpers::{Backend, TestApp, quick_retries};
use crate::on_both_backends;
use diesel::prelude::*;
use laundry::clock::NAIROBI;
use laundry::db::schema::{order_status_history, orders, outbox, stops};
use laundry::domain::schedule::{Slot, Window, nairobi_day};
use laundry::domain::{OrderStatus, StopKind, StopState};
use laundry::models::order::Order;
use laundry::models::stop::Stop;
use serde_json::Value;
use time::{Date, Duration, OffsetDateTime, PrimitiveDateTime, Time};

/// Today in Nairobi.
fn today() -> Date {
    nairobi_day(OffsetDateTime::now_utc())
}

/// `day`'s window starting at `hour`:00, as the customer reads it (`Wed 25 Nov, 19:00-20:00`).
fn label(day: Date, hour: u16) -> String {
    Slot { day, window: Window { start: hour * 60, end: hour * 60 + 60 } }.label()
}

/// `hour:minute` of `day` in Nairobi, as stored (UTC).
fn nairobi(day: Date, hour: u8, minute: u8) -> PrimitiveDateTime {
    let at =
        day.with_time(Time::from_hms(hour, minute, 0).unwrap()).assume_offset(NAIROBI).to_offset(time::UtcOffset::UTC);
    PrimitiveDateTime::new(at.date(), at.time())
}

/// The order's stop of `kind`.
fn stop(app: &TestApp, token: &str, kind: StopKind) -> Stop {
    app.with_db(|c| {
        let order = Order::find_by_link_token(c, token).unwrap().unwrap();
        Stop::of_order(c, &order.id, kind).unwrap().unwrap()
    })
}

/// Pickups booked in `day`'s window at `hour`:00.
fn booked(app: &TestApp, day: Date, hour: u16) -> i64 {
    let counts = app.with_db(|c| Stop::pickups_booked(c, day)).unwrap();
    counts.iter().find(|(start, _)| *start == i32::from(hour * 60)).map_or(0, |(_, count)| *count)
}

fn status_of(app: &TestApp, token: &str) -> OrderStatus {
    app.with_db(|c| Order::find_by_link_token(c, token)).unwrap().unwrap().status
}

async fn page(app: &TestApp, token: &str) -> String {
    let response = app.get(&format!("/t/{token}")).await;
    assert_eq!(response.status(), 200);
    response.text().await.unwrap()
}

on_both_backends! {
    async fn the_link_opens_that_order_and_nothing_of_another(app: TestApp) {
        let day = today() + Duration::days(2);
        let Placed { reference: mine, token, .. } = an_order().phone("0712345678").location("Kilimani").landmark("Opposite Yaya Centre").email("amina@example.com").service("wash-fold", 5).pickup(day, 19).place(&app).await;
        let Placed { reference: theirs, .. } = an_order().name("Baraka Otieno").phone("0799000111").location("Kilimani").landmark("Opposite Yaya Centre").email("amina@example.com").service("wash-fold", 5).pickup(day, 20).place(&app).await;

        let response = app.get(&format!("/t/{token}")).await;

        assert_eq!(response.status(), 200);
        let headers = response.headers().clone();
        assert!(headers["cache-control"].to_str().unwrap().contains("no-store"));
        assert_eq!(headers["referrer-policy"], "no-referrer");
        assert!(headers["x-robots-tag"].to_str().unwrap().contains("noindex"));
        let html = response.text().await.unwrap();
        assert!(html.contains(&format!("Order #{mine}")), "the order's ID");
        assert!(html.contains("Amina"));
        assert!(html.contains("Opposite Yaya Centre"), "the landmark, on the order's own page");
        assert!(!html.contains(&theirs), "another order's ID");
        assert!(!html.contains("Baraka"), "another order's name");
        assert!(!html.contains("Otieno"), "another order's name");
        assert!(!html.contains("111"), "another order's phone");
    }

    async fn a_token_that_is_no_orders_answers_the_404_page(app: TestApp) {
        an_order().phone("0712345678").location("Kilimani").landmark("Opposite Yaya Centre").email("amina@example.com").service("wash-fold", 5).pickup(today() + Duration::days(2), 19).place(&app).await;

        let unknown = app.get("/t/zzzzzzzzzzzzzzzz").await;
        let malformed = app.get("/t/NOT-A-TOKEN").await;
        let post = app.post_form("/t/zzzzzzzzzzzzzzzz/cancel", &[("confirm", "yes")]).await;

        assert_eq!(unknown.status(), 404);
        assert_eq!(unknown.headers()["referrer-policy"], "no-referrer");
        assert!(unknown.text().await.unwrap().contains("Unexpected Application Error!"));
        assert_eq!(malformed.status(), 404);
        assert_eq!(post.status(), 404);
    }

    async fn the_page_shows_the_windows_and_that_the_slot_waits_for_confirmation_until_staff_confirm(app: TestApp) {
        let day = today() + Duration::days(2);
        let Placed { token, .. } = an_order().phone("0712345678").location("Kilimani").landmark("Opposite Yaya Centre").email("amina@example.com").service("wash-fold", 5).pickup(day, 20).place(&app).await;

        let waiting = page(&app, &token).await;
        app.with_db(|c| {
            let order = Order::find_by_link_token(c, &token).unwrap().unwrap();
            Stop::confirm(c, &order.id, "staff@example.com", app.now()).unwrap()
        });
        let confirmed = page(&app, &token).await;

        assert!(waiting.contains(&label(day, 20)), "the pickup window");
        assert!(waiting.contains(&label(day + Duration::days(3), 20)), "the delivery window, after the turnaround");
        assert!(waiting.contains("Waiting for confirmation (we confirm within 30 minutes)"));
        assert!(!waiting.contains(r#"class="visit__confirmed""#));
        assert!(confirmed.contains(r#"<span class="visit__confirmed">Confirmed</span>"#));
        assert!(!confirmed.contains("Waiting for confirmation"));
    }

    async fn rescheduling_moves_the_pickup_clears_the_confirmation_and_frees_the_old_windows_place(app: TestApp) {
        let day = today() + Duration::days(2);
        let Placed { token, .. } = an_order().phone("0712345678").location("Kilimani").landmark("Opposite Yaya Centre").email("amina@example.com").service("wash-fold", 5).pickup(day, 19).place(&app).await;
        app.with_db(|c| {
            let order = Order::find_by_link_token(c, &token).unwrap().unwrap();
            Stop::confirm(c, &order.id, "staff@example.com", app.now()).unwrap()
        });
        let page_before = page(&app, &token).await;
        let to = day + Duration::days(1);

        let response = app.post_form(&format!("/t/{token}/reschedule"), &[("pickup", &format!("{to}T20:00"))]).await;

        assert!(page_before.contains(&format!(r#"<option value="{to}T20:00">"#)), "the window is offered");
        assert_eq!(response.status(), 303);
        assert_eq!(response.headers()["location"], format!("/t/{token}?done=moved").as_str());
        let pickup = stop(&app, &token, StopKind::Pickup);
        assert_eq!((pickup.day, pickup.window_start, pickup.window_end), (to, 1200, 1260));
        assert_eq!(pickup.confirmed_at, None, "staff confirm the new slot again");
        assert_eq!(stop(&app, &token, StopKind::Delivery).day, to + Duration::days(3));
        assert_eq!(booked(&app, day, 19), 0, "the old window's place is free");
        assert_eq!(booked(&app, to, 20), 1);
        let after = app.get(&format!("/t/{token}?done=moved")).await.text().await.unwrap();
        assert!(after.contains("Your pickup has been moved."));
        assert!(after.contains(&label(to, 20)));
        assert!(after.contains("Waiting for confirmation (we confirm within 30 minutes)"));
    }

    async fn cancelling_needs_the_box_ticked_then_cancels_the_order_and_frees_its_place(app: TestApp) {
        let day = today() + Duration::days(2);
        let Placed { token, .. } = an_order().phone("0712345678").location("Kilimani").landmark("Opposite Yaya Centre").email("amina@example.com").service("wash-fold", 5).pickup(day, 19).place(&app).await;

        let unticked = app.post_form(&format!("/t/{token}/cancel"), &[]).await;
        assert_eq!(unticked.status(), 422);
        assert!(unticked.text().await.unwrap().contains("Please tick the box to confirm that you want to cancel this order."));
        assert_eq!(status_of(&app, &token), OrderStatus::Pending);

        let response = app.post_form(&format!("/t/{token}/cancel"), &[("confirm", "yes")]).await;

        assert_eq!(response.status(), 303);
        assert_eq!(response.headers()["location"], format!("/t/{token}?done=cancelled").as_str());
        assert_eq!(status_of(&app, &token), OrderStatus::Cancelled);
        assert_eq!(stop(&app, &token, StopKind::Pickup).state, StopState::Cancelled);
        assert_eq!(stop(&app, &token, StopKind::Delivery).state, StopState::Cancelled);
        assert_eq!(booked(&app, day, 19), 0, "the window's place is free again");
        let by: Vec<Option<String>> = app.with_db(|c| {
            order_status_history::table
                .inner_join(orders::table)
                .filter(orders::link_token.eq(&token))
                .filter(order_status_history::status.eq(OrderStatus::Cancelled))
                .select(order_status_history::changed_by)
                .load(c)
                .unwrap()
        });
        assert_eq!(by, [Some("customer".to_owned())]);
        let again = app.post_form(&format!("/t/{token}/cancel"), &[("confirm", "yes")]).await;
        assert_eq!(again.status(), 409);
        assert!(again.text().await.unwrap().contains("This order is cancelled, so there is nothing left to change."));
    }

    async fn both_changes_are_refused_after_the_pickups_cutoff_with_the_reason(app: TestApp) {
        // Booked two days ago for yesterday evening: long past its cut-off now.
        let yesterday = today() - Duration::days(1);
        let token = an_order().phone("0712345678").location("Kilimani").landmark("Opposite Yaya Centre").email("amina@example.com").service("wash-fold", 5).pickup(yesterday, 19).place_as_if_at(&app, nairobi(yesterday - Duration::days(1), 12, 0)).link_token.unwrap();
        let reason = "Changes and cancellations close 60 minutes before the pickup window starts";

        let html = page(&app, &token).await;
        let to = today() + Duration::days(2);
        let moved = app.post_form(&format!("/t/{token}/reschedule"), &[("pickup", &format!("{to}T20:00"))]).await;
        let cancelled = app.post_form(&format!("/t/{token}/cancel"), &[("confirm", "yes")]).await;

        assert!(html.contains(reason));
        assert!(!html.contains("/reschedule"), "no form past the cut-off");
        assert_eq!(moved.status(), 409);
        assert!(moved.text().await.unwrap().contains(reason));
        assert_eq!(cancelled.status(), 409);
        assert!(cancelled.text().await.unwrap().contains(reason));
        let pickup = stop(&app, &token, StopKind::Pickup);
        assert_eq!((pickup.day, pickup.window_start, pickup.state), (yesterday, 1140, StopState::Planned));
        assert_eq!(status_of(&app, &token), OrderStatus::Pending);
    }

    async fn a_change_posted_from_another_site_is_refused(app: TestApp) {
        let Placed { token, .. } = an_order().phone("0712345678").location("Kilimani").landmark("Opposite Yaya Centre").email("amina@example.com").service("wash-fold", 5).pickup(today() + Duration::days(2), 19).place(&app).await;
        let cancel = |headers: &'static [(&'static str, &'static str)]| {
            let mut request = app
                .client
                .post(format!("{}/t/{token}/cancel", app.address))
                .header("content-type", "application/x-www-form-urlencoded")
                .body("confirm=yes");
            for (name, value) in headers {
                request = request.header(*name, *value);
            }
            request.send()
        };

        let cross_site = cancel(&[("sec-fetch-site", "cross-site")]).await.unwrap();
        let other_origin = cancel(&[("origin", "https://evil.example")]).await.unwrap();

        assert_eq!(cross_site.status(), 403);
        assert_eq!(other_origin.status(), 403);
        assert_eq!(status_of(&app, &token), OrderStatus::Pending);
        let own_page = cancel(&[("sec-fetch-site", "same-origin")]).await.unwrap();
        assert_eq!(own_page.status(), 303);
        assert_eq!(status_of(&app, &token), OrderStatus::Cancelled);
    }

    async fn the_valets_position_appears_once_the_stop_is_in_a_run_and_follows_the_run(app: TestApp) {
        // Three pickups in today's 19:00 window, booked at midnight.
        let day = today();
        let midnight = nairobi(day, 0, 0);
        let orders: Vec<(String, String)> = ["0711000001", "0711000002", "0711000003"]
            .iter()
            .map(|phone| an_order().phone(phone).location("Kilimani").landmark("Opposite Yaya Centre").email("amina@example.com").service("wash-fold", 5).pickup(day, 19).place_as_if_at(&app, midnight))
            .map(|order| (order.id, order.link_token.unwrap()))
            .collect();
        let mine = &orders[2].1;
        let before_the_run = page(&app, mine).await;
        app.create_staff_as("valet@example.com", "Valet-Test-Pass-2026", laundry::domain::StaffRole::Valet);
        let valet = app.with_db(|c| laundry::models::staff::Staff::find_by_email(c, "valet@example.com")).unwrap().unwrap();
        let set = |order_id: &str, values: (Option<i32>, StopState, Option<PrimitiveDateTime>, Option<PrimitiveDateTime>)| {
            app.with_db(|c| {
                diesel::update(stops::table.filter(stops::order_id.eq(order_id)).filter(stops::kind.eq(StopKind::Pickup)))
                    .set((
                        stops::valet_id.eq(&valet.id),
                        stops::run_position.eq(values.0),
                        stops::state.eq(values.1),
                        stops::on_the_way_at.eq(values.2),
                        stops::done_at.eq(values.3),
                    ))
                    .execute(c)
                    .unwrap()
            });
        };
        for (position, (order_id, _)) in orders.iter().enumerate() {
            set(order_id, (Some(position as i32 + 1), StopState::Planned, None, None));
        }

        let in_the_run = page(&app, mine).await;
        set(&orders[0].0, (Some(1), StopState::Done, None, Some(nairobi(day, 19, 20))));
        let one_done = page(&app, mine).await;
        set(&orders[1].0, (Some(2), StopState::Done, None, Some(nairobi(day, 19, 35))));
        set(&orders[2].0, (Some(3), StopState::OnTheWay, Some(nairobi(day, 19, 40)), None));
        let on_the_way = page(&app, mine).await;

        assert!(!before_the_run.contains("before you"), "not in a run yet");
        assert!(in_the_run.contains("2 stops before you, expected 19:30-20:00"), "window start + 2 × 15 minutes");
        assert!(one_done.contains("1 stop before you, expected 19:50-20:20"), "from the valet's progress at 19:20");
        assert!(on_the_way.contains("Your valet is on the way, expected 19:55-20:25"));
    }

    async fn tracking_shows_the_visit_but_not_the_landmark(app: TestApp) {
        let day = today() + Duration::days(2);
        let Placed { reference, .. } = an_order().phone("0712345678").location("Kilimani").landmark("Opposite Yaya Centre").email("amina@example.com").service("wash-fold", 5).pickup(day, 21).place(&app).await;

        let html = app.get(&format!("/tracking?by=order&q={reference}")).await.text().await.unwrap();

        assert!(html.contains(&label(day, 21)));
        assert!(html.contains("Waiting for confirmation (we confirm within 30 minutes)"));
        assert!(!html.contains("Opposite Yaya Centre"), "an order ID is not enough to see where the customer lives");
    }

    async fn the_customers_email_links_to_the_orders_page(app: TestApp) {
        let Placed { token, .. } = an_order().phone("0712345678").location("Kilimani").landmark("Opposite Yaya Centre").email("amina@example.com").service("wash-fold", 5).pickup(today() + Duration::days(2), 19).place(&app).await;

        let params: Vec<String> = app.with_db(|c| {
            // The only order, so the only e-mail to the customer.
            outbox::table
                .filter(outbox::to_email.eq("amina@example.com"))
                .select(outbox::params)
                .load(c)
                .unwrap()
        });

        let params: Value = serde_json::from_str(&params[0]).unwrap();
        assert_eq!(params["tracking_link"], format!("http://127.0.0.1:8080/t/{token}").as_str());
    }
}

/// A window with room for one: cancelling its pickup lets the next customer book it.
async fn a_cancelled_pickup_gives_its_place_in_a_full_window_to_the_next_customer(backend: Backend) {
    let env = [("LAUNDRY_WINDOW_CAPACITY", "1".to_owned())];
    let app = TestApp::builder().on(backend).env(&env).retries(quick_retries()).start().await;
    let day = today() + Duration::days(2);
    let Placed { token, .. } = an_order()
        .phone("0712345678")
        .location("Kilimani")
        .landmark("Opposite Yaya Centre")
        .email("amina@example.com")
        .service("wash-fold", 5)
        .pickup(day, 19)
        .place(&app)
        .await;
    let second = an_order()
        .name("Baraka Otieno")
        .phone("0799000111")
        .location("Kilimani")
        .landmark("Opposite Yaya Centre")
        .email("amina@example.com")
        .service("wash-fold", 5)
        .pickup(day, 19)
        .body();
    let full = app.post_json("/api/orders", &second, &[("Idempotency-Key", "second-1")]).await;
    assert_eq!(full.status(), 422, "the window is full");

    app.post_form(&format!("/t/{token}/cancel"), &[("confirm", "yes")]).await;
    let freed = app.post_json("/api/orders", &second, &[("Idempotency-Key", "second-2")]).await;

    assert_eq!(freed.status(), 201, "the cancelled pickup's place is free");
}

#[actix_web::test]
async fn a_cancelled_pickup_frees_a_full_window_on_sqlite() {
    a_cancelled_pickup_gives_its_place_in_a_full_window_to_the_next_customer(Backend::Sqlite).await;
}

#[actix_web::test]
async fn a_cancelled_pickup_frees_a_full_window_on_postgres() {
    if crate::helpers::postgres_skipped() {
        return;
    }
    a_cancelled_pickup_gives_its_place_in_a_full_window_to_the_next_customer(Backend::Postgres).await;
}
