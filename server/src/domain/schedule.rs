//! Pickup and delivery windows, in Africa/Nairobi time: the windows a day has, which of them can
//! still be booked, the delivery that follows a pickup, and the ETA of a stop in a valet's run (the
//! one place it is computed: the tracking page and the 5:30pm text both use [`eta`]).
//!
//! Pure: the schedule itself comes from configuration (`config::schedule`), and whether a window
//! still has room is the database's to say (`models::stop`).

use crate::clock::NAIROBI;
use std::collections::BTreeSet;
use std::fmt;
use time::{Date, Duration, OffsetDateTime, PrimitiveDateTime, Time};

/// A window of the day, in whole minutes after midnight, Nairobi time (`19:00-20:00` is 1140-1200).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Window {
    /// First minute.
    pub start: u16,
    /// The minute it ends (after `start`, at most 24:00).
    pub end: u16,
}

impl Window {
    /// `HH:MM-HH:MM`; the end after the start, within one day.
    pub fn parse(text: &str) -> Option<Window> {
        let (start, end) = text.trim().split_once('-')?;
        let (start, end) = (parse_minute(start)?, parse_minute(end)?);
        (start < end).then_some(Window { start, end })
    }

    /// The window a row stores as two minute columns (`window_start`, `window_end`).
    pub fn stored(start: i32, end: i32) -> Window {
        Window { start: start as u16, end: end as u16 }
    }

    /// How long it lasts.
    pub fn minutes(self) -> u16 {
        self.end - self.start
    }
}

impl fmt::Display for Window {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", clock_time(self.start), clock_time(self.end))
    }
}

/// `HH:MM` (00:00 to 24:00) as minutes after midnight.
pub fn parse_minute(text: &str) -> Option<u16> {
    let (hours, minutes) = text.trim().split_once(':')?;
    let ok = |part: &str| part.len() == 2 && part.bytes().all(|b| b.is_ascii_digit());
    if !ok(hours) || !ok(minutes) {
        return None;
    }
    let (hours, minutes): (u16, u16) = (hours.parse().ok()?, minutes.parse().ok()?);
    (minutes < 60 && (hours < 24 || (hours == 24 && minutes == 0))).then_some(hours * 60 + minutes)
}

/// Minutes after midnight as `HH:MM`.
pub fn clock_time(minute: u16) -> String {
    format!("{:02}:{:02}", minute / 60, minute % 60)
}

/// A day and one of its windows: when a valet comes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Slot {
    /// The day, in Nairobi.
    pub day: Date,
    /// The window of that day.
    pub window: Window,
}

impl Slot {
    /// The value a form sends for a slot: `2026-11-25T19:00` (the day and the window's start).
    pub fn value(&self) -> String {
        format!("{}T{}", self.day, clock_time(self.window.start))
    }

    /// When the window starts.
    pub fn starts_at(&self) -> OffsetDateTime {
        at_minute(self.day, self.window.start)
    }

    /// `Wed 25 Nov, 19:00-20:00`, as customers read it.
    pub fn label(&self) -> String {
        format!("{}, {}", day_label(self.day), self.window)
    }
}

/// `2026-11-25T19:00`: a day and a window start, not yet checked against a schedule.
pub fn parse_slot_value(text: &str) -> Option<(Date, u16)> {
    let (day, start) = text.trim().split_once('T')?;
    Some((parse_day(day)?, parse_minute(start)?))
}

/// `YYYY-MM-DD`.
pub fn parse_day(text: &str) -> Option<Date> {
    let format = time::macros::format_description!("[year]-[month]-[day]");
    let text = text.trim();
    (text.len() == 10).then(|| Date::parse(text, &format).ok()).flatten()
}

/// `Wed 25 Nov`.
pub fn day_label(day: Date) -> String {
    let weekday = &day.weekday().to_string()[..3];
    let month = &day.month().to_string()[..3];
    format!("{weekday} {} {month}", day.day())
}

/// `minute` minutes after midnight of `day`, Nairobi time.
fn at_minute(day: Date, minute: u16) -> OffsetDateTime {
    day.with_time(Time::MIDNIGHT).assume_offset(NAIROBI) + Duration::minutes(i64::from(minute))
}

/// The day `at` falls on in Nairobi.
pub fn nairobi_day(at: OffsetDateTime) -> Date {
    at.to_offset(NAIROBI).date()
}

