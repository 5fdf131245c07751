//! Placing an order: the form (`GET /order`, with `?add=` an item already in it),
//! `POST /api/orders` (JSON, for the hydrated form) and `POST /order` (a plain HTML form, for
//! browsers without JavaScript), and the confirmation page that follows.

use super::PublicPage;
use super::placing::{self, Placer, SAVE_FAILED, idempotency_key};
use super::same_site::{cross_site_form, from_another_site, json_from_this_site};
use crate::auth::auth_cookie;
use crate::catalogue;
use crate::clock::stored;
use crate::db::DbError;
use crate::domain::{
    FieldErrors, Loose, OrderInput, OrderReference, PIECE_FIELD, PaymentMethod, PhoneNumber, StopKind, StopState,
    parse_rush,
};
use crate::error::ApiError;
use crate::lifecycle::place::Placed;
use crate::models::ledger::Entry;
use crate::models::mpesa::MpesaPrompt;
use crate::models::order::{Order, OrderLine};
use crate::models::stop::Stop;
use crate::rate_limit::client_ip;
use crate::state::AppState;
use crate::views::orders::{OrderLineView, OrderView};
use crate::views::pages::{CatalogueProps, ConfirmationProps, ConfirmedOrder, FormState, OrderPageProps};
use crate::views::payment::CustomerPayment;
use actix_web::cookie::Cookie;
use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;
use time::Duration;

/// Above the form sent back when it named items that are not on the price list.
const UNKNOWN_ITEMS: &str = "Some items could not be read. Please choose them again from Items by the piece.";

/// The cookie by which the browser that placed an order is shown the link to the order's own page
/// on the confirmation: anyone may look a confirmation up by its order ID, which is no secret
/// (staff read it out, e-mails carry it), while the order's page lets its holder change the order.
const PLACED_COOKIE: &str = "laundry_placed";

/// The newest orders' links one browser keeps.
const PLACED_KEPT: usize = 5;

/// The customer's order, by the one path every order form takes.
async fn place(
    state: &AppState,
    request: &HttpRequest,
    input: OrderInput,
    key: Option<String>,
) -> Result<(Placed, Vec<OrderLine>), ApiError> {
    placing::place(state, Placer::Customer(request), input, key).await
}

/// POST /api/orders: 201 with the stored order; the same `Idempotency-Key` and body again gives
/// the same order (`Idempotent-Replayed: true`), a different body 409. Only JSON declared as
/// `application/json`, and not from another site (403, 415).
pub async fn create_order(
    state: web::Data<AppState>,
    request: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    json_from_this_site(&state, &request)?;
    let input: OrderInput = serde_json::from_slice(&body).map_err(|error| {
        ApiError::BadRequest(format!("The body must be a JSON object with the order's fields ({error})."))
    })?;
    let key = placing::key_header(&request)?;
    let (placed, lines) = place(&state, &request, input, key).await?;
    let replayed = matches!(placed, Placed::Replayed(_));
    let order = placed.order();
    let mut response = HttpResponse::Created();
    if let Some(cookie) = placed_cookie(&state, &request, order) {
        response.cookie(cookie);
    }
    Ok(response
        .insert_header((header::LOCATION, format!("/confirmation?ref={}", order.reference)))
        .insert_header(("Idempotent-Replayed", if replayed { "true" } else { "false" }))
        .json(OrderView::new(order, &lines)))
}

/// The form's fields: the order's, plus the key the hydrated form adds.
#[derive(Debug, Deserialize)]
pub struct OrderForm {
    #[serde(flatten)]
    order: OrderInput,
    #[serde(rename = "idempotencyKey")]
    idempotency_key: Option<String>,
}

