//! The 5:30pm text, with a clock the test sets: one text per pickup of that evening with its
//! window from the run, none for other days, none before 17:30, none for cancelled orders, exactly
//! once with two instances on one database and with many callers at once, nothing new after a
//! restart, and the text arriving at a mock Africa's Talking.

use crate::helpers::orders::an_order;
use crate::helpers::{Backend, TestApp, quick_retries, sms_env};
use diesel::prelude::*;
use laundry::clock::{Clock, NAIROBI};
use laundry::db::schema::stops;
use laundry::domain::{MessageKind, OutboxStatus, StaffRole, StopKind};
use laundry::fakes::FakeAt;
use laundry::jobs::eta_texts::{self, EtaRun, JOB};
use laundry::models::job_run::{Claim, JobRun};
use laundry::models::order::Order;
use laundry::models::outbox::{OptOut, OutboxMessage};
use laundry::models::staff::Staff;
use laundry::models::stop::Stop;
use std::time::{Duration, Instant};
use time::macros::date;
use time::{Date, OffsetDateTime, Time};

/// The evening of the tests (a Wednesday).
const DAY: Date = date!(2026 - 11 - 18);
const WAIT: Duration = Duration::from_secs(15);

/// `hour:minute` of `day` in Nairobi.
/// Noon of the day before `day`, as the database stores times: when the orders of `day` were placed.
fn noon_before(day: Date) -> time::PrimitiveDateTime {
    laundry::clock::stored(nairobi(day.previous_day().unwrap(), 12, 0))
}

fn nairobi(day: Date, hour: u8, minute: u8) -> OffsetDateTime {
    day.with_time(Time::from_hms(hour, minute, 0).unwrap()).assume_offset(NAIROBI)
}

/// A valet, for runs.
fn valet(app: &TestApp, email: &str) -> String {
    app.with_db(|c| Staff::create(c, email, "not-a-hash", StaffRole::Valet, app.now())).unwrap().id
}

/// Puts `order`'s pickup in `valet`'s run at `position`, as staff do on the dashboard.
fn in_run(app: &TestApp, order: &Order, valet: &str, position: i32) {
    app.with_db(|c| {
        let pickup = Stop::of_order(c, &order.id, StopKind::Pickup).unwrap().unwrap();
        diesel::update(stops::table.find(&pickup.id))
            .set((stops::valet_id.eq(valet), stops::run_position.eq(position)))
            .execute(c)
            .unwrap();
    });
}

/// The 5:30pm texts in the outbox.
fn eta_texts(app: &TestApp) -> Vec<OutboxMessage> {
    let all = app.with_db(|c| OutboxMessage::all(c).unwrap());
    all.into_iter().filter(|row| row.kind == MessageKind::SmsEta).collect()
}

/// The 5:30pm text of `order`, if it has one.
fn text_of(rows: &[OutboxMessage], order: &Order) -> Option<String> {
    rows.iter().find(|row| row.order_id.as_deref() == Some(&order.id)).and_then(OutboxMessage::sms_text)
}

