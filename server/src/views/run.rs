//! The day board as the dashboard's "Day's run" tab shows it: a day's stops by window, with what
//! a valet needs at the door, who runs each stop and in which place, and the valets to choose from.

use crate::domain::catalogue::Unit;
use crate::domain::schedule::{Schedule, Window, clock_time, day_label};
use crate::domain::{LineKind, OrderStatus, StopKind, StopState};
use crate::models::day_board::{BoardStop, DayBoard, DayStop};
use crate::models::staff::Staff;
use serde::Serialize;
use std::collections::{BTreeMap, HashSet};
use ts_rs::TS;

/// `GET /api/admin/run?date=`: the day's stops by window, and the valets.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DayRun {
    /// The day, `YYYY-MM-DD` (Nairobi).
    pub date: String,
    /// `Wed 25 Nov`.
    pub date_label: String,
    /// The schedule's windows and any other window a stop is in, in order of the day.
    pub windows: Vec<RunWindow>,
    /// The enabled valets, by e-mail.
    pub valets: Vec<RunValet>,
    /// Runs as saved that put a stop after one of a later window (the valet would wait for the
    /// later window first): one line each, which the board shows above the windows.
    pub warnings: Vec<String>,
    /// A day of more than 50 stops is shown a window at a time, 50 stops at most: the part
    /// shown. None: the whole day.
    pub page: Option<RunPage>,
    /// On such a day, the stops in a run that are not shown, so that moving and giving the shown
    /// ones keeps each run's places 1 to n.
    pub elsewhere: Vec<RunPlace>,
}

/// The part of a busy day shown.
#[derive(Debug, Clone, Serialize, TS)]
pub struct RunPage {
    /// The window shown, by its start: `19:00`.
    pub window: String,
    /// Which part of that window, from 1.
    pub part: u32,
    /// How many parts the window has (50 stops each).
    pub parts: u32,
    /// The window's stops shown: from this one (from 1) …
    pub first: u32,
    /// … to this one.
    pub last: u32,
}

/// A stop in a run that the page does not show.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RunPlace {
    /// The stop's id.
    pub id: String,
    /// Its window's start: `19:00`.
    pub start: String,
    /// The valet whose run it is in.
    pub valet_id: String,
    /// Its place in that run, from 1.
    pub position: i32,
}

/// One window of the day and its stops.
#[derive(Debug, Clone, Serialize, TS)]
pub struct RunWindow {
    /// `19:00`.
    pub start: String,
    /// `19:00-20:00`.
    pub label: String,
    /// Each valet's stops in run order, then those in no run yet (on a busy day: only in the
    /// window and part shown).
    pub stops: Vec<RunStop>,
    /// Its pickups, as saved (shown or not).
    pub pickups: u32,
    /// Its deliveries.
    pub deliveries: u32,
    /// Its stops in no run yet.
    pub unassigned: u32,
}

/// A valet who can be given stops.
#[derive(Debug, Clone, Serialize, TS)]
pub struct RunValet {
    /// The account's id.
    pub id: String,
    /// The account's e-mail.
    pub email: String,
}

/// One line of the order as the valet counts it: `Shirt × 2`, `Wash & Fold, 3 kg`.
#[derive(Debug, Clone, Serialize, TS)]
pub struct RunLine {
    /// What customers read.
    pub label: String,
    /// Kilograms or pieces.
    pub quantity: i32,
    /// Which of the two.
    pub unit: Unit,
}

/// One stop: a pickup or a delivery, with what a valet needs at the door.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RunStop {
    /// The stop's id (what a save names).
    pub id: String,
    /// Pickup or delivery.
    pub kind: StopKind,
    /// The order ID.
    pub order_id: String,
    /// The customer's name.
    pub name: String,
    /// `+2547XXXXXXXX`.
    pub phone: String,
    /// The pickup location.
    pub location: String,
    /// A landmark beside it; possibly empty.
    pub landmark: String,
    /// A link opening the customer's map pin, if they shared one.
    pub map_link: Option<String>,
    /// Special instructions; possibly empty.
    pub instructions: String,
    /// The items, kg and pieces (no discounts or surcharges).
    pub lines: Vec<RunLine>,
    /// Whether staff confirmed the slot (pickups; a delivery follows its pickup).
    pub confirmed: bool,
    /// How far it has got.
    pub state: StopState,
    /// Where the order is.
    pub status: OrderStatus,
    /// What the valet collects, as the valet's page says it: "Collect KSh 1,600", "Paid · nothing
    /// to collect".
    pub money: String,
    /// KSh still to pay (0 when nothing).
    #[ts(type = "number")]
    pub to_collect: i64,
    /// The valet whose run it is in.
    pub valet_id: Option<String>,
    /// That valet's e-mail (also when the account was disabled since).
    pub valet_email: Option<String>,
    /// Its place in that run, from 1.
    pub position: Option<i32>,
}