/// POST /order: the same as the API for a browser without JavaScript (a post from another site: 403). Success redirects to the
/// confirmation (303, so a reload does not post again); a problem shows the form again with the
/// entered values and a message next to each wrong field.
pub async fn submit_order_form(state: web::Data<AppState>, request: HttpRequest, body: web::Bytes) -> HttpResponse {
    if from_another_site(&state, &request) {
        return cross_site_form();
    }
    let form: OrderForm = match serde_urlencoded::from_bytes(&body) {
        Ok(form) => form,
        Err(_) => {
            let alert = Some("The form could not be read. Please try again.");
            return order_form_again(&state, &request, &OrderForm::empty(), FieldErrors::default(), alert, 400).await;
        }
    };
    // The hydrated form fills the key in; without JavaScript it is empty, and the same order sent
    // twice is still stored once (see `lifecycle::place::place`). A key that is not one of ours was tampered with.
    let Ok(key) = idempotency_key(form.idempotency_key.as_deref()) else {
        let alert = Some("The form could not be read. Please try again.");
        return order_form_again(&state, &request, &form, FieldErrors::default(), alert, 400).await;
    };
    match place(&state, &request, form.order.clone(), key).await {
        Ok((placed, _)) => {
            let mut response = HttpResponse::SeeOther();
            if let Some(cookie) = placed_cookie(&state, &request, placed.order()) {
                response.cookie(cookie);
            }
            response
                .insert_header((header::LOCATION, format!("/confirmation?ref={}", placed.order().reference)))
                .finish()
        }
        Err(ApiError::Invalid { fields, .. }) => {
            // A message for a field the form does not show (an item not on the price list) goes
            // on top, so that it is not lost.
            let shown = |name: &str| {
                !name.starts_with(PIECE_FIELD) || catalogue::price_item(&name[PIECE_FIELD.len()..]).is_some()
            };
            let alert = fields.names().any(|name| !shown(name)).then_some(UNKNOWN_ITEMS);
            order_form_again(&state, &request, &form, fields, alert, 422).await
        }
        Err(ApiError::KeyReused) => {
            let alert = Some("This form was already sent with other details. Please check and send it again.");
            order_form_again(&state, &request, &form, FieldErrors::default(), alert, 409).await
        }
        Err(error @ ApiError::RateLimited { .. }) => {
            let mut page =
                order_form_again(&state, &request, &form, FieldErrors::default(), Some(&error.to_string()), 429).await;
            error.set_retry_after(&mut page);
            page
        }
        Err(error) => {
            if let ApiError::Storage { source, .. } = &error {
                tracing::error!(error = %source, "storing an order from the form failed");
            }
            order_form_again(&state, &request, &form, FieldErrors::default(), Some(SAVE_FAILED), 500).await
        }
    }
}

/// The tokens of the orders placed from this browser, newest first.
fn placed_here(request: &HttpRequest) -> Vec<String> {
    let Some(cookie) = request.cookie(PLACED_COOKIE) else { return Vec::new() };
    let token = |t: &&str| t.len() == 16 && t.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
    cookie.value().split('.').filter(token).take(PLACED_KEPT).map(str::to_owned).collect()
}

/// [`PLACED_COOKIE`] with `order` added to the ones placed here before; none for an order without
/// a page (placed before orders had one).
fn placed_cookie(state: &AppState, request: &HttpRequest, order: &Order) -> Option<Cookie<'static>> {
    let token = order.link_token.as_deref()?;
    let earlier = placed_here(request);
    let tokens: Vec<&str> = std::iter::once(token)
        .chain(earlier.iter().map(String::as_str).filter(|earlier| *earlier != token))
        .take(PLACED_KEPT)
        .collect();
    Some(auth_cookie(state, request, PLACED_COOKIE, tokens.join("."), "/confirmation", Duration::days(1)))
}

impl OrderForm {
    fn empty() -> Self {
        Self { order: OrderInput::default(), idempotency_key: None }
    }
}

async fn order_form_again(
    state: &AppState,
    request: &HttpRequest,
    form: &OrderForm,
    errors: FieldErrors,
    alert: Option<&str>,
    status: u16,
) -> HttpResponse {
    let order = &form.order;
    let quantity = order.quantity.as_ref().map(Loose::form_text).unwrap_or_default();
    let mut values: Vec<(String, Option<String>)> = [
        ("customerName", order.customer_name.clone()),
        ("phone", order.phone.clone()),
        ("email", order.email.clone()),
        ("location", order.location.clone()),
        ("serviceType", order.service_type.clone()),
        ("quantity", Some(quantity)),
        ("paymentMethod", order.payment_method.clone()),
        ("specialInstructions", order.special_instructions.clone()),
        ("pickup", order.pickup.clone()),
        ("rush", parse_rush(order.rush.as_ref()).unwrap_or(false).then(|| "on".to_owned())),
        ("landmark", order.landmark.clone()),
    ]
    .into_iter()
    .map(|(name, value)| (name.to_owned(), value))
    .collect();
    // A pin that was refused is not sent back: without JavaScript it could not be cleared.
    if errors.get("pin").is_none() {
        values.push(("pinLat".to_owned(), order.pin_lat.as_ref().and_then(form_text)));
        values.push(("pinLng".to_owned(), order.pin_lng.as_ref().and_then(form_text)));
    }
    values.extend(order.piece_fields().into_iter().map(|(name, quantity)| (name, Some(quantity.form_text()))));
    order_form(state, request, FormState::new(values, errors, alert, status)).await
}

/// A JSON value sent for a form field, as the field holds it.
fn form_text(value: &serde_json::Value) -> Option<String> {
    match value {
        serde_json::Value::String(text) => Some(text.clone()),
        serde_json::Value::Number(number) => Some(number.to_string()),
        _ => None,
    }
}

/// The order form with `form` filled in, rendered for this request.
async fn order_form(state: &AppState, request: &HttpRequest, form: FormState) -> HttpResponse {
    let pages = state.pages();
    let catalogue = CatalogueProps::new(state.settings().first_order_discount);
    let own = OrderPageProps {
        catalogue,
        pickup: super::pickup_choices(state).await,
        prompts: state.sends_prompts(),
        form: Some(form),
    };
    let (response, _) = pages.render("/order", &own).await;
    response.respond_private(request)
}

