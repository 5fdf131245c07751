//! The day board: a day's pickups and deliveries (stops not cancelled) with their orders, lines
//! and valets, and saving the day's runs (which valet takes each stop, in which order) in one
//! transaction that checks every item first and changes nothing when one is wrong.

use crate::db::schema::{orders, stops};
use crate::db::{DbConnection, write_transaction};
use crate::domain::schedule::{Window, day_label};
use crate::domain::{Balance, StopKind, StopState};
use crate::models::ledger::Entry;
use crate::models::order::{Order, OrderLine};
use crate::models::staff::Staff;
use crate::models::stop::Stop;
use diesel::prelude::*;
use std::collections::{BTreeMap, HashMap, HashSet};
use time::Date;

/// The most stops one save may name.
pub const MAX_RUN_ITEMS: usize = 1000;

/// A day of more stops than this is shown a window at a time, and a window of more than this many
/// a part at a time: a page of 300 stops would be too heavy to send on a phone and to read.
pub const RUN_PAGE_STOPS: usize = 50;

/// One stop on the board, with its order, the order's lines and its money.
#[derive(Debug, Clone)]
pub struct BoardStop {
    /// The stop.
    pub stop: Stop,
    /// Its order.
    pub order: Order,
    /// The order's lines, first line first.
    pub lines: Vec<OrderLine>,
    /// The order's ledger's sums: what the valet collects.
    pub balance: Balance,
}

/// Every stop of the day not cancelled, in a few columns: what the window counts, the warnings and
/// the places of the runs need, shown or not.
#[derive(Debug, Clone, Queryable)]
pub struct DayStop {
    /// The stop's id.
    pub id: String,
    /// Its order ID.
    pub reference: String,
    /// Pickup or delivery.
    pub kind: StopKind,
    /// How far it has got.
    pub state: StopState,
    /// Its window's first minute (Nairobi).
    pub window_start: i32,
    /// Its window's end.
    pub window_end: i32,
    /// The valet whose run it is in.
    pub valet_id: Option<String>,
    /// Its place in that run, from 1.
    pub run_position: Option<i32>,
    /// When it was booked (the order among stops of one window not in a run).
    pub created_at: time::PrimitiveDateTime,
}

impl DayStop {
    /// Its window.
    pub fn window(&self) -> Window {
        Window::stored(self.window_start, self.window_end)
    }
}

/// Which part of a busy day to show: a window (its first minute; none: the first with stops) and
/// a part of it, from 1.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BoardAsk {
    /// The window's first minute.
    pub window: Option<u16>,
    /// The part of the window, from 1 (beyond the last: the last).
    pub part: Option<u32>,
}

/// Which `RUN_PAGE_STOPS` of a window's `count` stops are shown: part `asked` (from 1; beyond the
/// last, the last).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WindowPart {
    /// Which part, from 1.
    pub part: usize,
    /// How many parts the window has (1 when it is not cut).
    pub parts: usize,
    /// The window's stops before the part.
    pub skip: usize,
    /// The part's stops.
    pub take: usize,
}

impl WindowPart {
    /// The part `asked` of a window of `count` stops.
    pub fn of(count: usize, asked: Option<u32>) -> WindowPart {
        let parts = count.div_ceil(RUN_PAGE_STOPS).max(1);
        let part = (asked.unwrap_or(1) as usize).clamp(1, parts);
        let skip = (part - 1) * RUN_PAGE_STOPS;
        WindowPart { part, parts, skip, take: RUN_PAGE_STOPS.min(count.saturating_sub(skip)) }
    }
}

/// The part of a busy day shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoardPage {
    /// The window shown.
    pub window: Window,
    /// Which part of it, from 1.
    pub part: u32,
    /// How many parts it has.
    pub parts: u32,
    /// The window's stops shown: from this one (from 1) …
    pub first: u32,
    /// … to this one.
    pub last: u32,
}

