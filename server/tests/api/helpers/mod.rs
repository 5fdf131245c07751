//! The test kit: `TestApp::builder()` starts a server (app.rs), each on a fresh database
//! (database.rs); the providers' settings, the backend macros and the request, sign-in and ledger
//! helpers the feature files share are here.

mod app;
mod database;
pub mod mpesa;
pub mod orders;
pub mod recleans;
pub mod sms;
pub mod staff;

pub use app::{TestApp, built_frontend, stopped_clock};
pub use database::{Backend, empty_postgres, migrate_before, postgres_url};

/// How much later than it was sent a request may be recorded by a provider's fake, on a machine
/// running eight tests at once: a pace measured between two arrivals is checked less this (without
/// the pace, the requests would be milliseconds apart).
pub const ARRIVAL_NOISE: std::time::Duration = std::time::Duration::from_millis(150);

/// True, saying so, when PostgreSQL is not configured for tests: a PostgreSQL test then returns.
pub fn postgres_skipped() -> bool {
    let skipped = postgres_url().is_none();
    if skipped {
        eprintln!("TEST_DATABASE_URL is not set: the PostgreSQL run of this test is skipped");
    }
    skipped
}

/// Waits until `found` finds something (looking every 20 ms, at most 15 s; then the test fails
/// saying `what` never happened): for what another task of the server does in its own time.
pub async fn until<T>(what: &str, mut found: impl FnMut() -> Option<T>) -> T {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(15);
    loop {
        if let Some(found) = found() {
            return found;
        }
        assert!(std::time::Instant::now() < deadline, "{what} never happened");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

/// Retries fast enough for a test: 200 ms doubling to 1 s, three attempts, blocked 60 s.
pub fn quick_retries() -> laundry::outbox::RetryPolicy {
    laundry::outbox::RetryPolicy {
        base: std::time::Duration::from_millis(200),
        cap: std::time::Duration::from_secs(1),
        max_attempts: 3,
        blocked: std::time::Duration::from_secs(60),
        poll: std::time::Duration::from_millis(100),
        request_timeout: std::time::Duration::from_secs(2),
    }
}

/// The mail configuration of the tests, pointing at `api` (the fake mail API, `laundry::fakes::FakeMail`); `status` adds the status template.
pub fn mail_env(api: &str, status: bool) -> Vec<(&'static str, String)> {
    let mut env = vec![
        ("EMAILJS_BASE_URL", api.to_owned()),
        ("EMAILJS_SERVICE_ID", "service_test".to_owned()),
        ("EMAILJS_PUBLIC_KEY", "public_test".to_owned()),
        ("EMAILJS_PRIVATE_KEY", laundry::fakes::MAIL_KEY.to_owned()),
        ("EMAILJS_ORDER_TEMPLATE_ID", "template_order".to_owned()),
        ("EMAILJS_CONTACT_TEMPLATE_ID", "template_contact".to_owned()),
        ("ADMIN_NOTIFY_EMAIL", "staff-inbox@example.com".to_owned()),
    ];
    if status {
        env.push(("EMAILJS_STATUS_TEMPLATE_ID", "template_status".to_owned()));
    }
    env
}

/// A server mailing through `mail` (the fake mail API), with the status template and quick retries.
pub async fn mailing_app(backend: Backend, mail: &laundry::fakes::FakeMail) -> Option<TestApp> {
    Some(TestApp::builder().on(backend).env(&mail_env(&mail.url, true)).retries(quick_retries()).start().await)
}

/// The secret of the SMS callbacks in the tests: `/hooks/sms/incoming/{SMS_HOOK_SECRET}`.
pub const SMS_HOOK_SECRET: &str = "test-hook-secret-0123456789abcdef";

/// The SMS configuration of the tests, pointing at `api` (the fake Africa's Talking), with the
/// short code 22384, the letter P and [`SMS_HOOK_SECRET`].
pub fn sms_env(api: &str) -> Vec<(&'static str, String)> {
    vec![
        ("AT_BASE_URL", api.to_owned()),
        ("AT_USERNAME", laundry::fakes::AT_USERNAME.to_owned()),
        ("AT_API_KEY", laundry::fakes::AT_API_KEY.to_owned()),
        ("AT_SENDER_ID", "USAFI".to_owned()),
        ("AT_SHORTCODE", "22384".to_owned()),
        ("LAUNDRY_SMS_HOOK_SECRET", SMS_HOOK_SECRET.to_owned()),
    ]
}

/// The secret of the M-PESA callbacks in the tests: `/hooks/payments/prompt/{MPESA_HOOK_SECRET}`.
pub const MPESA_HOOK_SECRET: &str = "test-payments-secret-0123456789abcdef";

/// The environment that points M-PESA at the fake Daraja at `api` (short code 174379, till 3552248).
pub fn mpesa_env(api: &str) -> Vec<(&'static str, String)> {
    vec![
        ("MPESA_BASE_URL", api.to_owned()),
        ("MPESA_CONSUMER_KEY", laundry::fakes::DARAJA_KEY.to_owned()),
        ("MPESA_CONSUMER_SECRET", laundry::fakes::DARAJA_SECRET.to_owned()),
        ("MPESA_SHORTCODE", "174379".to_owned()),
        ("MPESA_TILL", "3552248".to_owned()),
        ("MPESA_PASSKEY", "test-passkey-bfb279f9aa9bdbcf".to_owned()),
        ("MPESA_CALLBACK_BASE_URL", "https://laundry.example.com".to_owned()),
        ("MPESA_CALLBACK_SECRET", MPESA_HOOK_SECRET.to_owned()),
    ]
}

/// Declares each test twice, on SQLite and on PostgreSQL (skipped when `TEST_DATABASE_URL` is unset).
#[macro_export]
macro_rules! on_both_backends {
    ($(async fn $name:ident($app:ident: TestApp) $body:block)*) => {
        mod sqlite {
            #[allow(unused_imports)]
            use super::*;
            $(
                #[actix_web::test]
                async fn $name() {
                    let $app = $crate::helpers::TestApp::builder().start().await;
                    $body
                }
            )*
        }
        mod postgres {
            #[allow(unused_imports)]
            use super::*;
            $(
                #[actix_web::test]
                async fn $name() {
                    if $crate::helpers::postgres_url().is_none() {
                        eprintln!("TEST_DATABASE_URL is not set: the PostgreSQL run of this test is skipped");
                        return;
                    }
                    let $app = $crate::helpers::TestApp::builder().on($crate::helpers::Backend::Postgres).start().await;
                    $body
                }
            )*
        }
    };
}

/// Runs each named `async fn(Backend)` of the calling module on SQLite and on PostgreSQL (skipped,
/// saying so, when `TEST_DATABASE_URL` is unset): for tests that start their app themselves.
#[macro_export]
macro_rules! on_each_backend {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[actix_web::test]
                async fn $name() {
                    super::$name($crate::helpers::Backend::Sqlite).await
                }
            )*
        }
        mod postgres {
            $(
                #[actix_web::test]
                async fn $name() {
                    if $crate::helpers::postgres_url().is_none() {
                        eprintln!("TEST_DATABASE_URL is not set: the PostgreSQL run of this test is skipped");
                        return;
                    }
                    super::$name($crate::helpers::Backend::Postgres).await
                }
            )*
        }
    };
}

