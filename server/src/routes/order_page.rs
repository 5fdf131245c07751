//! The order's own page, `GET /t/{token}`: the tracking view of one order, opened from the link in
//! its messages without typing anything; and its plain forms, `POST /t/{token}/reschedule`,
//! `POST /t/{token}/cancel` and `POST /t/{token}/texts` (stop, or start again, the text messages to
//! the order's phone number), which work without JavaScript, answer 303 back to the page with a
//! notice, or show the page again with the reason next to the form.
//!
//! The token is the only key: the page is never cached, never indexed, and its address is not sent
//! on as a referrer. The forms refuse posts from other sites (`Sec-Fetch-Site`, or `Origin` from
//! browsers that do not send it).

use crate::clock::now_utc;
use crate::db::DbError;
use crate::domain::StopKind;
use crate::domain::schedule::{nairobi_day, parse_slot_value};
use crate::models::order::{ChangeError, ChangeRefusal, Order, change_refusal};
use crate::models::outbox::OptOut;
use crate::models::stop::Stop;
use crate::state::AppState;
use crate::views::order_page::{ChangeForm, ChangeProblem, OrderStatusProps, PickupChoice};
use crate::views::pages::{ErrorProps, Page};
use crate::views::tracking::{TrackedOrder, TrackedVisit};
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;

/// When a change could not be stored.
const CHANGE_FAILED: &str = "Your change could not be saved. Please try again, or call or WhatsApp us.";
/// When the page could not be loaded.
const LOAD_FAILED: &str = "loading an order's page failed";
/// A form sent from another site.
const CROSS_SITE: &str = "This form can only be sent from the order's own page.";
/// The pickup field was missing or unreadable.
const CHOOSE_WINDOW: &str = "Please choose a pickup day and window from the list.";
/// The cancel form without its confirmation.
const CONFIRM_CANCEL: &str = "Please tick the box to confirm that you want to cancel this order.";

/// The texts form without a choice.
const CHOOSE_TEXTS: &str = "Please choose whether to stop or to start text messages.";

/// `?done=moved|cancelled|texts-off|texts-on`, after a change went through.
#[derive(Debug, Deserialize)]
pub struct OrderPageQuery {
    done: Option<String>,
}

/// The notice the page shows after a change.
fn notice(done: Option<&str>) -> Option<&'static str> {
    match done {
        Some("moved") => Some("Your pickup has been moved. We will confirm the new time within 30 minutes."),
        Some("cancelled") => Some("Your order has been cancelled. Nothing more will happen with it."),
        Some("texts-off") => Some("Done: we will send no more text messages to this number."),
        Some("texts-on") => Some("Done: we will send text messages to this number again."),
        _ => None,
    }
}

/// A token as the links carry it: up to 64 lower-case letters and digits. Anything else is no
/// order's, and is not looked up.
fn well_formed(token: &str) -> bool {
    (1..=64).contains(&token.len()) && token.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
}

/// What the page shows besides the order: after a change, its notice; after a refusal, its reason.
struct Outcome {
    notice: Option<&'static str>,
    problem: Option<ChangeProblem>,
    status: u16,
}

impl Outcome {
    fn problem(form: ChangeForm, message: impl Into<String>, status: u16) -> Self {
        Outcome { notice: None, problem: Some(ChangeProblem { form, message: message.into() }), status }
    }
}

/// GET /t/{token}: the order's page.
pub async fn show_order_page(
    state: web::Data<AppState>,
    request: HttpRequest,
    token: web::Path<String>,
    query: web::Query<OrderPageQuery>,
) -> HttpResponse {
    let outcome = Outcome { notice: notice(query.done.as_deref()), problem: None, status: 200 };
    order_page(&state, &request, &token, outcome).await
}

/// The reschedule form: `pickup=2026-11-25T19:00`.
#[derive(Debug, Default, Deserialize)]
pub struct RescheduleForm {
    pickup: Option<String>,
}

