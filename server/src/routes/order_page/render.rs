//! The order's page, rendered with what it shows besides the order (a notice, a refusal).

use super::{LOAD_FAILED, Outcome, not_found, private, well_formed};
use crate::db::DbError;
use crate::domain::schedule::nairobi_day;
use crate::domain::{OrderStatus, StopKind, StopState};
use crate::lifecycle::visit::{ChangeRefusal, change_refusal};
use crate::models::garments::IntakeRecord;
use crate::models::ledger::Entry;
use crate::models::mpesa::MpesaPrompt;
use crate::models::order::Order;
use crate::models::outbox::OptOut;
use crate::models::reclean::Reclean;
use crate::models::stop::Stop;
use crate::state::AppState;
use crate::views::garments::CustomerGarments;
use crate::views::order_page::{CreditOffer, MissedVisit, OrderStatusProps, PickupChoice};
use crate::views::pages::ErrorProps;
use crate::views::payment::CustomerPayment;
use crate::views::reclean::{RecleanCard, RecleanOf, RecleanSection};
use crate::views::slots::{PickupChoices, horizon_end};
use crate::views::tracking::{TrackedOrder, TrackedVisit};
use actix_web::{HttpRequest, HttpResponse};

/// Renders the page of the order whose token is `token`, with `outcome`.
pub(super) async fn order_page(state: &AppState, request: &HttpRequest, token: &str, outcome: Outcome) -> HttpResponse {
    if !well_formed(token) {
        return not_found(state, request).await;
    }
    let schedule = state.settings().schedule.clone();
    let (prompts, clock) = (state.sends_prompts(), state.clock().clone());
    let reclean_days = state.settings().reclean_days;
    let key = token.to_owned();
    let credit_key = outcome.credit_key.clone();
    let loaded = state
        .db()
        .run(move |c| {
            let Some(order) = Order::find_by_link_token(c, &key)? else { return Ok(None) };
            let now = clock.utc();
            let (lines, history) = (Order::lines(c, &order.id)?, Order::history(c, &order.id)?);
            let stops = Stop::visit_of(c, &order.id, nairobi_day(now.assume_utc()))?;
            let pickup = stops.iter().map(|visit| &visit.stop).find(|stop| stop.kind == StopKind::Pickup);
            let refusal = change_refusal(&order, pickup, &schedule, now.assume_utc());
            let choices = match refusal {
                None => Stop::pickup_choices(c, &schedule, pickup.map(Stop::slot), now)?,
                Some(_) => Vec::new(),
            };
            // A stop the valet missed: its words, and for a delivery the windows to choose from
            // (a missed pickup is moved with the reschedule form, whose windows are `choices`).
            let missed = stops.iter().map(|visit| &visit.stop).find(|stop| stop.state == StopState::Missed);
            let missed = match missed {
                Some(stop) if order.status != OrderStatus::Cancelled => {
                    let choices = match stop.kind {
                        StopKind::Delivery => Stop::bookable_windows(c, &schedule, now.assume_utc())?
                            .into_iter()
                            .map(|window| PickupChoice::new(window.slot, 0))
                            .collect(),
                        StopKind::Pickup => Vec::new(),
                    };
                    Some(MissedVisit::new(stop, choices))
                }
                _ => None,
            };
            let visit = TrackedVisit::new(&order, &stops, schedule.minutes_per_stop, true);
            let texts_off = OptOut::is_opted_out(c, &order.phone)?;
            let prompt = MpesaPrompt::latest(c, &order.id)?;
            let payment = CustomerPayment::new(&order, &Entry::of_order(c, &order.id)?, prompt.as_ref(), prompts, now);
            // A receipt once money came in (or the order is delivered).
            let receipt = payment.paid.is_some() || order.status == OrderStatus::Delivered;
            let tracked = TrackedOrder::new(&order, &lines, &history).with_visit(visit);
            // The re-clean's pickup windows are the order form's.
            let mut reclean = RecleanSection::default();
            if let Some(offer) = Reclean::offer(c, &order, reclean_days, now)? {
                let moment = now.assume_utc();
                let pickup = if offer.askable() {
                    let (from, to) = (nairobi_day(moment), horizon_end(&schedule, moment));
                    Some(PickupChoices::new(&schedule, moment, &Stop::pickups_booked_between(c, from, to)?))
                } else {
                    None
                };
                reclean.card = Some(RecleanCard::new(&offer, reclean_days, pickup));
            }
            reclean.of = Reclean::links(c, &order.id)?.of.map(|(order, problem)| RecleanOf { order, problem });
            // Opened from the link texted to the phone: what its store credit would pay.
            let credit = match credit_key {
                Some(credit_key) if Order::credit_key_matches(c, &order.id, &credit_key)? => {
                    match crate::lifecycle::money::credit_usable(c, &order)? {
                        0 => None,
                        amount => {
                            Some(CreditOffer { held: Entry::credit_of(c, &order.phone)?, amount, key: credit_key })
                        }
                    }
                }
                _ => None,
            };
            let garments = CustomerGarments::new(&IntakeRecord::load(c, order)?, &key);
            let shown = (missed, texts_off, payment, receipt, reclean, garments, credit);
            Ok::<_, DbError>(Some((tracked, refusal, choices, shown)))
        })
        .await;
    let (order, refusal, choices, shown) = match loaded {
        Ok(Some(loaded)) => loaded,
        Ok(None) => return not_found(state, request).await,
        Err(error) => {
            tracing::error!(%error, "{LOAD_FAILED}");
            let pages = state.pages();
            let (page, _) = pages.render("", &ErrorProps { status: 500 }).await;
            return private(page.respond_private(request));
        }
    };
    let (missed, texts_off, payment, receipt, mut reclean, mut garments, credit_offer) = shown;
    reclean.form = outcome.reclean;
    if let Some((errors, story)) = outcome.claim {
        garments.errors = errors;
        garments.story = story;
    }
    // Cancelled and picked-up orders say so on their card; only a closed window needs a word here.
    let changeable = refusal.is_none();
    let closed = refusal.filter(|refusal| matches!(refusal, ChangeRefusal::PastCutoff(_) | ChangeRefusal::NoPickup));
    let till = &state.settings().business.mpesa_till;
    let problem = outcome.problem.or_else(|| outcome.refused.map(|refused| refused.problem(till, payment.due)));
    let props = OrderStatusProps {
        order,
        token: token.to_owned(),
        changeable,
        closed: closed.map(|refusal| refusal.to_string()),
        texts_off,
        texts_sent: state.settings().sms.missing().is_empty(),
        payment,
        receipt_path: receipt.then(|| format!("/t/{token}/receipt")),
        choices: choices.into_iter().map(|(slot, left)| PickupChoice::new(slot, left)).collect(),
        missed,
        problem,
        notice: outcome.notice.map(str::to_owned),
        reclean,
        garments,
        credit_offer,
        status: outcome.status,
    };
    let pages = state.pages();
    // The path of the tracking page: the header marks "Track Order", and the token stays out of it.
    let (page, _) = pages.render("/tracking", &props).await;
    private(page.respond_private(request))
}