/// Waits until `day`'s run is done, then has the jobs look once more (so that a second writer would show).
async fn until_done(app: &TestApp, day: Date) -> JobRun {
    let deadline = Instant::now() + WAIT;
    loop {
        if let Some(run) = app.with_db(|c| JobRun::find(c, JOB, day)).unwrap().filter(|run| run.done_at.is_some()) {
            app.run_jobs().await;
            return run;
        }
        assert!(Instant::now() < deadline, "the 5:30pm run of {day} was never done");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn each_pickup_of_the_evening_gets_one_text_with_its_run_window_from_half_past_five(backend: Backend) {
    let app = TestApp::builder()
        .on(backend)
        .retries(quick_retries())
        .clock(Clock::stopped_at(nairobi(DAY, 17, 29)))
        .start()
        .await;
    let first =
        an_order().phone("0711 000 001").location("Kilimani").pickup(DAY, 19).place_as_if_at(&app, noon_before(DAY));
    let second =
        an_order().phone("0711 000 002").location("Kilimani").pickup(DAY, 19).place_as_if_at(&app, noon_before(DAY));
    let later =
        an_order().phone("0711 000 003").location("Kilimani").pickup(DAY, 20).place_as_if_at(&app, noon_before(DAY));
    let tomorrow = an_order()
        .phone("0711 000 004")
        .location("Kilimani")
        .pickup(DAY.next_day().unwrap(), 19)
        .place_as_if_at(&app, noon_before(DAY.next_day().unwrap()));
    let yesterday = an_order()
        .phone("0711 000 005")
        .location("Kilimani")
        .pickup(DAY.previous_day().unwrap(), 19)
        .place_as_if_at(&app, noon_before(DAY.previous_day().unwrap()));
    let cancelled =
        an_order().phone("0711 000 006").location("Kilimani").pickup(DAY, 21).place_as_if_at(&app, noon_before(DAY));
    let opted_out =
        an_order().phone("0711 000 007").location("Kilimani").pickup(DAY, 21).place_as_if_at(&app, noon_before(DAY));
    let schedule = app.state.settings().schedule.clone();
    let token = cancelled.link_token.clone().unwrap();
    let before_cutoff = laundry::clock::stored(nairobi(DAY, 9, 0));
    app.with_db(|c| {
        laundry::lifecycle::visit::cancel_by_customer(
            c,
            &token,
            &schedule,
            &laundry::notify::NotifyCustomer::nobody(),
            before_cutoff,
        )
    })
    .unwrap();
    app.with_db(|c| OptOut::opt_out(c, &opted_out.phone, Some(&opted_out.id), app.now())).unwrap();
    // The run: the second booking first, then the first (so the order comes from the run, not
    // from the bookings); the 20:00 pickup in no run yet.
    let valet = valet(&app, "valet@example.com");
    in_run(&app, &second, &valet, 1);
    in_run(&app, &first, &valet, 2);

    app.run_jobs().await;
    assert!(eta_texts(&app).is_empty(), "nothing before 17:30");
    assert_eq!(app.with_db(|c| JobRun::find(c, JOB, DAY)).unwrap(), None, "not even a claim");

    assert!(app.clock.set(nairobi(DAY, 17, 30)));
    let run = until_done(&app, DAY).await;
    let rows = eta_texts(&app);
    assert_eq!(rows.len(), 3, "{rows:#?}");
    assert_eq!(run.written, 3);
    let text = |order: &Order| text_of(&rows, order).unwrap_or_else(|| panic!("no text for {}", order.reference));
    assert!(text(&second).contains("tonight at 19:00-19:30 for order"), "{}", text(&second));
    assert!(text(&first).contains("tonight at 19:15-19:45"), "one stop before it: {}", text(&first));
    assert!(text(&later).contains("tonight at 20:00-20:30"), "{}", text(&later));
    for order in [&first, &second, &later] {
        let row = rows.iter().find(|row| row.order_id.as_deref() == Some(&order.id)).unwrap();
        assert_eq!(row.to_phone.as_deref(), Some(order.phone.as_str()));
        assert_eq!(row.dedupe_key.as_deref(), Some(format!("eta:{}:{DAY}", order.id).as_str()));
        assert_eq!(row.status, OutboxStatus::Pending);
        let link = format!("/t/{}", order.link_token.as_deref().unwrap());
        assert!(text(order).contains(&order.reference) && text(order).ends_with(&link), "{}", text(order));
    }
    for order in [&tomorrow, &yesterday, &cancelled, &opted_out] {
        assert_eq!(text_of(&rows, order), None, "{} got a text", order.reference);
    }

    // Later that evening, and the next morning: nothing more.
    assert!(app.clock.set(nairobi(DAY, 19, 45)));
    app.run_jobs().await;
    assert!(app.clock.set(nairobi(DAY.next_day().unwrap(), 10, 0)));
    app.run_jobs().await;
    assert_eq!(eta_texts(&app).len(), 3);
}

async fn a_server_down_at_half_past_five_texts_when_it_is_back_for_windows_not_yet_over(backend: Backend) {
    let app = TestApp::builder()
        .on(backend)
        .retries(quick_retries())
        .clock(Clock::stopped_at(nairobi(DAY, 12, 0)))
        .start()
        .await;
    let over =
        an_order().phone("0711 000 011").location("Kilimani").pickup(DAY, 19).place_as_if_at(&app, noon_before(DAY));
    let going =
        an_order().phone("0711 000 012").location("Kilimani").pickup(DAY, 20).place_as_if_at(&app, noon_before(DAY));
    let next_evening = an_order()
        .phone("0711 000 013")
        .location("Kilimani")
        .pickup(DAY.next_day().unwrap(), 21)
        .place_as_if_at(&app, noon_before(DAY.next_day().unwrap()));

    // Back at 20:10: the 19:00-20:00 window is over; the 20:00 pickup's window starts now, not
    // in the past.
    assert!(app.clock.set(nairobi(DAY, 20, 10)));
    until_done(&app, DAY).await;
    let rows = eta_texts(&app);
    assert_eq!(rows.len(), 1, "{rows:#?}");
    assert_eq!(text_of(&rows, &over), None);
    assert!(text_of(&rows, &going).unwrap().contains("tonight at 20:10-20:40"), "{rows:#?}");

    // Down again until the next evening: that evening's pickup only, never the day before's again.
    assert!(app.clock.set(nairobi(DAY.next_day().unwrap(), 17, 31)));
    until_done(&app, DAY.next_day().unwrap()).await;
    let rows = eta_texts(&app);
    assert_eq!(rows.len(), 2, "{rows:#?}");
    assert!(text_of(&rows, &next_evening).unwrap().contains("tonight at 21:00-21:30"));
}

async fn two_instances_on_one_database_write_each_text_once_and_a_restart_adds_nothing(backend: Backend) {
    let app = TestApp::builder()
        .on(backend)
        .retries(quick_retries())
        .clock(Clock::stopped_at(nairobi(DAY, 17, 0)))
        .start()
        .await;
    let sibling = app.sibling().retries(quick_retries()).start().await;
    let orders: Vec<Order> = (0..6)
        .map(|i| {
            an_order()
                .phone(&format!("0711 000 02{i}"))
                .location("Kilimani")
                .pickup(DAY, 19 + i % 3)
                .place_as_if_at(&app, noon_before(DAY))
        })
        .collect();

    assert!(app.clock.set(nairobi(DAY, 17, 30)), "both instances go by this clock");
    let run = until_done(&sibling, DAY).await;
    let rows = eta_texts(&app);
    assert_eq!(rows.len(), orders.len(), "{rows:#?}");
    assert_eq!(run.written, 6);
    for order in &orders {
        assert_eq!(rows.iter().filter(|row| row.order_id.as_deref() == Some(&order.id)).count(), 1);
    }

    // A restart (a new instance, with nothing in memory) later that evening writes nothing new,
    // and neither does the run called again by hand.
    drop(sibling);
    assert!(app.clock.set(nairobi(DAY, 18, 0)));
    let restarted = app.sibling().retries(quick_retries()).start().await;
    restarted.run_jobs().await;
    let texts = restarted.state.texts().clone();
    let again = restarted.with_db(|c| eta_texts::run(c, nairobi(DAY, 18, 1), "by-hand", &texts, 15)).unwrap();
    assert_eq!(again, EtaRun::AlreadyDone { day: DAY, written: 6 });
    assert_eq!(eta_texts(&restarted).len(), 6);
}

async fn the_run_called_from_many_threads_at_once_writes_each_text_once(backend: Backend) {
    // The app's own job stays quiet (its clock is stopped in the morning); the threads pass 17:30.
    let app = TestApp::builder()
        .on(backend)
        .retries(quick_retries())
        .clock(Clock::stopped_at(nairobi(DAY, 9, 0)))
        .start()
        .await;
    let orders: Vec<Order> = (0..5)
        .map(|i| {
            an_order()
                .phone(&format!("0711 000 03{i}"))
                .location("Kilimani")
                .pickup(DAY, 19 + i % 3)
                .place_as_if_at(&app, noon_before(DAY))
        })
        .collect();
    let texts = app.state.texts().clone();
    let at = nairobi(DAY, 17, 30);
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(6));
    let callers: Vec<_> = (0..6)
        .map(|i| {
            let (database, texts, barrier) = (app.state.db().clone(), texts.clone(), barrier.clone());
            std::thread::spawn(move || {
                let mut connection = database.connection().unwrap();
                barrier.wait();
                eta_texts::run(&mut connection, at, &format!("thread-{i}"), &texts, 15).unwrap()
            })
        })
        .collect();
    let outcomes: Vec<EtaRun> = callers.into_iter().map(|caller| caller.join().unwrap()).collect();

    let wrote: Vec<&EtaRun> = outcomes.iter().filter(|outcome| matches!(outcome, EtaRun::Wrote { .. })).collect();
    assert_eq!(wrote.len(), 1, "exactly one caller writes: {outcomes:#?}");
    let EtaRun::Wrote { day, counts } = wrote[0] else { unreachable!() };
    assert_eq!((*day, counts.written), (DAY, 5));
    for outcome in &outcomes {
        assert!(
            matches!(outcome, EtaRun::Wrote { .. } | EtaRun::AlreadyDone { .. } | EtaRun::HeldElsewhere { .. }),
            "{outcome:?}"
        );
    }
    assert_eq!(eta_texts(&app).len(), orders.len());
}

async fn a_crashed_instances_claim_is_taken_over_once_its_lease_runs_out(backend: Backend) {
    let app = TestApp::builder()
        .on(backend)
        .retries(quick_retries())
        .clock(Clock::stopped_at(nairobi(DAY, 9, 0)))
        .start()
        .await;
    let order =
        an_order().phone("0711 000 041").location("Kilimani").pickup(DAY, 19).place_as_if_at(&app, noon_before(DAY));
    let texts = app.state.texts().clone();
    let at = nairobi(DAY, 17, 30);
    let now = app.with_db(laundry::db::database_clock).unwrap();
    let lease = time::Duration::minutes(5);

    // An instance claimed the day and died before writing anything; its lease is still live.
    assert_eq!(app.with_db(|c| JobRun::claim(c, JOB, DAY, "crashed", now, lease)).unwrap(), Claim::Claimed);
    let held = app.with_db(|c| eta_texts::run(c, at, "survivor", &texts, 15)).unwrap();
    assert_eq!(held, EtaRun::HeldElsewhere { day: DAY, by: "crashed".to_owned() });
    assert!(eta_texts(&app).is_empty());

    // Its lease ran out (as if claimed ten minutes ago): another instance takes the day over.
    app.with_db(|c| {
        diesel::update(laundry::db::schema::job_runs::table)
            .set(laundry::db::schema::job_runs::lease_until.eq(now - time::Duration::minutes(5)))
            .execute(c)
    })
    .unwrap();
    let taken = app.with_db(|c| eta_texts::run(c, at, "survivor", &texts, 15)).unwrap();
    assert!(matches!(taken, EtaRun::Wrote { counts, .. } if counts.written == 1), "{taken:?}");
    assert!(text_of(&eta_texts(&app), &order).is_some());
    // The crashed one, back, finds it done and cannot finish it again.
    assert_eq!(app.with_db(|c| JobRun::claim(c, JOB, DAY, "crashed", now, lease)).unwrap(), Claim::Done(1));
    assert!(!app.with_db(|c| JobRun::finish(c, JOB, DAY, "crashed", 7, now)).unwrap());
}

async fn the_half_past_five_text_reaches_the_customer_through_africas_talking(backend: Backend) {
    let mock = FakeAt::start().await;
    let clock = Clock::stopped_at(nairobi(DAY, 17, 29));
    let app =
        TestApp::builder().on(backend).env(&sms_env(&mock.url)).retries(quick_retries()).clock(clock).start().await;
    let order =
        an_order().phone("0722 000 051").location("Kilimani").pickup(DAY, 19).place_as_if_at(&app, noon_before(DAY));
    // The order's own text ("received") goes first.
    mock.wait_for(1, WAIT).await;

    assert!(app.clock.set(nairobi(DAY, 17, 30)));
    mock.wait_for(2, WAIT).await;
    let received = mock.texts_to("+254722000051");
    assert_eq!(received.len(), 2, "{received:#?}");
    let text = &received[1];
    assert!(text.contains(&format!("your valet comes tonight at 19:00-19:30 for order {}", order.reference)), "{text}");
    let deadline = Instant::now() + WAIT;
    while eta_texts(&app).first().map(|row| row.status) != Some(OutboxStatus::Sent) {
        assert!(Instant::now() < deadline, "the text was never marked sent: {:#?}", eta_texts(&app));
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

crate::on_each_backend!(
    each_pickup_of_the_evening_gets_one_text_with_its_run_window_from_half_past_five,
    a_server_down_at_half_past_five_texts_when_it_is_back_for_windows_not_yet_over,
    two_instances_on_one_database_write_each_text_once_and_a_restart_adds_nothing,
    the_run_called_from_many_threads_at_once_writes_each_text_once,
    a_crashed_instances_claim_is_taken_over_once_its_lease_runs_out,
    the_half_past_five_text_reaches_the_customer_through_africas_talking,
);