/// POST /t/{token}/reschedule: moves the pickup (and the delivery with it) to another open window.
pub async fn reschedule_pickup(
    state: web::Data<AppState>,
    request: HttpRequest,
    token: web::Path<String>,
    body: web::Bytes,
) -> HttpResponse {
    let (token, form) = match posted::<RescheduleForm>(&state, &request, token, &body).await {
        Ok(posted) => posted,
        Err(refused) => return refused,
    };
    let Some(to) = form.pickup.as_deref().and_then(parse_slot_value) else {
        return order_page(&state, &request, &token, Outcome::problem(ChangeForm::Reschedule, CHOOSE_WINDOW, 422))
            .await;
    };
    let schedule = state.settings().schedule.clone();
    let key = token.clone();
    let moved = state
        .db()
        .run(move |c| lift_database_error(Order::reschedule_by_customer(c, &key, &schedule, to, now_utc())))
        .await;
    match moved {
        Ok(Ok(slot)) => {
            tracing::info!(day = %slot.day, window = %slot.window, "pickup moved by the customer");
            back_to_page(&token, "moved")
        }
        Ok(Err(error)) => refused(&state, &request, &token, ChangeForm::Reschedule, error).await,
        Err(error) => {
            tracing::error!(%error, "moving a pickup failed");
            order_page(&state, &request, &token, Outcome::problem(ChangeForm::Reschedule, CHANGE_FAILED, 500)).await
        }
    }
}

/// The cancel form: `confirm=yes` (a checkbox).
#[derive(Debug, Default, Deserialize)]
pub struct CancelForm {
    confirm: Option<String>,
}

/// POST /t/{token}/cancel: cancels the order and frees its pickup's place, once confirmed.
pub async fn cancel_order(
    state: web::Data<AppState>,
    request: HttpRequest,
    token: web::Path<String>,
    body: web::Bytes,
) -> HttpResponse {
    let (token, form) = match posted::<CancelForm>(&state, &request, token, &body).await {
        Ok(posted) => posted,
        Err(refused) => return refused,
    };
    if !matches!(form.confirm.as_deref().map(str::trim), Some("yes" | "on" | "true" | "1")) {
        return order_page(&state, &request, &token, Outcome::problem(ChangeForm::Cancel, CONFIRM_CANCEL, 422)).await;
    }
    let schedule = state.settings().schedule.clone();
    let notify = state.notify_customer();
    let key = token.clone();
    let cancelled = state
        .db()
        .run(move |c| lift_database_error(Order::cancel_by_customer(c, &key, &schedule, &notify, now_utc())))
        .await;
    match cancelled {
        Ok(Ok(order)) => {
            tracing::info!(order_id = %order.reference, "order cancelled by the customer");
            state.wake_outbox();
            back_to_page(&token, "cancelled")
        }
        Ok(Err(error)) => refused(&state, &request, &token, ChangeForm::Cancel, error).await,
        Err(error) => {
            tracing::error!(%error, "cancelling an order failed");
            order_page(&state, &request, &token, Outcome::problem(ChangeForm::Cancel, CHANGE_FAILED, 500)).await
        }
    }
}

/// The texts form: `texts=off` (stop) or `texts=on` (send them again).
#[derive(Debug, Default, Deserialize)]
pub struct TextsForm {
    texts: Option<String>,
}

/// POST /t/{token}/texts: the order's phone number gets no more text messages (`texts=off`), from
/// this order or any other, or gets them again (`texts=on`).
pub async fn choose_texts(
    state: web::Data<AppState>,
    request: HttpRequest,
    token: web::Path<String>,
    body: web::Bytes,
) -> HttpResponse {
    let (token, form) = match posted::<TextsForm>(&state, &request, token, &body).await {
        Ok(posted) => posted,
        Err(refused) => return refused,
    };
    let off = match form.texts.as_deref().map(str::trim) {
        Some("off") => true,
        Some("on") => false,
        _ => {
            return order_page(&state, &request, &token, Outcome::problem(ChangeForm::Texts, CHOOSE_TEXTS, 422)).await;
        }
    };
    let key = token.clone();
    let chosen = state
        .db()
        .run(move |c| {
            let Some(order) = Order::find_by_link_token(c, &key)? else { return Ok(None) };
            if off {
                OptOut::opt_out(c, &order.phone, Some(&order.id), now_utc())?;
            } else {
                OptOut::opt_in(c, &order.phone)?;
            }
            Ok::<_, DbError>(Some(order.reference))
        })
        .await;
    match chosen {
        Ok(Some(reference)) => {
            tracing::info!(order_id = %reference, texts_off = off, "text messages chosen on the order's page");
            back_to_page(&token, if off { "texts-off" } else { "texts-on" })
        }
        Ok(None) => not_found(&state, &request).await,
        Err(error) => {
            tracing::error!(%error, "choosing text messages failed");
            order_page(&state, &request, &token, Outcome::problem(ChangeForm::Texts, CHANGE_FAILED, 500)).await
        }
    }
}

