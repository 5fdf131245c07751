//! The valet page, for a cheap phone on 2G: `GET /valet` shows the day's stops of the signed-in
//! valet's run (staff and owners standing in choose a day and a run), rendered on the server and
//! never hydrated. Each stop's forms are plain HTML form posts (`/valet/stops/{id}/on-my-way`,
//! `…/picked-up`, `…/delivered`, `…/prompt`) that answer 303 back to the page with a notice, or the
//! page again with the message beside that stop's form.

use crate::auth::CurrentStaff;
use crate::clock::stored;
use crate::db::DbError;
use crate::domain::schedule::nairobi_day;
use crate::domain::{FieldErrors, PromptLimits, StaffRole};
use crate::lifecycle::Context;
use crate::lifecycle::valet::{self, Actor, Outcome, RunError};
use crate::models::mpesa::{AskRefusal, MpesaPrompt};
use crate::state::AppState;
use crate::views::valet::{StopFormError, ValetAction};
use actix_web::http::{StatusCode, header};
use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;
use std::collections::BTreeMap;

mod forms;
mod page;

use forms::{StopForm, delivered_form, missed_reason, picked_up_form, prompt_refusal};
use page::{Notice, RunView, Said, alert, run_page};

/// What a valet reads when a change could not be stored.
const SAVE_FAILED: &str = "That could not be saved. Please try again.";

/// `?date=YYYY-MM-DD&valet=<id>&window=HH:MM&part=N` (staff and owners only: a valet always sees
/// their own run today), and what the last form did (`notice`, `stop`).
#[derive(Debug, Default, Deserialize)]
pub struct RunQuery {
    date: Option<String>,
    valet: Option<String>,
    window: Option<String>,
    part: Option<String>,
    notice: Option<String>,
    stop: Option<String>,
}

/// GET /valet
pub async fn show_run(
    state: web::Data<AppState>,
    request: HttpRequest,
    staff: CurrentStaff,
    query: web::Query<RunQuery>,
) -> HttpResponse {
    let today = nairobi_day(state.clock().now());
    let view = RunView::of(&staff, query.date.as_deref(), query.valet.as_deref(), today)
        .showing(query.window.as_deref(), query.part.as_deref());
    let notice = query.notice.as_deref().and_then(Notice::parse).map(|notice| (notice, query.stop.clone()));
    run_page(&state, &request, &staff, view, Said::default(), notice, StatusCode::OK).await
}

/// POST /valet/stops/{id}/{action}: one form of a stop, its action named by the last segment
/// ([`ValetAction::segment`]): `on-my-way`; `picked-up` with `bags`, `kg`, `piece.<id>` counts,
/// `addItem` and `addCount`; `delivered` with `paid` (`cash`, `mpesa`, `already`) and `cash` or
/// `mpesaCode`; `prompt` ("Send M-PESA prompt" at the door of an unpaid delivery); `not-home` with
/// `reason` (the stop is missed). Any other segment is not found.
pub async fn act_on_stop(
    state: web::Data<AppState>,
    request: HttpRequest,
    staff: CurrentStaff,
    path: web::Path<(String, String)>,
    body: web::Bytes,
) -> HttpResponse {
    let (id, segment) = path.into_inner();
    match ValetAction::from_segment(&segment) {
        Some(action) => act(&state, &request, &staff, &id, action, &body).await,
        None => state.pages().not_found().await.respond(&request),
    }
}

