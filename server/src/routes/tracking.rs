//! Order look-up by reference or by phone number: `GET /api/tracking` for the hydrated page and
//! `GET /tracking?by=…&q=…` for a plain form. Limited per client, and showing no more of the
//! customer than the first name and a masked phone number.

use crate::db::DbError;
use crate::domain::{OrderReference, PhoneNumber};
use crate::error::ApiError;
use crate::models::order::Order;
use crate::rate_limit::client_ip;
use crate::state::AppState;
use crate::views::pages::Page;
use crate::views::tracking::{
    TrackBy, TrackedOrder, TrackingOutcome, TrackingProps, TrackingQueryEcho, TrackingResult,
};
use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;

/// How many of a phone number's orders a look-up shows, newest first.
const ORDERS_PER_PHONE: i64 = 5;
/// `by=order|phone&q=…`.
#[derive(Debug, Clone, Deserialize)]
pub struct TrackingQuery {
    by: Option<String>,
    q: Option<String>,
}

impl TrackingQuery {
    /// Whether the visitor asked for anything.
    pub fn is_empty(&self) -> bool {
        self.q.as_deref().is_none_or(|q| q.trim().is_empty())
    }

    fn echo(&self) -> TrackingQueryEcho {
        let by = if self.by.as_deref() == Some("order") { TrackBy::Order } else { TrackBy::Phone };
        let value: String = self.q.as_deref().unwrap_or_default().trim().chars().take(40).collect();
        TrackingQueryEcho { by, value }
    }
}

/// Looks up what the query asks for; the one path of the API and the page.
async fn look_up(state: &AppState, request: &HttpRequest, query: &TrackingQuery) -> Result<TrackingResult, ApiError> {
    state
        .tracking_limit()
        .check(client_ip(state.settings(), request))
        .map_err(|retry_after| ApiError::too_many("look-ups", &state.settings().business, retry_after))?;
    let value = query.q.as_deref().unwrap_or_default().trim().to_owned();
    let found = match query.by.as_deref() {
        Some("order") => {
            let reference = OrderReference::parse(&value).ok_or_else(|| {
                ApiError::BadRequest("An order ID has 8 letters and digits, like K7MX2QPD.".to_owned())
            })?;
            state
                .db()
                .run(move |c| Ok::<_, DbError>(Order::find_by_reference(c, &reference)?.into_iter().collect()))
                .await
        }
        Some("phone") => {
            let phone = PhoneNumber::parse(&value).map_err(ApiError::BadRequest)?;
            state
                .db()
                .run(move |c| Ok::<_, DbError>(Order::recent_for_phone(c, phone.as_str(), ORDERS_PER_PHONE)?))
                .await
        }
        _ => {
            return Err(ApiError::BadRequest(
                "Choose to search by order ID (by=order) or phone number (by=phone).".to_owned(),
            ));
        }
    };
    let orders: Vec<Order> = found.map_err(|source| ApiError::Storage { message: LOOKUP_FAILED, source })?;
    if orders.is_empty() {
        return Err(ApiError::NotFound(match query.by.as_deref() {
            Some("order") => "No order was found with that order ID. Please check it and try again.".to_owned(),
            _ => "No order was found for that phone number. Please check it and try again.".to_owned(),
        }));
    }
    let ids: Vec<String> = orders.iter().map(|order| order.id.clone()).collect();
    let histories = state
        .db()
        .run(move |c| ids.iter().map(|id| Order::history(c, id)).collect::<Result<Vec<_>, _>>().map_err(DbError::from))
        .await
        .map_err(|source| ApiError::Storage { message: LOOKUP_FAILED, source })?;
    let orders = orders.iter().zip(&histories).map(|(order, history)| TrackedOrder::new(order, history)).collect();
    Ok(TrackingResult { orders })
}

const LOOKUP_FAILED: &str = "The order look-up failed. Please try again in a moment.";

/// GET /api/tracking?by=order|phone&q=…
pub async fn track_order(
    state: web::Data<AppState>,
    request: HttpRequest,
    query: web::Query<TrackingQuery>,
) -> Result<HttpResponse, ApiError> {
    Ok(HttpResponse::Ok().insert_header(("Cache-Control", "no-store")).json(look_up(&state, &request, &query).await?))
}

/// GET /tracking: the form, and with a query the result rendered on the server.
pub async fn show_tracking(
    state: web::Data<AppState>,
    request: HttpRequest,
    query: web::Query<TrackingQuery>,
) -> HttpResponse {
    if query.is_empty() {
        return super::public_page(&state, Page::Tracking, "/tracking").await.respond(&request);
    }
    let (result, refused) = match look_up(&state, &request, &query).await {
        Ok(found) => (TrackingOutcome::Found(found), None),
        Err(error) => {
            if let ApiError::Storage { source, .. } = &error {
                tracing::error!(error = %source, "order look-up failed");
            }
            let status = actix_web::ResponseError::status_code(&error).as_u16();
            (TrackingOutcome::Refused { error: error.to_string(), status }, Some(error))
        }
    };
    let pages = state.pages();
    let props = pages.props("/tracking", &TrackingProps { query: Some(query.echo()), result: Some(result) });
    let (page, _) = pages.render(Page::Tracking, props).await;
    // A result holds an order's details: no cache may keep it.
    let mut response = page.respond_private(&request);
    if let Some(error) = refused {
        error.set_retry_after(&mut response);
    }
    response
}
