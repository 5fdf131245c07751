//! The order's receipt, `GET /t/{token}/receipt`: its lines, total and payment with the shop's
//! details, for the screen, A4 or (`?paper=80mm`) an 80 mm thermal roll.

use super::{LOAD_FAILED, not_found, private, well_formed};
use crate::clock::stored;
use crate::db::DbError;
use crate::models::ledger::Entry;
use crate::models::mpesa::MpesaPrompt;
use crate::models::order::Order;
use crate::models::reclean::{Reclean, RecleanOffer};
use crate::state::AppState;
use crate::views::pages::ErrorProps;
use crate::views::payment::CustomerPayment;
use crate::views::receipt::{Paper, ReceiptProps};
use crate::views::reclean::until_label;
use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;

/// `?paper=80mm` for a thermal roll; anything else is A4.
#[derive(Debug, Deserialize)]
pub struct ReceiptQuery {
    paper: Option<String>,
}

/// GET /t/{token}/receipt: the receipt page (404 for a token that is no order's).
pub async fn show_receipt(
    state: web::Data<AppState>,
    request: HttpRequest,
    token: web::Path<String>,
    query: web::Query<ReceiptQuery>,
) -> HttpResponse {
    let token = token.into_inner();
    if !well_formed(&token) {
        return not_found(&state, &request).await;
    }
    let paper = match query.paper.as_deref().map(str::trim) {
        Some("80mm" | "80") => Paper::Thermal80,
        _ => Paper::A4,
    };
    let (prompts, now) = (state.sends_prompts(), stored(state.settings().clock.now()));
    let reclean_days = state.settings().reclean_days;
    let key = token.clone();
    let loaded = state
        .db()
        .run(move |c| {
            let Some(order) = Order::find_by_link_token(c, &key)? else { return Ok(None) };
            let (lines, history) = (Order::lines(c, &order.id)?, Order::history(c, &order.id)?);
            let prompt = MpesaPrompt::latest(c, &order.id)?;
            let entries = Entry::of_order(c, &order.id)?;
            let payment = CustomerPayment::new(&order, &entries, prompt.as_ref(), prompts, now);
            let mut props = ReceiptProps::new(&order, (&lines, &history, &entries), payment, paper, &key);
            // The link to the re-clean form, while a line may still be re-cleaned.
            let offer = Reclean::offer(c, &order, reclean_days, now)?;
            props.reclean_until = offer.filter(RecleanOffer::askable).map(|offer| until_label(offer.until));
            Ok::<_, DbError>(Some(props))
        })
        .await;
    let pages = state.pages();
    let (page, _) = match loaded {
        // A path of no indexed page: the document says noindex, and the token stays out of it.
        Ok(Some(props)) => pages.render("/receipt", &props).await,
        Ok(None) => return not_found(&state, &request).await,
        Err(error) => {
            tracing::error!(%error, "{LOAD_FAILED}");
            pages.render("", &ErrorProps { status: 500 }).await
        }
    };
    private(page.respond_private(&request))
}