/// A signed-in staff member's cookie and CSRF token.
#[derive(Debug, Clone)]
pub struct SignedIn {
    /// `laundry_session=…`, for the Cookie header.
    pub cookie: String,
    /// The session's CSRF token.
    pub csrf: String,
}

/// The value of cookie `name` in the response's Set-Cookie headers.
pub fn set_cookie(response: &reqwest::Response, name: &str) -> Option<String> {
    response.headers().get_all("set-cookie").iter().filter_map(|value| value.to_str().ok()).find_map(|value| {
        value.strip_prefix(&format!("{name}=")).map(|rest| rest.split(';').next().unwrap_or("").to_owned())
    })
}

impl TestApp {
    /// Creates an owner's account directly in the database.
    pub fn create_staff(&self, email: &str, password: &str) {
        self.create_staff_as(email, password, laundry::domain::StaffRole::Owner);
    }

    /// Creates an account with `role` directly in the database.
    pub fn create_staff_as(&self, email: &str, password: &str, role: laundry::domain::StaffRole) {
        let hash = laundry::password::hash_password(password).unwrap();
        self.with_db(|c| laundry::models::staff::Staff::create(c, email, &hash, role, self.now()).unwrap());
    }

    /// Posts the login form as a browser does: first GET the form for its token cookie.
    pub async fn post_login(&self, email: &str, password: &str, extra_cookie: Option<&str>) -> reqwest::Response {
        self.post_login_with(email, password, extra_cookie, None).await
    }

    /// [`TestApp::post_login`] from the client address `forwarded_for` (as a proxy would say it;
    /// the app must run with `LAUNDRY_BEHIND_PROXY=true`).
    pub async fn post_login_from(&self, email: &str, password: &str, forwarded_for: &str) -> reqwest::Response {
        self.post_login_with(email, password, None, Some(forwarded_for)).await
    }

