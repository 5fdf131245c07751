//! The staff side: the login, and behind [`crate::auth::require_staff`] the dashboard page under
//! `/admin` and its JSON API under `/api/admin`.
//!
//! Every guarded route is listed once, in [`page_routes`] or [`api_routes`]; the scopes register
//! exactly those lists, and the guard test walks them.

use crate::auth::{
    self, CurrentStaff, FAILURE_WINDOW, FAILURES_PER_ACCOUNT, FAILURES_PER_CLIENT, LOGIN_CSRF_COOKIE, SESSION_COOKIE,
};
use crate::db::DbError;
use crate::domain::OrderStatus;
use crate::error::ApiError;
use crate::mail::{EmailKind, MailSettings};
use crate::models::contact_message::ContactMessage;
use crate::models::order::{Order, OrderFilter, Page, Payment, PaymentRecorded};
use crate::models::outbox::{OutboxEmail, OutboxSummary};
use crate::models::staff::{LoginFailures, Staff, StaffSession};
use crate::models::stats::Stats;
use crate::models::{now_utc, rfc3339};
use crate::rate_limit::client_ip;
use crate::routes::orders::order_json;
use crate::state::AppState;
use actix_web::http::{Method, StatusCode, header};
use actix_web::{FromRequest, Handler, HttpRequest, HttpResponse, Responder, Route, web};
use serde::Deserialize;
use serde_json::{Value, json};

/// Orders or messages per page of the dashboard. The first page is rendered on the server, so it is
/// kept small enough to render in a few milliseconds (DESIGN.md: dynamic SSR budget).
pub const PAGE_SIZE: i64 = 20;
/// The highest page number asked for that is taken seriously.
const MAX_PAGE: i64 = 10_000;
/// The message of a failed query on the dashboard.
const LOAD_FAILED: &str = "The dashboard data could not be loaded. Please try again.";

/// One guarded route: its path inside the scope, its method, and the route itself.
pub struct AdminRoute {
    /// Path inside the scope (`""` is the scope's own path).
    pub path: &'static str,
    /// The HTTP method.
    pub method: Method,
    route: Route,
}