/// A change's database failure as the one error the handlers log; refusals stay answers.
fn lift_database_error<T>(changed: Result<T, ChangeError>) -> Result<Result<T, ChangeError>, DbError> {
    match changed {
        Err(ChangeError::Database(error)) => Err(DbError::Query(error)),
        other => Ok(other),
    }
}

/// 303 to the page, with the notice of what was done (a reload does not post again).
fn back_to_page(token: &str, done: &str) -> HttpResponse {
    private(HttpResponse::SeeOther().insert_header((header::LOCATION, format!("/t/{token}?done={done}"))).finish())
}

/// 403 for a form sent from another site.
/// A form posted to an order's page: its token and its fields (missing or unreadable fields are
/// the form's defaults, which each handler refuses with its own message). A malformed token is the
/// 404 page; a post from another site is refused before anything is read.
async fn posted<F: Default + serde::de::DeserializeOwned>(
    state: &AppState,
    request: &HttpRequest,
    token: web::Path<String>,
    body: &[u8],
) -> Result<(String, F), HttpResponse> {
    let token = token.into_inner();
    if !well_formed(&token) {
        return Err(not_found(state, request).await);
    }
    if from_another_site(state, request) {
        return Err(cross_site());
    }
    Ok((token, serde_urlencoded::from_bytes(body).unwrap_or_default()))
}

fn cross_site() -> HttpResponse {
    private(HttpResponse::Forbidden().content_type("text/plain; charset=utf-8").body(CROSS_SITE))
}

/// The page again with the reason next to `form`: 409 (the order or the window does not allow
/// it), 422 for a window that is not one of the schedule's; 404 when no order has the page.
async fn refused(
    state: &AppState,
    request: &HttpRequest,
    token: &str,
    form: ChangeForm,
    error: ChangeError,
) -> HttpResponse {
    let refusal = match error {
        ChangeError::Refused(refusal) => refusal,
        _ => return not_found(state, request).await,
    };
    let status = match refusal {
        ChangeRefusal::Slot(crate::domain::schedule::SlotRefusal::NoSuchWindow) => 422,
        _ => 409,
    };
    order_page(state, request, token, Outcome::problem(form, refusal.to_string(), status)).await
}

/// Whether a browser says the form was sent from another site. Browsers send `Sec-Fetch-Site`
/// (`same-origin` from our own page, `none` when typed or bookmarked); older ones send `Origin`,
/// which must be the site's own. A client that sends neither is not a browser acting for a
/// visitor of another site.
fn from_another_site(state: &AppState, request: &HttpRequest) -> bool {
    let header = |name: &str| request.headers().get(name).and_then(|value| value.to_str().ok());
    if let Some(site) = header("sec-fetch-site") {
        return !matches!(site, "same-origin" | "none");
    }
    let Some(origin) = header("origin") else { return false };
    let info = request.connection_info();
    let own = format!("{}://{}", info.scheme(), info.host());
    origin != own && origin != site_origin(&state.settings().base_url)
}

/// `https://laundry.example.com` of `https://laundry.example.com/shop`.
fn site_origin(base_url: &str) -> String {
    match base_url.split_once("://") {
        Some((scheme, rest)) => format!("{scheme}://{}", rest.split('/').next().unwrap_or_default()),
        None => base_url.to_owned(),
    }
}

