//! Paying from the order's page: "Send the M-PESA prompt again" (`POST /t/{token}/pay`, a plain
//! form), and the payment's state as JSON (`GET /t/{token}/payment`), which the page asks every few
//! seconds while a prompt is on the phone, so that "paid" shows without a reload.
//!
//! Both forms answer 303 back to the page, refused or not (`?done=prompt`, `?refused=too-soon`): a
//! reload of the page the browser lands on shows the same words and posts nothing, so it cannot
//! send another prompt.

use super::{Outcome, back_to_page, not_found, order_page, posted, private, well_formed};
use crate::clock::stored;
use crate::db::{DbError, write_transaction};
use crate::error::ApiError;
use crate::lifecycle::money::CreditRefusal;
use crate::models::ledger::Entry;
use crate::models::mpesa::{AskRefusal, MpesaPrompt};
use crate::models::order::Order;
use crate::state::AppState;
use crate::views::order_page::ChangeForm;
use crate::views::order_page::ChangeProblem;
use crate::views::payment::CustomerPayment;
use actix_web::{HttpRequest, HttpResponse, ResponseError, web};
use serde::Deserialize;

/// When the prompt could not be written.
const ASK_FAILED: &str = "The prompt could not be sent. Please try again, or pay to the till.";
/// The payment's state could not be read.
const READ_FAILED: &str = "The payment could not be read. Please reload the page.";

/// Why the prompt or the store credit was refused, as the 303 back to the order's page carries it
/// (`?refused=too-soon`); the page words it beside its form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// The site sends no prompts (Daraja is not configured).
    PromptsOff,
    /// The phone number had as many prompts as the limits per phone allow.
    PhoneLimit,
    /// The order is paid.
    Paid,
    /// The order is cancelled.
    Cancelled,
    /// A KSh 0 order.
    NothingToPay,
    /// A prompt is on the phone now.
    TooSoon,
    /// Five prompts in the last hour.
    TooMany,
    /// Keeping as credit, with nothing owed back.
    NothingOwedBack,
    /// Using store credit from a link that is not the one texted to the order's phone.
    NotTheTextedLink,
    /// Using store credit, with none held or nothing left to pay.
    NoCreditToUse,
}

impl Refused {
    const CODES: [(Refused, &'static str); 10] = [
        (Refused::PromptsOff, "prompts-off"),
        (Refused::PhoneLimit, "phone-limit"),
        (Refused::Paid, "paid"),
        (Refused::Cancelled, "cancelled"),
        (Refused::NothingToPay, "nothing-to-pay"),
        (Refused::TooSoon, "too-soon"),
        (Refused::TooMany, "too-many"),
        (Refused::NothingOwedBack, "nothing-owed-back"),
        (Refused::NotTheTextedLink, "not-the-texted-link"),
        (Refused::NoCreditToUse, "no-credit"),
    ];

    /// The refusal named by `?refused=`; none for a code the page does not know.
    pub fn parse(code: &str) -> Option<Self> {
        Self::CODES.iter().find(|(_, known)| *known == code).map(|(refused, _)| *refused)
    }

    fn code(self) -> &'static str {
        Self::CODES.iter().find(|(refused, _)| *refused == self).map_or("", |(_, code)| code)
    }

    /// The refusal of a prompt asked again; none for an order that does not exist.
    fn of(refusal: &AskRefusal) -> Option<Self> {
        match refusal {
            AskRefusal::NoSuchOrder => None,
            AskRefusal::Paid => Some(Refused::Paid),
            AskRefusal::Cancelled => Some(Refused::Cancelled),
            AskRefusal::NothingToPay => Some(Refused::NothingToPay),
            AskRefusal::TooSoon => Some(Refused::TooSoon),
            AskRefusal::TooMany => Some(Refused::TooMany),
            AskRefusal::PhoneLimit(_) => Some(Refused::PhoneLimit),
        }
    }