/// Nairobi's `day` as UTC times, as stored: from its midnight to the next.
pub fn day_bounds(day: Date) -> (PrimitiveDateTime, PrimitiveDateTime) {
    let start = day.with_time(Time::MIDNIGHT).assume_offset(NAIROBI).to_offset(time::UtcOffset::UTC);
    let start = PrimitiveDateTime::new(start.date(), start.time());
    (start, start + Duration::days(1))
}

/// Minutes after Nairobi's midnight of `at`.
pub fn nairobi_minute(at: OffsetDateTime) -> u16 {
    let local = at.to_offset(NAIROBI);
    u16::from(local.hour()) * 60 + u16::from(local.minute())
}

/// One window of the schedule and how many pickups it takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WindowPlan {
    /// The window.
    pub window: Window,
    /// Pickups it can take in one day.
    pub capacity: u32,
}

/// When pickups and deliveries happen, from configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schedule {
    /// The windows of every open day, in order, not overlapping.
    pub windows: Vec<WindowPlan>,
    /// Days with no pickups or deliveries.
    pub closed: BTreeSet<Date>,
    /// Bookings, changes and cancellations of a window close this long before it starts.
    pub cutoff_minutes: u16,
    /// How many days ahead a pickup can be booked (today counts as the first).
    pub horizon_days: u16,
    /// Days from pickup to delivery, standard turnaround.
    pub turnaround_days: u16,
    /// KSh added for next-day (rush) delivery.
    pub rush_surcharge: u32,
    /// Minutes a valet spends per stop, for the ETA.
    pub minutes_per_stop: u16,
    /// Days an order may stay ready without being delivered before staff see it waiting.
    pub ready_wait_days: u16,
}

impl Default for Schedule {
    /// The home page's promises: 19:00-22:00 every day, three one-hour windows.
    fn default() -> Self {
        let window = |start: u16| WindowPlan { window: Window { start, end: start + 60 }, capacity: 8 };
        Schedule {
            windows: vec![window(19 * 60), window(20 * 60), window(21 * 60)],
            closed: BTreeSet::new(),
            cutoff_minutes: 60,
            horizon_days: 14,
            turnaround_days: 3,
            rush_surcharge: 300,
            minutes_per_stop: 15,
            ready_wait_days: 3,
        }
    }
}

/// Why a window cannot be booked; each says so in words a customer can act on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SlotRefusal {
    /// Not a window of the schedule.
    #[error("Please choose one of the pickup windows shown.")]
    NoSuchWindow,
    /// A closed date.
    #[error("We are closed on {0}. Please choose another day.")]
    Closed(String),
    /// Past its cut-off (or already over).
    #[error("Booking for {0} closed at {1}. Please choose a later window.")]
    TooLate(String, String),
    /// Beyond the booking horizon.
    #[error("Pickups can be booked up to {0} days ahead. Please choose an earlier day.")]
    TooFar(u16),
    /// No room left.
    #[error("The {0} window is full. Please choose another window.")]
    Full(String),
}

impl Schedule {
    /// The plan of the window starting at `start`, if the schedule has one.
    pub fn window_starting(&self, start: u16) -> Option<WindowPlan> {
        self.windows.iter().copied().find(|plan| plan.window.start == start)
    }

    /// The days that can be booked from `now`: today and the next `horizon_days - 1`, closed ones
    /// left out.
    pub fn bookable_days(&self, now: OffsetDateTime) -> Vec<Date> {
        let today = nairobi_day(now);
        (0..i64::from(self.horizon_days))
            .filter_map(|offset| today.checked_add(Duration::days(offset)))
            .filter(|day| !self.closed.contains(day))
            .collect()
    }

    /// Whether `slot` may be booked (or a booking moved into it) at `now`, room aside: a window of
    /// the schedule, on an open day within the horizon, before its cut-off. The answer is its
    /// capacity.
    pub fn check(&self, day: Date, start: u16, now: OffsetDateTime) -> Result<(Slot, u32), SlotRefusal> {
        let plan = self.window_starting(start).ok_or(SlotRefusal::NoSuchWindow)?;
        let slot = Slot { day, window: plan.window };
        if self.closed.contains(&day) {
            return Err(SlotRefusal::Closed(day_label(day)));
        }
        if !self.before_cutoff(&slot, now) {
            return Err(SlotRefusal::TooLate(slot.label(), clock_time(self.cutoff_minute(&slot))));
        }
        let last = nairobi_day(now) + Duration::days(i64::from(self.horizon_days) - 1);
        if day > last {
            return Err(SlotRefusal::TooFar(self.horizon_days));
        }
        Ok((slot, plan.capacity))
    }