/// Headers of every answer that carries the token in its address.
fn private(mut response: HttpResponse) -> HttpResponse {
    let headers = response.headers_mut();
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store, private"));
    headers.insert(header::HeaderName::from_static("x-robots-tag"), HeaderValue::from_static("noindex, nofollow"));
    response
}

/// The 404 page, for a token that is no order's.
async fn not_found(state: &AppState, request: &HttpRequest) -> HttpResponse {
    private(state.pages().not_found().await.respond(request))
}

/// Renders the page of the order whose token is `token`, with `outcome`.
async fn order_page(state: &AppState, request: &HttpRequest, token: &str, outcome: Outcome) -> HttpResponse {
    if !well_formed(token) {
        return not_found(state, request).await;
    }
    let schedule = state.settings().schedule.clone();
    let key = token.to_owned();
    let loaded = state
        .db()
        .run(move |c| {
            let Some(order) = Order::find_by_link_token(c, &key)? else { return Ok(None) };
            let now = now_utc();
            let (lines, history) = (Order::lines(c, &order.id)?, Order::history(c, &order.id)?);
            let stops = Order::visit(c, &order.id, nairobi_day(now.assume_utc()))?;
            let pickup = stops.iter().map(|visit| &visit.stop).find(|stop| stop.kind == StopKind::Pickup);
            let refusal = change_refusal(&order, pickup, &schedule, now.assume_utc());
            let choices = match refusal {
                None => Order::pickup_choices(c, &schedule, pickup.map(Stop::slot), now)?,
                Some(_) => Vec::new(),
            };
            let visit = TrackedVisit::new(&order, &stops, schedule.minutes_per_stop, true);
            let texts_off = OptOut::is_opted_out(c, &order.phone)?;
            let tracked = TrackedOrder::new(&order, &lines, &history).with_visit(visit);
            Ok::<_, DbError>(Some((tracked, refusal, choices, texts_off)))
        })
        .await;
    let (order, refusal, choices, texts_off) = match loaded {
        Ok(Some(loaded)) => loaded,
        Ok(None) => return not_found(state, request).await,
        Err(error) => {
            tracing::error!(%error, "{LOAD_FAILED}");
            let pages = state.pages();
            let (page, _) = pages.render(Page::Error, pages.props("", &ErrorProps { status: 500 })).await;
            return private(page.respond_private(request));
        }
    };
    // Cancelled and picked-up orders say so on their card; only a closed window needs a word here.
    let changeable = refusal.is_none();
    let closed = refusal.filter(|refusal| matches!(refusal, ChangeRefusal::PastCutoff(_) | ChangeRefusal::NoPickup));
    let props = OrderStatusProps {
        order,
        token: token.to_owned(),
        changeable,
        closed: closed.map(|refusal| refusal.to_string()),
        texts_off,
        texts_sent: state.settings().sms.missing().is_empty(),
        choices: choices.into_iter().map(|(slot, left)| PickupChoice::new(slot, left)).collect(),
        problem: outcome.problem,
        notice: outcome.notice.map(str::to_owned),
        status: outcome.status,
    };
    let pages = state.pages();
    // The path of the tracking page: the header marks "Track Order", and the token stays out of it.
    let (page, _) = pages.render(Page::OrderStatus, pages.props("/tracking", &props)).await;
    private(page.respond_private(request))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_lower_case_letters_and_digits_make_a_token() {
        assert!(well_formed("k7mx2qpd0a1b2c3d"));
        assert!(!well_formed(""));
        assert!(!well_formed("K7MX2QPD"));
        assert!(!well_formed("abc/../def"));
        assert!(!well_formed(&"a".repeat(65)));
    }

    #[test]
    fn the_sites_origin_is_its_scheme_and_host() {
        assert_eq!(site_origin("https://laundry.example.com"), "https://laundry.example.com");
        assert_eq!(site_origin("http://127.0.0.1:8080/shop"), "http://127.0.0.1:8080");
    }
}