fn at<F, Args>(path: &'static str, method: Method, handler: F) -> AdminRoute
where
    F: Handler<Args>,
    Args: FromRequest + 'static,
    F::Output: Responder + 'static,
{
    AdminRoute { path, method: method.clone(), route: web::method(method).to(handler) }
}

/// Every route of the `/admin` scope (pages and forms).
pub fn page_routes() -> Vec<AdminRoute> {
    vec![at("", Method::GET, show_dashboard), at("/logout", Method::POST, logout)]
}

/// Every route of the `/api/admin` scope.
pub fn api_routes() -> Vec<AdminRoute> {
    vec![
        at("/stats", Method::GET, get_stats),
        at("/orders", Method::GET, list_orders),
        at("/orders/{id}/status", Method::POST, change_order_status),
        at("/orders/{id}/payment", Method::POST, record_payment),
        at("/messages", Method::GET, list_messages),
        at("/messages/{id}/status", Method::POST, change_message_status),
        at("/mail", Method::GET, get_mail),
        at("/mail/{id}/resend", Method::POST, resend_email),
    ]
}

/// Registers `routes` in the scope being configured.
pub fn register(routes: Vec<AdminRoute>) -> impl FnOnce(&mut web::ServiceConfig) {
    move |config| {
        for AdminRoute { path, route, .. } in routes {
            config.route(path, route);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Login and logout

/// The login form's fields.
#[derive(Debug, Default, Deserialize)]
pub struct LoginForm {
    email: Option<String>,
    password: Option<String>,
    csrf: Option<String>,
    next: Option<String>,
}

/// `?next=…` of the login page.
#[derive(Debug, Deserialize)]
pub struct NextQuery {
    next: Option<String>,
}

/// GET /admin/login: the form, or the dashboard for someone already signed in.
pub async fn show_login(
    state: web::Data<AppState>,
    request: HttpRequest,
    query: web::Query<NextQuery>,
) -> HttpResponse {
    let next = auth::safe_next(query.next.as_deref());
    if let Ok(Some(_)) = auth::live_session(&state, &request).await {
        return see_other(&next);
    }
    login_page(&state, &request, &next, "", None, StatusCode::OK).await
}

/// POST /admin/login: checks the form's CSRF cookie, the limits, then the password; on success a
/// new session (a new id, whatever cookie came in) and 303 to `next`.
pub async fn login(state: web::Data<AppState>, request: HttpRequest, body: web::Bytes) -> HttpResponse {
    let form: LoginForm = serde_urlencoded::from_bytes(&body).unwrap_or_default();
    let next = auth::safe_next(form.next.as_deref());
    let email = form.email.as_deref().unwrap_or_default().trim().to_lowercase();
    let password = form.password.unwrap_or_default();
    let again = |message: &'static str, status: StatusCode| {
        let (state, request, next, email) = (state.clone(), request.clone(), next.clone(), email.clone());
        async move { login_page(&state, &request, &next, &email, Some(message.to_owned()), status).await }
    };

    let cookie_token = request.cookie(LOGIN_CSRF_COOKIE).map(|c| c.value().to_owned());
    let form_token = form.csrf.unwrap_or_default();
    if !cookie_token.is_some_and(|token| auth::same_secret(&token, &form_token)) {
        return again("The sign-in form expired. Please sign in again.", StatusCode::FORBIDDEN).await;
    }
    if email.is_empty() || password.is_empty() || email.len() > 254 || password.len() > 1024 {
        return again("Please enter your e-mail and password.", StatusCode::UNPROCESSABLE_ENTITY).await;
    }

    let client = client_ip(state.settings(), &request).to_string();
    let now = now_utc();
    let (lookup_email, lookup_client) = (email.clone(), client.clone());
    let checked = state
        .db()
        .run(move |connection| {
            let since = now - FAILURE_WINDOW;
            let attempt = LoginFailures::record(connection, &lookup_email, &lookup_client, now, since)?;
            let failures = LoginFailures::recent(connection, &lookup_email, &lookup_client, since)?;
            let account = Staff::find_by_email(connection, &lookup_email)?;
            Ok::<_, DbError>((attempt, failures, account))
        })
        .await;
    let (attempt, failures, account) = match checked {
        Ok(checked) => checked,
        Err(error) => {
            tracing::error!(%error, "the login could not be checked");
            return again("Signing in failed. Please try again.", StatusCode::SERVICE_UNAVAILABLE).await;
        }
    };
    // `times` includes this attempt: over `limit`, it is refused, and the limit lifts when the
    // oldest failure that makes it too many leaves the window.
    let limited = |times: &[time::PrimitiveDateTime], limit: usize| {
        (times.len() > limit).then(|| {
            let lifts = times[times.len() - 1 - limit] + FAILURE_WINDOW;
            (lifts - now).whole_minutes().max(0) + 1
        })
    };
    let refused = match (
        limited(&failures.for_email, FAILURES_PER_ACCOUNT),
        limited(&failures.for_client, FAILURES_PER_CLIENT),
    ) {
        (Some(minutes), _) => Some(("this account", minutes)),
        (None, Some(minutes)) => Some(("your connection", minutes)),
        (None, None) => None,
    };
    if let Some((from, minutes)) = refused {
        tracing::warn!(%client, from, "login refused: too many failures");
        // Refused before the password was looked at: this attempt does not count.
        if let Err(error) = state.db().run(move |c| LoginFailures::forget(c, attempt).map_err(DbError::from)).await {
            tracing::error!(%error, "a refused login attempt could not be taken back");
        }
        return too_many(&state, &request, &next, &email, from, minutes).await;
    }

    // Each check takes about 19 MiB and a core's worth of work: at most one per core at a time.
    let Ok(_permit) = state.password_checks().acquire().await else {
        return again("Signing in failed. Please try again.", StatusCode::SERVICE_UNAVAILABLE).await;
    };
    let verified = web::block(move || {
        let ok = auth::check_login(account.as_ref(), &password);
        account.filter(|account| ok && account.disabled_at.is_none())
    })
    .await
    .ok()
    .flatten();
    let Some(account) = verified else {
        // The attempt recorded above stays as a failure.
        tracing::info!(%client, "login failed");
        return again("The e-mail or password is not right.", StatusCode::UNAUTHORIZED).await;
    };

    let (token, session) = auth::new_session(&account, now);
    let previous = request.cookie(SESSION_COOKIE).map(|c| auth::token_hash(c.value()));
    let started = state
        .db()
        .run(move |connection| {
            if let Some(previous) = previous {
                StaffSession::end(connection, &previous)?;
            }
            StaffSession::start(connection, &session)?;
            LoginFailures::clear(connection, &account.email, now - FAILURE_WINDOW)?;
            StaffSession::purge_stale(connection, now - auth::IDLE_TIMEOUT, now)?;
            Ok::<_, DbError>(account)
        })
        .await;
    match started {
        Ok(account) => {
            tracing::info!(staff = %account.email, "staff signed in");
            let mut response = see_other(&next);
            let cookie = auth::auth_cookie(&state, &request, SESSION_COOKIE, token, "/", auth::ABSOLUTE_TIMEOUT);
            let expired_form_cookie = auth::auth_cookie(
                &state,
                &request,
                LOGIN_CSRF_COOKIE,
                String::new(),
                "/admin/login",
                time::Duration::ZERO,
            );
            let _ = response.add_cookie(&cookie);
            let _ = response.add_cookie(&expired_form_cookie);
            response
        }
        Err(error) => {
            tracing::error!(%error, "the session could not be stored");
            again("Signing in failed. Please try again.", StatusCode::SERVICE_UNAVAILABLE).await
        }
    }
}

async fn too_many(
    state: &AppState,
    request: &HttpRequest,
    next: &str,
    email: &str,
    from: &str,
    minutes: i64,
) -> HttpResponse {
    let message = format!(
        "Too many failed sign-ins for {from}. Please wait {minutes} minute{} and try again.",
        if minutes == 1 { "" } else { "s" }
    );
    let mut response = login_page(state, request, next, email, Some(message), StatusCode::TOO_MANY_REQUESTS).await;
    if let Ok(value) = header::HeaderValue::from_str(&(minutes * 60).to_string()) {
        response.headers_mut().insert(header::RETRY_AFTER, value);
    }
    response
}

/// The login page with a fresh form token (also set as a cookie: double submit).
async fn login_page(
    state: &AppState,
    request: &HttpRequest,
    next: &str,
    email: &str,
    error: Option<String>,
    status: StatusCode,
) -> HttpResponse {
    let token = auth::random_token();
    let props = state.pages().props(
        "/admin/login",
        json!({ "csrf": token, "next": next, "email": email, "error": error, "status": status.as_u16() }),
    );
    let (page, _) = state.pages().render("login", props).await;
    let mut response = page.respond_private(request);
    let cookie = auth::auth_cookie(state, request, LOGIN_CSRF_COOKIE, token, "/admin/login", time::Duration::hours(1));
    let _ = response.add_cookie(&cookie);
    response
}

/// POST /admin/logout: ends the session on the server and clears the cookie.
pub async fn logout(state: web::Data<AppState>, request: HttpRequest, staff: CurrentStaff) -> HttpResponse {
    let hash = staff.session_hash.clone();
    if let Err(error) = state.db().run(move |c| StaffSession::end(c, &hash).map_err(DbError::from)).await {
        tracing::error!(%error, "ending a session failed");
        return HttpResponse::ServiceUnavailable().body("Signing out failed. Please try again.");
    }
    tracing::info!(staff = %staff.email, "staff signed out");
    let mut response = see_other("/admin/login");
    let cookie = auth::auth_cookie(&state, &request, SESSION_COOKIE, String::new(), "/", time::Duration::ZERO);
    let _ = response.add_cookie(&cookie);
    response
}

fn see_other(location: &str) -> HttpResponse {
    HttpResponse::SeeOther()
        .insert_header((header::LOCATION, location))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .finish()
}

// ---------------------------------------------------------------------------------------------
// The dashboard

/// The dashboard's query: which tab, and that tab's filter and page (`status`, `q` for orders,
/// `page`); the other tab shows its first page.
#[derive(Debug, Default, Deserialize)]
pub struct DashboardQuery {
    tab: Option<String>,
    status: Option<String>,
    q: Option<String>,
    page: Option<String>,
}

/// `?status=&q=&page=` of the orders list, checked.
#[derive(Debug, Clone)]
struct OrdersQuery {
    filter: OrderFilter,
    page: i64,
}

fn orders_query(status: Option<&str>, q: Option<&str>, page: Option<&str>) -> Result<OrdersQuery, ApiError> {
    let status = match status.map(str::trim).filter(|s| !s.is_empty() && *s != "all") {
        None => None,
        Some(value) => Some(OrderStatus::parse(value).ok_or_else(|| {
            ApiError::BadRequest(format!(
                "Unknown status '{value}': use one of {}.",
                OrderStatus::ALL.map(OrderStatus::as_str).join(", ")
            ))
        })?),
    };
    let search = q.map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned);
    if search.as_ref().is_some_and(|s| s.chars().count() > 100) {
        return Err(ApiError::BadRequest("The search is too long: at most 100 characters.".to_owned()));
    }
    Ok(OrdersQuery { filter: OrderFilter { status, search }, page: page_number(page)? })
}

fn message_status(value: Option<&str>) -> Result<Option<&'static str>, ApiError> {
    match value.map(str::trim).filter(|s| !s.is_empty() && *s != "all") {
        None => Ok(None),
        Some("new") => Ok(Some("new")),
        Some("handled") => Ok(Some("handled")),
        Some(other) => Err(ApiError::BadRequest(format!("Unknown message status '{other}': use new or handled."))),
    }
}

fn page_number(value: Option<&str>) -> Result<i64, ApiError> {
    match value.map(str::trim).filter(|s| !s.is_empty()) {
        None => Ok(1),
        Some(text) => match text.parse::<i64>() {
            Ok(page) if (1..=MAX_PAGE).contains(&page) => Ok(page),
            _ => Err(ApiError::BadRequest(format!("The page must be a whole number from 1 to {MAX_PAGE}."))),
        },
    }
}

/// An order as the dashboard shows it: the API's order plus its payment.
pub fn admin_order_json(order: &Order) -> Value {
    let mut value = order_json(order);
    value["paymentStatus"] = json!(order.payment_status);
    value["paidVia"] = json!(order.paid_via);
    value["mpesaCode"] = json!(order.mpesa_code);
    value["paidAt"] = json!(order.paid_at.map(rfc3339));
    value
}

fn message_json(message: &ContactMessage) -> Value {
    json!({
        "id": message.id,
        "name": message.name,
        "email": message.email,
        "phone": message.phone,
        "subject": message.subject,
        "message": message.message,
        "status": message.status,
        "createdAt": rfc3339(message.created_at),
        "handledAt": message.handled_at.map(rfc3339),
        "handledBy": message.handled_by,
    })
}

fn orders_page_json(page: &Page<Order>, query: &OrdersQuery) -> Value {
    json!({
        "items": page.items.iter().map(admin_order_json).collect::<Vec<_>>(),
        "total": page.total,
        "page": query.page,
        "pageSize": PAGE_SIZE,
        "filter": {
            "status": query.filter.status.map(OrderStatus::as_str),
            "q": query.filter.search.clone().unwrap_or_default(),
        },
    })
}

fn messages_page_json(page: &Page<ContactMessage>, status: Option<&str>, number: i64) -> Value {
    json!({
        "items": page.items.iter().map(message_json).collect::<Vec<_>>(),
        "total": page.total,
        "page": number,
        "pageSize": PAGE_SIZE,
        "filter": { "status": status },
    })
}

fn load_failed(source: DbError) -> ApiError {
    ApiError::Storage { message: LOAD_FAILED, source }
}

/// GET /admin: the dashboard's first page, rendered on the server with its data.
pub async fn show_dashboard(
    state: web::Data<AppState>,
    request: HttpRequest,
    staff: CurrentStaff,
    query: web::Query<DashboardQuery>,
) -> HttpResponse {
    // A bad filter in the address shows the unfiltered list rather than an error page.
    let tab = if query.tab.as_deref() == Some("messages") { "messages" } else { "orders" };
    let unfiltered = OrdersQuery { filter: OrderFilter::default(), page: 1 };
    let (orders, messages_status, messages_page) = if tab == "orders" {
        let orders = orders_query(query.status.as_deref(), query.q.as_deref(), query.page.as_deref());
        (orders.unwrap_or(unfiltered), None, 1)
    } else {
        let status = message_status(query.status.as_deref()).unwrap_or(None);
        (unfiltered, status, page_number(query.page.as_deref()).unwrap_or(1))
    };
    let filter = orders.clone();
    let loaded = state
        .db()
        .run(move |connection| {
            let stats = Stats::load(connection)?;
            let orders = Order::page(connection, &filter.filter, filter.page, PAGE_SIZE)?;
            let messages = ContactMessage::page(connection, messages_status, messages_page, PAGE_SIZE)?;
            let mail = MailReport::load(connection)?;
            Ok::<_, DbError>((stats, orders, messages, mail))
        })
        .await;
    let (stats, orders_page, messages, mail) = match loaded {
        Ok(loaded) => loaded,
        Err(error) => {
            tracing::error!(%error, "the dashboard could not be loaded");
            return HttpResponse::ServiceUnavailable()
                .insert_header((header::RETRY_AFTER, "5"))
                .content_type("text/plain; charset=utf-8")
                .body(LOAD_FAILED);
        }
    };
    let props = state.pages().props(
        "/admin",
        json!({
            "staff": { "email": staff.email },
            "csrf": staff.csrf_token,
            "tab": tab,
            "stats": stats,
            "orders": orders_page_json(&orders_page, &orders),
            "messages": messages_page_json(&messages, messages_status, messages_page),
            "statuses": OrderStatus::ALL.map(OrderStatus::as_str),
            "mail": mail.to_json(&state.settings().mail),
        }),
    );
    let (page, _) = state.pages().render("admin", props).await;
    page.respond_private(&request)
}

fn private_json(body: Value) -> HttpResponse {
    HttpResponse::Ok().insert_header((header::CACHE_CONTROL, "no-store")).json(body)
}

async fn stats(state: &AppState) -> Result<Stats, ApiError> {
    state.db().run(|c| Stats::load(c).map_err(DbError::from)).await.map_err(load_failed)
}

/// GET /api/admin/stats
pub async fn get_stats(state: web::Data<AppState>, _staff: CurrentStaff) -> Result<HttpResponse, ApiError> {
    Ok(private_json(json!(stats(&state).await?)))
}

/// `?status=&q=&page=` of GET /api/admin/orders.
#[derive(Debug, Deserialize)]
pub struct ListQuery {
    status: Option<String>,
    q: Option<String>,
    page: Option<String>,
}

/// GET /api/admin/orders?status=&q=&page=
pub async fn list_orders(
    state: web::Data<AppState>,
    _staff: CurrentStaff,
    query: web::Query<ListQuery>,
) -> Result<HttpResponse, ApiError> {
    let query = orders_query(query.status.as_deref(), query.q.as_deref(), query.page.as_deref())?;
    let filter = query.clone();
    let page = state
        .db()
        .run(move |c| Order::page(c, &filter.filter, filter.page, PAGE_SIZE).map_err(DbError::from))
        .await
        .map_err(load_failed)?;
    Ok(private_json(orders_page_json(&page, &query)))
}

/// GET /api/admin/messages?status=&page=
pub async fn list_messages(
    state: web::Data<AppState>,
    _staff: CurrentStaff,
    query: web::Query<ListQuery>,
) -> Result<HttpResponse, ApiError> {
    let status = message_status(query.status.as_deref())?;
    let number = page_number(query.page.as_deref())?;
    let page = state
        .db()
        .run(move |c| ContactMessage::page(c, status, number, PAGE_SIZE).map_err(DbError::from))
        .await
        .map_err(load_failed)?;
    Ok(private_json(messages_page_json(&page, status, number)))
}

fn json_body<T: serde::de::DeserializeOwned>(body: &[u8], shape: &str) -> Result<T, ApiError> {
    serde_json::from_slice(body).map_err(|error| ApiError::BadRequest(format!("The body must be {shape} ({error}).")))
}

/// `{"status": …}`
#[derive(Debug, Deserialize)]
struct StatusChange {
    status: String,
}

/// POST /api/admin/orders/{id}/status `{"status": "ready"}`: any status to any other, stored with
/// its time and the staff member in the history.
pub async fn change_order_status(
    state: web::Data<AppState>,
    staff: CurrentStaff,
    id: web::Path<String>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let change: StatusChange = json_body(&body, r#"a JSON object like {"status": "ready"}"#)?;
    let status = OrderStatus::parse(change.status.trim()).ok_or_else(|| {
        ApiError::BadRequest(format!(
            "Unknown status '{}': use one of {}.",
            change.status,
            OrderStatus::ALL.map(OrderStatus::as_str).join(", ")
        ))
    })?;
    let (id, by) = (id.into_inner(), staff.email.clone());
    let notify = state.settings().mail.status_template.is_some();
    let updated = state
        .db()
        .run(move |connection| {
            let order = Order::set_status(connection, &id, status, &by, notify, now_utc())?;
            let stats = Stats::load(connection)?;
            Ok::<_, DbError>(order.map(|order| (order, stats)))
        })
        .await
        .map_err(|source| ApiError::Storage { message: "The status could not be saved. Please try again.", source })?;
    let (order, stats) = updated.ok_or_else(|| ApiError::NotFound("There is no such order.".to_owned()))?;
    tracing::info!(order_id = %order.id, status = %order.status, staff = %staff.email, "order status changed");
    state.mail_wake().notify_one();
    Ok(private_json(json!({ "order": admin_order_json(&order), "stats": stats })))
}

/// `{"paymentStatus": "paid"|"unpaid", "paidVia": "mpesa"|"cash", "mpesaCode": …}`
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct PaymentInput {
    payment_status: String,
    paid_via: Option<String>,
    mpesa_code: Option<String>,
}

impl PaymentInput {
    fn validate(self) -> Result<Payment, ApiError> {
        let mut fields = crate::domain::FieldErrors::default();
        let payment = match (self.payment_status.as_str(), self.paid_via.as_deref()) {
            ("unpaid", _) => Some(Payment::Unpaid),
            ("paid", Some("cash")) => Some(Payment::Cash),
            ("paid", Some("mpesa")) => {
                let code: String = self.mpesa_code.unwrap_or_default().trim().to_uppercase();
                if code.len() == 10 && code.bytes().all(|b| b.is_ascii_alphanumeric()) {
                    Some(Payment::Mpesa(code))
                } else {
                    fields
                        .add("mpesaCode", "Enter the M-PESA transaction code: 10 letters and digits, like QJK3L5X9TZ.");
                    None
                }
            }
            ("paid", _) => {
                fields.add("paidVia", "Choose how it was paid: mpesa or cash.");
                None
            }
            _ => {
                fields.add("paymentStatus", "Choose paid or unpaid.");
                None
            }
        };
        payment.ok_or_else(|| ApiError::invalid(fields))
    }
}

/// POST /api/admin/orders/{id}/payment: records the payment apart from the work status.
pub async fn record_payment(
    state: web::Data<AppState>,
    staff: CurrentStaff,
    id: web::Path<String>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let input: PaymentInput = json_body(
        &body,
        r#"a JSON object like {"paymentStatus": "paid", "paidVia": "mpesa", "mpesaCode": "QJK3L5X9TZ"}"#,
    )?;
    let payment = input.validate()?;
    let (id, by) = (id.into_inner(), staff.email.clone());
    let updated = state
        .db()
        .run(move |connection| {
            let recorded = Order::record_payment(connection, &id, &payment, &by, now_utc())?;
            let stats = Stats::load(connection)?;
            Ok::<_, DbError>((recorded, stats))
        })
        .await
        .map_err(|source| ApiError::Storage { message: "The payment could not be saved. Please try again.", source })?;
    let (order, stats) = match updated {
        (PaymentRecorded::Recorded(order), stats) => (*order, stats),
        (PaymentRecorded::NoSuchOrder, _) => return Err(ApiError::NotFound("There is no such order.".to_owned())),
        (PaymentRecorded::CodeUsedBy(reference), _) => {
            let mut fields = crate::domain::FieldErrors::default();
            fields.add(
                "mpesaCode",
                format!("This M-PESA code is already recorded for order {reference}. Check the code in the customer's M-PESA message."),
            );
            return Err(ApiError::invalid(fields));
        }
    };
    tracing::info!(order_id = %order.id, payment = %order.payment_status, staff = %staff.email, "payment recorded");
    Ok(private_json(json!({ "order": admin_order_json(&order), "stats": stats })))
}

/// POST /api/admin/messages/{id}/status `{"status": "handled"|"new"}`
pub async fn change_message_status(
    state: web::Data<AppState>,
    staff: CurrentStaff,
    id: web::Path<String>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let change: StatusChange = json_body(&body, r#"a JSON object like {"status": "handled"}"#)?;
    let handled = match change.status.trim() {
        "handled" => true,
        "new" => false,
        other => return Err(ApiError::BadRequest(format!("Unknown message status '{other}': use new or handled."))),
    };
    let (id, by) = (id.into_inner(), staff.email.clone());
    let updated = state
        .db()
        .run(move |connection| {
            let message = ContactMessage::set_handled(connection, &id, handled, &by, now_utc())?;
            let stats = Stats::load(connection)?;
            Ok::<_, DbError>(message.map(|message| (message, stats)))
        })
        .await
        .map_err(|source| ApiError::Storage {
            message: "The message could not be updated. Please try again.",
            source,
        })?;
    let (message, stats) = updated.ok_or_else(|| ApiError::NotFound("There is no such message.".to_owned()))?;
    Ok(private_json(json!({ "message": message_json(&message), "stats": stats })))
}

/// What staff see of the e-mail outbox: counts, the last error, the e-mails that need a look.
struct MailReport {
    summary: OutboxSummary,
    problems: Vec<OutboxEmail>,
}

/// E-mails listed as needing a look.
const MAIL_PROBLEMS_SHOWN: i64 = 20;

impl MailReport {
    fn load(connection: &mut crate::db::DbConnection) -> diesel::QueryResult<MailReport> {
        Ok(MailReport {
            summary: OutboxEmail::summary(connection)?,
            problems: OutboxEmail::problems(connection, MAIL_PROBLEMS_SHOWN)?,
        })
    }

    fn to_json(&self, settings: &MailSettings) -> Value {
        json!({
            "configured": settings.is_configured(),
            "missing": settings.missing(),
            "waiting": self.summary.waiting,
            "failed": self.summary.failed,
            "blocked": self.summary.blocked,
            "sent": self.summary.sent,
            "lastError": self.summary.last_error.as_ref().map(|(error, _)| error),
            "lastErrorAt": self.summary.last_error.as_ref().map(|(_, at)| rfc3339(*at)),
            "problems": self.problems.iter().map(outbox_email_json).collect::<Vec<_>>(),
        })
    }
}

/// One outbox e-mail for staff: what it is, to whom, and how it went (never its parameters).
fn outbox_email_json(email: &OutboxEmail) -> Value {
    let kind = EmailKind::parse(&email.kind);
    json!({
        "id": email.id,
        "kind": email.kind,
        "label": kind.map_or_else(|| email.kind.clone(), |kind| kind.label().to_owned()),
        "to": if kind.is_some_and(EmailKind::to_staff) { "staff" } else { email.to_email.as_deref().unwrap_or("") },
        "orderId": email.order_id,
        "status": email.status,
        "attempts": email.attempts,
        "lastError": email.last_error,
        "createdAt": rfc3339(email.created_at),
        "lastAttemptAt": email.last_attempt_at.map(rfc3339),
        "nextAttemptAt": rfc3339(email.next_attempt_at),
    })
}

/// GET /api/admin/mail: the outbox's counts, last error and the e-mails that need a look.
pub async fn get_mail(state: web::Data<AppState>, _staff: CurrentStaff) -> Result<HttpResponse, ApiError> {
    let report = state.db().run(|c| MailReport::load(c).map_err(DbError::from)).await.map_err(load_failed)?;
    Ok(private_json(report.to_json(&state.settings().mail)))
}

/// POST /api/admin/mail/{id}/resend: a failed or blocked e-mail goes back in the queue, due now.
pub async fn resend_email(
    state: web::Data<AppState>,
    staff: CurrentStaff,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    let resent = state
        .db()
        .run(move |connection| {
            let email = OutboxEmail::resend(connection, &id, now_utc())?;
            Ok::<_, DbError>(email.map(|email| (email, MailReport::load(connection))))
        })
        .await
        .map_err(|source| ApiError::Storage {
            message: "The e-mail could not be queued again. Please try again.",
            source,
        })?;
    let (email, report) = resent.ok_or_else(|| {
        ApiError::NotFound("There is no such e-mail, it was sent already, or it is being sent right now.".to_owned())
    })?;
    let report = report.map_err(|e| load_failed(DbError::from(e)))?;
    tracing::info!(email_id = %email.id, staff = %staff.email, "e-mail queued again by staff");
    state.mail_wake().notify_one();
    Ok(private_json(json!({ "email": outbox_email_json(&email), "mail": report.to_json(&state.settings().mail) })))
}
