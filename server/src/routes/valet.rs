//! The valet page, for a cheap phone on 2G: `GET /valet` shows the day's stops of the signed-in
//! valet's run (staff and owners standing in choose a day and a run), rendered on the server and
//! never hydrated. Each stop's forms are plain HTML form posts (`/valet/stops/{id}/on-my-way`,
//! `…/picked-up`, `…/delivered`, `…/prompt`) that answer 303 back to the page with a notice, or the
//! page again with the message beside that stop's form.

use crate::auth::CurrentStaff;
use crate::clock::stored;
use crate::db::DbError;
use crate::domain::ledger::shillings;
use crate::domain::schedule::{Window, clock_time, day_label, nairobi_day, parse_day};
use crate::domain::{Collected, FieldErrors, PromptLimits, StaffRole, Weighing};
use crate::lifecycle::Context;
use crate::lifecycle::valet::{self, Actor, MAX_MISSED_REASON, Outcome, RunError};
use crate::models::day_board::{RUN_PAGE_STOPS, WindowPart};
use crate::models::mpesa::{AskRefusal, MpesaPrompt};
use crate::models::order_list::MoneyFacts;
use crate::models::staff::Staff;
use crate::models::valet_run::RunStop;
use crate::state::AppState;
use crate::views::valet::{
    RunChooser, RunWindowChoice, StopFormError, ValetAction, ValetChoice, ValetProps, ValetStop,
};
use actix_web::http::{StatusCode, header};
use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;
use std::collections::BTreeMap;
use time::Date;

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

/// Whose run, which day, and (everyone's stops of a busy day) which window.
#[derive(Debug, Clone)]
struct RunView {
    day: Date,
    /// The valet whose run it is; none: everyone's stops (staff only).
    valet: Option<String>,
    /// The window asked for (its first minute), when everyone's stops are shown a window at a time.
    window: Option<u16>,
    /// The part of that window asked for, from 1.
    part: Option<u32>,
}

impl RunView {
    /// A valet's own run `today` (in Nairobi); for staff, the day and run asked for (today and
    /// everyone's when not given, or not readable).
    fn of(staff: &CurrentStaff, date: Option<&str>, valet: Option<&str>, today: Date) -> RunView {
        if staff.role == StaffRole::Valet {
            return RunView { day: today, valet: Some(staff.id.clone()), window: None, part: None };
        }
        let day = date.and_then(parse_day).unwrap_or(today);
        // Account ids are UUIDs; anything else is no valet's.
        let valet =
            valet.map(str::trim).filter(|id| id.len() == 36 && id.bytes().all(|b| b.is_ascii_hexdigit() || b == b'-'));
        RunView { day, valet: valet.map(str::to_owned), window: None, part: None }
    }

    /// The view showing, of everyone's stops of a busy day, the window named by its start
    /// (`HH:MM`) and its part (from 1); anything else shows the first.
    fn showing(self, window: Option<&str>, part: Option<&str>) -> RunView {
        let window = window.and_then(|text| {
            let (hours, minutes) = text.trim().split_once(':')?;
            let (hours, minutes) = (hours.parse::<u16>().ok()?, minutes.parse::<u16>().ok()?);
            (hours < 24 && minutes < 60).then_some(hours * 60 + minutes)
        });
        let part = part.and_then(|part| part.trim().parse().ok()).filter(|part| *part >= 1);
        RunView { window, part, ..self }
    }

    /// `/valet` showing this view again, with what a form did.
    fn location(&self, staff: &CurrentStaff, notice: Notice, stop: &str) -> String {
        let mut query: Vec<(&str, String)> = Vec::new();
        if staff.role != StaffRole::Valet {
            query.push(("date", self.day.to_string()));
            if let Some(valet) = &self.valet {
                query.push(("valet", valet.clone()));
            }
        }
        query.push(("notice", notice.as_str()));
        query.push(("stop", stop.to_owned()));
        format!("/valet?{}#stop-{stop}", serde_urlencoded::to_string(&query).unwrap_or_default())
    }
}

/// What a form did, named in the address the page is sent back to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Notice {
    OnMyWay,
    PickedUp,
    Delivered,
    /// Delivered with a short count at the door: (items counted, tagged), (bags counted, taken in).
    DeliveredShort((i32, i32), (i32, i32)),
    PromptSent,
    Missed,
    Unchanged,
}

