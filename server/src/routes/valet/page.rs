//! The valet page as rendered: the run shown (whose, which day, which window), the notice after a
//! form, and the page with what was said beside a stop's form.

use crate::auth::CurrentStaff;
use crate::db::DbError;
use crate::domain::StaffRole;
use crate::domain::ledger::shillings;
use crate::domain::schedule::{Window, clock_time, day_label, nairobi_day, parse_day};
use crate::lifecycle::valet::RunError;
use crate::models::day_board::{RUN_PAGE_STOPS, WindowPart};
use crate::models::order_list::MoneyFacts;
use crate::models::staff::Staff;
use crate::models::valet_run::RunStop;
use crate::state::AppState;
use crate::views::valet::{RunChooser, RunWindowChoice, StopFormError, ValetChoice, ValetProps, ValetStop};
use actix_web::http::{StatusCode, header};
use actix_web::{HttpRequest, HttpResponse};
use time::Date;

/// Whose run, which day, and (everyone's stops of a busy day) which window.
#[derive(Debug, Clone)]
pub(super) struct RunView {
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
    pub(super) fn of(staff: &CurrentStaff, date: Option<&str>, valet: Option<&str>, today: Date) -> RunView {
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
    pub(super) fn showing(self, window: Option<&str>, part: Option<&str>) -> RunView {
        let window = window.and_then(|text| {
            let (hours, minutes) = text.trim().split_once(':')?;
            let (hours, minutes) = (hours.parse::<u16>().ok()?, minutes.parse::<u16>().ok()?);
            (hours < 24 && minutes < 60).then_some(hours * 60 + minutes)
        });
        let part = part.and_then(|part| part.trim().parse().ok()).filter(|part| *part >= 1);
        RunView { window, part, ..self }
    }

    /// `/valet` showing this view again, with what a form did.
    pub(super) fn location(&self, staff: &CurrentStaff, notice: Notice, stop: &str) -> String {
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
pub(super) enum Notice {
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
    pub(super) fn parse(text: &str) -> Option<Notice> {
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

    pub(super) fn as_str(self) -> String {
        match self {
            Notice::DeliveredShort((items, tagged), (bags, taken)) => format!("short-{items}-{tagged}-{bags}-{taken}"),
            _ => self.name().to_owned(),
        }
    }

    pub(super) fn name(self) -> &'static str {
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
    pub(super) fn text(self, stop: Option<&ValetStop>) -> String {
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
pub(super) struct Said {
    pub(super) notice: Option<String>,
    pub(super) alert: Option<String>,
    pub(super) form_error: Option<StopFormError>,
}

pub(super) fn alert(error: RunError) -> Said {
    Said { alert: Some(error.to_string()), ..Said::default() }
}

/// The page for `view`, saying `said` (and the `notice` of the last form, about its stop).
pub(super) async fn run_page(
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
