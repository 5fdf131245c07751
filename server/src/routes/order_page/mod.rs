//! The order's own page, `GET /t/{token}`: the tracking view of one order, opened from the link in
//! its messages without typing anything; its plain forms ([`changes`]: `POST /t/{token}/reschedule`,
//! `POST /t/{token}/cancel` and `POST /t/{token}/texts`, which stops or starts again the text
//! messages to the order's phone number; [`payment`]: `POST /t/{token}/pay`, the M-PESA prompt sent
//! again, `POST /t/{token}/credit`, money owed back kept as store credit, and `POST
//! /t/{token}/use-credit`, the phone's store credit used from the link texted to it; [`reclean`]: `POST /t/{token}/reclean`, a free re-clean of a delivered order, which
//! answers 303 to the new re-clean order's page), which work without JavaScript, answer 303 back to
//! the page with a notice, or show the page again with the reason next to the form; the payment's state as JSON for the page to poll
//! (`GET /t/{token}/payment`); and the order's [`receipt`] (`GET /t/{token}/receipt`).
//!
//! The token is the only key: these answers are never cached, never indexed, and their address is
//! not sent on as a referrer. The forms refuse posts from other sites (`Sec-Fetch-Site`, or
//! `Origin` from browsers that do not send it).

mod changes;
mod claims;
mod payment;
mod receipt;
mod reclean;
mod render;

pub use changes::{
    CancelForm, DeliveryForm, RescheduleForm, TextsForm, cancel_order, choose_texts, reschedule_delivery,
    reschedule_pickup,
};
pub use claims::{report_claim, show_photo};
pub use payment::{CreditForm, PayForm, Refused, ask_prompt_again, keep_as_credit, show_payment, use_credit};
pub use receipt::{ReceiptQuery, show_receipt};
pub use reclean::ask_reclean;

use crate::state::AppState;
use crate::views::order_page::{ChangeForm, ChangeProblem};
use crate::views::reclean::RecleanForm;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpRequest, HttpResponse, web};
use render::order_page;
use serde::Deserialize;

/// When the page could not be loaded.
const LOAD_FAILED: &str = "loading an order's page failed";
/// A form sent from another site.
const CROSS_SITE: &str = "This form can only be sent from the order's own page.";

/// `?done=moved|cancelled|texts-off|texts-on|prompt|reclean|credit|credit-used`, after a change
/// went through; `?refused=too-soon|…` ([`Refused`]), after a prompt or store credit was refused;
/// `?credit={key}`, the link texted to the order's phone, which offers the phone's store credit.
#[derive(Debug, Deserialize)]
pub struct OrderPageQuery {
    done: Option<String>,
    refused: Option<String>,
    credit: Option<String>,
}

/// The notice the page shows after a change.
fn notice(done: Option<&str>) -> Option<&'static str> {
    match done {
        Some("moved") => Some("Your pickup has been moved. We will confirm the new time within 30 minutes."),
        Some("delivery-moved") => Some("Your delivery is booked in its new window. Thank you!"),
        Some("cancelled") => Some("Your order has been cancelled. Nothing more will happen with it."),
        Some("texts-off") => Some("Done: we will send no more text messages to this number."),
        Some("texts-on") => Some("Done: we will send text messages to this number again."),
        Some("prompt") => Some("We are sending the M-PESA prompt to your phone: check your phone."),
        Some("reclean") => Some("Your free re-clean is booked. We will confirm the pickup time within 30 minutes."),
        Some("credit") => Some(
            "Done: the money is kept as store credit for this phone number. The text of your next order has the link that uses it.",
        ),
        Some("credit-used") => Some("Done: your store credit paid this order, as far as it goes."),
        Some("claim") => Some("Thank you: we have your report and will text you what we will do."),
        _ => None,
    }
}

/// A token as the links carry it: up to 64 lower-case letters and digits. Anything else is no
/// order's, and is not looked up.
fn well_formed(token: &str) -> bool {
    (1..=64).contains(&token.len()) && token.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
}

/// What the page shows besides the order: after a change, its notice; after a refusal, its reason
/// (the re-clean form's, with what was entered; a refused prompt's, worded with what is owed).
#[derive(Default)]
struct Outcome {
    notice: Option<&'static str>,
    problem: Option<ChangeProblem>,
    refused: Option<Refused>,
    reclean: Option<RecleanForm>,
    /// The claim form's errors and what was written, when it was refused.
    claim: Option<(crate::domain::FieldErrors, String)>,
    /// The key of the link texted to the order's phone, which offers its store credit.
    credit_key: Option<String>,
    status: u16,
}

impl Outcome {
    fn problem(form: ChangeForm, message: impl Into<String>, status: u16) -> Self {
        let problem = Some(ChangeProblem { form, message: message.into() });
        Outcome { problem, status, ..Outcome::default() }
    }

    fn reclean(form: RecleanForm, status: u16) -> Self {
        Outcome { reclean: Some(form), status, ..Outcome::default() }
    }
}

/// GET /t/{token}: the order's page.
pub async fn show_order_page(
    state: web::Data<AppState>,
    request: HttpRequest,
    token: web::Path<String>,
    query: web::Query<OrderPageQuery>,
) -> HttpResponse {
    let query = query.into_inner();
    let outcome = Outcome {
        notice: notice(query.done.as_deref()),
        refused: query.refused.as_deref().and_then(Refused::parse),
        credit_key: query.credit.filter(|key| well_formed(key)),
        status: 200,
        ..Outcome::default()
    };
    order_page(&state, &request, &token, outcome).await
}

/// 303 to the page of the order with `token`, with the notice of what was done (a reload does not
/// post again).
fn back_to_page(token: &str, done: &str) -> HttpResponse {
    private(HttpResponse::SeeOther().insert_header((header::LOCATION, format!("/t/{token}?done={done}"))).finish())
}

/// A form posted to an order's page: its token and its fields (missing or unreadable fields are
/// the form's defaults, which each handler refuses with its own message). A malformed token is the
/// 404 page; a post from another site is refused before anything is read.
async fn posted<F: Default + serde::de::DeserializeOwned>(
    state: &AppState,
    request: &HttpRequest,
    token: web::Path<String>,
    body: &[u8],
) -> Result<(String, F), HttpResponse> {
    let token = posted_to(state, request, token).await?;
    Ok((token, serde_urlencoded::from_bytes(body).unwrap_or_default()))
}

/// The token a form was posted to, once it is well formed and the post comes from the site itself.
async fn posted_to(state: &AppState, request: &HttpRequest, token: web::Path<String>) -> Result<String, HttpResponse> {
    let token = token.into_inner();
    if !well_formed(&token) {
        return Err(not_found(state, request).await);
    }
    if super::same_site::from_another_site(state, request) {
        return Err(cross_site());
    }
    Ok(token)
}

fn cross_site() -> HttpResponse {
    private(HttpResponse::Forbidden().content_type("text/plain; charset=utf-8").body(CROSS_SITE))
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
}
