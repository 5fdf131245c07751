//! E-mails through the outbox, against a mock EmailJS-compatible API on loopback: the exact JSON of
//! each e-mail, each class of answer, Retry-After, the pace of one request per second, a lease that
//! outlives a crashed worker, two instances on one PostgreSQL, and a mail API that hangs.

use crate::helpers::mailing_app;
use crate::helpers::orders::an_order;
use crate::helpers::{ARRIVAL_NOISE, Backend, TestApp, mail_env, postgres_url, quick_retries};
use laundry::clock::nairobi_date_time;
use laundry::domain::{OutboxStatus, StopKind};
use laundry::fakes::mail::Received;
use laundry::fakes::{FakeMail, MailReply};
use laundry::models::order::Order;
use laundry::models::outbox::OutboxMessage;
use laundry::models::stop::Stop;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

const WAIT: Duration = Duration::from_secs(15);

/// The order's stop of `kind`.
fn stop(app: &TestApp, order: &Order, kind: StopKind) -> Stop {
    app.with_db(|c| Stop::of_order(c, &order.id, kind).unwrap()).expect("the order has its stops")
}

/// The outbox's e-mails (its texts wait: these apps have no SMS settings).
fn outbox(app: &TestApp) -> Vec<OutboxMessage> {
    let all = app.with_db(|c| OutboxMessage::all(c).unwrap());
    all.into_iter().filter(|row| row.channel == laundry::domain::Channel::Email).collect()
}

