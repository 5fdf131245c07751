//! Issue 32: staff looking at everyone's stops of a day with more than 50 see them a window at a
//! time and without their forms (the page of a busy day would be too heavy otherwise), with links
//! to the other windows; a valet's own run is whole, with its forms.

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
