//! What staff see of re-cleans and of bookings they took, against both backends: an order's
//! detail says how it came in (online, or taken by whom on the phone or WhatsApp) and links a
//! re-clean and the order it cleans again both ways; the orders list marks a re-clean and a
//! booking's source; the stats count re-cleans per month of Nairobi's calendar.

use crate::helpers::TestApp;
use crate::helpers::orders::{an_order, order_id, order_with, stored};
use crate::helpers::staff::{STAFF, get, move_through, post, staff};
use crate::on_both_backends;
use diesel::prelude::*;
use laundry::clock::NAIROBI;
use laundry::db::schema::recleans;
use laundry::domain::{OrderInput, OrderSource, RecleanRequest};
use laundry::lifecycle::place::{Placed, PlacingTerms, StaffBooking};
use laundry::models::order::Order;
use serde_json::{Value, json};
use time::{Date, Duration, PrimitiveDateTime};

/// The positions and labels of the order's lines, in order.
fn lines(app: &TestApp, reference: &str) -> Vec<(i32, String)> {
    let order = stored(app, reference);
    app.with_db(|c| Order::lines(c, &order.id).unwrap()).into_iter().map(|line| (line.position, line.label)).collect()
}

/// Asks for a re-clean of the lines at `positions` of the order `reference`, as the customer's
/// page does; the re-clean's order ID.
fn reclean(app: &TestApp, reference: &str, positions: &[i32], problem: &str) -> String {
    let original = stored(app, reference);
    let request =
        RecleanRequest { positions: positions.iter().copied().collect(), problem: problem.to_owned(), pickup: None };
    let (schedule, texts) = (app.state.settings().schedule.clone(), app.state.texts().clone());
    let terms = PlacingTerms::new(None, &schedule, &texts, OrderSource::Web, false);
    let placed = app
        .with_db(|c| laundry::lifecycle::reclean::ask(c, &original.id, &request, &terms, 7, app.now(), app.now()))
        .unwrap();
    let Placed::Created(order) = placed else { panic!("a new order") };
    order.reference
}

/// The list's entry of order `reference`.
fn listed<'a>(page: &'a Value, reference: &str) -> &'a Value {
    page["items"].as_array().unwrap().iter().find(|item| item["id"] == reference).expect("listed")
}

/// Nairobi's midnight starting `day`, as stored (UTC).
fn nairobi_midnight(day: Date) -> PrimitiveDateTime {
    let at = day.midnight().assume_offset(NAIROBI).to_offset(time::UtcOffset::UTC);
    PrimitiveDateTime::new(at.date(), at.time())
}

/// Places an order as staff do for a caller (`source`), the pickup confirmed on the call.
fn taken_by_staff(app: &TestApp, by: &str, source: OrderSource, phone: &str) -> String {
    let input: OrderInput = serde_json::from_value(json!({
        "customerName": "Brian Otieno", "phone": phone, "location": "Westlands", "serviceType": "ironing",
        "quantity": 2, "paymentMethod": "pay-delivery"
    }))
    .unwrap();
    let order = input.validate().unwrap();
    let (schedule, texts) = (app.state.settings().schedule.clone(), app.state.texts().clone());
    let mut terms = PlacingTerms::new(None, &schedule, &texts, source, false);
    terms.staff = Some(StaffBooking { by, confirm_slot: true });
    let placed = app.with_db(|c| laundry::lifecycle::place::place(c, &order, None, &terms, app.now())).unwrap();
    placed.order().reference.clone()
}