/// Waits until every outbox row satisfies `done`.
async fn until_rows(app: &TestApp, what: &str, done: impl Fn(&OutboxMessage) -> bool) -> Vec<OutboxMessage> {
    let deadline = Instant::now() + WAIT;
    loop {
        let rows = outbox(app);
        if !rows.is_empty() && rows.iter().all(&done) {
            return rows;
        }
        assert!(Instant::now() < deadline, "rows never became {what}: {rows:#?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn by_template<'a>(received: &'a [Received], template: &str) -> Vec<&'a Value> {
    received.iter().map(|r| &r.body).filter(|b| b["template_id"] == template).collect()
}

fn envelope(template: &str, params: Value) -> Value {
    json!({
        "lib_version": laundry::mail::client::LIB_VERSION,
        "user_id": "public_test",
        "service_id": "service_test",
        "template_id": template,
        "template_params": params,
        "accessToken": laundry::fakes::MAIL_KEY,
    })
}

crate::on_each_backend!(
    an_order_with_the_customers_email_sends_both_emails_with_the_exact_parameters,
    an_order_without_an_email_sends_only_the_staff_email_and_a_message_sends_its_own,
    a_crashed_workers_lease_expires_and_the_email_is_sent_once,
    a_status_change_emails_the_customer,
    the_customers_email_names_the_configured_till,
);

/// The till of the order e-mail is the configured one (`MPESA_TILL`), as the pages' and texts' are.
async fn the_customers_email_names_the_configured_till(backend: Backend) {
    let mock = FakeMail::start().await;
    let mut env = mail_env(&mock.url, false);
    env.push(("MPESA_TILL", "5123456".to_owned()));
    let app = TestApp::builder().on(backend).env(&env).retries(quick_retries()).start().await;
    an_order().service("dry-cleaning", 3).pay_now().email("amina@example.com").place(&app).await;

    let received = mock.wait_for(2, WAIT).await;

    let customer = received.iter().find(|r| r.body["template_params"]["to_email"] == "amina@example.com").unwrap();
    assert_eq!(customer.body["template_params"]["mpesa_till"], "5123456");
    assert!(!customer.body.to_string().contains("3552248"), "not the default till: {}", customer.body);
}

async fn an_order_with_the_customers_email_sends_both_emails_with_the_exact_parameters(backend: Backend) {
    let mock = FakeMail::start().await;
    let app = mailing_app(backend, &mock).await.unwrap();
    let order = an_order().service("dry-cleaning", 3).pay_now().email("amina@example.com").place(&app).await.order;

    let received = mock.wait_for(2, WAIT).await;

    let (date, time) = nairobi_date_time(order.created_at);
    let staff = envelope(
        "template_order",
        json!({
            "to_email": "staff-inbox@example.com",
            "order_id": order.reference,
            "customer_name": "Amina Wanjiru",
            "customer_phone": "+254712345678",
            "customer_email": "amina@example.com",
            "location": "Kilimani, Argwings Kodhek Rd",
            "service_type": "Dry Cleaning",
            "quantity": 3,
            "total_amount": 1500,
            "payment_method": "Pay Now (M-PESA)",
            "special_instructions": "None",
            "order_date": date,
            "order_time": time,
            "order_lines": "Dry Cleaning, 3 kg: KSh 1500",
            "pickup_window": format!("{} (Nairobi time)", stop(&app, &order, StopKind::Pickup).slot().label()),
            "delivery_window": format!("{} (Nairobi time)", stop(&app, &order, StopKind::Delivery).slot().label()),
            "landmark": "None",
            "rush": "No",
        }),
    );
    let customer = envelope(
        "template_order",
        json!({
            "to_email": "amina@example.com",
            "customer_name": "Amina Wanjiru",
            "order_id": order.reference,
            "service_type": "Dry Cleaning",
            "quantity": 3,
            "total_amount": 1500,
            "location": "Kilimani, Argwings Kodhek Rd",
            "mpesa_till": "3552248",
            "phone_number": "+254712345678",
            "order_date": date,
            "order_lines": "Dry Cleaning, 3 kg: KSh 1500",
            "tracking_link": format!("http://127.0.0.1:8080/t/{}", order.link_token.as_deref().unwrap()),
        }),
    );
    let bodies: Vec<&Value> = received.iter().map(|r| &r.body).collect();
    assert!(bodies.contains(&&staff), "the staff e-mail: {bodies:#?}");
    assert!(bodies.contains(&&customer), "the customer e-mail: {bodies:#?}");
    assert_eq!(
        staff["template_params"].as_object().unwrap().len(),
        18,
        "spec section 7's thirteen parameters, the order's lines, and when and where the valet goes"
    );
    let rows = until_rows(&app, "sent", |row| row.status == OutboxStatus::Sent).await;
    assert_eq!(rows.len(), 2);
}

async fn an_order_without_an_email_sends_only_the_staff_email_and_a_message_sends_its_own(backend: Backend) {
    let mock = FakeMail::start().await;
    let app = mailing_app(backend, &mock).await.unwrap();
    let mut order = an_order().service("dry-cleaning", 3).pay_now().body();
    order["paymentMethod"] = json!("pay-delivery");
    order["specialInstructions"] = json!("Fold, do not hang");
    assert_eq!(app.post_json("/api/orders", &order, &[]).await.status(), 201);
    let contact =
        json!({ "name": "Njeri Kamau", "email": "njeri@example.com", "subject": "Duvets", "message": "King size?" });
    assert_eq!(app.post_json("/api/contacts", &contact, &[]).await.status(), 201);

    until_rows(&app, "sent", |row| row.status == OutboxStatus::Sent).await;

    let received = mock.received();
    assert_eq!(received.len(), 2, "one order e-mail (no customer address) and one contact e-mail");
    let order_mail = by_template(&received, "template_order")[0];
    assert_eq!(order_mail["template_params"]["payment_method"], "Pay on Delivery");
    assert_eq!(order_mail["template_params"]["special_instructions"], "Fold, do not hang");
    assert_eq!(order_mail["template_params"]["customer_email"], "");
    let message =
        app.with_db(|c| laundry::models::contact_message::ContactMessage::page(c, None, 1, 1).unwrap()).items.remove(0);
    let (date, time) = nairobi_date_time(message.created_at);
    assert_eq!(
        *by_template(&received, "template_contact")[0],
        envelope(
            "template_contact",
            json!({
                "to_email": "staff-inbox@example.com",
                "customer_name": "Njeri Kamau",
                "customer_email": "njeri@example.com",
                "customer_phone": "Not provided",
                "subject": "Duvets",
                "message": "King size?",
                "contact_date": date,
                "contact_time": time,
            })
        )
    );
}

async fn a_crashed_workers_lease_expires_and_the_email_is_sent_once(backend: Backend) {
    // An instance without mail configuration stores the e-mail; a worker "crashes" holding it.
    let quiet = TestApp::builder().on(backend).start().await;
    let order = an_order().service("dry-cleaning", 3).pay_now().place(&quiet).await.order;
    let lease = time::Duration::seconds(12);
    let claimed = quiet.with_db(|c| {
        OutboxMessage::claim(c, laundry::domain::Channel::Email, "crashed-worker", quiet.database_now(), lease, None)
            .unwrap()
    });
    assert!(claimed.is_some());
    let lease_ends = Instant::now() + Duration::from_secs(12);

    let mock = FakeMail::start().await;
    let mailing = quiet.sibling().env(&mail_env(&mock.url, false)).retries(quick_retries()).start().await;
    let started_in = Instant::now();
    assert!(
        started_in + Duration::from_millis(600) < lease_ends,
        "the second instance must start while the lease holds"
    );
    assert_eq!(mailing.deliver_outbox().await, 0, "the crashed worker's lease holds");
    assert_eq!(mock.received().len(), 0, "nothing is sent while the crashed worker's lease holds");
    let received = mock.wait_for(1, WAIT).await;

    assert!(received[0].at + Duration::from_millis(100) >= lease_ends, "not before the lease ran out");
    assert_eq!(received[0].body["template_params"]["order_id"], order.reference);
    let rows = until_rows(&mailing, "sent", |row| row.status == OutboxStatus::Sent).await;
    assert_eq!((rows.len(), rows[0].attempts), (1, 2), "the crashed claim and the real one");
    assert_eq!(mailing.deliver_outbox().await, 0);
    assert_eq!(mock.received().len(), 1, "sent once, not again");
}

async fn a_status_change_emails_the_customer(backend: Backend) {
    let mock = FakeMail::start().await;
    let app = mailing_app(backend, &mock).await.unwrap();
    let order = an_order().service("dry-cleaning", 3).pay_now().email("amina@example.com").place(&app).await.order;
    mock.wait_for(2, WAIT).await;
    app.create_staff("wanjiku@example.com", "Tumbo-Ngoma-47-Kazi");
    let session = app.sign_in("wanjiku@example.com", "Tumbo-Ngoma-47-Kazi").await;

    let changed = app
        .staff_request(reqwest::Method::POST, &format!("/api/admin/orders/{}/status", order.reference), &session, true)
        .json(&json!({ "status": "ready", "rack": "A1" }))
        .send()
        .await
        .unwrap();
    assert_eq!(changed.status(), 200);

    let received = mock.wait_for(3, WAIT).await;
    let status_mail = by_template(&received, "template_status");
    assert_eq!(status_mail.len(), 1);
    let params = &status_mail[0]["template_params"];
    assert_eq!((params["to_email"].as_str(), params["status"].as_str()), (Some("amina@example.com"), Some("ready")));
    assert_eq!(params["order_id"], order.reference.as_str(), "the order ID customers track by");
}

#[actix_web::test]
async fn each_class_of_answer_is_handled_as_it_should() {
    let mock = FakeMail::start().await;
    // 400: failed at once. 403: blocked. 500 twice then 200: sent on the third try.
    mock.script(&[MailReply::status(400)]);
    let app = mailing_app(Backend::Sqlite, &mock).await.unwrap();
    an_order().service("dry-cleaning", 3).pay_now().place(&app).await;
    let rows = until_rows(&app, "failed", |row| row.status == OutboxStatus::Failed).await;
    assert_eq!(rows[0].attempts, 1, "400 is not retried");
    assert!(rows[0].last_error.as_deref().unwrap().contains("400"), "{:?}", rows[0].last_error);

    for code in [401, 403, 412] {
        let mock = FakeMail::start().await;
        mock.script(&[MailReply::status(code)]);
        let app = mailing_app(Backend::Sqlite, &mock).await.unwrap();
        an_order().service("dry-cleaning", 3).pay_now().place(&app).await;
        let rows = until_rows(&app, "blocked", |row| row.status == OutboxStatus::Blocked).await;
        assert!(rows[0].last_error.as_deref().unwrap().contains("blocked"), "{code}: {:?}", rows[0].last_error);
        let wait = rows[0].next_attempt_at - app.database_now();
        assert!(wait > time::Duration::seconds(50), "{code}: retried slowly, not at once ({wait})");
    }

    let mock = FakeMail::start().await;
    mock.script(&[MailReply::status(404)]);
    let app = mailing_app(Backend::Sqlite, &mock).await.unwrap();
    an_order().service("dry-cleaning", 3).pay_now().place(&app).await;
    let rows = until_rows(&app, "blocked", |row| row.status == OutboxStatus::Blocked).await;
    assert!(rows[0].last_error.as_deref().unwrap().contains("EMAILJS_BASE_URL"), "404: {:?}", rows[0].last_error);

    let mock = FakeMail::start().await;
    mock.script(&[MailReply::status(500), MailReply::status(503)]);
    let app = mailing_app(Backend::Sqlite, &mock).await.unwrap();
    an_order().service("dry-cleaning", 3).pay_now().place(&app).await;
    let rows = until_rows(&app, "sent", |row| row.status == OutboxStatus::Sent).await;
    assert_eq!(rows[0].attempts, 3);
    assert_eq!(mock.received().len(), 3);

    let mock = FakeMail::start().await;
    mock.answer_always(MailReply::status(502));
    let app = mailing_app(Backend::Sqlite, &mock).await.unwrap();
    an_order().service("dry-cleaning", 3).pay_now().place(&app).await;
    let rows = until_rows(&app, "failed", |row| row.status == OutboxStatus::Failed).await;
    assert!(rows[0].last_error.as_deref().unwrap().starts_with("gave up after 3 attempts"), "{:?}", rows[0].last_error);
    assert_eq!(mock.received().len(), 3, "retried up to the cap, then given up");
}

#[actix_web::test]
async fn a_timeout_is_retried_and_staff_see_blocked_mail_and_can_send_it_again() {
    let mock = FakeMail::start().await;
    mock.script(&[MailReply::hang(Duration::from_secs(5)), MailReply::status(401)]);
    let app = mailing_app(Backend::Sqlite, &mock).await.unwrap();
    let order = an_order().service("dry-cleaning", 3).pay_now().place(&app).await.order;
    let rows = until_rows(&app, "blocked", |row| row.status == OutboxStatus::Blocked).await;
    assert_eq!(rows[0].attempts, 2, "the timeout was retried");

    app.create_staff("wanjiku@example.com", "Tumbo-Ngoma-47-Kazi");
    let session = app.sign_in("wanjiku@example.com", "Tumbo-Ngoma-47-Kazi").await;
    let report: Value = app
        .staff_request(reqwest::Method::GET, "/api/admin/outbox", &session, false)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!((report["email"]["blocked"].as_i64(), report["email"]["configured"].as_bool()), (Some(1), Some(true)));
    assert!(report["email"]["lastError"].as_str().unwrap().contains("401"), "{report}");
    assert_eq!(report["problems"][0]["channel"], "email");
    assert_eq!(report["problems"][0]["id"], rows[0].id.as_str());
    assert_eq!(report["problems"][0]["orderId"], order.reference.as_str(), "named by the order ID staff read");
    assert!(!report.to_string().contains(laundry::fakes::MAIL_KEY), "the private key never reaches the API");
    let page = app.get_with("/admin", &[("cookie", &session.cookie)]).await.text().await.unwrap();
    assert!(page.contains("Admin Dashboard") && !page.contains(laundry::fakes::MAIL_KEY), "nor a page");

    let resend = app
        .staff_request(reqwest::Method::POST, &format!("/api/admin/outbox/{}/resend", rows[0].id), &session, true)
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(resend.status(), 200);
    until_rows(&app, "sent", |row| row.status == OutboxStatus::Sent).await;
    assert_eq!(mock.received().len(), 3);
}

#[actix_web::test]
async fn retry_after_is_honoured_and_requests_keep_one_second_apart() {
    let mock = FakeMail::start().await;
    mock.script(&[MailReply::too_many(3)]);
    let app = mailing_app(Backend::Sqlite, &mock).await.unwrap();
    an_order().service("dry-cleaning", 3).pay_now().email("amina@example.com").place(&app).await;
    an_order().service("dry-cleaning", 3).pay_now().email("amina@example.com").place(&app).await;

    let received = mock.wait_for(5, Duration::from_secs(20)).await;

    assert!(
        received[1].at.duration_since(received[0].at) >= Duration::from_secs(3) - ARRIVAL_NOISE,
        "Retry-After: 3 was honoured"
    );
    for pair in received.windows(2) {
        let gap = pair[1].at.duration_since(pair[0].at);
        // One slot per second (without the pace they would be milliseconds apart).
        assert!(gap >= Duration::from_secs(1) - ARRIVAL_NOISE, "two requests {gap:?} apart");
    }
    until_rows(&app, "sent", |row| row.status == OutboxStatus::Sent).await;
}

#[actix_web::test]
async fn a_mail_api_that_hangs_does_not_slow_order_placement() {
    let mock = FakeMail::start().await;
    mock.answer_always(MailReply::hang(Duration::from_secs(30)));
    let retries = laundry::outbox::RetryPolicy { request_timeout: Duration::from_secs(60), ..quick_retries() };
    let app = TestApp::builder().env(&mail_env(&mock.url, false)).retries(retries).start().await;
    an_order().service("dry-cleaning", 3).pay_now().place(&app).await;
    mock.wait_for(1, WAIT).await;

    for _ in 0..5 {
        let started = Instant::now();
        an_order().service("dry-cleaning", 3).pay_now().email("amina@example.com").place(&app).await;
        // The worker is stuck in a 30 s request; placing an order does not wait for it.
        assert!(started.elapsed() < Duration::from_secs(2), "placing an order took {:?}", started.elapsed());
    }
    assert_eq!(
        outbox(&app).iter().filter(|row| row.status == OutboxStatus::Pending).count(),
        11,
        "all waiting, none lost"
    );
}

#[actix_web::test]
async fn two_instances_on_one_postgresql_never_send_one_email_twice() {
    if postgres_url().is_none() {
        eprintln!("TEST_DATABASE_URL is not set: this PostgreSQL test is skipped");
        return;
    }
    let mock = FakeMail::start().await;
    let env = mail_env(&mock.url, false);
    let first = TestApp::builder().on(Backend::Postgres).env(&env).retries(quick_retries()).start().await;
    let second = first.sibling().env(&env).retries(quick_retries()).start().await;
    for n in 0..6 {
        an_order().service("dry-cleaning", 3).pay_now().place(if n % 2 == 0 { &first } else { &second }).await;
    }

    let received = mock.wait_for(6, Duration::from_secs(30)).await;
    until_rows(&first, "sent", |row| row.status == OutboxStatus::Sent).await;

    // A round of each instance's worker more: neither sends anything again.
    assert_eq!(first.deliver_outbox().await + second.deliver_outbox().await, 0);
    let received_later = mock.received();
    assert_eq!(received_later.len(), 6, "each e-mail once");
    let mut ids: Vec<&str> = received.iter().map(|r| r.body["template_params"]["order_id"].as_str().unwrap()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 6);
    for pair in received.windows(2) {
        let gap = pair[1].at.duration_since(pair[0].at);
        assert!(gap >= Duration::from_secs(1) - ARRIVAL_NOISE, "two instances together kept one per second: {gap:?}");
    }
}

#[actix_web::test]
async fn without_configuration_emails_wait_and_nothing_is_sent() {
    let app = TestApp::builder().start().await;
    an_order().service("dry-cleaning", 3).pay_now().email("amina@example.com").place(&app).await;
    // Unconfigured, the worker says what is missing and ends: it touches no row.
    let worker = laundry::startup::mail_worker(&app.state).run();
    tokio::time::timeout(Duration::from_secs(5), worker).await.expect("unconfigured, the worker ends at once");
    let rows = outbox(&app);
    assert_eq!(rows.len(), 2);
    assert!(rows.iter().all(|row| row.status == OutboxStatus::Pending && row.attempts == 0));
}

#[actix_web::test]
async fn no_connection_to_the_mail_api_is_retried_and_then_given_up() {
    // A port that was just free: nothing listens there.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    let env = mail_env(&format!("http://{closed}"), false);
    let app = TestApp::builder().env(&env).retries(quick_retries()).start().await;
    an_order().service("dry-cleaning", 3).pay_now().place(&app).await;

    let rows = until_rows(&app, "failed", |row| row.status == OutboxStatus::Failed).await;

    assert_eq!(rows[0].attempts, 3);
    let error = rows[0].last_error.as_deref().unwrap();
    assert!(error.starts_with("gave up after 3 attempts") && error.contains("cannot reach the mail API"), "{error}");
}

#[actix_web::test]
async fn a_worker_whose_lease_ran_out_while_it_waited_for_its_turn_does_not_send() {
    use diesel::prelude::*;
    use laundry::db::schema::outbox;
    use laundry::models::outbox::Pace;
    let mock = FakeMail::start().await;
    let app = TestApp::builder().start().await; // without mail settings: its rows wait
    an_order().service("dry-cleaning", 3).pay_now().place(&app).await;
    let now = app.database_now();
    app.with_db(|c| Pace::hold_until(c, laundry::domain::Channel::Email, now + time::Duration::seconds(2)).unwrap());
    let env = mail_env(&mock.url, false);
    let settings =
        laundry::config::Settings::from_lookup(|name| env.iter().find(|(n, _)| *n == name).map(|(_, v)| v.clone()))
            .unwrap();
    let worker = laundry::jobs::outbox_worker::OutboxWorker::new(
        app.state.db().clone(),
        settings.mail,
        quick_retries(),
        std::sync::Arc::new(tokio::sync::Notify::new()),
    );

    let sending = actix_web::rt::spawn(async move { worker.send_next().await });
    // A real wait: the worker must be inside its wait for the pace (2 s) when its lease is taken.
    tokio::time::sleep(Duration::from_millis(700)).await;
    // While it waits for the pace, its lease runs out (a paused process, say) and another takes it.
    let now = app.database_now();
    app.with_db(|c| {
        diesel::update(outbox::table)
            .set((outbox::lease_owner.eq("another-worker"), outbox::lease_until.eq(now + time::Duration::minutes(2))))
            .execute(c)
            .unwrap()
    });
    assert!(sending.await.unwrap().unwrap(), "it had claimed a row");

    assert_eq!(mock.received().len(), 0, "only the new holder may send it");
    let rows = outbox(&app);
    assert_eq!((rows[0].status.as_str(), rows[0].lease_owner.as_deref()), ("pending", Some("another-worker")));

    // Nor can staff take it from its holder with Send again while it is being sent.
    app.create_staff("wanjiku@example.com", "Tumbo-Ngoma-47-Kazi");
    let session = app.sign_in("wanjiku@example.com", "Tumbo-Ngoma-47-Kazi").await;
    let path = format!("/api/admin/outbox/{}/resend", rows[0].id);
    let resend = app.staff_request(reqwest::Method::POST, &path, &session, true).json(&json!({})).send().await.unwrap();
    assert_eq!(resend.status(), 404);
    assert_eq!(outbox(&app)[0].lease_owner.as_deref(), Some("another-worker"));
}

/// DESIGN.md: one order ID everywhere. The ID the API answers is the one the confirmation shows,
/// tracking finds, both e-mails carry, and staff see in the table (after '#').
async fn one_order_id_is_shown_tracked_emailed_and_listed(backend: Backend) {
    let mock = FakeMail::start().await;
    let Some(app) = mailing_app(backend, &mock).await else { return };
    let order = an_order().service("dry-cleaning", 3).pay_now().email("amina@example.com").place(&app).await.order;
    let order_id = order.reference.clone();

    let confirmation = app.get(&format!("/confirmation?ref={order_id}")).await.text().await.unwrap();
    let tracked: Value = app.track(&order_id).await.json().await.unwrap();
    let received = mock.wait_for(2, WAIT).await;
    app.create_staff("wanjiku@example.com", "Tumbo-Ngoma-47-Kazi");
    let session = app.sign_in("wanjiku@example.com", "Tumbo-Ngoma-47-Kazi").await;
    let listed: Value = app
        .staff_request(reqwest::Method::GET, "/api/admin/orders", &session, false)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();

    assert_eq!(order_id.len(), 8);
    assert!(confirmation.contains(&order_id), "the confirmation shows {order_id}");
    assert_eq!(tracked["orders"][0]["id"], order_id.as_str(), "tracking finds it by that ID");
    let emailed: Vec<&str> = received.iter().map(|r| r.body["template_params"]["order_id"].as_str().unwrap()).collect();
    assert_eq!(emailed, [order_id.as_str(), order_id.as_str()], "both e-mails carry it");
    let shown = listed["items"][0]["id"].as_str().unwrap();
    assert_eq!(&shown[shown.len() - 8..], order_id, "staff see '#' and the last 8 characters of the id");
    assert!(
        !confirmation.contains(&order.id) && !listed.to_string().contains(&order.id),
        "the database key stays inside"
    );
}

#[actix_web::test]
async fn one_order_id_everywhere_on_sqlite() {
    one_order_id_is_shown_tracked_emailed_and_listed(Backend::Sqlite).await;
}

#[actix_web::test]
async fn one_order_id_everywhere_on_postgres() {
    if crate::helpers::postgres_skipped() {
        return;
    }
    one_order_id_is_shown_tracked_emailed_and_listed(Backend::Postgres).await;
}
