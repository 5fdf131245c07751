//! The valet page (`/valet`) and its forms, on both backends: a valet's own run in run order, a
//! page without any script whose actions are plain form posts, "On my way" moving the next stop's
//! ETA, weighing at pickup re-pricing the bill (history kept, tracking shows it), delivery with
//! its payment, and the refusals (bad input, a used M-PESA code, another valet's stop, no CSRF).
//! Stops are put into runs directly in the database: the day board is not part of this page.

use crate::helpers::orders::{Placed, an_order, put_in_run_at};
use crate::helpers::valet_post as post;
use crate::helpers::{SignedIn, TestApp, money, payments, set_cookie};
use crate::on_both_backends;
use diesel::prelude::*;
use laundry::db::schema::{order_bills, stops};
use laundry::domain::schedule::{eta, nairobi_minute};
use laundry::domain::{Method, MpesaCode, OrderStatus, Settlement, StaffRole, StopKind, StopState};
use laundry::lifecycle::payment::StaffPayment;
use laundry::models::order::Order;
use laundry::models::staff::Staff;
use laundry::models::stop::Stop;
use serde_json::Value;

const PASSWORD: &str = "a long valet password";

/// A valet's account, signed in: its id and session (the CSRF token read from the valet page).
async fn valet(app: &TestApp, email: &str) -> (String, SignedIn) {
    app.create_staff_as(email, PASSWORD, StaffRole::Valet);
    let id = app.with_db(|c| Staff::find_by_email(c, email).unwrap().unwrap().id);
    (id, sign_in_to_valet_page(app, email).await)
}

