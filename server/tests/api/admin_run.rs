//! The day board: a day's pickups and deliveries by window, with what a valet needs at the door;
//! saving the runs (valets and order) in one transaction; a bad item changes nothing. On both
//! backends.

use crate::helpers::orders::{day_after, place_with_pickup, slot_value, stored_with_pickup};
use crate::helpers::staff::{STAFF, STAFF_PASSWORD, staff_app};
use crate::helpers::{Backend, SignedIn, TestApp};
use diesel::prelude::*;
use laundry::db::schema::stops;
use laundry::domain::schedule::day_label;
use laundry::domain::{StaffRole, StopKind, StopState};
use laundry::models::staff::Staff;
use laundry::models::stop::Stop;
use laundry::views::requests::{RunItem, RunSave};
use serde_json::{Value, json};

/// The account id of a new valet.
fn valet(app: &TestApp, email: &str) -> String {
    app.create_staff_as(email, STAFF_PASSWORD, StaffRole::Valet);
    app.with_db(|c| Staff::find_by_email(c, email).unwrap().unwrap().id)
}

async fn get_run(app: &TestApp, session: &SignedIn, date: &str) -> reqwest::Response {
    app.staff_request(reqwest::Method::GET, &format!("/api/admin/run?date={date}"), session, false)
        .send()
        .await
        .unwrap()
}

async fn post_run(app: &TestApp, session: &SignedIn, body: &Value) -> reqwest::Response {
    app.staff_request(reqwest::Method::POST, "/api/admin/run", session, true).json(body).send().await.unwrap()
}

/// Every stop as stored_with_pickup, by id.
fn all_stops(app: &TestApp) -> Vec<Stop> {
    app.with_db(|c| stops::table.order(stops::id.asc()).select(Stop::as_select()).load(c).unwrap())
}

/// The stop of `kind` of the order with this order ID.
fn stop_of(app: &TestApp, id: &str, kind: StopKind) -> Stop {
    let (order, _) = stored_with_pickup(app, id);
    app.with_db(|c| Stop::of_order(c, &order.id, kind).unwrap().unwrap())
}

