//! The demo's pages for the person trying it (plain HTML, work without JavaScript; a "Refresh"
//! link shows what arrived since, rather than a page that reloads under a screen reader):
//! - `GET /dev`: where to start, the accounts to sign in with, and the shop's clock, which
//!   `POST /dev/clock` (`hours`) moves on: what became late is marked at once, the 5:30pm texts
//!   at the jobs' next look;
//! - `GET /dev/texts`: every text and e-mail that reached the fake providers, newest first;
//! - `GET /dev/mpesa`: the prompts sent to customers' phones; one waiting can be paid, cancelled
//!   or left to time out (`POST /dev/mpesa/{checkout}/pay|cancel|timeout`), which sends the
//!   callback Daraja would send to the URL the prompt named.

use crate::clock::NAIROBI;
use crate::fakes::{FakeDaraja, Fakes, Prompt, PromptEnd};
use crate::routes::same_site::{cross_site_form, from_another_site};
use crate::state::AppState;
use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use time::OffsetDateTime;

/// The accounts the demo made, as `/dev` lists them.
#[derive(Debug, Clone, Default)]
pub struct Accounts(pub Vec<super::seed::Account>);

#[derive(Template)]
#[template(path = "dev.html")]
struct DevPage<'a> {
    title: &'a str,
    section: &'a str,
    notice: Option<String>,
    /// The shop's time by the demo's clock: `Sun 29 Nov, 21:15`.
    now: String,
    accounts: &'a [super::seed::Account],
    messages: Vec<ShownMessage>,
    prompts: Vec<ShownPrompt>,
}

struct ShownMessage {
    at: String,
    channel: &'static str,
    to: String,
    subject: String,
    body: String,
}

struct ShownPrompt {
    checkout: String,
    at: String,
    phone: String,
    amount: String,
    order: String,
    state: String,
    waiting: bool,
}

fn clock_time(at: OffsetDateTime) -> String {
    let at = at.to_offset(NAIROBI);
    format!("{:02}:{:02}:{:02}", at.hour(), at.minute(), at.second())
}

/// Every text and e-mail the fakes received, newest first (an e-mail's parameters one per line).
fn messages(fakes: &Fakes) -> Vec<ShownMessage> {
    let texts = fakes.at.received().into_iter().map(|text| {
        let shown = ShownMessage {
            at: clock_time(text.arrived),
            channel: "Text",
            to: text.field("to").to_owned(),
            subject: String::new(),
            body: text.field("message").to_owned(),
        };
        (text.arrived, shown)
    });
    let value = |value: &serde_json::Value| value.as_str().map_or_else(|| value.to_string(), str::to_owned);
    let emails = fakes.mail.received().into_iter().map(|email| {
        let params = email.body["template_params"].as_object().cloned().unwrap_or_default();
        let shown = ShownMessage {
            at: clock_time(email.arrived),
            channel: "E-mail",
            to: email.to().unwrap_or(crate::fakes::SHOP_EMAIL).to_owned(),
            subject: email.body["template_id"].as_str().unwrap_or_default().to_owned(),
            body: params.iter().map(|(name, v)| format!("{name}: {}", value(v))).collect::<Vec<_>>().join("\n"),
        };
        (email.arrived, shown)
    });
    let mut all: Vec<_> = texts.chain(emails).collect();
    // Newest first; a text and an e-mail of the same instant keep their order.
    all.sort_by_key(|(at, _)| std::cmp::Reverse(*at));
    all.into_iter().map(|(_, shown)| shown).collect()
}

impl From<Prompt> for ShownPrompt {
    fn from(prompt: Prompt) -> Self {
        let state = match &prompt.end {
            None => "Waiting on the phone".to_owned(),
            Some(PromptEnd::Paid(receipt)) => format!("Paid ({receipt})"),
            Some(PromptEnd::Cancelled) => "Cancelled by the customer".to_owned(),
            Some(PromptEnd::TimedOut) => "Timed out".to_owned(),
        };
        ShownPrompt {
            checkout: prompt.checkout_request_id,
            at: clock_time(prompt.asked_at),
            phone: format!("+{}", prompt.phone),
            amount: format!("KSh {}", crate::domain::shillings(prompt.amount)),
            order: prompt.account_reference,
            waiting: prompt.end.is_none(),
            state,
        }
    }
}

fn page(page: DevPage<'_>) -> HttpResponse {
    match page.render() {
        Ok(html) => HttpResponse::Ok()
            .insert_header((header::CACHE_CONTROL, "no-store"))
            .content_type("text/html; charset=utf-8")
            .body(html),
        Err(error) => {
            tracing::error!(%error, "a demo page failed to render");
            HttpResponse::InternalServerError().body("The demo page failed to render.")
        }
    }
}

/// The shop's time by `state`'s clock, as `/dev` shows it.
fn shop_time(state: &AppState) -> String {
    let at = state.clock().nairobi();
    let day = crate::domain::schedule::day_label(at.date());
    format!("{day}, {:02}:{:02}", at.hour(), at.minute())
}