/// Signs in and reads the CSRF token from the valet page's forms.
async fn sign_in_to_valet_page(app: &TestApp, email: &str) -> SignedIn {
    let response = app.post_login(email, PASSWORD, None).await;
    assert_eq!(response.status(), 303, "sign-in failed");
    let token = set_cookie(&response, laundry::auth::SESSION_COOKIE).unwrap();
    let cookie = format!("{}={token}", laundry::auth::SESSION_COOKIE);
    let page = app.get_with("/valet", &[("cookie", &cookie)]).await.text().await.unwrap();
    let csrf = page.split(r#"name="csrf" value=""#).nth(1).and_then(|rest| rest.split('"').next()).unwrap();
    SignedIn { cookie, csrf: csrf.to_owned() }
}

/// A start of window whose ETA moves when the valet sets off now (by `app`'s clock): a planned ETA
/// that is not also where the moving one lands (now + two stops' time), which would hide the change.
fn window_start_away_from_now(app: &TestApp) -> i32 {
    let now = i32::from(nairobi_minute(app.clock.now()));
    if (now + 30 - (19 * 60 + 15)).abs() < 15 { 21 * 60 } else { 19 * 60 }
}

async fn page(app: &TestApp, session: &SignedIn, path: &str) -> String {
    let response = app.get_with(path, &[("cookie", &session.cookie)]).await;
    assert_eq!(response.status(), 200);
    response.text().await.unwrap()
}

fn stop(app: &TestApp, id: &str) -> Stop {
    app.with_db(|c| stops::table.find(id).select(Stop::as_select()).first(c).unwrap())
}

fn order(app: &TestApp, placed: &Placed) -> Order {
    app.with_db(|c| Order::find(c, &placed.key).unwrap().unwrap())
}

/// (total, bags, recorded by) of each kept bill, oldest first.
fn bills(app: &TestApp, placed: &Placed) -> Vec<(i32, Option<i32>, Option<String>)> {
    app.with_db(|c| {
        order_bills::table
            .filter(order_bills::order_id.eq(&placed.key))
            .order(order_bills::id.asc())
            .select((order_bills::total_amount, order_bills::bags, order_bills::recorded_by))
            .load(c)
            .unwrap()
    })
}

/// The ETA of a stop as the one ETA function gives it.
fn eta_of(app: &TestApp, id: &str) -> String {
    let minutes_per_stop = app.state.settings().schedule.minutes_per_stop;
    let stop = stop(app, id);
    let position = app.with_db(|c| stop.run_position(c).unwrap().unwrap());
    eta(position, minutes_per_stop).to_string()
}

on_both_backends! {
    async fn a_valet_sees_the_stops_of_their_own_run_in_run_order_and_not_another_valets(app: TestApp) {
        let (first, first_session) = valet(&app, "otieno@example.com").await;
        let (second, _) = valet(&app, "wanjiku@example.com").await;
        let later = an_order().phone("0712345678").service("wash-fold", 3).landmark("Opposite Yaya Centre").instructions("Gate code 4411").place(&app).await;
        let sooner = an_order().phone("0722000111").service("wash-fold", 4).landmark("Opposite Yaya Centre").instructions("Gate code 4411").place(&app).await;
        let elsewhere = an_order().phone("0733000222").service("wash-fold", 5).landmark("Opposite Yaya Centre").instructions("Gate code 4411").place(&app).await;
        put_in_run_at(&app, &later.key, StopKind::Pickup, &first, 2, 1140);
        put_in_run_at(&app, &sooner.key, StopKind::Pickup, &first, 1, 1140);
        put_in_run_at(&app, &elsewhere.key, StopKind::Pickup, &second, 1, 1140);

        let html = page(&app, &first_session, "/valet").await;

        let at = |reference: &str| html.find(&format!("#{reference}"));
        assert!(at(&sooner.reference).unwrap() < at(&later.reference).unwrap(), "run order");
        assert_eq!(at(&elsewhere.reference), None, "another valet's stop is not shown");
        assert!(html.contains(r#"href="tel:+254712345678""#), "tap to call");
        let chat = format!(
            r#"href="https://wa.me/254712345678?text=Hello%2C%20this%20is%20your%20Usafi%20Express%20Laundry%20valet%20about%20order%20{}.""#,
            later.reference
        );
        assert!(html.contains(&chat), "WhatsApp, with the valet's first words");
        assert!(html.contains("https://www.google.com/maps/search/?api=1&amp;query=Kilimani%2C+Argwings+Kodhek+Rd%2C+Opposite+Yaya+Centre%2C+Nairobi"));
        assert!(html.contains("Landmark: Opposite Yaya Centre"));
        assert!(html.contains("Instructions: Gate code 4411"));
        assert!(html.contains("3 kg Wash &amp; Fold"));
        assert!(html.contains("ETA 19:00-19:30") && html.contains("ETA 19:15-19:45"), "each stop's ETA");
    }

    async fn staff_standing_in_choose_a_valets_run_or_see_every_stop_of_the_day(app: TestApp) {
        let (first, _) = valet(&app, "otieno@example.com").await;
        let (second, _) = valet(&app, "wanjiku@example.com").await;
        let mine = an_order().phone("0712345678").service("wash-fold", 3).landmark("Opposite Yaya Centre").instructions("Gate code 4411").place(&app).await;
        let theirs = an_order().phone("0722000111").service("wash-fold", 4).landmark("Opposite Yaya Centre").instructions("Gate code 4411").place(&app).await;
        put_in_run_at(&app, &mine.key, StopKind::Pickup, &first, 1, 1140);
        put_in_run_at(&app, &theirs.key, StopKind::Pickup, &second, 1, 1140);
        app.create_staff_as("desk@example.com", PASSWORD, StaffRole::Staff);
        let desk = sign_in_to_valet_page(&app, "desk@example.com").await;

        let everyone = page(&app, &desk, "/valet").await;
        let one = page(&app, &desk, &format!("/valet?valet={first}")).await;

        assert!(everyone.contains(&mine.reference) && everyone.contains(&theirs.reference));
        assert!(everyone.contains("wanjiku@example.com"), "whose run each stop is in");
        assert!(one.contains(&mine.reference) && !one.contains(&theirs.reference));
    }

    async fn the_valet_page_has_no_script_and_its_actions_are_plain_form_posts(app: TestApp) {
        let (me, session) = valet(&app, "otieno@example.com").await;
        let placed = an_order().phone("0712345678").service("wash-fold", 3).landmark("Opposite Yaya Centre").instructions("Gate code 4411").place(&app).await;
        let id = put_in_run_at(&app, &placed.key, StopKind::Pickup, &me, 1, 1140);

        let response = app.get_with("/valet", &[("cookie", &session.cookie)]).await;

        assert_eq!(response.status(), 200);
        assert_eq!(response.headers()["cache-control"], "no-store, private");
        let html = response.text().await.unwrap();
        assert!(!html.contains("<script"), "no script of any kind");
        assert!(!html.contains("modulepreload"));
        assert!(!html.contains("page-data"));
        assert!(!html.contains("site-header"), "not the site's header and stylesheet");
        for action in ["on-my-way", "picked-up"] {
            assert!(html.contains(&format!(r#"action="/valet/stops/{id}/{action}" method="post""#)), "{action}");
        }
        assert!(html.contains(&format!(r#"name="csrf" value="{}""#, session.csrf)));
    }

    async fn the_valet_page_with_ten_stops_is_a_few_kilobytes_on_the_wire(app: TestApp) {
        let (me, session) = valet(&app, "otieno@example.com").await;
        for position in 1..=10 {
            let placed = an_order().phone(&format!("07120000{position:02}")).service("wash-fold", 3).landmark("Opposite Yaya Centre").instructions("Gate code 4411").place(&app).await;
            let kind = if position % 2 == 0 { StopKind::Delivery } else { StopKind::Pickup };
            put_in_run_at(&app, &placed.key, kind, &me, position, 1140);
        }
        let size = |encoding: &'static str| {
            let request = app.client.get(format!("{}/valet", app.address)).header("cookie", &session.cookie);
            async move {
                let response = request.header("accept-encoding", encoding).send().await.unwrap();
                assert_eq!(response.headers().get("content-encoding").map(|v| v.to_str().unwrap()), Some(encoding).filter(|e| *e != "identity"));
                response.bytes().await.unwrap().len()
            }
        };

        let (identity, gzip, brotli) = (size("identity").await, size("gzip").await, size("br").await);

        eprintln!("the valet page with 10 stops: {identity} bytes, gzip {gzip}, brotli {brotli}");
        assert!(brotli < 8 * 1024 && gzip < 10 * 1024, "identity {identity}, gzip {gzip}, brotli {brotli}");
    }

    async fn on_my_way_sets_the_state_and_moves_the_eta_of_the_next_stop(app: TestApp) {
        let (me, session) = valet(&app, "otieno@example.com").await;
        let first = an_order().phone("0712345678").service("wash-fold", 3).landmark("Opposite Yaya Centre").instructions("Gate code 4411").place(&app).await;
        let next = an_order().phone("0722000111").service("wash-fold", 4).landmark("Opposite Yaya Centre").instructions("Gate code 4411").place(&app).await;
        let start = window_start_away_from_now(&app);
        let first_stop = put_in_run_at(&app, &first.key, StopKind::Pickup, &me, 1, start);
        let next_stop = put_in_run_at(&app, &next.key, StopKind::Pickup, &me, 2, start);
        let before = eta_of(&app, &next_stop);

        let response = post(&app, &session, &format!("/valet/stops/{first_stop}/on-my-way"), &[]).await;

        assert_eq!(response.status(), 303);
        let location = response.headers()["location"].to_str().unwrap().to_owned();
        assert!(location.starts_with("/valet?notice=on-my-way"), "{location}");
        let set_off = stop(&app, &first_stop);
        assert_eq!(set_off.state, StopState::OnTheWay);
        assert!(set_off.on_the_way_at.is_some());
        let after = eta_of(&app, &next_stop);
        assert_ne!(after, before, "the next stop's ETA follows the valet");
        let html = page(&app, &session, &location).await;
        assert!(html.contains(&format!("ETA {after}")), "the page shows the moved ETA");
        assert!(html.contains(&format!("On your way to order {}.", first.reference)));

        let again = post(&app, &session, &format!("/valet/stops/{first_stop}/on-my-way"), &[]).await;

        assert!(again.headers()["location"].to_str().unwrap().contains("notice=unchanged"));
        assert_eq!(stop(&app, &first_stop).on_the_way_at, set_off.on_the_way_at, "the first time is kept");
    }

    async fn weighing_at_pickup_reprices_the_bill_keeps_the_history_and_tracking_shows_the_new_total(app: TestApp) {
        let (me, session) = valet(&app, "otieno@example.com").await;
        let placed = an_order().phone("0712345678").service("wash-fold", 3).landmark("Opposite Yaya Centre").instructions("Gate code 4411").place(&app).await;
        let id = put_in_run_at(&app, &placed.key, StopKind::Pickup, &me, 1, 1140);
        assert_eq!(order(&app, &placed).total_amount, 450);

        let response = post(&app, &session, &format!("/valet/stops/{id}/picked-up"), &[("bags", "2"), ("kg", "5")]).await;

        assert_eq!(response.status(), 303);
        let weighed = order(&app, &placed);
        assert_eq!((weighed.total_amount, weighed.estimate_amount, weighed.quantity), (750, 450, 5));
        assert_eq!(weighed.status, OrderStatus::PickedUp);
        let lines = app.with_db(|c| Order::lines(c, &placed.key).unwrap());
        assert_eq!(lines.iter().map(|l| (l.quantity, l.amount)).collect::<Vec<_>>(), [(5, 750)]);
        assert_eq!(
            bills(&app, &placed),
            [(450, None, None), (750, Some(2), Some("otieno@example.com".to_owned()))],
            "the estimate first, then the weighing"
        );
        assert_eq!(stop(&app, &id).state, StopState::Done);
        let history = app.with_db(|c| Order::history(c, &placed.key).unwrap());
        assert_eq!(history.last().unwrap().changed_by.as_deref(), Some("otieno@example.com"));
        let tracked: Value = app.track(&placed.reference).await.json().await.unwrap();
        assert_eq!(tracked["orders"][0]["total"], 750);
        assert_eq!(tracked["orders"][0]["status"], "picked-up");
        let html = page(&app, &session, response.headers()["location"].to_str().unwrap()).await;
        assert!(html.contains(&format!("Picked up order {}: the bill is KSh 750.", placed.reference)));
        assert!(html.contains("<span>Estimate</span><span>KSh 450</span>"), "the estimate stays visible");

        let again = post(&app, &session, &format!("/valet/stops/{id}/picked-up"), &[("bags", "2"), ("kg", "5")]).await;

        assert!(again.headers()["location"].to_str().unwrap().contains("notice=unchanged"));
        assert_eq!(bills(&app, &placed).len(), 2, "the same form twice is one weighing");
    }

    async fn a_scale_reading_is_billed_by_the_whole_kg_rounded_up_with_several_items_added(app: TestApp) {
        let (me, session) = valet(&app, "otieno@example.com").await;
        let placed = an_order().phone("0712345678").service("wash-fold", 3).landmark("Opposite Yaya Centre").instructions("Gate code 4411").place(&app).await;
        let id = put_in_run_at(&app, &placed.key, StopKind::Pickup, &me, 1, 1140);
        let before = page(&app, &session, "/valet").await;
        assert!(before.contains("Billed by the whole kg, rounded up: 4.6 kg is billed as 5 kg."), "the rule is shown");
        assert!(before.contains(r#"name="addItem.3""#), "three added items can be entered");

        let fields = [
            ("bags", "2"),
            ("kg", "4.6"),
            ("addItem.1", "shirt"),
            ("addCount.1", "2"),
            ("addItem.2", "dress"),
            ("addCount.2", "1"),
            ("addItem.3", ""),
            ("addCount.3", ""),
        ];
        let response = post(&app, &session, &format!("/valet/stops/{id}/picked-up"), &fields).await;

        assert_eq!(response.status(), 303);
        let lines = app.with_db(|c| Order::lines(c, &placed.key).unwrap());
        let billed: Vec<_> = lines.iter().map(|line| (line.item.as_str(), line.quantity, line.amount)).collect();
        assert_eq!(billed, [("wash-fold", 5, 750), ("shirt", 2, 400), ("dress", 1, 200)]);
        assert_eq!(order(&app, &placed).total_amount, 1350);
    }

    async fn a_weighing_is_corrected_until_the_order_moves_on_and_refused_after(app: TestApp) {
        let (me, session) = valet(&app, "otieno@example.com").await;
        let placed = an_order().phone("0712345678").service("wash-fold", 3).landmark("Opposite Yaya Centre").instructions("Gate code 4411").place(&app).await;
        let id = put_in_run_at(&app, &placed.key, StopKind::Pickup, &me, 1, 1140);
        let path = format!("/valet/stops/{id}/picked-up");
        let heavy = post(&app, &session, &path, &[("bags", "2"), ("kg", "50")]).await;
        let html = page(&app, &session, heavy.headers()["location"].to_str().unwrap()).await;
        assert!(
            html.contains(&format!("Picked up order {}: the bill is KSh 7,500.", placed.reference)),
            "amounts are written as on every other page"
        );

        let corrected = post(&app, &session, &path, &[("bags", "2"), ("kg", "5")]).await;

        assert_eq!(corrected.status(), 303);
        assert_eq!(order(&app, &placed).total_amount, 750);
        assert_eq!(bills(&app, &placed).iter().map(|bill| bill.0).collect::<Vec<_>>(), [450, 7500, 750]);
        app.with_db(|c| {
            crate::helpers::set_status(c, &placed.key, OrderStatus::InProgress, "desk@example.com", &laundry::notify::NotifyCustomer::nobody(), app.now())
                .unwrap()
        });

        let late = post(&app, &session, &path, &[("bags", "2"), ("kg", "6")]).await;

        assert_eq!(late.status(), 409);
        assert!(late.text().await.unwrap().contains("This pickup was recorded and the order has moved on. Ask staff to change the bill."));
        assert_eq!(order(&app, &placed).total_amount, 750);
        assert_eq!(bills(&app, &placed).len(), 3);
    }

    async fn bad_kg_or_bags_are_refused_with_the_message_and_nothing_changes(app: TestApp) {
        let (me, session) = valet(&app, "otieno@example.com").await;
        let placed = an_order().phone("0712345678").service("wash-fold", 3).landmark("Opposite Yaya Centre").instructions("Gate code 4411").place(&app).await;
        let id = put_in_run_at(&app, &placed.key, StopKind::Pickup, &me, 1, 1140);
        let path = format!("/valet/stops/{id}/picked-up");

        let no_bags = post(&app, &session, &path, &[("bags", "0"), ("kg", "5")]).await;
        let bad_kg = post(&app, &session, &path, &[("bags", "2"), ("kg", "501")]).await;
        let no_kg = post(&app, &session, &path, &[("bags", "2"), ("kg", "")]).await;

        assert_eq!(no_bags.status(), 422);
        let html = no_bags.text().await.unwrap();
        assert!(html.contains("Please enter how many bags you collected, from 1 to 20."));
        assert!(html.contains(r#"value="0""#), "what was typed is shown again");
        assert_eq!(bad_kg.status(), 422);
        assert!(
            bad_kg.text().await.unwrap().contains("Please enter the weighed kg as the scale shows it, like 4.6, up to 500 kg.")
        );
        assert_eq!(no_kg.status(), 422);
        assert!(no_kg.text().await.unwrap().contains("Please enter the weighed kg of Wash &amp; Fold."));
        let unchanged = order(&app, &placed);
        assert_eq!((unchanged.total_amount, unchanged.status), (450, OrderStatus::Pending));
        assert!(bills(&app, &placed).is_empty());
        assert_eq!(stop(&app, &id).state, StopState::Planned);
    }

    async fn delivered_with_cash_records_the_payment_and_the_status(app: TestApp) {
        let (me, session) = valet(&app, "otieno@example.com").await;
        let placed = an_order().phone("0712345678").service("wash-fold", 3).landmark("Opposite Yaya Centre").instructions("Gate code 4411").place(&app).await;
        let pickup = put_in_run_at(&app, &placed.key, StopKind::Pickup, &me, 1, 1140);
        let delivery = put_in_run_at(&app, &placed.key, StopKind::Delivery, &me, 2, 1140);
        post(&app, &session, &format!("/valet/stops/{pickup}/picked-up"), &[("bags", "1"), ("kg", "4")]).await;
        let path = format!("/valet/stops/{delivery}/delivered");

        let more = post(&app, &session, &path, &[("paid", "cash"), ("cash", "700")]).await;

        assert_eq!(more.status(), 422);
        assert!(more.text().await.unwrap().contains("Collect KSh 600 (what is owed); more would be the customer&#x27;s credit."));
        assert_eq!(payments(&app, &placed.reference), []);
        assert_eq!(order(&app, &placed).status, OrderStatus::PickedUp);

        let paid = post(&app, &session, &path, &[("paid", "cash"), ("cash", "600")]).await;

        assert_eq!(paid.status(), 303);
        let delivered = order(&app, &placed);
        assert_eq!(delivered.status, OrderStatus::Delivered);
        let (balance, entries) = money(&app, &placed.reference);
        assert_eq!((balance.settlement(), balance.paid), (Settlement::Paid, 600));
        let cash = entries.last().unwrap();
        assert_eq!((cash.method, cash.amount, cash.recorded_by.as_deref()), (Some(Method::Cash), 600, Some("otieno@example.com")), "under the valet, for their cash-up");
        assert_eq!(stop(&app, &delivery).state, StopState::Done);
        let again = post(&app, &session, &path, &[("paid", "cash"), ("cash", "600")]).await;
        assert!(again.headers()["location"].to_str().unwrap().contains("notice=unchanged"));
        assert_eq!(payments(&app, &placed.reference), [(Method::Cash, 600, None)], "entered once");
    }

    async fn delivered_with_less_cash_than_owed_leaves_the_rest_to_pay(app: TestApp) {
        let (me, session) = valet(&app, "otieno@example.com").await;
        let placed = an_order().phone("0712345678").service("wash-fold", 3).landmark("Opposite Yaya Centre").instructions("Gate code 4411").place(&app).await;
        let pickup = put_in_run_at(&app, &placed.key, StopKind::Pickup, &me, 1, 1140);
        let delivery = put_in_run_at(&app, &placed.key, StopKind::Delivery, &me, 2, 1140);
        post(&app, &session, &format!("/valet/stops/{pickup}/picked-up"), &[("bags", "1"), ("kg", "4")]).await;

        let part = post(&app, &session, &format!("/valet/stops/{delivery}/delivered"), &[("paid", "cash"), ("cash", "450")]).await;

        assert_eq!(part.status(), 303);
        assert_eq!(order(&app, &placed).status, OrderStatus::Delivered);
        assert_eq!(payments(&app, &placed.reference), [(Method::Cash, 450, None)]);
        let (balance, _) = money(&app, &placed.reference);
        assert_eq!((balance.settlement(), balance.to_pay()), (Settlement::PartPaid, 150), "the rest stays owed");
    }

    async fn an_mpesa_code_already_used_for_another_order_is_refused(app: TestApp) {
        let (me, session) = valet(&app, "otieno@example.com").await;
        let earlier = an_order().phone("0722000111").service("wash-fold", 4).landmark("Opposite Yaya Centre").instructions("Gate code 4411").place(&app).await;
        let code = MpesaCode::parse("QJK3L5X9TZ").unwrap();
        app.with_db(|c| {
            let typed = StaffPayment::Mpesa(code, None);
            laundry::lifecycle::payment::record_payment(c, &earlier.key, &typed, "desk@example.com", false, &laundry::notify::NotifyCustomer::nobody(), app.now())
                .unwrap()
                .unwrap()
        });
        let placed = an_order().phone("0712345678").service("wash-fold", 3).landmark("Opposite Yaya Centre").instructions("Gate code 4411").place(&app).await;
        let delivery = put_in_run_at(&app, &placed.key, StopKind::Delivery, &me, 1, 1140);
        app.with_db(|c| {
            crate::helpers::set_status(c, &placed.key, OrderStatus::Ready, "desk@example.com", &laundry::notify::NotifyCustomer::nobody(), app.now())
                .unwrap()
        });

        let response =
            post(&app, &session, &format!("/valet/stops/{delivery}/delivered"), &[("paid", "mpesa"), ("mpesaCode", "qjk3l5x9tz")])
                .await;

        assert_eq!(response.status(), 422);
        let html = response.text().await.unwrap();
        assert!(html.contains(&format!("This M-PESA code is already recorded for order {}.", earlier.reference)));
        let refused = order(&app, &placed);
        assert_eq!((payments(&app, &placed.reference), refused.status), (vec![], OrderStatus::Ready));
        assert_eq!(stop(&app, &delivery).state, StopState::Planned);
    }

    async fn a_valet_posting_on_another_valets_stop_is_refused(app: TestApp) {
        let (_, session) = valet(&app, "otieno@example.com").await;
        let (other, _) = valet(&app, "wanjiku@example.com").await;
        let placed = an_order().phone("0712345678").service("wash-fold", 3).landmark("Opposite Yaya Centre").instructions("Gate code 4411").place(&app).await;
        let id = put_in_run_at(&app, &placed.key, StopKind::Pickup, &other, 1, 1140);

        let set_off = post(&app, &session, &format!("/valet/stops/{id}/on-my-way"), &[]).await;
        let weighed = post(&app, &session, &format!("/valet/stops/{id}/picked-up"), &[("bags", "1"), ("kg", "5")]).await;

        assert_eq!(set_off.status(), 403);
        assert!(set_off.text().await.unwrap().contains("This stop is not in your run."));
        assert_eq!(weighed.status(), 403);
        assert_eq!(stop(&app, &id).state, StopState::Planned);
        assert_eq!(order(&app, &placed).total_amount, 450);
    }

    async fn a_run_whose_saved_positions_skip_is_numbered_from_one_as_shown(app: TestApp) {
        let (me, session) = valet(&app, "otieno@example.com").await;
        let first = an_order().phone("0712345678").place(&app).await;
        let second = an_order().phone("0722000111").place(&app).await;
        // Stops 1, 2 and 4 to 6 left the run (moved, withdrawn): positions 3 and 7 are what is left.
        put_in_run_at(&app, &first.key, StopKind::Pickup, &me, 3, 1140);
        put_in_run_at(&app, &second.key, StopKind::Pickup, &me, 7, 1200);

        let html = page(&app, &session, "/valet").await;

        assert!(html.contains("1. Pickup 19:00-20:00"), "{html}");
        assert!(html.contains("2. Pickup 20:00-21:00"), "{html}");
        assert!(!html.contains("3. Pickup") && !html.contains("7. Pickup"), "the saved positions are not shown");
    }

    async fn a_form_of_no_action_is_not_found_and_changes_nothing(app: TestApp) {
        let (me, session) = valet(&app, "otieno@example.com").await;
        let placed = an_order().phone("0712345678").service("wash-fold", 3).place(&app).await;
        let id = put_in_run_at(&app, &placed.key, StopKind::Pickup, &me, 1, 1140);

        let response = post(&app, &session, &format!("/valet/stops/{id}/collected"), &[("bags", "1")]).await;

        assert_eq!(response.status(), 404);
        assert_eq!(stop(&app, &id).state, StopState::Planned);
    }

    async fn a_form_without_its_csrf_token_is_refused(app: TestApp) {
        let (me, session) = valet(&app, "otieno@example.com").await;
        let placed = an_order().phone("0712345678").service("wash-fold", 3).landmark("Opposite Yaya Centre").instructions("Gate code 4411").place(&app).await;
        let id = put_in_run_at(&app, &placed.key, StopKind::Pickup, &me, 1, 1140);

        let response = app
            .client
            .post(format!("{}/valet/stops/{id}/on-my-way", app.address))
            .header("cookie", &session.cookie)
            .header("content-type", "application/x-www-form-urlencoded")
            .body("date=")
            .send()
            .await
            .unwrap();

        assert_eq!(response.status(), 403);
        assert_eq!(stop(&app, &id).state, StopState::Planned);
    }
}
