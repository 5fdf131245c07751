//! Order look-up by order ID or by phone number, limited per client, showing no more of the
//! customer than the first name and a masked phone number.
//!
//! A phone number never travels in a URL, where browser history, proxies and the request logs
//! (the request span's `http.target`) would keep it: a phone look-up is a POST, `POST /tracking`
//! from the plain form and `POST /api/tracking` (JSON) from the hydrated page. A look-up by order
//! ID may also be a GET, so that a link to an order's tracking can be shared
//! (`/tracking?by=order&q=K7MX2QPD`, as the confirmation links it). A phone sent in a URL anyway (an
//! old bookmark) is refused before it is looked up, counted or logged.

use super::PublicPage;
use crate::db::DbError;
use crate::domain::schedule::nairobi_day;
use crate::domain::{OrderReference, PhoneNumber};
use crate::error::ApiError;
use crate::models::order::Order;
use crate::models::stop::Stop;
use crate::rate_limit::client_ip;
use crate::state::AppState;
use crate::views::tracking::{
    TrackBy, TrackedOrder, TrackedVisit, TrackingOutcome, TrackingProps, TrackingQueryEcho, TrackingResult,
};
use actix_web::{HttpRequest, HttpResponse, ResponseError, web};
use serde::Deserialize;

/// How many of a phone number's orders a look-up shows, newest first.
const ORDERS_PER_PHONE: i64 = 5;

const LOOKUP_FAILED: &str = "The order look-up failed. Please try again in a moment.";

const PHONE_IN_URL: &str =
    "To keep your number private, please type your phone number in the form and press Track Order.";

/// `by=order|phone` and `q`: from a query string, a plain form or JSON.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct TrackingQuery {
    by: Option<String>,
    q: Option<String>,
}

impl TrackingQuery {
    /// Whether the visitor asked for anything.
    fn is_empty(&self) -> bool {
        self.q.as_deref().is_none_or(|q| q.trim().is_empty())
    }

    /// What to search by; `None` when `by` is missing or unknown.
    fn by(&self) -> Option<TrackBy> {
        match self.by.as_deref() {
            Some("order") => Some(TrackBy::Order),
            Some("phone") => Some(TrackBy::Phone),
            _ => None,
        }
    }

    /// A phone number in a URL is refused, whatever else is wrong with it.
    fn refuse_phone_in_url(&self) -> Result<(), ApiError> {
        match self.by() {
            Some(TrackBy::Phone) if !self.is_empty() => Err(ApiError::BadRequest(PHONE_IN_URL.to_owned())),
            _ => Ok(()),
        }
    }

    /// What the page's form shows again.
    fn echo(&self) -> TrackingQueryEcho {
        let value: String = self.q.as_deref().unwrap_or_default().trim().chars().take(40).collect();
        TrackingQueryEcho { by: self.by().unwrap_or(TrackBy::Phone), value }
    }
}

/// Looks up what the query asks for; the one path of the API and the page.
async fn look_up(state: &AppState, request: &HttpRequest, query: &TrackingQuery) -> Result<TrackingResult, ApiError> {
    state
        .tracking_limit()
        .check(client_ip(state.settings(), request))
        .map_err(|retry_after| ApiError::too_many("look-ups", &state.settings().business, retry_after))?;
    let value = query.q.as_deref().unwrap_or_default().trim().to_owned();
    let wanted = match query.by() {
        Some(TrackBy::Order) => Ok(OrderReference::check(&value).map_err(ApiError::BadRequest)?),
        Some(TrackBy::Phone) => Err(PhoneNumber::parse(&value).map_err(ApiError::BadRequest)?),
        None => {
            return Err(ApiError::BadRequest(
                "Choose to search by order ID (by=order) or phone number (by=phone).".to_owned(),
            ));
        }
    };
    // One trip to the database: the orders, all their lines at once, and each one's history and visit.
    let minutes_per_stop = state.settings().schedule.minutes_per_stop;
    let today = nairobi_day(state.clock().now());
    let found = state
        .db()
        .run(move |c| {
            let orders: Vec<Order> = match &wanted {
                Ok(reference) => Order::find_by_reference(c, reference)?.into_iter().collect(),
                Err(phone) => Order::recent_for_phone(c, phone.as_str(), ORDERS_PER_PHONE)?,
            };
            let mut lines = Order::lines_of(c, &orders)?;
            orders
                .into_iter()
                .map(|order| {
                    let history = Order::history(c, &order.id)?;
                    let lines = lines.remove(&order.id).unwrap_or_default();
                    // No landmark: an order ID or a phone number is all it takes to look an order up here.
                    let visit =
                        TrackedVisit::new(&order, &Stop::visit_of(c, &order.id, today)?, minutes_per_stop, false);
                    Ok(TrackedOrder::new(&order, &lines, &history).with_visit(visit))
                })
                .collect::<Result<Vec<_>, diesel::result::Error>>()
                .map_err(DbError::from)
        })
        .await;
    let orders = found.map_err(|source| ApiError::Storage { message: LOOKUP_FAILED, source })?;
    if orders.is_empty() {
        return Err(ApiError::NotFound(match query.by() {
            Some(TrackBy::Order) => "No order was found with that order ID. Please check it and try again.".to_owned(),
            _ => "No order was found for that phone number. Please check it and try again.".to_owned(),
        }));
    }
    Ok(TrackingResult { orders })
}