/// A day's stops and the people who may run them.
#[derive(Debug, Clone)]
pub struct DayBoard {
    /// The day, Nairobi.
    pub day: Date,
    /// The stops shown (all of the day's, or on a busy day a window's part), by window, then by
    /// run (valet and place), then pickups first, oldest booking first.
    pub stops: Vec<BoardStop>,
    /// Every stop of the day not cancelled, in the same order.
    pub day_stops: Vec<DayStop>,
    /// The part shown of a busy day; none: the whole day.
    pub page: Option<BoardPage>,
    /// The enabled valets, whom stops can be given to.
    pub valets: Vec<Staff>,
    /// Every account by id, to name a stop's valet even after the account was disabled.
    pub accounts: HashMap<String, Staff>,
}

impl DayBoard {
    /// The board of `day`: all of it, or on a day of more than [`RUN_PAGE_STOPS`] stops the part
    /// `ask` names. Only the stops shown are read in full, with their orders and lines.
    pub fn load(connection: &mut DbConnection, day: Date, ask: BoardAsk) -> QueryResult<DayBoard> {
        let mut day_stops: Vec<DayStop> = stops::table
            .inner_join(orders::table)
            .filter(stops::day.eq(day))
            .filter(stops::state.ne(StopState::Cancelled))
            .select((
                stops::id,
                orders::reference,
                stops::kind,
                stops::state,
                stops::window_start,
                stops::window_end,
                stops::valet_id,
                stops::run_position,
                stops::created_at,
            ))
            .load(connection)?;
        let accounts: HashMap<String, Staff> =
            Staff::list(connection)?.into_iter().map(|account| (account.id.clone(), account)).collect();
        let valet_email =
            |stop: &DayStop| stop.valet_id.as_ref().and_then(|id| accounts.get(id)).map(|a| a.email.clone());
        // Within a window: each valet's stops in run order, then the stops not yet in a run.
        day_stops.sort_by_cached_key(|stop| {
            (
                stop.window_start,
                stop.valet_id.is_none(),
                valet_email(stop),
                stop.run_position,
                stop.kind != StopKind::Pickup,
                stop.created_at,
                stop.id.clone(),
            )
        });
        let (shown, page) = shown_part(&day_stops, ask);
        // At most RUN_PAGE_STOPS stops are shown: one look-up reads them.
        let ids: Vec<&str> = shown.iter().map(|stop| stop.id.as_str()).collect();
        let mut rows: HashMap<String, (Stop, Order)> = stops::table
            .inner_join(orders::table)
            .filter(stops::id.eq_any(&ids))
            .select((Stop::as_select(), Order::as_select()))
            .load::<(Stop, Order)>(connection)?
            .into_iter()
            .map(|(stop, order)| (stop.id.clone(), (stop, order)))
            .collect();
        let orders: Vec<Order> = rows.values().map(|(_, order)| order.clone()).collect();
        let mut lines = Order::lines_of(connection, &orders)?;
        let order_ids: Vec<&str> = orders.iter().map(|order| order.id.as_str()).collect();
        let balances = Entry::balances(connection, &order_ids)?;
        let stops = ids
            .iter()
            .filter_map(|id| rows.remove(*id))
            .map(|(stop, order)| {
                let lines = lines.remove(&order.id).unwrap_or_default();
                let balance = balances.get(&order.id).copied().unwrap_or_default();
                BoardStop { stop, order, lines, balance }
            })
            .collect();
        Ok(DayBoard { day, stops, day_stops, page, valets: Staff::valets(connection)?, accounts })
    }
}

/// The stops to show of a day sorted as the board shows it: all of them, or on a busy day the
/// part `ask` names of one window (the first with stops when it names none on the day).
fn shown_part(day_stops: &[DayStop], ask: BoardAsk) -> (&[DayStop], Option<BoardPage>) {
    if day_stops.len() <= RUN_PAGE_STOPS {
        return (day_stops, None);
    }
    let Some(first) = day_stops.first() else { return (day_stops, None) };
    let start = ask
        .window
        .map(i32::from)
        .filter(|start| day_stops.iter().any(|stop| stop.window_start == *start))
        .unwrap_or(first.window_start);
    let from = day_stops.iter().position(|stop| stop.window_start == start).unwrap_or(0);
    let count = day_stops[from..].iter().take_while(|stop| stop.window_start == start).count();
    let WindowPart { part, parts, skip, take } = WindowPart::of(count, ask.part);
    let shown = &day_stops[from + skip..from + skip + take];
    let page = BoardPage {
        window: day_stops[from].window(),
        part: part as u32,
        parts: parts as u32,
        first: skip as u32 + 1,
        last: (skip + take) as u32,
    };
    (shown, Some(page))
}