    /// What the customer reads beside the form, with the till and what the order still owes (KSh).
    pub fn problem(self, till: &str, due: i64) -> ChangeProblem {
        let message = match self {
            Refused::PromptsOff => {
                format!("We cannot send M-PESA prompts at the moment. Please pay to till {till} instead.")
            }
            Refused::PhoneLimit => format!(
                "This phone number has had as many M-PESA prompts as we send for now, so no prompt is coming. Please pay to till {till} instead: KSh {}, with your phone number as the reference.",
                crate::domain::shillings(due)
            ),
            Refused::Paid => AskRefusal::Paid.message().to_owned(),
            Refused::Cancelled => AskRefusal::Cancelled.message().to_owned(),
            Refused::NothingToPay => AskRefusal::NothingToPay.message().to_owned(),
            Refused::TooSoon => AskRefusal::TooSoon.message().to_owned(),
            Refused::TooMany => AskRefusal::TooMany.message().to_owned(),
            Refused::NothingOwedBack => "Nothing is owed back on this order.".to_owned(),
            Refused::NotTheTextedLink => "Store credit is used only from the link in the text we sent to the order's phone number. Please open that link.".to_owned(),
            Refused::NoCreditToUse => "There is no store credit this order could use now: the phone number holds none, or nothing is left to pay.".to_owned(),
        };
        let form = match self {
            Refused::NothingOwedBack => ChangeForm::Credit,
            Refused::NotTheTextedLink | Refused::NoCreditToUse => ChangeForm::UseCredit,
            _ => ChangeForm::Pay,
        };
        ChangeProblem { form, message }
    }
}

/// 303 back to the order's page with the reason beside the form (a reload posts nothing).
fn refused_back(token: &str, refused: Refused) -> HttpResponse {
    private(
        HttpResponse::SeeOther()
            .insert_header((actix_web::http::header::LOCATION, format!("/t/{token}?refused={}", refused.code())))
            .finish(),
    )
}

/// The form has no fields: the button is the request.
#[derive(Debug, Default, Deserialize)]
pub struct PayForm {}

/// POST /t/{token}/credit: what the order owes back (paid more than its bill, or cancelled after
/// paying) kept as store credit for the phone number, used by its next order; then back to the
/// page. Refused, where the button is, when nothing is owed back.
pub async fn keep_as_credit(
    state: web::Data<AppState>,
    request: HttpRequest,
    token: web::Path<String>,
    body: web::Bytes,
) -> HttpResponse {
    let (token, _) = match posted::<PayForm>(&state, &request, token, &body).await {
        Ok(posted) => posted,
        Err(refused) => return refused,
    };
    let now = stored(state.settings().clock.now());
    let key = token.clone();
    let kept = state
        .db()
        .run(move |c| {
            let Some(order) = Order::find_by_link_token(c, &key)? else { return Ok(None) };
            let kept =
                write_transaction(c, |c| crate::lifecycle::money::keep_as_credit(c, &order.id, "customer", now))?;
            Ok::<_, DbError>(Some((order.reference, kept)))
        })
        .await;
    match kept {
        Ok(Some((reference, Ok(balance)))) => {
            tracing::info!(order_id = %reference, refunded = balance.refunded, "money owed back kept as store credit by the customer");
            back_to_page(&token, "credit")
        }
        Ok(None) => not_found(&state, &request).await,
        Ok(Some((_, Err(_)))) => refused_back(&token, Refused::NothingOwedBack),
        Err(error) => {
            tracing::error!(%error, "keeping money as store credit failed");
            let message = "This could not be saved. Please try again.";
            order_page(&state, &request, &token, Outcome::problem(ChangeForm::Credit, message, 500)).await
        }
    }
}

/// The key of the link texted to the order's phone, which the page's form sends on.
#[derive(Debug, Default, Deserialize)]
pub struct CreditForm {
    #[serde(default)]
    key: String,
}