/// The order form's query: `?add=shirt`, a price-list item picked on /pricing or in the search.
#[derive(Debug, Deserialize)]
pub struct OrderFormQuery {
    add: Option<String>,
}

/// GET /order: the form, from the cache; with `?add=<item>` the form with that item in it (one
/// piece, or General Laundry chosen as the service for its two entries), so that a price picked
/// elsewhere lands in the order, with or without JavaScript. An unknown item shows the plain form.
pub async fn show_order_form(
    state: web::Data<AppState>,
    request: HttpRequest,
    query: web::Query<OrderFormQuery>,
) -> HttpResponse {
    let Some(item) = query.add.as_deref().and_then(catalogue::price_item) else {
        return super::public_page(&state, PublicPage::Order).await.respond(&request);
    };
    let value = match item.service {
        Some(service) => ("serviceType".to_owned(), Some(service.to_owned())),
        None => (format!("{PIECE_FIELD}{}", item.id), Some("1".to_owned())),
    };
    order_form(&state, &request, FormState::new([value], FieldErrors::default(), None, 200)).await
}

/// The confirmation's query: `?ref=K7MX2QPD`.
#[derive(Debug, Deserialize)]
pub struct ConfirmationQuery {
    #[serde(rename = "ref")]
    reference: Option<String>,
}

/// GET /confirmation: the generic page, or with `?ref=` the order's reference and, for pay-now,
/// the till, the amount and the phone number to use as the M-PESA reference. Look-ups by reference
/// are limited per client (a script trying references is stopped); over the limit the page says
/// when to try again, with 429 and `Retry-After`.
pub async fn show_confirmation(
    state: web::Data<AppState>,
    request: HttpRequest,
    query: web::Query<ConfirmationQuery>,
) -> HttpResponse {
    let Some(reference) = query.reference.as_deref().and_then(OrderReference::parse) else {
        return super::public_page(&state, PublicPage::Confirmation).await.respond(&request);
    };
    let limited = state
        .confirmation_limit()
        .check(client_ip(state.settings(), &request))
        .err()
        .map(|retry_after| ApiError::too_many("look-ups", &state.settings().business, retry_after));
    let own = match &limited {
        Some(refusal) => ConfirmationProps { order: None, error: Some(refusal.to_string()) },
        None => {
            ConfirmationProps { order: confirmed_order(&state, reference, &placed_here(&request)).await, error: None }
        }
    };
    let pages = state.pages();
    let (page, _) = pages.render("/confirmation", &own).await;
    let mut response = page.respond_private(&request);
    if let Some(refusal) = limited {
        *response.status_mut() = actix_web::ResponseError::status_code(&refusal);
        refusal.set_retry_after(&mut response);
    }
    response
}

/// What the confirmation shows of the order with `reference`, if there is one; the link to its
/// own page only when it is one of the orders `placed_here` (their tokens).
async fn confirmed_order(
    state: &AppState,
    reference: OrderReference,
    placed_here: &[String],
) -> Option<ConfirmedOrder> {
    let found = state
        .db()
        .run(move |connection| {
            let Some(order) = Order::find_by_reference(connection, &reference)? else { return Ok(None) };
            let lines = Order::lines(connection, &order.id)?;
            let stops = Stop::for_order(connection, &order.id)?;
            let prompt = MpesaPrompt::latest(connection, &order.id)?;
            let entries = Entry::of_order(connection, &order.id)?;
            Ok::<_, DbError>(Some((order, lines, stops, prompt, entries)))
        })
        .await;
    let (order, lines, stops, prompt, entries) = found.unwrap_or_else(|error| {
        tracing::error!(%error, "looking up an order for the confirmation failed");
        None
    })?;
    let stop = |kind: StopKind| stops.iter().find(|stop| stop.kind == kind && stop.state != StopState::Cancelled);
    let pickup = stop(StopKind::Pickup);
    let track_path =
        order.link_token.as_ref().filter(|token| placed_here.contains(token)).map(|token| format!("/t/{token}"));
    let now = stored(state.settings().clock.now());
    // Only the browser that placed the order reads its prompt and its M-PESA code.
    let payment = CustomerPayment::new(&order, &entries, prompt.as_ref(), state.sends_prompts(), now);
    Some(ConfirmedOrder {
        pickup: pickup.map(|stop| stop.slot().label()),
        pickup_confirmed: pickup.is_some_and(|stop| stop.confirmed_at.is_some()),
        delivery: stop(StopKind::Delivery).map(|stop| stop.slot().label()),
        rush: order.rush,
        payment: if track_path.is_some() { payment } else { payment.without_details() },
        track_path,
        id: order.reference,
        lines: lines.iter().map(OrderLineView::from).collect(),
        service_label: order.service_label,
        quantity: order.quantity,
        total_amount: order.total_amount,
        pay_now: order.payment_method == PaymentMethod::PayNow,
        phone: PhoneNumber::masked(&order.phone),
    })
}