/// One item of a save: a stop, the valet who takes it (none: out of every run), and its place in
/// that valet's run of the day, from 1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunAssignment {
    /// The stop's id.
    pub stop_id: String,
    /// The valet's account id.
    pub valet_id: Option<String>,
    /// The place in the valet's run.
    pub position: Option<i32>,
}

/// What is wrong with one item of a save.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunProblem {
    /// The item's index in the save, from 0.
    pub item: usize,
    /// The item's field at fault: `stopId`, `valetId` or `position`.
    pub field: &'static str,
    /// What staff read.
    pub message: String,
}

/// Why a save changed nothing.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// Some items are wrong; the first is the message.
    #[error("{}", .0.first().map_or("The run could not be saved.", |problem| problem.message.as_str()))]
    Invalid(Vec<RunProblem>),
    /// The database failed.
    #[error(transparent)]
    Database(#[from] diesel::result::Error),
}

/// Gives each named stop of `day` to its valet at its place (or takes it out of every run), in one
/// transaction. Checked first, against the day as it will be after the save: every stop exists,
/// is on `day`, is not cancelled and is named once; every valet is an enabled valet; a stop with a
/// valet has a place and one without has none; and each valet's places on the day, the stops not
/// named included, are 1 to n, each once. One wrong item and nothing changes.
pub fn save_run(connection: &mut DbConnection, day: Date, items: &[RunAssignment]) -> Result<usize, RunError> {
    write_transaction(connection, |connection| {
        let on_day: Vec<(Stop, String)> = stops::table
            .inner_join(orders::table)
            .filter(stops::day.eq(day))
            .select((Stop::as_select(), orders::reference))
            .load(connection)?;
        let valets: HashMap<String, String> =
            Staff::valets(connection)?.into_iter().map(|valet| (valet.id, valet.email)).collect();
        let mut problems = check_items(connection, day, &on_day, &valets, items)?;
        if problems.is_empty() {
            problems = check_runs(&on_day, &valets, items);
        }
        if !problems.is_empty() {
            return Err(RunError::Invalid(problems));
        }
        for item in items {
            diesel::update(stops::table.find(&item.stop_id))
                .set((stops::valet_id.eq(&item.valet_id), stops::run_position.eq(item.position)))
                .execute(connection)?;
        }
        Ok(items.len())
    })
}

/// Each item on its own: its stop (one of `on_day`, with its order ID, named once, not
/// cancelled), its valet (one of `valets`) and its place.
fn check_items(
    connection: &mut DbConnection,
    day: Date,
    on_day: &[(Stop, String)],
    valets: &HashMap<String, String>,
    items: &[RunAssignment],
) -> QueryResult<Vec<RunProblem>> {
    let by_id: HashMap<&str, &(Stop, String)> = on_day.iter().map(|row| (row.0.id.as_str(), row)).collect();
    let mut problems = Vec::new();
    let mut named = HashSet::new();
    for (index, item) in items.iter().enumerate() {
        let mut wrong = |field, message| problems.push(RunProblem { item: index, field, message });
        let Some((stop, reference)) = by_id.get(item.stop_id.as_str()).copied() else {
            let elsewhere: Option<Date> =
                stops::table.find(&item.stop_id).select(stops::day).first(connection).optional()?;
            wrong(
                "stopId",
                match elsewhere {
                    Some(other) => format!(
                        "Stop {} is on {}, not on {}: it is not in this day's run.",
                        item.stop_id,
                        day_label(other),
                        day_label(day)
                    ),
                    None => format!("There is no stop {}.", item.stop_id),
                },
            );
            continue;
        };
        let name = format!("The {} of order {reference}", stop.kind);
        if !named.insert(stop.id.as_str()) {
            wrong("stopId", format!("{name} is listed twice."));
        } else if stop.state == StopState::Cancelled {
            wrong("stopId", format!("{name} was cancelled: it is in no run."));
        } else {
            match (item.valet_id.as_ref().map(|id| (id, valets.get(id))), item.position) {
                (Some((id, None)), _) => {
                    wrong("valetId", format!("{name}: {id} is not the account of an enabled valet."));
                }
                (Some((_, Some(email))), None) => {
                    wrong("position", format!("{name} needs its place in {email}'s run."))
                }
                (Some(_), Some(position)) if position < 1 => {
                    wrong("position", format!("{name}: places in a run start at 1."));
                }
                (None, Some(_)) => {
                    wrong("position", format!("{name} is given to no valet, so it has no place in a run."));
                }
                _ => {}
            }
        }
    }
    Ok(problems)
}

