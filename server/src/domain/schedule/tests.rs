//! The windows, cut-offs, Nairobi days and ETAs of the schedule, example by example.

#![allow(clippy::unwrap_used)]
use super::*;
use time::macros::{date, datetime};

fn nairobi(at: time::PrimitiveDateTime) -> OffsetDateTime {
    at.assume_offset(NAIROBI)
}

#[test]
fn a_stop_put_after_one_of_a_later_window_waits_for_that_window() {
    let window = Window::parse("20:00-21:00").unwrap();
    // In order: two 19:00 stops before a 20:00 one.
    let in_order =
        RunPosition { window, run_start: 1140, stops_before: 2, windows_before: vec![1140, 1140], last_progress: None };
    assert_eq!(eta(in_order, 15).to_string(), "20:00-20:30");
    // A 21:00 stop put first: this 20:00 stop comes after it, at 21:15 at the earliest.
    let after_later =
        RunPosition { window, run_start: 1260, stops_before: 1, windows_before: vec![1260], last_progress: None };
    assert_eq!(eta(after_later, 15).to_string(), "21:15-21:45");
}

#[test]
fn a_nairobi_day_starts_at_nine_in_the_evening_utc() {
    assert_eq!(day_bounds(date!(2026 - 11 - 25)), (datetime!(2026-11-24 21:00), datetime!(2026-11-25 21:00)));
}

#[test]
fn an_eta_can_be_kept_inside_its_window_and_out_of_the_past() {
    let window = Window::parse("19:00-20:00").unwrap();
    let late = Eta { start: 20 * 60 + 5, end: 20 * 60 + 35 };
    assert_eq!(late.within(window).to_string(), "19:30-20:00");
    assert_eq!(Eta { start: 19 * 60 + 10, end: 19 * 60 + 40 }.within(window).to_string(), "19:10-19:40");
    let short = Window::parse("19:00-19:20").unwrap();
    assert_eq!(late.within(short).to_string(), "19:00-19:30", "never before the window opens");
    let eta = Eta { start: 19 * 60, end: 19 * 60 + 30 };
    assert_eq!(eta.not_before(19 * 60 + 12).to_string(), "19:15-19:45");
    assert_eq!(eta.not_before(17 * 60 + 30), eta);
    assert_eq!(eta.not_before(23 * 60 + 58).to_string(), "23:30-24:00");
}

#[test]
fn windows_read_and_print_as_clock_times() {
    let window = Window::parse("19:00-20:30").unwrap();
    assert_eq!((window.start, window.end), (1140, 1230));
    assert_eq!(window.to_string(), "19:00-20:30");
    for bad in ["20:00-19:00", "19:00", "7pm-8pm", "19:60-20:00", "25:00-26:00", "19:00-19:00"] {
        assert_eq!(Window::parse(bad), None, "{bad}");
    }
}

#[test]
fn a_slot_value_is_a_day_and_a_start() {
    assert_eq!(parse_slot_value("2026-11-25T19:00"), Some((date!(2026 - 11 - 25), 1140)));
    for bad in ["2026-11-25", "2026-13-01T19:00", "25/11/2026T19:00", "2026-11-25T7pm", ""] {
        assert_eq!(parse_slot_value(bad), None, "{bad}");
    }
}

#[test]
fn the_cutoff_is_an_hour_before_the_window_in_nairobi_time() {
    let schedule = Schedule::default();
    let day = date!(2026 - 11 - 25);
    // 17:59 Nairobi is 14:59 UTC: the 19:00 window can still be booked.
    assert!(schedule.check(day, 1140, datetime!(2026-11-25 14:59 UTC)).is_ok());
    let refused = schedule.check(day, 1140, datetime!(2026-11-25 15:00 UTC)).unwrap_err();
    assert_eq!(
        refused.to_string(),
        "Booking for Wed 25 Nov, 19:00-20:00 closed at 18:00. Please choose a later window."
    );
    assert!(schedule.check(day, 1200, datetime!(2026-11-25 15:00 UTC)).is_ok());
}

