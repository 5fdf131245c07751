//! Pickup windows: `GET /api/slots`, booking a window through the API and the plain form, a
//! window's capacity under bookings sent all at once (both backends), cut-off and closed dates,
//! and Nairobi time whatever the server's own time zone.

use crate::helpers::orders::an_order;
use crate::helpers::{Backend, TestApp, built_frontend, quick_retries};
use laundry::domain::schedule::{day_label, nairobi_day};
use laundry::domain::{OrderReference, StopKind};
use laundry::models::order::Order;
use laundry::models::stop::Stop;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration as StdDuration;
use time::{Date, Duration, OffsetDateTime};

fn today() -> Date {
    nairobi_day(OffsetDateTime::now_utc())
}

/// `days` after today in Nairobi.
fn day(days: i64) -> Date {
    today() + Duration::days(days)
}

/// The pickup error of a refused order.
async fn pickup_error(response: reqwest::Response) -> String {
    assert_eq!(response.status(), 422);
    let body: Value = response.json().await.unwrap();
    body["fields"]["pickup"].as_str().unwrap_or_else(|| panic!("no pickup error: {body}")).to_owned()
}

async fn slots(app: &TestApp, date: &str) -> Value {
    let response = app.get(&format!("/api/slots?date={date}")).await;
    assert_eq!(response.status(), 200, "{date}");
    response.json().await.unwrap()
}

/// Twelve customers book the same window of capacity 3 at once: three orders are stored, the
/// others are told it is full, and the window says so.
async fn bookings_sent_at_once_store_exactly_the_windows_capacity(backend: Backend) {
    let app = TestApp::builder().on(backend).set("LAUNDRY_WINDOW_CAPACITY", "3").retries(quick_retries()).start().await;
    let pickup = format!("{}T20:00", day(1));
    let orders: Vec<Value> =
        (1..=12).map(|n| an_order().customer_number(n).with("pickup", pickup.clone()).body()).collect();

    let answers = futures::future::join_all(orders.iter().map(|order| app.post_json("/api/orders", order, &[]))).await;

    let created = answers.iter().filter(|answer| answer.status() == 201).count();
    assert_eq!(created, 3, "{:?}", answers.iter().map(reqwest::Response::status).collect::<Vec<_>>());
    let full = format!("The {}, 20:00-21:00 window is full. Please choose another window.", day_label(day(1)));
    for answer in answers.into_iter().filter(|answer| answer.status() != 201) {
        assert_eq!(pickup_error(answer).await, full);
    }
    assert_eq!(app.with_db(|c| Order::count(c).unwrap()), 3);
    let booked = app.with_db(|c| Stop::pickups_booked(c, day(1)).unwrap());
    assert_eq!(booked, [(20 * 60, 3)], "three pickups, all in the window asked for");
    let window = &slots(&app, &day(1).to_string()).await["windows"][1];
    assert_eq!(
        (window["remaining"].clone(), window["open"].clone(), window["full"].clone()),
        (json!(0), json!(false), json!(true))
    );
    assert_eq!(window["reason"], full.as_str());
}

#[actix_web::test]
async fn bookings_sent_at_once_store_exactly_the_windows_capacity_on_sqlite() {
    bookings_sent_at_once_store_exactly_the_windows_capacity(Backend::Sqlite).await;
}

#[actix_web::test]
async fn bookings_sent_at_once_store_exactly_the_windows_capacity_on_postgres() {
    if crate::helpers::postgres_skipped() {
        return;
    }
    bookings_sent_at_once_store_exactly_the_windows_capacity(Backend::Postgres).await;
}

