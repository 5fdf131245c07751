//! Pickup windows as customers see them: `GET /api/slots?date=` (one day's windows with what is
//! left of each) and the order form's choice of the next days' open windows, each with the
//! delivery that follows it, so that the form never works out a delivery day itself.

use super::orders::OrderLineView;
use crate::domain::schedule::{Schedule, Slot, clock_time, day_label, nairobi_day};
use crate::domain::{Line, WindowAvailability};
use serde::Serialize;
use time::{Date, Duration, OffsetDateTime};
use ts_rs::TS;

/// `GET /api/slots?date=YYYY-MM-DD`: the day's windows, in order.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SlotsAnswer {
    /// The day asked for, `2026-11-25`.
    pub date: String,
    /// Every window of the schedule on that day.
    pub windows: Vec<WindowView>,
}

/// One window of a day.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct WindowView {
    /// `19:00`, Nairobi time.
    pub start: String,
    /// `20:00`.
    pub end: String,
    /// Places left; 0 when full or when it cannot be booked.
    pub remaining: u32,
    /// What the order form sends to book it: `2026-11-25T19:00`.
    pub value: String,
    /// Whether it can be booked now.
    pub open: bool,
    /// Whether it is closed because it is full (it may open again if a booking is cancelled).
    pub full: bool,
    /// Why not, in words for the customer (past its cut-off, closed, too far ahead, full).
    pub reason: Option<String>,
}

impl SlotsAnswer {
    /// The answer for `day` with its windows as they stand.
    pub fn new(day: Date, windows: &[WindowAvailability]) -> Self {
        SlotsAnswer { date: day.to_string(), windows: windows.iter().map(WindowView::from).collect() }
    }
}

impl From<&WindowAvailability> for WindowView {
    fn from(window: &WindowAvailability) -> Self {
        WindowView {
            start: clock_time(window.slot.window.start),
            end: clock_time(window.slot.window.end),
            remaining: window.remaining,
            value: window.slot.value(),
            open: window.is_open(),
            full: window.is_full(),
            reason: window.refusal.as_ref().map(ToString::to_string),
        }
    }
}

/// The order form's Pickup group: the windows that can be chosen, and the terms of delivery.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PickupChoices {
    /// The bookable days from today, each with its windows that are not past their cut-off (full
    /// ones included, to be shown as full); days with none are left out.
    pub days: Vec<PickupDay>,
    /// Days from pickup to delivery, standard turnaround.
    pub turnaround_days: u16,
    /// The line next-day rush adds to the order (its amount is the configured surcharge).
    pub rush_line: OrderLineView,
}

/// One day of the choice.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PickupDay {
    /// `2026-11-25`.
    pub date: String,
    /// `Today, Wed 25 Nov`, `Tomorrow, Thu 26 Nov`, `Fri 27 Nov`.
    pub label: String,
    /// Its windows, in order.
    pub windows: Vec<PickupOption>,
}

/// One window of the choice.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PickupOption {
    /// The form's value: `2026-11-25T19:00`.
    pub value: String,
    /// `19:00-20:00`.
    pub window: String,
    /// `Wed 25 Nov, 19:00-20:00`.
    pub label: String,
    /// Places left; 0 when full (it cannot be chosen).
    pub remaining: u32,
    /// The delivery with the standard turnaround: `Sat 28 Nov, 19:00-20:00`.
    pub delivery: String,
    /// The delivery with next-day rush: `Thu 26 Nov, 19:00-20:00`.
    pub rush_delivery: String,
}

impl PickupChoices {
    /// The choice at `now`, with `booked` the pickups already booked per `(day, window start)`
    /// (as `Stop::pickups_booked_between` counts them).
    pub fn new(schedule: &Schedule, now: OffsetDateTime, booked: &[(Date, i32, i64)]) -> Self {
        let today = nairobi_day(now);
        let days = schedule
            .bookable_days(now)
            .into_iter()
            .filter_map(|day| {
                let count = |start: u16| {
                    booked
                        .iter()
                        .find(|(d, s, _)| *d == day && *s == i32::from(start))
                        .map_or(0, |(_, _, n)| u32::try_from(*n).unwrap_or(u32::MAX))
                };
                let windows: Vec<PickupOption> = schedule
                    .availability(day, now, count)
                    .into_iter()
                    // Full windows stay, shown as full; past or closed ones cannot come back.
                    .filter(|window| window.is_open() || window.is_full())
                    .map(|window| PickupOption::new(schedule, window.slot, window.remaining))
                    .collect();
                (!windows.is_empty()).then(|| PickupDay { date: day.to_string(), label: day_name(day, today), windows })
            })
            .collect();
        let line = Line::rush(schedule.rush_surcharge);
        PickupChoices {
            days,
            turnaround_days: schedule.turnaround_days,
            rush_line: OrderLineView {
                kind: line.kind,
                item: line.item.to_owned(),
                label: line.label.to_owned(),
                quantity: line.quantity,
                unit: line.unit,
                unit_price: line.unit_price,
                amount: line.amount,
            },
        }
    }
}