#[test]
fn closed_days_unknown_windows_and_far_days_are_refused_with_their_reason() {
    let mut schedule = Schedule::default();
    schedule.closed.insert(date!(2026 - 12 - 25));
    let now = nairobi(datetime!(2026-12-20 09:00));
    assert_eq!(
        schedule.check(date!(2026 - 12 - 25), 1140, now).unwrap_err().to_string(),
        "We are closed on Fri 25 Dec. Please choose another day."
    );
    assert_eq!(schedule.check(date!(2026 - 12 - 24), 1150, now).unwrap_err(), SlotRefusal::NoSuchWindow);
    assert_eq!(schedule.check(date!(2027 - 01 - 03), 1140, now).unwrap_err(), SlotRefusal::TooFar(14));
    assert!(schedule.check(date!(2027 - 01 - 02), 1140, now).is_ok());
    assert!(!schedule.bookable_days(now).contains(&date!(2026 - 12 - 25)));
    assert_eq!(schedule.bookable_days(now).len(), 13);
}

#[test]
fn late_at_night_utc_is_already_tomorrow_in_nairobi() {
    let schedule = Schedule::default();
    // 22:30 UTC on the 24th is 01:30 on the 25th in Nairobi: the 24th is gone.
    let now = datetime!(2026-11-24 22:30 UTC);
    assert_eq!(schedule.bookable_days(now)[0], date!(2026 - 11 - 25));
    assert!(matches!(schedule.check(date!(2026 - 11 - 24), 1260, now), Err(SlotRefusal::TooLate(..))));
}

#[test]
fn delivery_follows_the_turnaround_or_the_next_day_with_rush_skipping_closed_days() {
    let mut schedule = Schedule::default();
    let pickup = Slot { day: date!(2026 - 11 - 25), window: schedule.windows[1].window };
    assert_eq!(schedule.delivery_for(pickup, false).day, date!(2026 - 11 - 28));
    assert_eq!(schedule.delivery_for(pickup, true).day, date!(2026 - 11 - 26));
    schedule.closed.insert(date!(2026 - 11 - 26));
    assert_eq!(schedule.delivery_for(pickup, true).day, date!(2026 - 11 - 27));
    assert_eq!(schedule.delivery_for(pickup, true).window, pickup.window);
}

#[test]
fn the_eta_is_the_window_start_plus_the_stops_before() {
    let window = Window::parse("19:00-20:00").unwrap();
    let at = |stops_before| {
        eta(RunPosition { window, run_start: 1140, stops_before, windows_before: Vec::new(), last_progress: None }, 15)
    };
    assert_eq!(at(0).to_string(), "19:00-19:30");
    assert_eq!(at(2).to_string(), "19:30-20:00");
}

#[test]
fn stops_of_earlier_windows_queue_from_where_the_run_starts() {
    let window = Window::parse("21:00-22:00").unwrap();
    // Six stops of the 19:00 and 20:00 windows before a 21:00 stop: 19:00 + 6 × 15 = 20:30,
    // so the valet is expected when the 21:00 window opens, not at 22:30.
    let late = eta(
        RunPosition { window, run_start: 1140, stops_before: 6, windows_before: Vec::new(), last_progress: None },
        15,
    );
    assert_eq!(late.to_string(), "21:00-21:30");
    let later = eta(
        RunPosition { window, run_start: 1140, stops_before: 9, windows_before: Vec::new(), last_progress: None },
        15,
    );
    assert_eq!(later.to_string(), "21:15-21:45");
}

#[test]
fn once_the_valet_moves_the_eta_follows_them_but_never_before_the_window() {
    let window = Window::parse("20:00-21:00").unwrap();
    let moving = |at, stops_before| {
        eta(
            RunPosition {
                window,
                run_start: window.start,
                stops_before,
                windows_before: Vec::new(),
                last_progress: Some(nairobi(at)),
            },
            15,
        )
        .to_string()
    };
    // Running late: on the way at 20:20 with one stop before you.
    assert_eq!(moving(datetime!(2026-11-25 20:20), 1), "20:50-21:20");
    // Early: the window still holds.
    assert_eq!(moving(datetime!(2026-11-25 19:10), 0), "20:00-20:30");
    // Minutes round down to five.
    assert_eq!(moving(datetime!(2026-11-25 20:03), 0), "20:15-20:45");
}
