//! The day board as the dashboard's "Day's run" tab shows it: a day's stops by window, with what
//! a valet needs at the door, who runs each stop and in which place, and the valets to choose from.

use crate::domain::catalogue::Unit;
use crate::domain::schedule::{Schedule, Window, clock_time, day_label};
use crate::domain::{LineKind, StopKind, StopState};
use crate::models::day_board::{BoardStop, DayBoard};
use crate::models::staff::Staff;
use serde::Serialize;
use std::collections::BTreeMap;
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
}

/// One window of the day and its stops.
#[derive(Debug, Clone, Serialize, TS)]
pub struct RunWindow {
    /// `19:00`.
    pub start: String,
    /// `19:00-20:00`.
    pub label: String,
    /// Each valet's stops in run order, then those in no run yet.
    pub stops: Vec<RunStop>,
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
            valet_id: stop.valet_id.clone(),
            valet_email: stop.valet_id.as_ref().and_then(|id| board.accounts.get(id)).map(|a| a.email.clone()),
            position: stop.run_position,
        }
    }
}

impl DayRun {
    /// The board of a day, its windows laid out by `schedule`.
    pub fn new(board: &DayBoard, schedule: &Schedule) -> Self {
        let mut windows: BTreeMap<(u16, u16), Vec<RunStop>> =
            schedule.windows.iter().map(|plan| ((plan.window.start, plan.window.end), Vec::new())).collect();
        for entry in &board.stops {
            let window = entry.stop.slot().window;
            windows.entry((window.start, window.end)).or_default().push(RunStop::new(entry, board));
        }
        DayRun {
            date: board.day.to_string(),
            date_label: day_label(board.day),
            windows: windows
                .into_iter()
                .map(|((start, end), stops)| RunWindow {
                    start: clock_time(start),
                    label: Window { start, end }.to_string(),
                    stops,
                })
                .collect(),
            valets: board.valets.iter().map(RunValet::from).collect(),
            warnings: out_of_order(board),
        }
    }
}

/// The stops still to be done that a run puts after a stop of a later window: "Order K7MX2QPD
/// (19:00-20:00) comes after order AB12CD34 (21:00-22:00) in otieno@example.com's run, so its ETA
/// is after 21:00."
fn out_of_order(board: &DayBoard) -> Vec<String> {
    let mut runs: BTreeMap<&str, Vec<&BoardStop>> = BTreeMap::new();
    for entry in board.stops.iter().filter(|entry| entry.stop.state.is_open()) {
        if let (Some(valet), Some(_)) = (entry.stop.valet_id.as_deref(), entry.stop.run_position) {
            runs.entry(valet).or_default().push(entry);
        }
    }
    let mut warnings = Vec::new();
    for (valet, mut run) in runs {
        run.sort_by_key(|entry| entry.stop.run_position);
        let who = board.accounts.get(valet).map_or(valet, |account| account.email.as_str());
        let mut latest: Option<&BoardStop> = None;
        for entry in run {
            let window = entry.stop.slot().window;
            match latest {
                Some(before) if before.stop.slot().window.start > window.start => {
                    let later = before.stop.slot().window;
                    warnings.push(format!(
                        "Order {} ({window}) comes after order {} ({later}) in {who}'s run, so its ETA is after {}.",
                        entry.order.reference,
                        before.order.reference,
                        clock_time(later.start)
                    ));
                }
                _ => latest = Some(entry),
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