#[actix_web::test]
async fn past_closed_far_and_unknown_windows_are_refused_with_their_message_and_nothing_is_stored() {
    // Today's 01:00 window closed at midnight whatever the time now; tomorrow is closed.
    let closed = day(1).to_string();
    let app = TestApp::builder()
        .set("LAUNDRY_PICKUP_WINDOWS", "01:00-02:00,19:00-20:00")
        .set("LAUNDRY_CLOSED_DATES", closed.as_str())
        .retries(quick_retries())
        .start()
        .await;
    let cases = [
        (
            format!("{}T01:00", today()),
            format!("Booking for {}, 01:00-02:00 closed at 00:00. Please choose a later window.", day_label(today())),
        ),
        (format!("{}T19:00", day(1)), format!("We are closed on {}. Please choose another day.", day_label(day(1)))),
        (
            format!("{}T19:00", day(20)),
            "Pickups can be booked up to 14 days ahead. Please choose an earlier day.".to_owned(),
        ),
        (format!("{}T19:30", day(2)), "Please choose one of the pickup windows shown.".to_owned()),
        ("tomorrow evening".to_owned(), "Please choose a pickup day and window from the list.".to_owned()),
    ];

    for (n, (pickup, message)) in cases.into_iter().enumerate() {
        let response = app
            .post_json("/api/orders", &an_order().customer_number(n as u32).with("pickup", pickup.clone()).body(), &[])
            .await;
        assert_eq!(pickup_error(response).await, message, "{pickup}");
    }

    assert_eq!(app.with_db(|c| Order::count(c).unwrap()), 0);
    let tomorrow = slots(&app, &closed).await;
    for window in tomorrow["windows"].as_array().unwrap() {
        assert_eq!(window["open"], false);
        assert_eq!(window["reason"], format!("We are closed on {}. Please choose another day.", day_label(day(1))));
    }
    let order_form = app.get("/order").await.text().await.unwrap();
    assert!(order_form.contains(&format!(r#"value="{}T19:00""#, day(2))), "the day after is offered");
    assert!(!order_form.contains(&format!(r#"value="{closed}T"#)), "the closed day is not offered");
    assert!(!order_form.contains(&format!(r#"value="{}T01:00""#, today())), "a window past its cut-off is not");
}

#[actix_web::test]
async fn slots_answer_each_window_with_the_places_left_after_bookings_and_cancellations() {
    let app = TestApp::builder().set("LAUNDRY_WINDOW_CAPACITY", "3").retries(quick_retries()).start().await;
    let date = day(2).to_string();
    let placed: Value = app
        .post_json("/api/orders", &an_order().customer_number(1).with("pickup", format!("{date}T20:00")).body(), &[])
        .await
        .json()
        .await
        .unwrap();

    let answer = slots(&app, &date).await;

    assert_eq!(answer["date"], date.as_str());
    let windows = answer["windows"].as_array().unwrap();
    assert_eq!(windows.len(), 3);
    assert_eq!(
        windows[1],
        json!({ "start": "20:00", "end": "21:00", "remaining": 2, "value": format!("{date}T20:00"), "open": true, "full": false, "reason": null })
    );
    assert_eq!((windows[0]["remaining"].clone(), windows[2]["remaining"].clone()), (json!(3), json!(3)));

    let reference = OrderReference::parse(placed["id"].as_str().unwrap()).unwrap();
    app.with_db(|c| {
        let stored = Order::find_by_reference(c, &reference).unwrap().unwrap();
        Stop::cancel_for_order(c, &stored.id).unwrap()
    });
    assert_eq!(slots(&app, &date).await["windows"][1]["remaining"], 3, "a cancelled pickup frees its place");
}

#[actix_web::test]
async fn days_outside_the_bookable_ones_answer_their_windows_closed_with_the_reason() {
    let app = TestApp::builder().retries(quick_retries()).start().await;

    let far = slots(&app, &day(30).to_string()).await;
    let past = slots(&app, &day(-1).to_string()).await;

    for window in far["windows"].as_array().unwrap() {
        assert_eq!((window["remaining"].clone(), window["open"].clone()), (json!(0), json!(false)));
        assert_eq!(window["reason"], "Pickups can be booked up to 14 days ahead. Please choose an earlier day.");
    }
    let reason = past["windows"][0]["reason"].as_str().unwrap();
    assert_eq!(
        reason,
        format!("Booking for {}, 19:00-20:00 closed at 18:00. Please choose a later window.", day_label(day(-1)))
    );
}

#[actix_web::test]
async fn a_missing_or_unreadable_date_is_a_400_that_says_how_to_write_it() {
    let app = TestApp::builder().retries(quick_retries()).start().await;

    for query in [
        "",
        "?date=",
        "?date=2026-13-01",
        "?date=25%2F11%2F2026",
        "?date=tomorrow",
        "?date=2026-11-25T19:00",
        "?day=2026-11-25",
        "?date=a&date=b",
    ] {
        let response = app.get(&format!("/api/slots{query}")).await;

        assert_eq!(response.status(), 400, "{query}");
        let body: Value = response.json().await.unwrap_or_else(|e| panic!("{query}: not JSON: {e}"));
        let error = body["error"].as_str().unwrap();
        assert!(error.contains("?date=YYYY-MM-DD, for example ?date=2026-11-25"), "{query}: {error}");
    }
}

/// The `pickup` option the order form has selected, from its HTML.
fn selected_pickup(html: &str) -> Option<String> {
    let select = html.split(r#"name="pickup""#).nth(1)?.split("</select>").next()?;
    let option = select.split("<option").find(|option| option.contains(r#"selected="""#))?;
    Some(option.split(r#"value=""#).nth(1)?.split('"').next()?.to_owned())
}

#[actix_web::test]
async fn a_plain_form_post_books_its_window_and_the_confirmation_shows_it_waiting_for_confirmation() {
    let app = TestApp::builder().retries(quick_retries()).start().await;
    let pickup = format!("{}T20:00", day(2));
    let fields = [
        ("customerName", "Brian Otieno"),
        ("phone", "0722 000 111"),
        ("location", "Westlands, Mpaka Rd"),
        ("landmark", "Opposite Sarit Centre, green gate"),
        ("serviceType", "ironing"),
        ("quantity", "2"),
        ("paymentMethod", "pay-delivery"),
        ("pickup", pickup.as_str()),
        ("rush", "on"),
        ("pinLat", "-1.260500"),
        ("pinLng", "36.802700"),
    ];

    let response = app.post_form("/order", &fields).await;

    assert_eq!(response.status(), 303);
    let location = response.headers()["location"].to_str().unwrap().to_owned();
    let reference = OrderReference::parse(location.trim_start_matches("/confirmation?ref=")).unwrap();
    let (stored, pickup_stop) = app.with_db(|c| {
        let stored = Order::find_by_reference(c, &reference).unwrap().unwrap();
        let stop = Stop::of_order(c, &stored.id, StopKind::Pickup).unwrap().unwrap();
        (stored, stop)
    });
    assert_eq!((pickup_stop.day, pickup_stop.window_start), (day(2), 20 * 60));
    assert_eq!(stored.landmark, "Opposite Sarit Centre, green gate");
    assert!(stored.rush && stored.pin().is_some());
    assert_eq!(stored.total_amount, 400 + 300, "ironing 2 kg and the rush surcharge");
    let cookie = crate::helpers::set_cookie(&response, "laundry_placed").expect("the browser that placed it is known");
    let html = app.get_with(&location, &[("cookie", &format!("laundry_placed={cookie}"))]).await.text().await.unwrap();
    assert!(html.contains(&format!("{}, 20:00-21:00", day_label(day(2)))), "the pickup window");
    assert!(html.contains("Waiting for confirmation: we will call you within 30 minutes"));
    assert!(html.contains(&format!("{}, 20:00-21:00", day_label(day(3)))), "delivery the next day, with rush");
    assert!(html.contains("Next-day rush") && html.contains("KSh 700"));
    let track = format!(r#"href="/t/{}">Track this order</a>"#, stored.link_token.unwrap());
    assert!(html.contains(&track), "a link to the order's own page");
    let someone_else = app.get(&location).await.text().await.unwrap();
    assert!(someone_else.contains("Waiting for confirmation"));
    assert!(!someone_else.contains("Track this order"), "the order ID alone does not open the order's page");
}

#[actix_web::test]
async fn only_the_browser_that_placed_an_order_through_the_api_is_shown_the_link_to_its_page() {
    let app = TestApp::builder().retries(quick_retries()).start().await;
    let first = app.post_json("/api/orders", &an_order().customer_number(1).body(), &[]).await;
    let earlier = crate::helpers::set_cookie(&first, "laundry_placed").unwrap();
    let first: Value = first.json().await.unwrap();
    let second = app
        .client
        .post(format!("{}/api/orders", app.address))
        .header("cookie", format!("laundry_placed={earlier}"))
        .json(&an_order().customer_number(2).body())
        .send()
        .await
        .unwrap();
    let both = crate::helpers::set_cookie(&second, "laundry_placed").unwrap();
    let second: Value = second.json().await.unwrap();

    for placed in [&first, &second] {
        let reference = OrderReference::parse(placed["id"].as_str().unwrap()).unwrap();
        let token = app.with_db(|c| Order::find_by_reference(c, &reference).unwrap().unwrap().link_token.unwrap());
        let path = format!("/confirmation?ref={}", placed["id"].as_str().unwrap());
        let mine = app.get_with(&path, &[("cookie", &format!("laundry_placed={both}"))]).await.text().await.unwrap();
        assert!(mine.contains(&format!(r#"href="/t/{token}">Track this order</a>"#)), "{path}");
        let forged = format!("laundry_placed={}", "a".repeat(16));
        let theirs = app.get_with(&path, &[("cookie", &forged)]).await.text().await.unwrap();
        assert!(!theirs.contains("/t/") && !theirs.contains("Track this order"), "{path}");
    }
}

#[actix_web::test]
async fn a_plain_form_post_into_a_full_window_comes_back_with_the_message_beside_the_pickup_field() {
    let app = TestApp::builder().set("LAUNDRY_WINDOW_CAPACITY", "1").retries(quick_retries()).start().await;
    let pickup = format!("{}T19:00", day(2));
    assert_eq!(
        app.post_json("/api/orders", &an_order().customer_number(1).with("pickup", pickup.clone()).body(), &[])
            .await
            .status(),
        201
    );
    let fields = [
        ("customerName", "Brian Otieno"),
        ("phone", "0722 000 111"),
        ("location", "Westlands"),
        ("landmark", "Blue gate"),
        ("serviceType", "ironing"),
        ("quantity", "2"),
        ("pickup", pickup.as_str()),
    ];

    let response = app.post_form("/order", &fields).await;

    assert_eq!(response.status(), 422);
    let html = response.text().await.unwrap();
    let message = format!("The {}, 19:00-20:00 window is full. Please choose another window.", day_label(day(2)));
    let field = html.split(r#"id="order-pickup""#).nth(1).unwrap().split("</div>").next().unwrap();
    assert!(field.contains(&format!(r#"id="order-pickup-error">{message}</p>"#)), "{field}");
    let full = format!(r#"<option value="{pickup}" disabled="">{}, 19:00-20:00 (full)</option>"#, day_label(day(2)));
    assert!(html.contains(&full), "the full window reads with its day");
    assert_eq!(selected_pickup(&html).as_deref(), Some(""), "no window is chosen for the customer");
    assert!(html.contains(r#"value="Brian Otieno""#) && html.contains(r#"value="Blue gate""#), "what was typed stays");
    assert_eq!(app.with_db(|c| Order::count(c).unwrap()), 1);
}

#[actix_web::test]
async fn the_order_form_is_kept_in_memory_until_a_booking_changes_its_windows() {
    let app = TestApp::builder().set("LAUNDRY_WINDOW_CAPACITY", "5").retries(quick_retries()).start().await;
    let first = app.get("/order").await.text().await.unwrap();
    let renders = app.renders();
    let chosen = selected_pickup(&first).expect("the first open window is chosen");
    assert!(first.contains(&format!(r#"value="{chosen}" selected="">"#)));

    assert_eq!(app.get("/order").await.text().await.unwrap(), first);
    assert_eq!(app.renders(), renders, "the second request rendered again");
    assert_eq!(
        app.post_json("/api/orders", &an_order().customer_number(1).with("pickup", chosen.clone()).body(), &[])
            .await
            .status(),
        201
    );
    let after = app.get("/order").await.text().await.unwrap();

    assert_eq!(app.renders(), renders + 1);
    let option = after.split(&format!(r#"value="{chosen}""#)).nth(1).unwrap().split("</option>").next().unwrap();
    assert!(option.ends_with("(4 left)"), "{option}");
}

/// The server binary with `tz` as its time zone and the schedule in `env`, on a fresh database.
struct ServerInZone {
    child: Child,
    port: u16,
    _data: tempfile::TempDir,
}

impl ServerInZone {
    fn start(tz: &str, env: &[(&str, &str)]) -> Self {
        let data = tempfile::tempdir().unwrap();
        let mut command = Command::new(env!("CARGO_BIN_EXE_laundry"));
        command
            .arg("serve")
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", data.path())
            .env("TZ", tz)
            .env("LAUNDRY_ADDR", "127.0.0.1:0")
            .env("LAUNDRY_WORKERS", "1")
            .env("LAUNDRY_FRONTEND_DIR", built_frontend())
            .env("DATABASE_URL", format!("sqlite://{}/laundry.db", data.path().display()))
            .env("RUST_LOG", "info")
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        let mut child = command.spawn().unwrap();
        let stderr = child.stderr.take().unwrap();
        let (port_tx, port_rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(port) = line.split(" port=").nth(1).and_then(|rest| rest.split_whitespace().next()) {
                    let _ = port_tx.send(port.parse::<u16>().unwrap());
                }
            }
        });
        let port = port_rx.recv_timeout(StdDuration::from_secs(60)).expect("the server started");
        ServerInZone { child, port, _data: data }
    }

    async fn get(&self, path: &str) -> String {
        let response = reqwest::get(format!("http://127.0.0.1:{}{path}", self.port)).await.unwrap();
        assert_eq!(response.status(), 200, "{path}");
        response.text().await.unwrap()
    }
}

impl Drop for ServerInZone {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Four windows through the day, so that at any hour some of today's are past their cut-off (an
/// hour before each starts) and some are not.
const WINDOWS_ROUND_THE_DAY: &str = "00:00-01:00,06:00-07:00,12:00-13:00,18:00-19:00";
const STARTS: [i64; 4] = [0, 6 * 60, 12 * 60, 18 * 60];

/// By Nairobi's clock at `now`: which of today's windows are open, and the first window of today
/// or tomorrow that can still be booked.
fn expected(now: OffsetDateTime) -> (Vec<bool>, String) {
    let today = nairobi_day(now);
    let starts_at = |day: Date, start: i64| {
        day.with_time(time::Time::MIDNIGHT).assume_offset(laundry::clock::NAIROBI) + Duration::minutes(start)
    };
    let open = |day: Date, start: i64| now < starts_at(day, start) - Duration::minutes(60);
    let today_open = STARTS.iter().map(|&start| open(today, start)).collect();
    let first = [today, today + Duration::days(1)]
        .into_iter()
        .flat_map(|day| STARTS.iter().map(move |&start| (day, start)))
        .find(|&(day, start)| open(day, start))
        .map(|(day, start)| format!("{day}T{:02}:{:02}", start / 60, start % 60))
        .unwrap();
    (today_open, first)
}

#[actix_web::test]
async fn windows_and_days_are_nairobis_whatever_the_servers_time_zone() {
    let env = [("LAUNDRY_PICKUP_WINDOWS", WINDOWS_ROUND_THE_DAY)];
    let kiritimati = ServerInZone::start("Pacific/Kiritimati", &env);
    let los_angeles = ServerInZone::start("America/Los_Angeles", &env);

    // A cut-off may pass while the servers answer: then the answers are asked for again.
    for attempt in 1..=3 {
        let before = OffsetDateTime::now_utc();
        let date = nairobi_day(before).to_string();
        let path = format!("/api/slots?date={date}");
        let (east, west) = (kiritimati.get(&path).await, los_angeles.get(&path).await);
        let (east_form, west_form) = (kiritimati.get("/order").await, los_angeles.get("/order").await);
        let after = OffsetDateTime::now_utc();
        if expected(before) != expected(after) && attempt < 3 {
            continue;
        }

        let (today_open, first) = expected(before);
        assert_eq!(east, west, "both servers answer the same windows for {date}");
        let answer: Value = serde_json::from_str(&east).unwrap();
        assert_eq!(answer["date"], date.as_str());
        let open: Vec<bool> =
            answer["windows"].as_array().unwrap().iter().map(|w| w["open"].as_bool().unwrap()).collect();
        assert_eq!(open, today_open, "today's windows by Nairobi's clock at {before}");
        assert_eq!(selected_pickup(&east_form).as_deref(), Some(first.as_str()), "UTC+14's first option");
        assert_eq!(selected_pickup(&west_form).as_deref(), Some(first.as_str()), "UTC-8's first option");
        return;
    }
}

/// Staff cancelling an order from the dashboard free its pickup's place and take its stops out of
/// the runs, as the customer's own cancellation does; moving it past pickup closes its pickup stop.
#[actix_web::test]
async fn a_status_set_on_the_dashboard_moves_the_orders_stops_with_it() {
    let app = TestApp::builder().set("LAUNDRY_WINDOW_CAPACITY", "1").retries(quick_retries()).start().await;
    app.create_staff("owner@example.com", "Tumbo-Ngoma-47-Kazi");
    let session = app.sign_in("owner@example.com", "Tumbo-Ngoma-47-Kazi").await;
    let pickup = format!("{}T19:00", day(2));
    let first: Value = app
        .post_json("/api/orders", &an_order().customer_number(1).with("pickup", pickup.clone()).body(), &[])
        .await
        .json()
        .await
        .unwrap();
    assert!(
        pickup_error(
            app.post_json("/api/orders", &an_order().customer_number(2).with("pickup", pickup.clone()).body(), &[])
                .await
        )
        .await
        .contains("full")
    );

    let cancel = crate::helpers::staff::post(
        &app,
        &session,
        &format!("/api/admin/orders/{}/status", first["id"].as_str().unwrap()),
        json!({ "status": "cancelled", "reason": "The customer asked" }),
    )
    .await;
    assert_eq!(cancel.status(), 200);

    let second =
        app.post_json("/api/orders", &an_order().customer_number(3).with("pickup", pickup.clone()).body(), &[]).await;
    assert_eq!(second.status(), 201, "the cancelled order's place is free again");
    let second: Value = second.json().await.unwrap();
    let picked = crate::helpers::staff::post(
        &app,
        &session,
        &format!("/api/admin/orders/{}/status", second["id"].as_str().unwrap()),
        json!({ "status": "picked-up" }),
    )
    .await;
    assert_eq!(picked.status(), 200);
    let reference = OrderReference::parse(second["id"].as_str().unwrap()).unwrap();
    let stops = app.with_db(|c| {
        let stored = Order::find_by_reference(c, &reference).unwrap().unwrap();
        Stop::for_order(c, &stored.id).unwrap()
    });
    let state = |kind| stops.iter().find(|stop| stop.kind == kind).map(|stop| stop.state);
    assert_eq!(state(StopKind::Pickup), Some(laundry::domain::StopState::Done));
    assert_eq!(state(StopKind::Delivery), Some(laundry::domain::StopState::Planned));
}