/// How far `POST /dev/clock` moves the clock on, at most (a week).
const MAX_HOURS: i64 = 168;

/// `GET /dev` (`?moved=` says what the last move of the clock did).
pub async fn index(
    state: web::Data<AppState>,
    accounts: web::Data<Accounts>,
    query: web::Query<std::collections::HashMap<String, String>>,
) -> HttpResponse {
    page(DevPage {
        title: "Demo",
        section: "index",
        notice: query.get("moved").filter(|text| text.len() <= 200).cloned(),
        now: shop_time(&state),
        accounts: &accounts.0,
        messages: Vec::new(),
        prompts: Vec::new(),
    })
}

/// `GET /dev/texts`.
pub async fn texts(fakes: web::Data<Fakes>) -> HttpResponse {
    page(DevPage {
        title: "Texts and e-mails",
        section: "texts",
        notice: None,
        now: String::new(),
        accounts: &[],
        messages: messages(&fakes),
        prompts: Vec::new(),
    })
}

/// `GET /dev/mpesa` (`?ended=` names the prompt just ended, and how the server answered).
pub async fn mpesa(
    fakes: web::Data<Fakes>,
    query: web::Query<std::collections::HashMap<String, String>>,
) -> HttpResponse {
    page(DevPage {
        title: "M-PESA prompts",
        section: "mpesa",
        notice: query.get("ended").filter(|text| text.len() <= 200).cloned(),
        now: String::new(),
        accounts: &[],
        messages: Vec::new(),
        prompts: fakes.daraja.prompts().into_iter().rev().map(ShownPrompt::from).collect(),
    })
}

/// `POST /dev/mpesa/{checkout}/{pay|cancel|timeout}`: ends a waiting prompt and sends Daraja's
/// callback to the URL the prompt named; back to `/dev/mpesa` saying how the server answered.
pub async fn end_prompt(
    state: web::Data<AppState>,
    fakes: web::Data<Fakes>,
    request: HttpRequest,
    path: web::Path<(String, String)>,
) -> HttpResponse {
    if from_another_site(&state, &request) {
        return cross_site_form();
    }
    let (checkout, end) = path.into_inner();
    let end = match end.as_str() {
        "pay" => PromptEnd::Paid(crate::fakes::control::new_receipt()),
        "cancel" => PromptEnd::Cancelled,
        "timeout" => PromptEnd::TimedOut,
        _ => return HttpResponse::NotFound().body("Ends are pay, cancel and timeout."),
    };
    let said = match fakes.daraja.end(&checkout, end) {
        None => "That prompt is not waiting any more.".to_owned(),
        Some(prompt) => FakeDaraja::send_callback(&prompt).await,
    };
    let query = serde_urlencoded::to_string([("ended", said)]).unwrap_or_default();
    HttpResponse::SeeOther().insert_header((header::LOCATION, format!("/dev/mpesa?{query}"))).finish()
}

/// The clock form: `hours=3`.
#[derive(Debug, serde::Deserialize)]
pub struct ClockForm {
    hours: String,
}

/// `POST /dev/clock` (`hours`, 1 to 168): moves the demo's clock on, then marks late at once the
/// stops whose window it passed (the customers' texts land on `/dev/texts`); back to `/dev` saying
/// so. A number out of range is a 400 that says what to send.
pub async fn move_clock(state: web::Data<AppState>, request: HttpRequest, form: web::Form<ClockForm>) -> HttpResponse {
    if from_another_site(&state, &request) {
        return cross_site_form();
    }
    let Some(hours) = form.hours.trim().parse::<i64>().ok().filter(|hours| (1..=MAX_HOURS).contains(hours)) else {
        return HttpResponse::BadRequest()
            .content_type("text/plain; charset=utf-8")
            .body(format!("Send hours as a whole number from 1 to {MAX_HOURS}."));
    };
    if !state.clock().advance(time::Duration::hours(hours)) {
        return HttpResponse::Conflict().body("This server goes by the system's clock, which cannot be moved.");
    }
    let (schedule, notify, now) = (state.settings().schedule.clone(), state.notify_customer(), state.now());
    let marked = state
        .db()
        .run(move |connection| {
            crate::lifecycle::late::mark_late_stops(connection, &schedule, &notify, now)
                .map_err(|error| crate::db::DbError::Task(error.to_string()))
        })
        .await;
    let said = match marked {
        Ok(0) => format!("The clock moved on {hours} h: it is now {}.", shop_time(&state)),
        Ok(marked) => {
            state.wake_outbox();
            format!(
                "The clock moved on {hours} h: it is now {}; {marked} stops whose window passed are late.",
                shop_time(&state)
            )
        }
        Err(error) => {
            tracing::error!(%error, "the late stops could not be marked after the demo's clock moved");
            format!("The clock moved on {hours} h, but the late stops could not be marked: see the server's log.")
        }
    };
    let query = serde_urlencoded::to_string([("moved", said)]).unwrap_or_default();
    HttpResponse::SeeOther().insert_header((header::LOCATION, format!("/dev?{query}"))).finish()
}
