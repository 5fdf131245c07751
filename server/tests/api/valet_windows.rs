//! Issue 32: staff looking at everyone's stops of a day with more than 50 see them a window at a
//! time and without their forms (the page of a busy day would be too heavy otherwise), with links
//! to the other windows; a valet's own run is whole, with its forms.

use crate::helpers::{SignedIn, TestApp};
use crate::on_both_backends;
use diesel::prelude::*;
use laundry::db::schema::stops;
use laundry::domain::{StaffRole, StopKind};
use serde_json::json;

on_both_backends! {
    async fn a_busy_day_is_shown_a_window_at_a_time(app: TestApp) {
        for n in 0..54 {
            let order = json!({
                "customerName": "Amina Wanjiru", "phone": format!("07120000{n:02}"), "location": "Kilimani",
                "serviceType": "wash-fold", "quantity": 3, "paymentMethod": "pay-delivery",
            });
            let key = uuid::Uuid::new_v4().to_string();
            assert_eq!(app.post_json("/api/orders", &order, &[("Idempotency-Key", &key)]).await.status(), 201);
        }
        // Every pickup today: 18 in each of the three windows.
        let today = app.today();
        app.with_db(|c| {
            let ids: Vec<String> =
                stops::table.filter(stops::kind.eq(StopKind::Pickup)).order(stops::id).select(stops::id).load(c).unwrap();
            for (n, id) in ids.iter().enumerate() {
                let start = [19 * 60, 20 * 60, 21 * 60][n % 3];
                diesel::update(stops::table.find(id))
                    .set((stops::day.eq(today), stops::window_start.eq(start), stops::window_end.eq(start + 60)))
                    .execute(c)
                    .unwrap();
            }
        });
        let owner = app.sign_in_as("owner@example.com", "Windows-Test-Pass-2026", StaffRole::Owner).await;
        let page = |path: String| {
            let (app, owner) = (&app, &owner);
            async move {
                let response = app.get_with(&path, &[("cookie", &owner.cookie)]).await;
                assert_eq!(response.status(), 200);
                response.text().await.unwrap()
            }
        };
        let first = page(format!("/valet?date={today}")).await;
        assert!(first.contains("54 stops on "), "says why: {first}");
        assert_eq!(first.matches(r#"class="stop stop--"#).count(), 18, "the first window's stops");
        for label in ["19:00-20:00 (18)", "20:00-21:00 (18)", "21:00-22:00 (18)"] {
            assert!(first.contains(label), "a link to each window: {label}");
        }
        assert!(first.contains(r#"aria-current="page">19:00-20:00"#));
        assert!(!first.contains("On my way"), "the overview carries no forms: {first}");
        let second = page(format!("/valet?date={today}&window=20:00")).await;
        assert_eq!(second.matches(r#"class="stop stop--"#).count(), 18);
        assert!(second.contains(r#"aria-current="page">20:00-21:00"#));
        // A window that is not one of the day's shows the first.
        let unknown = page(format!("/valet?date={today}&window=07:30")).await;
        assert!(unknown.contains(r#"aria-current="page">19:00-20:00"#));
        // A valet's run is whole, whatever the day holds.
        let valet = app.sign_in_as("valet@example.com", "Windows-Test-Pass-2026", StaffRole::Valet).await;
        day_board_windows(&app, &owner).await;
        let valet_id: String = app.with_db(|c| {
            use laundry::db::schema::staff;
            staff::table.filter(staff::email.eq("valet@example.com")).select(staff::id).first(c).unwrap()
        });
        app.with_db(|c| {
            diesel::update(stops::table.filter(stops::day.eq(today)))
                .set(stops::valet_id.eq(&valet_id))
                .execute(c)
                .unwrap();
        });
        let own = app.get_with("/valet", &[("cookie", &valet.cookie)]).await.text().await.unwrap();
        assert_eq!(own.matches(r#"class="stop stop--"#).count(), 54);
        assert!(own.contains("On my way"), "a valet's run has its forms");
        assert!(!own.contains("one window at a time"));
    }
}

/// The dashboard's day board of the same busy day (54 pickups, 18 in each of three windows, none in
/// a run; a valet account exists): a window at a time, 50 stops at most, with the places of the
/// stops in a run that it does not show.
async fn day_board_windows(app: &TestApp, owner: &SignedIn) {
    let today = app.today();
    let board = |query: String| {
        let cookie = owner.cookie.clone();
        async move {
            let response = app.get_with(&format!("/api/admin/run?date={today}{query}"), &[("cookie", &cookie)]).await;
            let status = response.status().as_u16();
            (status, response.json::<serde_json::Value>().await.unwrap())
        }
    };
    let shown = |board: &serde_json::Value| -> Vec<usize> {
        board["windows"].as_array().unwrap().iter().map(|w| w["stops"].as_array().unwrap().len()).collect()
    };
    let (status, first) = board(String::new()).await;
    assert_eq!(status, 200);
    assert_eq!(first["page"], json!({"window": "19:00", "part": 1, "parts": 1, "first": 1, "last": 18}));
    assert_eq!(shown(&first), [18, 0, 0], "only the first window's stops are read in full");
    for window in first["windows"].as_array().unwrap() {
        assert_eq!(
            (&window["pickups"], &window["deliveries"], &window["unassigned"]),
            (&json!(18), &json!(0), &json!(18))
        );
    }
    assert_eq!(first["elsewhere"], json!([]));

    // Three 20:00 stops given to the valet, saved from that window's page: the answer is that page.
    let (_, second) = board("&window=20:00".to_owned()).await;
    assert_eq!(shown(&second), [0, 18, 0]);
    let valet_id = second["valets"][0]["id"].as_str().unwrap().to_owned();
    let items: Vec<serde_json::Value> = (0..3)
        .map(|n| json!({"stopId": second["windows"][1]["stops"][n]["id"], "valetId": valet_id, "position": n + 1}))
        .collect();
    let save = json!({"date": today.to_string(), "stops": items, "window": "20:00", "part": 1});
    let saved =
        app.staff_request(reqwest::Method::POST, "/api/admin/run", owner, true).json(&save).send().await.unwrap();
    assert_eq!(saved.status(), 200);
    let saved: serde_json::Value = saved.json().await.unwrap();
    assert_eq!(saved["page"]["window"], "20:00");
    assert_eq!(saved["windows"][1]["unassigned"], 15);
    // From the 19:00 page, the three are elsewhere with their places.
    let (_, again) = board("&window=19:00".to_owned()).await;
    let places: Vec<(String, i64)> = again["elsewhere"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["start"].as_str().unwrap().to_owned(), p["position"].as_i64().unwrap()))
        .collect();
    assert_eq!(places, [("20:00".to_owned(), 1), ("20:00".to_owned(), 2), ("20:00".to_owned(), 3)]);

    // All 54 in one window: 50 at a time.
    app.with_db(|c| {
        diesel::update(stops::table.filter(stops::day.eq(today)))
            .set((stops::window_start.eq(19 * 60), stops::window_end.eq(20 * 60)))
            .execute(c)
            .unwrap();
    });
    let (_, part_one) = board(String::new()).await;
    assert_eq!(part_one["page"], json!({"window": "19:00", "part": 1, "parts": 2, "first": 1, "last": 50}));
    assert_eq!(shown(&part_one)[0], 50);
    let (_, part_two) = board("&window=19:00&part=2".to_owned()).await;
    assert_eq!(part_two["page"], json!({"window": "19:00", "part": 2, "parts": 2, "first": 51, "last": 54}));
    assert_eq!(shown(&part_two)[0], 4);
    let ids = |board: &serde_json::Value| -> Vec<String> {
        board["windows"][0]["stops"].as_array().unwrap().iter().map(|s| s["id"].as_str().unwrap().to_owned()).collect()
    };
    assert!(ids(&part_two).iter().all(|id| !ids(&part_one).contains(id)), "the parts do not overlap");
    let (_, beyond) = board("&part=9".to_owned()).await;
    assert_eq!(beyond["page"]["part"], 2, "a part beyond the last shows the last");

    // The valet page's overview of the same window: 50 stops, then 4.
    let valet_page = |query: &str| {
        let (cookie, path) = (owner.cookie.clone(), format!("/valet?date={today}{query}"));
        async move { app.get_with(&path, &[("cookie", &cookie)]).await.text().await.unwrap() }
    };
    let first_part = valet_page("").await;
    assert_eq!(first_part.matches(r#"class="stop stop--"#).count(), 50);
    assert!(first_part.contains("Stops 1–50 of this window&#x27;s 54: "), "{first_part}");
    let second_part = valet_page("&window=19:00&part=2").await;
    assert_eq!(second_part.matches(r#"class="stop stop--"#).count(), 4);
    assert!(second_part.contains(r#"aria-current="page" aria-label="Part 2""#), "{second_part}");
    assert_eq!(valet_page("&part=x").await.matches(r#"class="stop stop--"#).count(), 50, "a bad part shows the first");

    // The page without JavaScript: links to each part, the part shown marked.
    let html = app
        .get_with(&format!("/admin?tab=run&date={today}&part=2"), &[("cookie", &owner.cookie)])
        .await
        .text()
        .await
        .unwrap();
    assert!(html.contains("Stops 51–54 of 54 in this window"), "{html}");
    assert!(html.contains(&format!(r#"href="/admin?tab=run&amp;date={today}&amp;window=19%3A00&amp;part=2""#)));
    assert!(html.contains("A busy day: one window at a time."));

    // Bad input says what is wrong.
    for (query, message) in [
        ("&window=7pm", "A window is named by its start, like 19:00, not '7pm'."),
        ("&part=0", "The part is a whole number from 1, not '0'."),
    ] {
        let (status, body) = board(query.to_owned()).await;
        assert_eq!(status, 400, "{query}");
        assert_eq!(body["error"], message, "{query}");
    }
}