/// A stop in a valet's run as the day will be: its place, its order ID, and the item that put it
/// there (`None`: a stop the save leaves as it was).
struct InRun<'a> {
    position: i32,
    reference: &'a str,
    kind: StopKind,
    item: Option<usize>,
}

/// The day's runs as they will be (the stops not named keeping theirs): in each, the places 1 to
/// n, each once. At most one problem per run, named on an item of the save.
fn check_runs(on_day: &[(Stop, String)], valets: &HashMap<String, String>, items: &[RunAssignment]) -> Vec<RunProblem> {
    let index_of: HashMap<&str, usize> =
        items.iter().enumerate().map(|(index, item)| (item.stop_id.as_str(), index)).collect();
    let mut runs: BTreeMap<&str, Vec<InRun<'_>>> = BTreeMap::new();
    for (stop, reference) in on_day.iter().filter(|(stop, _)| stop.state != StopState::Cancelled) {
        let item = index_of.get(stop.id.as_str()).copied();
        let (valet, position) = match item.and_then(|index| items.get(index)) {
            Some(sent) => (sent.valet_id.as_deref(), sent.position),
            None => (stop.valet_id.as_deref(), stop.run_position),
        };
        if let (Some(valet), Some(position)) = (valet, position) {
            runs.entry(valet).or_default().push(InRun { position, reference, kind: stop.kind, item });
        }
    }
    let mut problems = Vec::new();
    for (valet, mut run) in runs {
        // Among stops sharing a place, the one sent comes last and is the one named.
        run.sort_by_key(|stop| (stop.position, stop.item.is_some()));
        let who = valets.get(valet).map_or(valet, String::as_str);
        let count = run.len();
        // An order's delivery never comes before its own pickup (a same-day order in one run).
        let early = run.iter().find(|delivery| {
            delivery.kind == StopKind::Delivery
                && run.iter().any(|pickup| {
                    pickup.kind == StopKind::Pickup
                        && pickup.reference == delivery.reference
                        && pickup.position > delivery.position
                })
        });
        if let Some(delivery) = early {
            let item = delivery.item.or_else(|| run.iter().find_map(|other| other.item)).unwrap_or(0);
            problems.push(RunProblem {
                item,
                field: "position",
                message: format!(
                    "Order {}: its delivery comes before its own pickup in {who}'s run; put it after the pickup.",
                    delivery.reference
                ),
            });
            continue;
        }
        let Some((_, stop)) = (1..).zip(run.iter()).find(|(expected, stop)| stop.position != *expected) else {
            continue;
        };
        let (position, reference) = (stop.position, stop.reference);
        let message = if run.iter().filter(|other| other.position == position).count() > 1 {
            format!("Order {reference}: place {position} in {who}'s run is taken twice; each place once.")
        } else {
            format!("Order {reference}: {who}'s run has {count} stops, so its places go from 1 to {count}.")
        };
        // Name the item that was sent; a stop left as it was is named through one that moved.
        let item = stop.item.or_else(|| run.iter().find_map(|other| other.item)).unwrap_or(0);
        problems.push(RunProblem { item, field: "position", message });
    }
    problems
}