/// Reads and records one form of stop `id`; 303 back to the page, or the page with the message.
async fn act(
    state: &AppState,
    request: &HttpRequest,
    staff: &CurrentStaff,
    id: &str,
    action: ValetAction,
    body: &[u8],
) -> HttpResponse {
    let fields: Vec<(String, String)> = serde_urlencoded::from_bytes(body).unwrap_or_default();
    let field = |name: &str| fields.iter().find(|(field, _)| field == name).map(|(_, value)| value.as_str());
    let today = nairobi_day(state.clock().now());
    // A busy day's overview carries no forms, so a form never names a window.
    let view = RunView::of(staff, field("date"), field("valet"), today);
    let sent_back = |errors: FieldErrors, message: Option<String>| Said {
        form_error: Some(StopFormError {
            stop_id: id.to_owned(),
            action,
            errors,
            message,
            values: fields.iter().filter(|(name, _)| name != "csrf").cloned().collect::<BTreeMap<_, _>>(),
        }),
        ..Said::default()
    };
    let form = match action {
        ValetAction::OnMyWay => Ok(StopForm::OnMyWay),
        ValetAction::PickedUp => picked_up_form(&fields),
        ValetAction::Delivered => delivered_form(&fields),
        ValetAction::Prompt => Ok(StopForm::Prompt),
        ValetAction::NotHome => missed_reason(field("reason")).map(StopForm::NotHome),
    };
    let form = match form {
        Ok(form) => form,
        Err(errors) => {
            let said = sent_back(errors, None);
            return run_page(state, request, staff, view, said, None, StatusCode::UNPROCESSABLE_ENTITY).await;
        }
    };
    let notify = state.notify_customer();
    let schedule = state.settings().schedule.clone();
    let (stop_id, email) = (id.to_owned(), staff.email.clone());
    let only_run_of = (staff.role == StaffRole::Valet).then(|| staff.id.clone());
    // Prompts go by the settings' clock, as their worker and callbacks do (their rate limits compare
    // times all of them write).
    let prompt_now = stored(state.settings().clock.now());
    let now = state.now();
    if action == ValetAction::Prompt && !state.sends_prompts() {
        let said = sent_back(FieldErrors::default(), Some("M-PESA prompts are not configured here.".to_owned()));
        return run_page(state, request, staff, view, said, None, StatusCode::CONFLICT).await;
    }
    let recorded = state
        .db()
        .run(move |connection| {
            let actor = Actor { email: &email, only_run_of: only_run_of.as_deref() };
            let context = Context { by: &email, notify: &notify, schedule: &schedule, now };
            Ok::<_, DbError>(match &form {
                StopForm::OnMyWay => valet::set_off(connection, &stop_id, actor, &context),
                StopForm::PickedUp(weighing, items) => {
                    valet::pick_up(connection, &stop_id, actor, (weighing, *items), &context)
                }
                StopForm::Delivered(collected, count) => {
                    valet::deliver(connection, &stop_id, actor, (collected, *count), &context)
                }
                StopForm::NotHome(reason) => valet::miss(connection, &stop_id, actor, reason, &context),
                StopForm::Prompt => {
                    ask_at_the_door(connection, &stop_id, actor, now, (notify.prompt_limits, prompt_now))
                }
            })
        })
        .await;
    let recorded = match recorded {
        Ok(recorded) => recorded,
        Err(error) => {
            tracing::error!(%error, stop_id = %id, "a valet's form could not be saved");
            let said = Said { alert: Some(SAVE_FAILED.to_owned()), ..Said::default() };
            return run_page(state, request, staff, view, said, None, StatusCode::SERVICE_UNAVAILABLE).await;
        }
    };
    let (status, said) = match recorded {
        Ok(outcome) => {
            let notice = match (outcome, action) {
                (Outcome::Unchanged, _) => Notice::Unchanged,
                (Outcome::DeliveredShort { counted, expected }, _) => {
                    Notice::DeliveredShort((counted.0, expected.0), (counted.1, expected.1))
                }
                (Outcome::Changed, ValetAction::OnMyWay) => Notice::OnMyWay,
                (Outcome::Changed, ValetAction::PickedUp) => Notice::PickedUp,
                (Outcome::Changed, ValetAction::Delivered) => Notice::Delivered,
                (Outcome::Changed, ValetAction::Prompt) => Notice::PromptSent,
                (Outcome::Changed, ValetAction::NotHome) => Notice::Missed,
            };
            if outcome != Outcome::Unchanged {
                tracing::info!(stop_id = %id, action = action.segment(), staff = %staff.email, "valet stop recorded");
                state.wake_outbox();
                state.wake_prompts();
            }
            return HttpResponse::SeeOther()
                .insert_header((header::LOCATION, view.location(staff, notice, id)))
                .insert_header((header::CACHE_CONTROL, "no-store"))
                .finish();
        }
        Err(RunError::NoSuchStop) => (StatusCode::NOT_FOUND, alert(RunError::NoSuchStop)),
        Err(RunError::NotYourStop) => {
            tracing::warn!(stop_id = %id, staff = %staff.email, "a valet's form for a stop of another run was refused");
            (StatusCode::FORBIDDEN, alert(RunError::NotYourStop))
        }
        Err(RunError::Cancelled) => (StatusCode::CONFLICT, alert(RunError::Cancelled)),
        Err(RunError::Refused(message)) => {
            (StatusCode::CONFLICT, sent_back(FieldErrors::default(), Some(message.to_owned())))
        }
        Err(RunError::PromptsHeld(message) | RunError::Slot(message)) => {
            (StatusCode::CONFLICT, sent_back(FieldErrors::default(), Some(message)))
        }
        Err(RunError::Lifecycle(refusal)) => {
            (StatusCode::CONFLICT, sent_back(FieldErrors::default(), Some(refusal.to_string())))
        }
        Err(RunError::Invalid(errors)) => (StatusCode::UNPROCESSABLE_ENTITY, sent_back(errors, None)),
        Err(RunError::CodeUsedBy(reference)) => {
            let mut errors = FieldErrors::default();
            errors.add(
                "mpesaCode",
                format!("This M-PESA code is already recorded for order {reference}. Check the code in the customer's M-PESA message."),
            );
            (StatusCode::UNPROCESSABLE_ENTITY, sent_back(errors, None))
        }
        Err(RunError::Database(error)) => {
            tracing::error!(%error, stop_id = %id, "a valet's form could not be saved");
            (StatusCode::SERVICE_UNAVAILABLE, Said { alert: Some(SAVE_FAILED.to_owned()), ..Said::default() })
        }
    };
    run_page(state, request, staff, view, said, None, status).await
}

/// Sends the prompt of the delivery stop `id`'s order, when `actor` may (see
/// [`valet::order_to_prompt`]) and its rate limits allow.
fn ask_at_the_door(
    connection: &mut crate::db::DbConnection,
    id: &str,
    actor: Actor<'_>,
    now: time::PrimitiveDateTime,
    (limits, prompt_now): (PromptLimits, time::PrimitiveDateTime),
) -> Result<Outcome, RunError> {
    let order = valet::order_to_prompt(connection, id, actor, now)?;
    match MpesaPrompt::ask_again(connection, &order.id, actor.email, limits, prompt_now)? {
        Ok(_) => Ok(Outcome::Changed),
        Err(AskRefusal::PhoneLimit(again)) => Err(RunError::PromptsHeld(format!(
            "This phone number was sent as many M-PESA prompts as we allow ({}): take cash, or ask the customer to pay to the till.",
            AskRefusal::again_words(again)
        ))),
        Err(refusal) => Err(RunError::Refused(prompt_refusal(&refusal))),
    }
}