/// POST /t/{token}/use-credit: the phone's store credit pays what the order owes, as far as it
/// goes, when the form carries the key of the link texted to that phone (who holds the link shown
/// to whoever placed the order does not hold the phone); then back to the page. Refused, where the
/// button is, without that key, or when there is no credit to use.
pub async fn use_credit(
    state: web::Data<AppState>,
    request: HttpRequest,
    token: web::Path<String>,
    body: web::Bytes,
) -> HttpResponse {
    let (token, form) = match posted::<CreditForm>(&state, &request, token, &body).await {
        Ok(posted) => posted,
        Err(refused) => return refused,
    };
    let now = stored(state.settings().clock.now());
    let page = token.clone();
    let used = state
        .db()
        .run(move |c| {
            let Some(order) = Order::find_by_link_token(c, &page)? else { return Ok(None) };
            let key = form.key.trim().to_owned();
            let used =
                write_transaction(c, |c| crate::lifecycle::money::use_credit_from_link(c, &order.id, &key, now))?;
            Ok::<_, DbError>(Some((order.reference, used)))
        })
        .await;
    match used {
        Ok(Some((reference, Ok(used)))) => {
            tracing::info!(order_id = %reference, credit_kes = used, "store credit used from the link texted to the phone");
            back_to_page(&token, "credit-used")
        }
        Ok(Some((_, Err(CreditRefusal::NotTheTextedLink)))) => refused_back(&token, Refused::NotTheTextedLink),
        Ok(Some((_, Err(CreditRefusal::NothingToUse)))) => refused_back(&token, Refused::NoCreditToUse),
        Ok(None) => not_found(&state, &request).await,
        Err(error) => {
            tracing::error!(%error, "using store credit failed");
            let message = "This could not be saved. Please try again.";
            order_page(&state, &request, &token, Outcome::problem(ChangeForm::UseCredit, message, 500)).await
        }
    }
}

/// POST /t/{token}/pay: a new M-PESA prompt to the order's phone for what it owes, then back to the
/// page ("check your phone"). Refused, with the reason where the button is, when the site sends no
/// prompts, when the order is paid or cancelled, or when a prompt went less than a minute ago or
/// five in the last hour.
pub async fn ask_prompt_again(
    state: web::Data<AppState>,
    request: HttpRequest,
    token: web::Path<String>,
    body: web::Bytes,
) -> HttpResponse {
    let (token, _) = match posted::<PayForm>(&state, &request, token, &body).await {
        Ok(posted) => posted,
        Err(refused) => return refused,
    };
    if !state.sends_prompts() {
        return refused_back(&token, Refused::PromptsOff);
    }
    let now = stored(state.settings().clock.now());
    let key = token.clone();
    let limits = state.settings().mpesa.prompt_limits;
    let asked = state
        .db()
        .run(move |c| {
            let Some(order) = Order::find_by_link_token(c, &key)? else { return Ok(None) };
            let asked = MpesaPrompt::ask_again(c, &order.id, "customer", limits, now)?;
            Ok::<_, DbError>(Some((order.reference, asked)))
        })
        .await;
    match asked {
        Ok(Some((reference, Ok(prompt)))) => {
            tracing::info!(order_id = %reference, amount_kes = prompt.amount, "M-PESA prompt asked again by the customer");
            state.wake_prompts();
            back_to_page(&token, "prompt")
        }
        Ok(Some((reference, Err(refusal)))) => match Refused::of(&refusal) {
            Some(refused) => {
                if refused == Refused::PhoneLimit {
                    tracing::info!(order_id = %reference, "an M-PESA prompt asked again by the customer was held by the limits per phone");
                }
                refused_back(&token, refused)
            }
            None => not_found(&state, &request).await,
        },
        Ok(None) => not_found(&state, &request).await,
        Err(error) => {
            tracing::error!(%error, "writing an M-PESA prompt asked again failed");
            order_page(&state, &request, &token, Outcome::problem(ChangeForm::Pay, ASK_FAILED, 500)).await
        }
    }
}

/// GET /t/{token}/payment: the order's payment as its page shows it (JSON, never stored).
pub async fn show_payment(state: web::Data<AppState>, token: web::Path<String>) -> HttpResponse {
    let token = token.into_inner();
    let no_order = || private(ApiError::NotFound("There is no such order.".to_owned()).error_response());
    if !well_formed(&token) {
        return no_order();
    }
    let (prompts, now) = (state.sends_prompts(), stored(state.settings().clock.now()));
    let loaded = state
        .db()
        .run(move |c| {
            let Some(order) = Order::find_by_link_token(c, &token)? else { return Ok(None) };
            let prompt = MpesaPrompt::latest(c, &order.id)?;
            Ok::<_, DbError>(Some(CustomerPayment::new(
                &order,
                &Entry::of_order(c, &order.id)?,
                prompt.as_ref(),
                prompts,
                now,
            )))
        })
        .await;
    match loaded {
        Ok(Some(payment)) => private(HttpResponse::Ok().json(payment)),
        Ok(None) => no_order(),
        Err(source) => private(ApiError::Storage { message: READ_FAILED, source }.error_response()),
    }
}
