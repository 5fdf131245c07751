//! `laundry serve --demo`: a week of a shop's orders in every state, three accounts that sign in,
//! today's texts landing on `/dev/texts` through the real outbox and the fake Africa's Talking,
//! and a prompt paid from `/dev/mpesa` through the real callback; the same as JSON for the browser
//! tests (`/dev/fakes/…`). Without demo mode (or `--fake-providers`) no `/dev` address exists.

use crate::helpers::{TestApp, is_paid, money, payments};
use diesel::prelude::*;
use laundry::db::schema::{orders, stops};
use laundry::domain::{OrderStatus, StopState, TextEnum};
use std::time::{Duration, Instant};

/// Waits until GET `path` contains `text` (fails after 10 s); the page.
async fn page_with(app: &crate::helpers::TestApp, path: &str, text: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let page = app.get(path).await.text().await.unwrap();
        if page.contains(text) {
            return page;
        }
        assert!(Instant::now() < deadline, "{path} never showed {text:?}:\n{page}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[actix_web::test]
async fn without_demo_mode_no_dev_address_exists() {
    let app = TestApp::builder().start().await;
    for path in [
        "/dev",
        "/dev/texts",
        "/dev/mpesa",
        "/dev/fakes/texts",
        "/dev/fakes/prompts",
        "/dev/daraja/oauth/v1/generate?grant_type=client_credentials",
    ] {
        assert_eq!(app.get(path).await.status(), 404, "{path}");
    }
    for path in [
        "/dev/at/version1/messaging",
        "/dev/mail/api/v1.0/email/send",
        "/dev/mpesa/ws_CO_1/pay",
        "/dev/fakes/prompts/ws_CO_1/pay",
    ] {
        assert_eq!(app.post_form(path, &[("to", "+254712345678")]).await.status(), 404, "{path}");
    }
}

#[actix_web::test]
async fn the_demo_shows_a_week_of_orders_its_texts_and_a_prompt_paid_from_the_phone() {
    let app = TestApp::builder().demo().start().await;
    let accounts = app.demo_accounts.clone();

    // The accounts sign in, and /dev lists them.
    assert_eq!(accounts.len(), 3);
    let start = app.get("/dev").await.text().await.unwrap();
    for account in &accounts {
        assert!(start.contains(account.email) && start.contains(&account.password), "{start}");
        let signed_in = app.post_login(account.email, &account.password, None).await;
        assert_eq!(signed_in.status(), 303, "{} signs in", account.email);
    }

    // Orders in every state, a missed pickup, and money still owed after a delivery.
    let statuses: Vec<OrderStatus> = app.with_db(|c| orders::table.select(orders::status).load(c).unwrap());
    for status in OrderStatus::ALL {
        assert!(statuses.contains(status), "no order is {status:?}: {statuses:?}");
    }
    let missed: i64 =
        app.with_db(|c| stops::table.filter(stops::state.eq(StopState::Missed)).count().get_result(c).unwrap());
    assert_eq!(missed, 1);
    // Each valet's run of each day is in window order.
    let runs: Vec<(time::Date, Option<String>, Option<i32>, i32)> = app.with_db(|c| {
        stops::table
            .filter(stops::run_position.is_not_null())
            .order((stops::day, stops::valet_id, stops::run_position))
            .select((stops::day, stops::valet_id, stops::run_position, stops::window_start))
            .load(c)
            .unwrap()
    });
    assert!(runs.len() >= 4, "{runs:?}");
    for pair in runs.windows(2) {
        let ((day, valet, _, window), (next_day, next_valet, _, next_window)) = (&pair[0], &pair[1]);
        if (day, valet) == (next_day, next_valet) {
            assert!(window <= next_window, "a run out of window order: {pair:?}");
        }
    }
    let delivered: Vec<String> = app.with_db(|c| {
        orders::table.filter(orders::status.eq(OrderStatus::Delivered)).select(orders::reference).load(c).unwrap()
    });
    assert!(delivered.iter().any(|reference| money(&app, reference).0.to_pay() > 0), "a part payment");
    assert!(delivered.iter().filter(|reference| is_paid(&app, reference)).count() >= 3);

    // Today's texts go out through the outbox to the stand-in; the past week's went on their day.
    let texts = page_with(&app, "/dev/texts", "+254733222333").await;
    assert!(!texts.contains("+254720555666"), "Felix's missed pickup was texted two days ago, not now");

    // Esther's Pay Now order: its prompt waits on the phone; paying it pays the order.
    let esther: String = app.with_db(|c| {
        orders::table
            .filter(orders::phone.eq("+254711444555"))
            .filter(orders::status.eq(OrderStatus::Pending))
            .select(orders::reference)
            .first(c)
            .unwrap()
    });
    let phone = page_with(&app, "/dev/mpesa", "Waiting on the phone").await;
    assert!(phone.contains(&esther), "{phone}");
    let action = phone.split("action=\"").nth(1).unwrap().split('"').next().unwrap().to_owned();
    assert!(action.ends_with("/pay"), "{action}");
    let paid = app.post_form(&action, &[]).await;
    assert_eq!(paid.status(), 303);
    let back = paid.headers()["location"].to_str().unwrap().to_owned();
    assert!(back.starts_with("/dev/mpesa?ended="), "{back}");
    let said = app.get(&back).await.text().await.unwrap();
    assert!(said.contains(&format!("Order {esther}: the callback was sent and answered 200 OK.")), "{said}");
    assert!(is_paid(&app, &esther));
    assert!(said.contains("Paid (TD"), "{said}");
    // The same button again ends nothing.
    let again = app.post_form(&action, &[]).await;
    let said = app.get(again.headers()["location"].to_str().unwrap()).await.text().await.unwrap();
    assert!(said.contains("That prompt is not waiting any more."), "{said}");

    // The shop's clock moves on a day from /dev, and what became late is marked at once.
    let before = app.clock.now();
    for hours in ["0", "169", "a day"] {
        assert_eq!(app.post_form("/dev/clock", &[("hours", hours)]).await.status(), 400, "{hours}");
    }
    let moved = app.post_form("/dev/clock", &[("hours", "24")]).await;
    assert_eq!(moved.status(), 303);
    assert!(app.clock.now() - before >= time::Duration::hours(24));
    let said = app.get(moved.headers()["location"].to_str().unwrap()).await.text().await.unwrap();
    assert!(said.contains("The clock moved on 24 h: it is now "), "{said}");
    let late: i64 = app.with_db(|c| {
        stops::table.filter(stops::missed_by.eq(laundry::lifecycle::late::BY)).count().get_result(c).unwrap()
    });
    assert!(late > 0, "the pickups booked for today passed a day ago");
}

/// `/dev/fakes/…`, as the browser tests read the texts and pay a prompt with the code they choose.
#[actix_web::test]
async fn the_fakes_json_gives_the_texts_and_pays_a_prompt_with_the_receipt_given() {
    let app = TestApp::builder().demo().start().await;
    app.deliver_outbox().await;
    app.send_prompts().await;
    let texts: serde_json::Value = app.get("/dev/fakes/texts").await.json().await.unwrap();
    let to_grace = texts.as_array().unwrap().iter().filter(|text| text["to"] == "+254733222333").count();
    assert!(to_grace >= 1, "{texts}");

    let prompts: serde_json::Value = app.get("/dev/fakes/prompts").await.json().await.unwrap();
    let waiting = prompts.as_array().unwrap().iter().find(|prompt| prompt["ended"].is_null()).unwrap().clone();
    let (checkout, order) = (waiting["checkout"].as_str().unwrap(), waiting["account"].as_str().unwrap());
    let pay = format!("/dev/fakes/prompts/{checkout}/pay");
    for (body, status) in [
        (r#"{"receipt": "not-a-code"}"#, 400),
        (r#"{"receipt": 7}"#, 400),
        (r#"{"recipt": "QLP500GHIJ"}"#, 400),
        (r#"{"receipt": "QLP500GHIJ"}"#, 200),
        (r#"{"receipt": "QLP500GHIJ"}"#, 404),
    ] {
        let answer = app.post_json(&pay, &serde_json::from_str(body).unwrap(), &[]).await;
        assert_eq!(answer.status(), status, "{body}");
    }
    assert!(is_paid(&app, order));
    let codes: Vec<_> = payments(&app, order).into_iter().map(|(_, _, code)| code).collect();
    assert_eq!(codes, [Some("QLP500GHIJ".to_owned())]);
    let ended: serde_json::Value = app.get("/dev/fakes/prompts").await.json().await.unwrap();
    assert!(ended.as_array().unwrap().iter().any(|p| p["checkout"] == checkout && p["ended"] == "paid"), "{ended}");
    assert_eq!(app.post_form("/dev/fakes/prompts/ws_CO_none/pay", &[]).await.status(), 404, "no such prompt");
    assert_eq!(app.post_form(&format!("/dev/fakes/prompts/{checkout}/refund"), &[]).await.status(), 404);
}