impl Notice {
    fn parse(text: &str) -> Option<Notice> {
        if let Some(counts) = text.strip_prefix("short-") {
            // `short-4-5-2-2`: four small whole numbers, or no notice at all.
            let number = |text: &str| text.parse::<i32>().ok().filter(|n| (0..=999).contains(n));
            let numbers: Vec<i32> = counts.split('-').map(number).collect::<Option<_>>()?;
            let [items, tagged, bags, taken]: [i32; 4] = numbers.try_into().ok()?;
            return Some(Notice::DeliveredShort((items, tagged), (bags, taken)));
        }
        [Notice::OnMyWay, Notice::PickedUp, Notice::Delivered, Notice::PromptSent, Notice::Missed, Notice::Unchanged]
            .into_iter()
            .find(|notice| notice.name() == text)
    }

    fn as_str(self) -> String {
        match self {
            Notice::DeliveredShort((items, tagged), (bags, taken)) => format!("short-{items}-{tagged}-{bags}-{taken}"),
            _ => self.name().to_owned(),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Notice::DeliveredShort(..) => "short",
            Notice::OnMyWay => "on-my-way",
            Notice::PickedUp => "picked-up",
            Notice::Delivered => "delivered",
            Notice::PromptSent => "prompt-sent",
            Notice::Missed => "missed",
            Notice::Unchanged => "unchanged",
        }
    }

    /// What the page says, about `stop` when it is on the page.
    fn text(self, stop: Option<&ValetStop>) -> String {
        let order = stop.map_or_else(|| "the order".to_owned(), |stop| format!("order {}", stop.order_id));
        match self {
            Notice::OnMyWay => format!("On your way to {order}. The next customers' ETAs have moved."),
            Notice::PickedUp => match stop {
                Some(stop) => {
                    format!("Picked up order {}: the bill is KSh {}.", stop.order_id, shillings(stop.total.into()))
                }
                None => "Picked up.".to_owned(),
            },
            Notice::Delivered => format!("Delivered {order}, and the payment is recorded."),
            Notice::DeliveredShort(items, bags) => {
                let mut short = Vec::new();
                if items.0 < items.1 {
                    short.push(format!("{} of {} items", items.0, items.1));
                }
                if bags.0 < bags.1 {
                    short.push(format!("{} of {} bags", bags.0, bags.1));
                }
                format!(
                    "Delivered {order}: {}. A claim is open: tell the customer we are looking.",
                    short.join(" and ")
                )
            }
            Notice::PromptSent => match stop {
                Some(stop) => format!(
                    "M-PESA prompt sent for order {}: the customer's phone asks for KSh {}. They enter their M-PESA PIN; reload to see it paid.",
                    stop.order_id,
                    shillings(stop.total.into())
                ),
                None => "M-PESA prompt sent.".to_owned(),
            },
            Notice::Missed => format!(
                "Marked missed: {order}. The customer gets a text to choose a new window, and staff see it on the dashboard."
            ),
            Notice::Unchanged => format!("Already recorded for {order}: nothing changed."),
        }
    }
}

