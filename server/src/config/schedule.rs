//! The pickup schedule from the environment: windows, their capacity, closed dates, the cut-off,
//! the turnaround, the rush surcharge and the minutes per stop of the ETA.

use super::{ConfigError, invalid, whole_number_or};
use crate::domain::schedule::{Schedule, Window, WindowPlan, parse_day};
use std::collections::BTreeSet;

/// Reads `LAUNDRY_PICKUP_WINDOWS`, `LAUNDRY_WINDOW_CAPACITY`, `LAUNDRY_CLOSED_DATES`,
/// `LAUNDRY_BOOKING_CUTOFF_MINUTES`, `LAUNDRY_TURNAROUND_DAYS`, `LAUNDRY_RUSH_SURCHARGE_KES` and
/// `LAUNDRY_MINUTES_PER_STOP`; unset ones keep [`Schedule::default`].
pub fn schedule(lookup: &impl Fn(&str) -> Option<String>) -> Result<Schedule, ConfigError> {
    let get = |name: &str| lookup(name).map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
    let mut schedule = Schedule::default();

    if let Some(text) = get("LAUNDRY_PICKUP_WINDOWS") {
        let windows: Option<Vec<Window>> = text.split(',').map(Window::parse).collect();
        let windows = windows
            .filter(|w| !w.is_empty() && w.len() <= 12 && w.windows(2).all(|pair| pair[0].end <= pair[1].start))
            .ok_or_else(|| {
                invalid(
                    "LAUNDRY_PICKUP_WINDOWS",
                    &text,
                    "expected 1 to 12 windows in order, not overlapping, like 19:00-20:00,20:00-21:00",
                )
            })?;
        schedule.windows = windows.into_iter().map(|window| WindowPlan { window, capacity: 8 }).collect();
    }
    if let Some(text) = get("LAUNDRY_WINDOW_CAPACITY") {
        let capacities: Option<Vec<u32>> =
            text.split(',').map(|c| c.trim().parse::<u32>().ok().filter(|c| (1..=1000).contains(c))).collect();
        let reason = "expected pickups per window from 1 to 1000: one number for every window, or one per window";
        match capacities.as_deref() {
            Some([every]) => schedule.windows.iter_mut().for_each(|plan| plan.capacity = *every),
            Some(each) if each.len() == schedule.windows.len() => {
                schedule.windows.iter_mut().zip(each).for_each(|(plan, capacity)| plan.capacity = *capacity);
            }
            _ => return Err(invalid("LAUNDRY_WINDOW_CAPACITY", &text, reason)),
        }
    }
    if let Some(text) = get("LAUNDRY_CLOSED_DATES") {
        let closed: Option<BTreeSet<_>> = text.split(',').map(parse_day).collect();
        schedule.closed = closed
            .ok_or_else(|| invalid("LAUNDRY_CLOSED_DATES", &text, "expected dates like 2026-12-25,2027-01-01"))?;
    }
    let number = |name: &'static str, range: std::ops::RangeInclusive<u32>, reason: &'static str, default: u32| {
        whole_number_or(lookup, name, range, reason, default)
    };
    schedule.cutoff_minutes = number(
        "LAUNDRY_BOOKING_CUTOFF_MINUTES",
        0..=720,
        "expected minutes from 0 to 720",
        u32::from(schedule.cutoff_minutes),
    )? as u16;
    schedule.turnaround_days =
        number("LAUNDRY_TURNAROUND_DAYS", 1..=14, "expected days from 1 to 14", u32::from(schedule.turnaround_days))?
            as u16;
    schedule.rush_surcharge = number(
        "LAUNDRY_RUSH_SURCHARGE_KES",
        0..=100_000,
        "expected whole shillings from 0 to 100000",
        schedule.rush_surcharge,
    )?;
    schedule.minutes_per_stop = number(
        "LAUNDRY_MINUTES_PER_STOP",
        1..=120,
        "expected minutes from 1 to 120",
        u32::from(schedule.minutes_per_stop),
    )? as u16;
    schedule.ready_wait_days =
        number("LAUNDRY_READY_WAIT_DAYS", 1..=60, "expected days from 1 to 60", u32::from(schedule.ready_wait_days))?
            as u16;
    Ok(schedule)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use std::collections::HashMap;

    fn read(vars: &[(&str, &str)]) -> Result<Schedule, ConfigError> {
        let env: HashMap<String, String> = vars.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
        schedule(&|name| env.get(name).cloned())
    }

    #[test]
    fn unset_gives_the_home_pages_three_evening_windows() {
        let schedule = read(&[]).unwrap();
        let windows: Vec<String> = schedule.windows.iter().map(|p| p.window.to_string()).collect();
        assert_eq!(windows, ["19:00-20:00", "20:00-21:00", "21:00-22:00"]);
        assert_eq!((schedule.cutoff_minutes, schedule.turnaround_days), (60, 3));
    }

    #[test]
    fn capacities_are_one_for_all_or_one_per_window() {
        let all = read(&[("LAUNDRY_WINDOW_CAPACITY", "3")]).unwrap();
        assert!(all.windows.iter().all(|p| p.capacity == 3));
        let each =
            read(&[("LAUNDRY_PICKUP_WINDOWS", "18:00-19:30,19:30-21:00"), ("LAUNDRY_WINDOW_CAPACITY", "2,5")]).unwrap();
        assert_eq!(each.windows.iter().map(|p| p.capacity).collect::<Vec<_>>(), [2, 5]);
        assert!(
            read(&[("LAUNDRY_WINDOW_CAPACITY", "2,5")]).unwrap_err().to_string().contains("LAUNDRY_WINDOW_CAPACITY")
        );
    }

    #[test]
    fn bad_windows_and_dates_name_their_variable() {
        for (name, value) in [
            ("LAUNDRY_PICKUP_WINDOWS", "20:00-21:00,19:00-20:00"),
            ("LAUNDRY_PICKUP_WINDOWS", "7pm-8pm"),
            ("LAUNDRY_CLOSED_DATES", "25/12/2026"),
            ("LAUNDRY_BOOKING_CUTOFF_MINUTES", "-5"),
            ("LAUNDRY_TURNAROUND_DAYS", "0"),
            ("LAUNDRY_MINUTES_PER_STOP", "lots"),
        ] {
            let error = read(&[(name, value)]).unwrap_err().to_string();
            assert!(error.starts_with(name), "{error}");
        }
    }
}