impl RunStop {
    fn new(entry: &BoardStop, board: &DayBoard) -> Self {
        let (stop, order) = (&entry.stop, &entry.order);
        RunStop {
            id: stop.id.clone(),
            kind: stop.kind,
            order_id: order.reference.clone(),
            name: order.customer_name.clone(),
            phone: order.phone.clone(),
            location: order.location.clone(),
            landmark: order.landmark.clone(),
            map_link: order.pin().map(|pin| pin.map_link()),
            instructions: order.special_instructions.clone(),
            lines: entry
                .lines
                .iter()
                .filter(|line| matches!(line.kind, LineKind::Kg | LineKind::Piece))
                .map(|line| RunLine { label: line.label.clone(), quantity: line.quantity, unit: line.unit })
                .collect(),
            confirmed: stop.confirmed_at.is_some(),
            state: stop.state,
            status: order.status,
            money: entry.balance.valet_words(),
            to_collect: entry.balance.to_pay(),
            valet_id: stop.valet_id.clone(),
            valet_email: stop.valet_id.as_ref().and_then(|id| board.accounts.get(id)).map(|a| a.email.clone()),
            position: stop.run_position,
        }
    }
}

impl DayRun {
    /// The board of a day, its windows laid out by `schedule`.
    pub fn new(board: &DayBoard, schedule: &Schedule) -> Self {
        let mut windows: BTreeMap<(u16, u16), RunWindow> = BTreeMap::new();
        for plan in &schedule.windows {
            window_entry(&mut windows, plan.window);
        }
        for stop in &board.day_stops {
            let window = window_entry(&mut windows, stop.window());
            match stop.kind {
                StopKind::Pickup => window.pickups += 1,
                StopKind::Delivery => window.deliveries += 1,
            }
            window.unassigned += u32::from(stop.valet_id.is_none());
        }
        for entry in &board.stops {
            window_entry(&mut windows, entry.stop.slot().window).stops.push(RunStop::new(entry, board));
        }
        let shown: HashSet<&str> = board.stops.iter().map(|entry| entry.stop.id.as_str()).collect();
        let elsewhere = match board.page {
            None => Vec::new(),
            Some(_) => board
                .day_stops
                .iter()
                .filter(|stop| !shown.contains(stop.id.as_str()))
                .filter_map(|stop| {
                    Some(RunPlace {
                        id: stop.id.clone(),
                        start: clock_time(stop.window_start as u16),
                        valet_id: stop.valet_id.clone()?,
                        position: stop.run_position?,
                    })
                })
                .collect(),
        };
        DayRun {
            date: board.day.to_string(),
            date_label: day_label(board.day),
            windows: windows.into_values().collect(),
            valets: board.valets.iter().map(RunValet::from).collect(),
            warnings: out_of_order(board),
            page: board.page.map(|page| RunPage {
                window: clock_time(page.window.start),
                part: page.part,
                parts: page.parts,
                first: page.first,
                last: page.last,
            }),
            elsewhere,
        }
    }
}

/// The window of the board starting at `window`, added (empty) if it is not there yet.
fn window_entry(windows: &mut BTreeMap<(u16, u16), RunWindow>, window: Window) -> &mut RunWindow {
    windows.entry((window.start, window.end)).or_insert_with(|| RunWindow {
        start: clock_time(window.start),
        label: window.to_string(),
        stops: Vec::new(),
        pickups: 0,
        deliveries: 0,
        unassigned: 0,
    })
}

/// The stops still to be done that a run puts after a stop of a later window: "Order K7MX2QPD
/// (19:00-20:00) comes after order AB12CD34 (21:00-22:00) in otieno@example.com's run, so its ETA
/// is after 21:00." Of the whole day, shown or not.
fn out_of_order(board: &DayBoard) -> Vec<String> {
    let mut runs: BTreeMap<&str, Vec<&DayStop>> = BTreeMap::new();
    for stop in board.day_stops.iter().filter(|stop| stop.state.is_open()) {
        if let (Some(valet), Some(_)) = (stop.valet_id.as_deref(), stop.run_position) {
            runs.entry(valet).or_default().push(stop);
        }
    }
    let mut warnings = Vec::new();
    for (valet, mut run) in runs {
        run.sort_by_key(|stop| stop.run_position);
        let who = board.accounts.get(valet).map_or(valet, |account| account.email.as_str());
        let mut latest: Option<&DayStop> = None;
        for stop in run {
            let window = stop.window();
            match latest {
                Some(before) if before.window().start > window.start => {
                    let later = before.window();
                    warnings.push(format!(
                        "Order {} ({window}) comes after order {} ({later}) in {who}'s run, so its ETA is after {}.",
                        stop.reference,
                        before.reference,
                        clock_time(later.start)
                    ));
                }
                _ => latest = Some(stop),
            }
        }
    }
    warnings
}

impl From<&Staff> for RunValet {
    fn from(valet: &Staff) -> Self {
        RunValet { id: valet.id.clone(), email: valet.email.clone() }
    }
}