/// The API's answer: the orders found, never kept by a cache.
fn answer(result: Result<TrackingResult, ApiError>) -> Result<HttpResponse, ApiError> {
    Ok(HttpResponse::Ok().insert_header(("Cache-Control", "no-store")).json(result?))
}

/// POST /api/tracking with `{"by": "order" | "phone", "q": "…"}`: either look-up, as the tracking
/// page sends it (never a GET, so that a phone number is never in a URL).
pub async fn track_order(
    state: web::Data<AppState>,
    request: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    // The parser's own message could quote what was sent, a phone number: not echoed.
    let query: TrackingQuery = serde_json::from_slice(&body).map_err(|_| {
        ApiError::BadRequest(r#"The body must be JSON like {"by": "phone", "q": "0712 345 678"}."#.to_owned())
    })?;
    answer(look_up(&state, &request, &query).await)
}

/// GET /tracking: the form, and for `?by=order&q=…` the result rendered on the server.
pub async fn show_tracking(
    state: web::Data<AppState>,
    request: HttpRequest,
    query: web::Query<TrackingQuery>,
) -> HttpResponse {
    if query.is_empty() {
        return super::public_page(&state, PublicPage::Tracking).await.respond(&request);
    }
    if let Err(refused) = query.refuse_phone_in_url() {
        // Nothing of the number is shown again, so that the address bar is the only place left.
        let echo = TrackingQueryEcho { by: TrackBy::Phone, value: String::new() };
        return tracking_page(&state, &request, echo, Err(refused)).await;
    }
    tracking_page(&state, &request, query.echo(), look_up(&state, &request, &query).await).await
}

/// POST /tracking: the plain form's look-up (by phone or order ID), answered with the page.
pub async fn submit_tracking_form(state: web::Data<AppState>, request: HttpRequest, body: web::Bytes) -> HttpResponse {
    let query: TrackingQuery = serde_urlencoded::from_bytes(&body).unwrap_or_default();
    tracking_page(&state, &request, query.echo(), look_up(&state, &request, &query).await).await
}

/// The page with a look-up's outcome under its form.
async fn tracking_page(
    state: &AppState,
    request: &HttpRequest,
    echo: TrackingQueryEcho,
    outcome: Result<TrackingResult, ApiError>,
) -> HttpResponse {
    let (result, refused) = match outcome {
        Ok(found) => (TrackingOutcome::Found(found), None),
        Err(error) => {
            if let ApiError::Storage { source, .. } = &error {
                tracing::error!(error = %source, "order look-up failed");
            }
            let status = error.status_code().as_u16();
            (TrackingOutcome::Refused { error: error.to_string(), status }, Some(error))
        }
    };
    let pages = state.pages();
    let own = TrackingProps { query: Some(echo), result: Some(result) };
    let (page, _) = pages.render("/tracking", &own).await;
    // A result holds an order's details: no cache may keep it.
    let mut response = page.respond_private(request);
    if let Some(error) = refused {
        error.set_retry_after(&mut response);
    }
    response
}