impl PickupOption {
    fn new(schedule: &Schedule, slot: Slot, remaining: u32) -> Self {
        PickupOption {
            value: slot.value(),
            window: slot.window.to_string(),
            label: slot.label(),
            remaining,
            delivery: schedule.delivery_for(slot, false).label(),
            rush_delivery: schedule.delivery_for(slot, true).label(),
        }
    }
}

/// `Today, Wed 25 Nov`, `Tomorrow, Thu 26 Nov`, or `Fri 27 Nov`.
fn day_name(day: Date, today: Date) -> String {
    match (day - today).whole_days() {
        0 => format!("Today, {}", day_label(day)),
        1 => format!("Tomorrow, {}", day_label(day)),
        _ => day_label(day),
    }
}

/// The last day of the order form's choice, from `now`: the horizon's end.
pub fn horizon_end(schedule: &Schedule, now: OffsetDateTime) -> Date {
    nairobi_day(now) + Duration::days(i64::from(schedule.horizon_days.max(1)) - 1)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::clock::NAIROBI;
    use time::macros::{date, datetime};

    #[test]
    fn the_choice_starts_with_todays_windows_before_their_cutoff_and_shows_full_ones_as_full() {
        let mut schedule = Schedule::default();
        schedule.closed.insert(date!(2026 - 11 - 27));
        // 18:30 in Nairobi (15:30 UTC): today's 19:00 window is past its cut-off.
        let now = datetime!(2026-11-25 15:30 UTC);
        let booked = [(date!(2026 - 11 - 26), 1140, 8_i64), (date!(2026 - 11 - 26), 1200, 3)];

        let choices = PickupChoices::new(&schedule, now, &booked);

        assert_eq!(choices.days.len(), 13, "14 days less the closed one");
        let today = &choices.days[0];
        assert_eq!(today.label, "Today, Wed 25 Nov");
        let windows: Vec<_> = today.windows.iter().map(|w| w.window.as_str()).collect();
        assert_eq!(windows, ["20:00-21:00", "21:00-22:00"]);
        let tomorrow = &choices.days[1];
        assert_eq!(tomorrow.label, "Tomorrow, Thu 26 Nov");
        let remaining: Vec<_> = tomorrow.windows.iter().map(|w| (w.value.as_str(), w.remaining)).collect();
        assert_eq!(remaining, [("2026-11-26T19:00", 0), ("2026-11-26T20:00", 5), ("2026-11-26T21:00", 8)]);
        assert_eq!(choices.days[2].label, "Sat 28 Nov", "the closed Friday is not offered");
    }

    #[test]
    fn each_option_carries_its_standard_and_rush_delivery() {
        let mut schedule = Schedule::default();
        schedule.closed.insert(date!(2026 - 11 - 26));
        let now = datetime!(2026-11-25 09:00).assume_offset(NAIROBI);

        let choices = PickupChoices::new(&schedule, now, &[]);

        let first = &choices.days[0].windows[0];
        assert_eq!(first.label, "Wed 25 Nov, 19:00-20:00");
        assert_eq!(first.delivery, "Sat 28 Nov, 19:00-20:00");
        assert_eq!(first.rush_delivery, "Fri 27 Nov, 19:00-20:00", "the next open day after the closed Thursday");
        assert_eq!(choices.turnaround_days, 3);
        assert_eq!((choices.rush_line.label.as_str(), choices.rush_line.amount), ("Next-day rush", 300));
    }

    #[test]
    fn a_day_answer_lists_every_window_with_its_value_and_reason() {
        let schedule = Schedule::default();
        let now = datetime!(2026-11-25 18:30).assume_offset(NAIROBI);
        let day = date!(2026 - 11 - 25);

        let answer = serde_json::to_value(SlotsAnswer::new(day, &schedule.availability(day, now, |_| 2))).unwrap();

        assert_eq!(answer["date"], "2026-11-25");
        assert_eq!(
            answer["windows"][0],
            serde_json::json!({
                "start": "19:00", "end": "20:00", "remaining": 0, "value": "2026-11-25T19:00", "open": false, "full": false,
                "reason": "Booking for Wed 25 Nov, 19:00-20:00 closed at 18:00. Please choose a later window."
            })
        );
        assert_eq!(answer["windows"][1]["remaining"], 6);
        assert_eq!(answer["windows"][1]["reason"], serde_json::Value::Null);
    }
}