    async fn post_login_with(
        &self,
        email: &str,
        password: &str,
        extra_cookie: Option<&str>,
        forwarded_for: Option<&str>,
    ) -> reqwest::Response {
        let form = self.get("/admin/login").await;
        let token = set_cookie(&form, laundry::auth::LOGIN_CSRF_COOKIE).expect("the login form sets its token cookie");
        let mut cookie = format!("{}={token}", laundry::auth::LOGIN_CSRF_COOKIE);
        if let Some(extra) = extra_cookie {
            cookie = format!("{cookie}; {extra}");
        }
        let body = serde_urlencoded::to_string([("email", email), ("password", password), ("csrf", &token)]).unwrap();
        let mut request = self
            .client
            .post(format!("{}/admin/login", self.address))
            .header("content-type", "application/x-www-form-urlencoded")
            .header("cookie", cookie)
            .body(body);
        if let Some(address) = forwarded_for {
            request = request.header("x-forwarded-for", address);
        }
        request.send().await.unwrap()
    }

    /// Makes an account with `role` and signs it in. The CSRF token is read from the session's
    /// row: a valet's home is the valet page, whose props carry none.
    pub async fn sign_in_as(&self, email: &str, password: &str, role: laundry::domain::StaffRole) -> SignedIn {
        use diesel::prelude::*;
        use laundry::db::schema::staff_sessions;
        self.create_staff_as(email, password, role);
        let response = self.post_login(email, password, None).await;
        assert_eq!(response.status(), 303, "{role} signs in");
        let token = set_cookie(&response, laundry::auth::SESSION_COOKIE).expect("a session cookie");
        let csrf: String = self.with_db(|c| {
            staff_sessions::table
                .find(laundry::auth::token_hash(&token))
                .select(staff_sessions::csrf_token)
                .first(c)
                .unwrap()
        });
        SignedIn { cookie: format!("{}={token}", laundry::auth::SESSION_COOKIE), csrf }
    }