/// What the page says besides the stops.
#[derive(Debug, Default)]
struct Said {
    notice: Option<String>,
    alert: Option<String>,
    form_error: Option<StopFormError>,
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

/// POST /valet/stops/{id}/on-my-way
pub async fn set_off(
    state: web::Data<AppState>,
    request: HttpRequest,
    staff: CurrentStaff,
    id: web::Path<String>,
    body: web::Bytes,
) -> HttpResponse {
    act(&state, &request, &staff, &id, ValetAction::OnMyWay, &body).await
}

/// POST /valet/stops/{id}/picked-up: `bags`, `kg`, `piece.<id>` counts, `addItem` and `addCount`.
pub async fn record_pickup(
    state: web::Data<AppState>,
    request: HttpRequest,
    staff: CurrentStaff,
    id: web::Path<String>,
    body: web::Bytes,
) -> HttpResponse {
    act(&state, &request, &staff, &id, ValetAction::PickedUp, &body).await
}

/// POST /valet/stops/{id}/delivered: `paid` (`cash`, `mpesa`, `already`) with `cash` or `mpesaCode`.
pub async fn record_delivery(
    state: web::Data<AppState>,
    request: HttpRequest,
    staff: CurrentStaff,
    id: web::Path<String>,
    body: web::Bytes,
) -> HttpResponse {
    act(&state, &request, &staff, &id, ValetAction::Delivered, &body).await
}

/// POST /valet/stops/{id}/prompt: "Send M-PESA prompt" at the door of an unpaid delivery.
pub async fn send_prompt(
    state: web::Data<AppState>,
    request: HttpRequest,
    staff: CurrentStaff,
    id: web::Path<String>,
    body: web::Bytes,
) -> HttpResponse {
    act(&state, &request, &staff, &id, ValetAction::Prompt, &body).await
}

/// POST /valet/stops/{id}/not-home: `reason` (not home, not ready, …): the stop is missed.
pub async fn record_missed(
    state: web::Data<AppState>,
    request: HttpRequest,
    staff: CurrentStaff,
    id: web::Path<String>,
    body: web::Bytes,
) -> HttpResponse {
    act(&state, &request, &staff, &id, ValetAction::NotHome, &body).await
}

/// A stop's form, read.
enum StopForm {
    OnMyWay,
    PickedUp(Weighing, Option<i32>),
    Delivered(Collected, Option<(i32, i32)>),
    Prompt,
    NotHome(String),
}

/// The pickup form: the weighing, and the items counted at the door (`doorItems`, optional: a
/// quick count the shop's intake checks its tags against).
fn picked_up_form(fields: &[(String, String)]) -> Result<StopForm, FieldErrors> {
    use crate::domain::garment::{MAX_ITEMS, parse_count};
    let value = fields.iter().find(|(name, _)| name == "doorItems").map(|(_, value)| value.as_str());
    let counted =
        value.filter(|value| !value.trim().is_empty()).map(|value| parse_count(Some(value), "items", 1, MAX_ITEMS));
    match (Weighing::from_form(fields), counted) {
        (Ok(weighing), None) => Ok(StopForm::PickedUp(weighing, None)),
        (Ok(weighing), Some(Ok(items))) => Ok(StopForm::PickedUp(weighing, Some(items))),
        (weighed, counted) => {
            let mut errors = weighed.err().unwrap_or_default();
            if let Some(Err(message)) = counted {
                errors.add("doorItems", message);
            }
            Err(errors)
        }
    }
}

/// The delivery form: how the customer paid, and the count handed over (`countItems` and
/// `countBags`, asked when the order's items were taken in with tags).
fn delivered_form(fields: &[(String, String)]) -> Result<StopForm, FieldErrors> {
    use crate::domain::garment::{MAX_BAGS, MAX_ITEMS, parse_count};
    let field = |name: &str| fields.iter().find(|(field, _)| field == name).map(|(_, value)| value.as_str());
    let given = |name: &str| field(name).is_some_and(|value| !value.trim().is_empty());
    let mut errors = FieldErrors::default();
    let collected = Collected::from_form(fields).map_err(|sent| {
        for name in sent.names() {
            errors.add(name.to_owned(), sent.get(name).unwrap_or_default().to_owned());
        }
    });
    let count = if given("countItems") || given("countBags") {
        let items = errors.check("countItems", parse_count(field("countItems"), "items", 0, MAX_ITEMS));
        let bags = errors.check("countBags", parse_count(field("countBags"), "bags", 0, MAX_BAGS));
        items.zip(bags)
    } else {
        None
    };
    match collected {
        Ok(collected) if errors.is_empty() => Ok(StopForm::Delivered(collected, count)),
        _ => Err(errors),
    }
}

/// The reason of a "Not home / not ready" form: one line, at most [`MAX_MISSED_REASON`] characters.
fn missed_reason(value: Option<&str>) -> Result<String, FieldErrors> {
    let mut errors = FieldErrors::default();
    match crate::domain::optional_text(value, "reason", MAX_MISSED_REASON, false) {
        Ok(Some(reason)) => return Ok(reason),
        Ok(None) => errors.add("reason", "Say why: not home, not ready, or what happened.".to_owned()),
        Err(message) => errors.add("reason", message),
    }
    Err(errors)
}

/// What a valet reads when the prompt is refused.
fn prompt_refusal(refusal: &AskRefusal) -> &'static str {
    match refusal {
        AskRefusal::TooSoon => "A prompt went to the customer's phone less than a minute ago: ask them to check it.",
        AskRefusal::TooMany => {
            "Five prompts went to this order in the last hour: take cash, or ask the customer to pay to the till."
        }
        other => other.message(),
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

fn alert(error: RunError) -> Said {
    Said { alert: Some(error.to_string()), ..Said::default() }
}

/// The page for `view`, saying `said` (and the `notice` of the last form, about its stop).
async fn run_page(
    state: &AppState,
    request: &HttpRequest,
    staff: &CurrentStaff,
    view: RunView,
    mut said: Said,
    notice: Option<(Notice, Option<String>)>,
    status: StatusCode,
) -> HttpResponse {
    let chooses = staff.role != StaffRole::Valet;
    let (day, valet, asked_window, asked_part) = (view.day, view.valet.clone(), view.window, view.part);
    let loaded = state
        .db()
        .run(move |connection| {
            let valets = if chooses { Staff::valets(connection)? } else { Vec::new() };
            // Staff asking for someone who is not a valet see everyone's stops.
            let valet = valet.filter(|id| !chooses || valets.iter().any(|account| &account.id == id));
            // Everyone's stops of a busy day, a window at a time (the one asked for, or the
            // first): only that window's stops are read in full.
            let everyone = valet.is_none() && chooses;
            let windows = if everyone { RunStop::windows_of_day(connection, day)? } else { Vec::new() };
            let busy = windows.iter().map(|(_, _, stops)| stops).sum::<usize>() > RUN_PAGE_STOPS;
            let shown = busy
                .then(|| {
                    let starts = || windows.iter().map(|(start, _, _)| *start);
                    starts().find(|start| Some(*start) == asked_window.map(i32::from)).or_else(|| starts().next())
                })
                .flatten();
            // A window of more than RUN_PAGE_STOPS stops, a part at a time, as on the day board.
            let in_window = windows.iter().find(|(start, _, _)| Some(*start) == shown).map_or(0, |w| w.2);
            let shown_part = WindowPart::of(in_window, asked_part);
            let cut = (shown_part.parts > 1).then_some((shown_part.skip, shown_part.take));
            let run = RunStop::of_day(connection, day, valet.as_deref(), shown, cut)?;
            let first = shown_part.skip + 1;
            let paging =
                (shown_part.part as u32, shown_part.parts as u32, first as u32, (first - 1 + run.len()) as u32);
            let ids: Vec<&str> = run.iter().map(|stop| stop.order.id.as_str()).collect();
            let mpesa = MoneyFacts::of_orders(connection, &ids)?;
            let windows = if busy { windows } else { Vec::new() };
            Ok::<_, DbError>((valets, valet, run, mpesa, windows, shown, paging))
        })
        .await;
    let (valets, valet, run, mpesa, windows, shown, (part, parts, first, last)) = match loaded {
        Ok(loaded) => loaded,
        Err(error) => {
            tracing::error!(%error, "the valet page could not be loaded");
            return HttpResponse::ServiceUnavailable()
                .insert_header((header::RETRY_AFTER, "5"))
                .content_type("text/plain; charset=utf-8")
                .body("The day's stops could not be loaded. Please try again.");
        }
    };
    let windows: Vec<RunWindowChoice> = windows
        .into_iter()
        .map(|(start, end, stops)| RunWindowChoice {
            start: clock_time(start as u16),
            label: Window::stored(start, end).to_string(),
            stops,
        })
        .collect();
    let window = shown.map(|start| clock_time(start as u16));
    let minutes_per_stop = state.settings().schedule.minutes_per_stop;
    let prompts_on = state.sends_prompts();
    let valet_email = |id: &Option<String>| {
        let id = id.as_deref()?;
        valets.iter().find(|account| account.id == id).map(|account| account.email.clone())
    };
    let mut stops: Vec<ValetStop> = run
        .iter()
        .map(|stop| {
            let shown_valet = if valet.is_none() { valet_email(&stop.stop.valet_id) } else { None };
            let prompt = mpesa.get(&stop.order.id).and_then(|facts| facts.prompt.as_ref());
            ValetStop::new(&state.settings().business.name, stop, minutes_per_stop, shown_valet, prompt, prompts_on)
        })
        .collect();
    // One valet's run is numbered from 1 as shown: its saved positions may skip stops that left
    // it (withdrawn, moved, a delivery whose pickup never happened). The ETAs keep the saved order.
    if valet.is_some() || !chooses {
        for (number, stop) in stops.iter_mut().filter(|stop| stop.position.is_some()).enumerate() {
            stop.position = i32::try_from(number + 1).ok();
        }
    }
    // A busy day's overview, a window at a time, carries no forms (they are most of a stop's
    // weight): staff recording at the door choose the valet whose run it is.
    if !windows.is_empty() {
        for stop in &mut stops {
            stop.actions.clear();
        }
    }
    // A form for a stop that is not on this page (another day's) says what went wrong at the top.
    if let Some(sent) = said.form_error.take_if(|sent| !stops.iter().any(|stop| stop.id == sent.stop_id)) {
        let first = sent.errors.names().next().and_then(|name| sent.errors.get(name)).map(str::to_owned);
        said.alert = sent.message.or(first);
    }
    if let Some((notice, stop)) = notice {
        said.notice = Some(notice.text(stop.and_then(|id| stops.iter().find(|shown| shown.id == id))));
    }
    let today = nairobi_day(state.clock().now());
    let props = ValetProps {
        signed_in: staff.email.clone(),
        csrf: staff.csrf_token.clone(),
        day: day.to_string(),
        day_label: day_label(day),
        today: day == today,
        chooser: chooses.then(|| RunChooser {
            valets: valets
                .iter()
                .map(|account| ValetChoice { id: account.id.clone(), email: account.email.clone() })
                .collect(),
            valet: valet.clone(),
            windows,
            window,
            part,
            parts,
            first,
            last,
        }),
        stops,
        notice: said.notice,
        alert: said.alert,
        form_error: said.form_error,
        status: status.as_u16(),
    };
    let (page, _) = state.pages().render("/valet", &props).await;
    page.respond_private(request)
}
