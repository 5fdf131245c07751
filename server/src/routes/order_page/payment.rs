//! Paying from the order's page: "Send the M-PESA prompt again" (`POST /t/{token}/pay`, a plain
//! form), and the payment's state as JSON (`GET /t/{token}/payment`), which the page asks every few
//! seconds while a prompt is on the phone, so that "paid" shows without a reload.

use super::{Outcome, back_to_page, not_found, order_page, posted, private, well_formed};
use crate::clock::stored;
use crate::db::{DbError, write_transaction};
use crate::error::ApiError;
use crate::models::ledger::Entry;
use crate::models::mpesa::{AskRefusal, MpesaPrompt};
use crate::models::order::Order;
use crate::state::AppState;
use crate::views::order_page::ChangeForm;
use crate::views::payment::CustomerPayment;
use actix_web::{HttpRequest, HttpResponse, ResponseError, web};
use serde::Deserialize;

/// When the prompt could not be written.
const ASK_FAILED: &str = "The prompt could not be sent. Please try again, or pay to the till.";
/// The payment's state could not be read.
const READ_FAILED: &str = "The payment could not be read. Please reload the page.";

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
        Ok(Some((_, Err(_)))) => {
            let message = "Nothing is owed back on this order.";
            order_page(&state, &request, &token, Outcome::problem(ChangeForm::Credit, message, 409)).await
        }
        Err(error) => {
            tracing::error!(%error, "keeping money as store credit failed");
            let message = "This could not be saved. Please try again.";
            order_page(&state, &request, &token, Outcome::problem(ChangeForm::Credit, message, 500)).await
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
        let message = format!(
            "We cannot send M-PESA prompts at the moment. Please pay to till {} instead.",
            state.settings().business.mpesa_till
        );
        return order_page(&state, &request, &token, Outcome::problem(ChangeForm::Pay, message, 409)).await;
    }
    let now = stored(state.settings().clock.now());
    let key = token.clone();
    let limits = state.settings().mpesa.prompt_limits;
    let asked = state
        .db()
        .run(move |c| {
            let Some(order) = Order::find_by_link_token(c, &key)? else { return Ok(None) };
            let asked = MpesaPrompt::ask_again(c, &order.id, "customer", limits, now)?;
            let owed = Entry::balance(c, &order.id)?.to_pay();
            Ok::<_, DbError>(Some((order.reference, crate::domain::shillings(owed), asked)))
        })
        .await;
    match asked {
        Ok(Some((reference, _, Ok(prompt)))) => {
            tracing::info!(order_id = %reference, amount_kes = prompt.amount, "M-PESA prompt asked again by the customer");
            state.wake_prompts();
            back_to_page(&token, "prompt")
        }
        Ok(None | Some((_, _, Err(AskRefusal::NoSuchOrder)))) => not_found(&state, &request).await,
        Ok(Some((reference, amount, Err(AskRefusal::PhoneLimit(_))))) => {
            tracing::info!(order_id = %reference, "an M-PESA prompt asked again by the customer was held by the limits per phone");
            let message = format!(
                "This phone number has had as many M-PESA prompts as we send for now, so no prompt is coming. Please pay to till {} instead: KSh {amount}, with your phone number as the reference.",
                state.settings().business.mpesa_till
            );
            order_page(&state, &request, &token, Outcome::problem(ChangeForm::Pay, message, 409)).await
        }
        Ok(Some((_, _, Err(refusal)))) => {
            order_page(&state, &request, &token, Outcome::problem(ChangeForm::Pay, refusal.message(), 409)).await
        }
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