    /// Whether `now` is before `slot`'s cut-off: until then it can be booked, moved or cancelled.
    pub fn before_cutoff(&self, slot: &Slot, now: OffsetDateTime) -> bool {
        now < slot.starts_at() - Duration::minutes(i64::from(self.cutoff_minutes))
    }

    /// The clock time (on the slot's day; negative minutes are not possible within a day's
    /// windows after 01:00) at which `slot` stops taking bookings.
    fn cutoff_minute(&self, slot: &Slot) -> u16 {
        slot.window.start.saturating_sub(self.cutoff_minutes)
    }

    /// The delivery that follows a pickup in `pickup`: the same window, `turnaround_days` later (or
    /// the next day with `rush`), moved on past closed days.
    pub fn delivery_for(&self, pickup: Slot, rush: bool) -> Slot {
        let days = if rush { 1 } else { i64::from(self.turnaround_days) };
        let mut day = pickup.day + Duration::days(days);
        // A closed stretch longer than a month is a configuration mistake; stop looking there.
        for _ in 0..31 {
            if !self.closed.contains(&day) {
                break;
            }
            day += Duration::days(1);
        }
        Slot { day, window: pickup.window }
    }
}

/// Where a stop is in its valet's run, for [`eta`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunPosition {
    /// The stop's window.
    pub window: Window,
    /// When the run's first stop still to be done opens (its window's start; the stop's own when
    /// none is before it): the queue before this stop starts there, not at this stop's window.
    pub run_start: u16,
    /// Stops of the same run still to be done before this one.
    pub stops_before: u16,
    /// The window starts of those stops, in run order: the valet waits for a later window before
    /// a stop in it, so a stop put after one of a later window comes after that window opens.
    /// Empty: each stop before is taken to open at `run_start`.
    pub windows_before: Vec<u16>,
    /// When the valet last moved on (pressed "On my way" or finished a stop) today, if they have.
    pub last_progress: Option<OffsetDateTime>,
}

/// A 30-minute window, as the customer is told it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Eta {
    /// Minutes after midnight, Nairobi; a multiple of 5.
    pub start: u16,
    /// `start` + 30.
    pub end: u16,
}

impl fmt::Display for Eta {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", clock_time(self.start), clock_time(self.end))
    }
}

/// How long the ETA window is.
pub const ETA_MINUTES: u16 = 30;

impl Eta {
    /// The window moved earlier, if need be, so that it ends by the end of `window` (but starts
    /// no earlier than `window`): a guess for a stop that is in no run yet stays inside the
    /// window the customer booked.
    pub fn within(self, window: Window) -> Eta {
        let latest = window.end.saturating_sub(ETA_MINUTES).max(window.start);
        let start = self.start.min(latest / 5 * 5).max(window.start);
        Eta { start, end: start + ETA_MINUTES }
    }

    /// The window moved later, if need be, so that it starts no earlier than `minute` (rounded up
    /// to five minutes): a text written late does not name a time already past.
    pub fn not_before(self, minute: u16) -> Eta {
        let floor = minute.div_ceil(5) * 5;
        let start = self.start.max(floor).min(24 * 60 - ETA_MINUTES);
        Eta { start, end: start + ETA_MINUTES }
    }
}

/// The ETA of a stop: `minutes_per_stop` for each stop before it, counted from when the run's first
/// open stop's window opens, or, once the valet is on the road, from their last progress plus one
/// stop's time, and never before the window of a stop before it opens (the run as saved); never
/// before the stop's own window opens. Rounded down to five minutes and 30
/// minutes long.
pub fn eta(position: RunPosition, minutes_per_stop: u16) -> Eta {
    let queue = position.stops_before.saturating_mul(minutes_per_stop);
    let anchor = match position.last_progress {
        // On the road since `at`: the stop being driven to takes one stop's time, the rest follow.
        Some(at) => nairobi_minute(at).saturating_add(minutes_per_stop),
        None => position.run_start,
    };
    // The run as saved: a stop of a later window put before this one cannot be done before its
    // window opens, and the stops after it follow it.
    let walked =
        position.windows_before.iter().fold(anchor, |at, &opens| at.max(opens).saturating_add(minutes_per_stop));
    let queued = if position.windows_before.is_empty() { anchor.saturating_add(queue) } else { walked };
    let start = queued.max(position.window.start);
    let start = (start / 5 * 5).min(24 * 60 - ETA_MINUTES);
    Eta { start, end: start + ETA_MINUTES }
}

#[cfg(test)]
mod tests;