    /// Signs in (the account must exist) and reads the CSRF token from the dashboard's props.
    pub async fn sign_in(&self, email: &str, password: &str) -> SignedIn {
        let response = self.post_login(email, password, None).await;
        assert_eq!(response.status(), 303, "sign-in failed");
        let token = set_cookie(&response, laundry::auth::SESSION_COOKIE).expect("a session cookie");
        let cookie = format!("{}={token}", laundry::auth::SESSION_COOKIE);
        let page = self.get_with("/admin", &[("cookie", &cookie)]).await.text().await.unwrap();
        let csrf = page.split(r#""csrf":""#).nth(1).and_then(|rest| rest.split('"').next()).expect("csrf in the props");
        SignedIn { cookie, csrf: csrf.to_owned() }
    }

    /// A request with the session's cookie, and its CSRF header when `with_csrf`.
    pub fn staff_request(
        &self,
        method: reqwest::Method,
        path: &str,
        session: &SignedIn,
        with_csrf: bool,
    ) -> reqwest::RequestBuilder {
        let mut request =
            self.client.request(method, format!("{}{path}", self.address)).header("cookie", &session.cookie);
        if with_csrf {
            request = request.header(laundry::auth::CSRF_HEADER, &session.csrf);
        }
        request
    }
}

/// Posts a staff page's form as the page does (the session's cookie and its CSRF field), like the
/// valet's stop forms.
pub async fn valet_post(app: &TestApp, session: &SignedIn, path: &str, fields: &[(&str, &str)]) -> reqwest::Response {
    let mut form = vec![("csrf", session.csrf.as_str())];
    form.extend_from_slice(fields);
    app.client
        .post(format!("{}{path}", app.address))
        .header("cookie", &session.cookie)
        .header("content-type", "application/x-www-form-urlencoded")
        .body(serde_urlencoded::to_string(&form).unwrap())
        .send()
        .await
        .unwrap()
}

/// Staff set `status` on the order with key `order_id`, as the dashboard's status change does
/// (a cancellation with a reason; the customer told when `notify` texts), with the default schedule.
pub fn set_status(
    connection: &mut laundry::db::DbConnection,
    order_id: &str,
    status: laundry::domain::OrderStatus,
    by: &str,
    notify: &laundry::notify::NotifyCustomer,
    now: time::PrimitiveDateTime,
) -> Result<laundry::lifecycle::Changed, laundry::lifecycle::LifeError> {
    let schedule = laundry::domain::schedule::Schedule::default();
    let context = laundry::lifecycle::Context { by, notify, schedule: &schedule, now };
    let reason = (status == laundry::domain::OrderStatus::Cancelled).then_some("Cancelled in a test");
    laundry::lifecycle::status::set_by_staff(connection, order_id, status, reason, notify.texts.is_some(), &context)
}

/// Books the `kind` stop of the order with key `order_id` on `day` in `window` (minutes after
/// midnight, Nairobi), planned: for a history on days a test chooses.
pub fn book_stop(app: &TestApp, order_id: &str, kind: laundry::domain::StopKind, day: time::Date, window: (i32, i32)) {
    use diesel::prelude::*;
    use laundry::db::schema::stops;
    let (start, end) = window;
    app.with_db(|c| {
        let moved = diesel::update(stops::table.filter(stops::order_id.eq(order_id)).filter(stops::kind.eq(kind)))
            .set((
                stops::day.eq(day),
                stops::window_start.eq(start),
                stops::window_end.eq(end),
                stops::state.eq(laundry::domain::StopState::Planned),
            ))
            .execute(c)
            .unwrap();
        assert_eq!(moved, 1, "order {order_id} has a {kind:?} stop");
    });
}

/// Orders `ids` (each its own key and order ID) of 3 kg wash & fold (KSh 450) from `phone`, paid
/// `payment_method`, written straight into the database without a ledger entry: for the property
/// tests that write the entries themselves.
pub fn bare_orders(connection: &mut laundry::db::DbConnection, ids: &[&str], phone: &str, payment_method: &str) {
    use diesel::connection::SimpleConnection;
    for id in ids {
        connection
            .batch_execute(&format!(
                "INSERT INTO orders (id, reference, customer_name, phone, location, service_type, service_label, \
                 quantity, payment_method, price_per_kg, total_amount, status, created_at, updated_at, \
                 estimate_amount) VALUES ('{id}', '{id}', 'Amina', '{phone}', 'Kilimani', 'wash-fold', \
                 'Wash & Fold', 3, '{payment_method}', 150, 450, 'pending', '2026-11-20 00:00:00', \
                 '2026-11-20 00:00:00', 450);"
            ))
            .unwrap();
    }
}

/// The ledger of the order with order ID `reference`: its sums and its entries, oldest first.
pub fn money(app: &TestApp, reference: &str) -> (laundry::domain::Balance, Vec<laundry::models::ledger::Entry>) {
    app.with_db(|c| {
        let reference = laundry::domain::OrderReference::parse(reference).unwrap();
        let order = laundry::models::order::Order::find_by_reference(c, &reference).unwrap().unwrap();
        let entries = laundry::models::ledger::Entry::of_order(c, &order.id).unwrap();
        (laundry::models::ledger::Entry::balance(c, &order.id).unwrap(), entries)
    })
}

/// Whether the order with order ID `reference` has nothing left to pay and received money (the
/// old "paid").
pub fn is_paid(app: &TestApp, reference: &str) -> bool {
    let (balance, _) = money(app, reference);
    balance.to_pay() == 0 && balance.received() > 0
}

/// The payments entered on the order with order ID `reference`, oldest first: how, KSh (a
/// correction negative) and the M-PESA code.
pub fn payments(app: &TestApp, reference: &str) -> Vec<(laundry::domain::Method, i32, Option<String>)> {
    let (_, entries) = money(app, reference);
    entries
        .into_iter()
        .filter(|entry| entry.kind == laundry::domain::EntryKind::Payment)
        .filter_map(|entry| Some((entry.method?, entry.amount, entry.reference)))
        .collect()
}

/// The key of the store-credit link (`?credit=`) in the text written when the order with order ID
/// `reference` was placed; none when its text offers no credit.
pub fn texted_credit_key(app: &TestApp, reference: &str) -> Option<String> {
    use laundry::models::outbox::OutboxMessage;
    let order = mpesa::order(app, reference);
    let rows = app.with_db(|c| OutboxMessage::all(c).unwrap());
    let text = rows
        .iter()
        .filter(|row| row.order_id.as_deref() == Some(order.id.as_str()))
        .find(|row| row.kind == laundry::domain::MessageKind::SmsOrderReceived)
        .and_then(OutboxMessage::sms_text)?;
    let key = text.split("?credit=").nth(1)?;
    Some(key.chars().take_while(char::is_ascii_alphanumeric).collect())
}

/// Uses the phone's store credit on the order with order ID `reference` as the phone's owner
/// does: from the order's page opened from the link texted to the phone (its key posted on).
pub async fn use_texted_credit(app: &TestApp, reference: &str) -> reqwest::Response {
    let key = texted_credit_key(app, reference).expect("the order's text offers the phone's credit");
    let token = order_token(app, reference);
    app.post_form(&format!("/t/{token}/use-credit"), &[("key", &key)]).await
}

/// The token of the page of the order with order ID `reference`.
pub fn order_token(app: &TestApp, reference: &str) -> String {
    mpesa::order(app, reference).link_token.unwrap()
}