async fn the_board_lists_a_days_pickups_and_deliveries_by_window(backend: Backend) {
    let Some((app, session)) = staff_app(backend).await else { return };
    let otieno = valet(&app, "otieno@example.com");
    let (tomorrow, day) = (day_after(1), day_after(2));
    // A rush order picked up tomorrow at 19:00 is delivered on `day` at 19:00.
    let rush =
        place_with_pickup(&app, "Amina Wanjiru", "0712 345 678", &slot_value(tomorrow, 19), json!({ "rush": true }))
            .await;
    let extra = json!({
        "landmark": "Opposite Yaya Centre, blue gate", "pinLat": -1.2921, "pinLng": 36.7873,
        "specialInstructions": "Call at the gate", "pieces": { "shirt": 2 },
    });
    let pickup = place_with_pickup(&app, "Brian Otieno", "0722 111 222", &slot_value(day, 20), extra).await;
    let cancelled = place_with_pickup(&app, "Chebet Kiprono", "0733 444 555", &slot_value(day, 21), json!({})).await;
    let cancelled_stop = stop_of(&app, &cancelled, StopKind::Pickup);
    app.with_db(|c| {
        diesel::update(stops::table.find(&cancelled_stop.id)).set(stops::state.eq(StopState::Cancelled)).execute(c)
    })
    .unwrap();

    let response = get_run(&app, &session, &day.to_string()).await;

    assert_eq!(response.status(), 200);
    let board: Value = response.json().await.unwrap();
    assert_eq!(board["date"], day.to_string());
    assert_eq!(board["dateLabel"], day_label(day));
    let windows = board["windows"].as_array().unwrap();
    let labels: Vec<&str> = windows.iter().map(|w| w["label"].as_str().unwrap()).collect();
    assert_eq!(labels, vec!["19:00-20:00", "20:00-21:00", "21:00-22:00"]);
    let in_window = |index: usize| windows[index]["stops"].as_array().unwrap().clone();
    let delivery = &in_window(0)[0];
    assert_eq!((delivery["kind"].as_str(), delivery["orderId"].as_str()), (Some("delivery"), Some(rush.as_str())));
    assert_eq!(in_window(0).len(), 1);
    let stop = &in_window(1)[0];
    assert_eq!(stop["kind"], "pickup");
    assert_eq!(stop["orderId"], pickup.as_str());
    assert_eq!(stop["id"], stop_of(&app, &pickup, StopKind::Pickup).id);
    assert_eq!(stop["name"], "Brian Otieno");
    assert_eq!(stop["phone"], "+254722111222");
    assert_eq!(stop["location"], "Kilimani, Argwings Kodhek Rd");
    assert_eq!(stop["landmark"], "Opposite Yaya Centre, blue gate");
    assert_eq!(stop["mapLink"], "https://www.google.com/maps/search/?api=1&query=-1.292100,36.787300");
    assert_eq!(stop["instructions"], "Call at the gate");
    let lines: Vec<(String, i64)> = stop["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|line| (line["label"].as_str().unwrap().to_owned(), line["quantity"].as_i64().unwrap()))
        .collect();
    assert_eq!(lines.len(), 2, "the kg line and the shirts, no discount: {lines:?}");
    assert_eq!(lines[1].1, 2);
    assert_eq!((stop["confirmed"].as_bool(), stop["state"].as_str()), (Some(false), Some("planned")));
    assert_eq!((stop["valetId"].is_null(), stop["position"].is_null()), (true, true));
    assert!(in_window(2).is_empty(), "a cancelled stop is not on the board");
    let valets: Vec<&str> = board["valets"].as_array().unwrap().iter().map(|v| v["id"].as_str().unwrap()).collect();
    assert_eq!(valets, vec![otieno.as_str()], "valets only, not the staff member");

    let another_day = get_run(&app, &session, &tomorrow.to_string()).await.json::<Value>().await.unwrap();
    assert_eq!(another_day["windows"][0]["stops"][0]["orderId"], rush.as_str(), "tomorrow has the rush pickup");
    assert_eq!(get_run(&app, &session, "25-11-2026").await.status(), 400);
}

/// Three stops on one day: pickups at 19:00 and 20:00 and another at 21:00; two valets.
async fn a_day_with_two_valets(app: &TestApp) -> (String, [String; 3], String, String) {
    let day = day_after(1);
    let mut ids = Vec::new();
    for (hour, name, phone) in [
        (19, "Amina Wanjiru", "0712 345 678"),
        (20, "Brian Otieno", "0722 111 222"),
        (21, "Chebet Kiprono", "0733 444 555"),
    ] {
        let id = place_with_pickup(app, name, phone, &slot_value(day, hour), json!({})).await;
        ids.push(stop_of(app, &id, StopKind::Pickup).id);
    }
    let stops: [String; 3] = ids.try_into().unwrap();
    (day.to_string(), stops, valet(app, "otieno@example.com"), valet(app, "achieng@example.com"))
}

async fn saving_a_run_gives_stops_to_valets_in_order(backend: Backend) {
    let Some((app, session)) = staff_app(backend).await else { return };
    let (date, [a, b, c], otieno, achieng) = a_day_with_two_valets(&app).await;
    // Sent as the day board sends it (the generated `RunSave`).
    let item = |stop: &str, valet: Option<&str>, position| RunItem {
        stop_id: stop.to_owned(),
        valet_id: valet.map(str::to_owned),
        position,
    };
    let save = |stops| serde_json::to_value(RunSave { date: date.clone(), stops, window: None, part: None }).unwrap();
    let run = save(vec![
        item(&c, Some(&otieno), Some(1)),
        item(&a, Some(&otieno), Some(2)),
        item(&b, Some(&achieng), Some(1)),
    ]);

    let response = post_run(&app, &session, &run).await;

    assert_eq!(response.status(), 200);
    let board: Value = response.json().await.unwrap();
    let saved = |id: &str| app.with_db(|conn| stops::table.find(id).select(Stop::as_select()).first(conn).unwrap());
    assert_eq!((saved(&c).valet_id, saved(&c).run_position), (Some(otieno.clone()), Some(1)));
    assert_eq!((saved(&a).valet_id, saved(&a).run_position), (Some(otieno.clone()), Some(2)));
    assert_eq!((saved(&b).valet_id, saved(&b).run_position), (Some(achieng.clone()), Some(1)));
    let first = &board["windows"][0]["stops"][0];
    assert_eq!((first["id"].as_str(), first["valetEmail"].as_str()), (Some(a.as_str()), Some("otieno@example.com")));
    assert_eq!(first["position"], 2, "the answer shows the run as saved");

    // Partly: the 21:00 stop leaves Otieno's run, the other moves up to 1.
    let change = save(vec![item(&c, None, None), item(&a, Some(&otieno), Some(1))]);
    assert_eq!(post_run(&app, &session, &change).await.status(), 200);
    assert_eq!((saved(&c).valet_id, saved(&c).run_position), (None, None));
    assert_eq!(saved(&a).run_position, Some(1));
    assert_eq!(saved(&b).valet_id, Some(achieng), "a stop not named keeps its valet");
}

async fn a_bad_run_payload_changes_nothing(backend: Backend) {
    let Some((app, session)) = staff_app(backend).await else { return };
    let (date, [a, b, c], otieno, achieng) = a_day_with_two_valets(&app).await;
    let good = json!({ "date": date, "stops": [
        { "stopId": a, "valetId": otieno, "position": 1 },
        { "stopId": b, "valetId": otieno, "position": 2 },
    ]});
    assert_eq!(post_run(&app, &session, &good).await.status(), 200);
    let other_day =
        place_with_pickup(&app, "Dan Mwangi", "0744 666 777", &slot_value(day_after(2), 19), json!({})).await;
    let other_stop = stop_of(&app, &other_day, StopKind::Pickup).id;
    let staff_id = app.with_db(|conn| Staff::find_by_email(conn, STAFF).unwrap().unwrap().id);
    app.create_staff_as("gone@example.com", STAFF_PASSWORD, StaffRole::Valet);
    let gone = app.with_db(|conn| {
        Staff::set_disabled(conn, "gone@example.com", true, app.now()).unwrap();
        Staff::find_by_email(conn, "gone@example.com").unwrap().unwrap().id
    });
    let before = all_stops(&app);
    let elsewhere = format!("is on {}", day_label(day_after(2)));
    let item =
        |stop: &str, valet: &str, position: i64| json!({ "stopId": stop, "valetId": valet, "position": position });
    let cases: Vec<(&str, Vec<Value>, &str, &str)> = vec![
        (
            "an unknown valet",
            vec![item(&c, &achieng, 1), item(&a, "no-such-valet", 3)],
            "stops[1].valetId",
            "is not the account of an enabled valet",
        ),
        (
            "a staff member who is not a valet",
            vec![item(&c, &staff_id, 1)],
            "stops[0].valetId",
            "is not the account of an enabled valet",
        ),
        ("a disabled valet", vec![item(&c, &gone, 1)], "stops[0].valetId", "is not the account of an enabled valet"),
        (
            "two stops in one place",
            vec![item(&c, &otieno, 2)],
            "stops[0].position",
            "place 2 in otieno@example.com's run is taken twice",
        ),
        (
            "a gap in the run",
            vec![item(&c, &otieno, 4)],
            "stops[0].position",
            "run has 3 stops, so its places go from 1 to 3",
        ),
        (
            "a stop of another day",
            vec![item(&c, &achieng, 1), item(&other_stop, &achieng, 2)],
            "stops[1].stopId",
            &elsewhere,
        ),
        (
            "an unknown stop",
            vec![item("no-such-stop", &achieng, 1)],
            "stops[0].stopId",
            "There is no stop no-such-stop.",
        ),
        (
            "a stop named twice",
            vec![item(&c, &achieng, 1), item(&c, &achieng, 2)],
            "stops[1].stopId",
            "is listed twice",
        ),
        (
            "a place without a valet",
            vec![json!({ "stopId": c, "valetId": null, "position": 1 })],
            "stops[0].position",
            "has no place in a run",
        ),
        (
            "a valet without a place",
            vec![json!({ "stopId": c, "valetId": achieng, "position": null })],
            "stops[0].position",
            "needs its place",
        ),
        (
            "a place that is not a number",
            vec![json!({ "stopId": c, "valetId": achieng, "position": "first" })],
            "stops[0].position",
            "whole number from 1",
        ),
        ("place 0", vec![item(&c, &achieng, 0)], "stops[0].position", "whole number from 1"),
    ];
    for (why, items, field, says) in cases {
        let response = post_run(&app, &session, &json!({ "date": date, "stops": items })).await;

        assert_eq!(response.status(), 422, "{why}");
        let body: Value = response.json().await.unwrap();
        let message = body["fields"][field].as_str().unwrap_or_else(|| panic!("{why}: {field} named in {body}"));
        assert!(message.contains(says), "{why}: {message}");
        assert_eq!(body["error"], message, "{why}: the message is the problem");
        assert_eq!(all_stops(&app), before, "{why}: nothing changed");
    }
    let bad_date = post_run(&app, &session, &json!({ "date": "tomorrow", "stops": [] })).await;
    assert_eq!(bad_date.status(), 422);
    assert_eq!(post_run(&app, &session, &json!({ "stops": "all" })).await.status(), 400);
    assert_eq!(all_stops(&app), before);
}

/// Issue 49: a same-day order's delivery put before its own pickup in one valet's run is refused,
/// and nothing changes; after it, the run is saved.
async fn a_delivery_before_its_own_pickup_in_a_run_is_refused(backend: Backend) {
    let Some((app, session)) = staff_app(backend).await else { return };
    let day = day_after(1);
    let id = place_with_pickup(&app, "Amina Wanjiru", "0712 345 678", &slot_value(day, 19), json!({})).await;
    let pickup = stop_of(&app, &id, StopKind::Pickup).id;
    let delivery = stop_of(&app, &id, StopKind::Delivery).id;
    // Delivered the same evening, two windows later.
    app.with_db(|c| {
        diesel::update(stops::table.find(&delivery))
            .set((stops::day.eq(day), stops::window_start.eq(21 * 60), stops::window_end.eq(22 * 60)))
            .execute(c)
            .unwrap();
    });
    let otieno = valet(&app, "otieno@example.com");
    let run = |first: &str, second: &str| {
        json!({ "date": day.to_string(), "stops": [
            { "stopId": first, "valetId": otieno, "position": 1 },
            { "stopId": second, "valetId": otieno, "position": 2 },
        ] })
    };
    let before = all_stops(&app);

    let refused = post_run(&app, &session, &run(&delivery, &pickup)).await;

    assert_eq!(refused.status(), 422);
    let body: Value = refused.json().await.unwrap();
    assert!(
        body["error"].as_str().unwrap().ends_with(
            "its delivery comes before its own pickup in otieno@example.com's run; put it after the pickup."
        ),
        "{body}"
    );
    assert_eq!(all_stops(&app), before, "nothing changed");
    assert_eq!(post_run(&app, &session, &run(&pickup, &delivery)).await.status(), 200);
}

crate::staff_tests_on_both_backends! {
    a_delivery_before_its_own_pickup_in_a_run_is_refused => super::a_delivery_before_its_own_pickup_in_a_run_is_refused;
    the_board_lists_a_days_pickups_and_deliveries_by_window =>
        super::the_board_lists_a_days_pickups_and_deliveries_by_window;
    saving_a_run_gives_stops_to_valets_in_order => super::saving_a_run_gives_stops_to_valets_in_order;
    a_bad_run_payload_changes_nothing => super::a_bad_run_payload_changes_nothing;
}