on_both_backends! {
    async fn a_reclean_and_the_order_it_cleans_again_each_show_the_other_in_their_details(app: TestApp) {
        let session = staff(&app).await;
        let placed = an_order().name("Achieng Odhiambo").location("Kilimani").pieces(json!({ "shirt": 2, "jacket": 1 })).place(&app).await;
        move_through(&app, &session, &placed.reference, &["delivered"]).await;
        let original = placed.reference;
        let all = lines(&app, &original);
        let (shirts, suit) = (all[1].clone(), all[2].clone());
        assert_eq!((shirts.1.as_str(), suit.1.as_str()), ("Shirt", "Jacket"), "{all:?}");

        let first = reclean(&app, &original, &[shirts.0], "Collars still grey.");
        let second = reclean(&app, &original, &[suit.0], "A stain on the jacket.");

        let detail = get(&app, &session, &format!("/api/admin/orders/{first}")).await;
        assert_eq!(detail["recleanOf"], original.as_str());
        assert_eq!(detail["recleanProblem"], "Collars still grey.");
        assert_eq!(detail["totalAmount"], 0, "a free re-clean");
        assert_eq!(detail["source"], "web");
        assert_eq!(detail["takenBy"], Value::Null, "the customer asked for it");
        assert_eq!(detail["recleans"], json!([]));

        let detail = get(&app, &session, &format!("/api/admin/orders/{original}")).await;
        assert_eq!(detail["recleanOf"], Value::Null);
        let recleans: Vec<(&str, Vec<&str>)> = detail["recleans"].as_array().unwrap().iter().map(|reclean| {
            let items = reclean["items"].as_array().unwrap().iter().map(|item| item.as_str().unwrap()).collect();
            (reclean["orderId"].as_str().unwrap(), items)
        }).collect();
        assert_eq!(recleans, vec![(first.as_str(), vec!["Shirt"]), (second.as_str(), vec!["Jacket"])]);
        let asked = time::OffsetDateTime::parse(
            detail["recleans"][0]["requestedAt"].as_str().unwrap(),
            &time::format_description::well_known::Rfc3339,
        )
        .unwrap();
        assert!((app.clock.now() - asked).abs() < Duration::minutes(5), "asked now: {asked}");
    }

    async fn the_orders_list_marks_a_reclean_with_its_original_and_keeps_it_after_a_change(app: TestApp) {
        let session = staff(&app).await;
        let placed = an_order().name("Achieng Odhiambo").location("Kilimani").pieces(json!({ "shirt": 2, "jacket": 1 })).place(&app).await;
        move_through(&app, &session, &placed.reference, &["delivered"]).await;
        let original = placed.reference;
        let kg = lines(&app, &original)[0].0;
        let reclean = reclean(&app, &original, &[kg], "Still smells of smoke.");
        let taken = taken_by_staff(&app, STAFF, OrderSource::Whatsapp, "0722000111");

        let page = get(&app, &session, "/api/admin/orders").await;

        assert_eq!(listed(&page, &reclean)["recleanOf"], original.as_str());
        assert_eq!(listed(&page, &original)["recleanOf"], Value::Null);
        assert_eq!(listed(&page, &original)["source"], "web");
        assert_eq!(listed(&page, &taken)["source"], "whatsapp");
        assert_eq!(listed(&page, &taken)["recleanOf"], Value::Null);
        let dashboard = app.staff_request(reqwest::Method::GET, "/admin", &session, false).send().await.unwrap();
        let html = dashboard.text().await.unwrap();
        assert_eq!(html.matches(&format!("Re-clean of #{original}")).count(), 1, "the badge, on the re-clean's row");
        assert!(html.contains(r#"orders-table__tag">WhatsApp</span>"#), "the source of the booking taken on WhatsApp");

        let changed = post(&app, &session, &format!("/api/admin/orders/{reclean}/status"), json!({ "status": "picked-up" })).await;
        assert_eq!(changed.status(), 200);
        let changed: Value = changed.json().await.unwrap();
        assert_eq!(changed["order"]["recleanOf"], original.as_str(), "the row keeps its badge after a change");
        // A free re-clean has nothing to pay; money handed over anyway is the customer's credit.
        let path = format!("/api/admin/orders/{reclean}/payment");
        let nothing = post(&app, &session, &path, json!({ "method": "cash" })).await;
        assert_eq!(nothing.status(), 409);
        assert_eq!(nothing.json::<Value>().await.unwrap()["error"], "This order has nothing to pay.");
        let paid = post(&app, &session, &path, json!({ "method": "cash", "amount": 100 })).await;
        let paid: Value = paid.json().await.unwrap();
        assert_eq!(paid["order"]["recleanOf"], original.as_str(), "the row keeps its badge after a payment");
        assert_eq!((paid["order"]["settlement"].as_str(), paid["order"]["owedBack"].as_i64()), (Some("in-credit"), Some(100)));
    }

    async fn the_stats_count_recleans_in_each_of_the_last_six_months_of_nairobi(app: TestApp) {
        let session = staff(&app).await;
        let placed = an_order().name("Achieng Odhiambo").location("Kilimani").pieces(json!({ "shirt": 2, "jacket": 1 })).place(&app).await;
        move_through(&app, &session, &placed.reference, &["delivered"]).await;
        let original = placed.reference;
        let all = lines(&app, &original);
        let asked: Vec<String> = all.iter().map(|(position, _)| reclean(&app, &original, &[*position], "Not clean.")).collect();
        assert_eq!(asked.len(), 3);
        // One of the three was asked a minute before this month began in Nairobi (20:59 UTC on the
        // last day of the month before), another at the very start of it (21:00 UTC that day).
        let today = time::OffsetDateTime::now_utc().to_offset(NAIROBI).date();
        let month_start = nairobi_midnight(today.replace_day(1).unwrap());
        for (reference, at) in [(&asked[0], month_start - Duration::minutes(1)), (&asked[1], month_start)] {
            let id = stored(&app, reference).id;
            app.with_db(|c| diesel::update(recleans::table.find(&id)).set(recleans::requested_at.eq(at)).execute(c)).unwrap();
        }

        let stats = get(&app, &session, "/api/admin/stats").await;

        let months: Vec<(String, i64)> = stats["recleansPerMonth"].as_array().unwrap().iter()
            .map(|month| (month["month"].as_str().unwrap().to_owned(), month["count"].as_i64().unwrap()))
            .collect();
        let mut expected = Vec::new();
        let mut month = today.replace_day(1).unwrap();
        for _ in 0..6 {
            expected.push(format!("{:04}-{:02}", month.year(), u8::from(month.month())));
            month = (month - Duration::days(1)).replace_day(1).unwrap();
        }
        expected.reverse();
        let counts: Vec<(String, i64)> = expected.iter().enumerate().map(|(index, month)| {
            (month.clone(), match index { 5 => 2, 4 => 1, _ => 0 })
        }).collect();
        assert_eq!(months, counts, "oldest first, this month last; months without any at 0");
        let dashboard = app.staff_request(reqwest::Method::GET, "/admin", &session, false).send().await.unwrap();
        let html = dashboard.text().await.unwrap();
        assert!(html.contains("Re-cleans per month"), "the dashboard shows the count");
    }

    async fn an_order_taken_on_the_phone_says_by_whom_in_its_detail_and_the_list(app: TestApp) {
        let session = staff(&app).await;
        let phoned = taken_by_staff(&app, STAFF, OrderSource::Phone, "0712345678");
        let online = order_id(&order_with(&app, json!({
            "customerName": "Amina Wanjiru", "phone": "0733000222", "serviceType": "wash-fold", "quantity": 2
        })).await).to_owned();

        let detail = get(&app, &session, &format!("/api/admin/orders/{phoned}")).await;
        assert_eq!(detail["source"], "phone");
        assert_eq!(detail["takenBy"], STAFF);
        assert_eq!(detail["history"][0]["by"], STAFF, "the first entry of the history is the booking");
        assert_eq!(detail["history"][0]["status"], "pending");
        let detail = get(&app, &session, &format!("/api/admin/orders/{online}")).await;
        assert_eq!(detail["source"], "web");
        assert_eq!(detail["takenBy"], Value::Null);

        let page = get(&app, &session, "/api/admin/orders").await;
        assert_eq!(listed(&page, &phoned)["source"], "phone");
        assert_eq!(listed(&page, &online)["source"], "web");
    }
}
