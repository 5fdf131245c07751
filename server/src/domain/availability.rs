//! What a day's pickup windows look like to a customer at a given moment: how many places each has
//! left, and, for one that cannot be chosen, why (past its cut-off, a closed day, beyond the
//! horizon, full). Pure: the bookings are counted by `models::stop`, the rules are the schedule's.

use super::schedule::{Schedule, Slot, SlotRefusal};
use time::{Date, OffsetDateTime};

/// One window of a day, as it stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WindowAvailability {
    /// The day and window.
    pub slot: Slot,
    /// Places left: the capacity less the pickups booked, never negative; 0 when it cannot be
    /// booked for another reason.
    pub remaining: u32,
    /// Why it cannot be chosen; none when it can.
    pub refusal: Option<SlotRefusal>,
}

impl WindowAvailability {
    /// Whether a customer may choose it now.
    pub fn is_open(&self) -> bool {
        self.refusal.is_none()
    }

    /// Whether it cannot be chosen only because it is full (a cancellation may open it again).
    pub fn is_full(&self) -> bool {
        matches!(self.refusal, Some(SlotRefusal::Full(_)))
    }
}

impl Schedule {
    /// Every window of `day` at `now`, in order; `booked(start)` is the number of pickups already
    /// booked in the window starting at `start` on that day.
    pub fn availability(&self, day: Date, now: OffsetDateTime, booked: impl Fn(u16) -> u32) -> Vec<WindowAvailability> {
        self.windows
            .iter()
            .map(|plan| {
                let slot = Slot { day, window: plan.window };
                match self.check(day, plan.window.start, now) {
                    Err(refusal) => WindowAvailability { slot, remaining: 0, refusal: Some(refusal) },
                    Ok((slot, capacity)) => {
                        let remaining = capacity.saturating_sub(booked(plan.window.start));
                        let refusal = (remaining == 0).then(|| SlotRefusal::Full(slot.label()));
                        WindowAvailability { slot, remaining, refusal }
                    }
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::NAIROBI;
    use time::macros::{date, datetime};

    #[test]
    fn a_window_has_its_capacity_less_its_bookings_and_a_full_one_says_so() {
        let schedule = Schedule::default();
        let now = datetime!(2026-11-25 09:00).assume_offset(NAIROBI);
        let day = date!(2026 - 11 - 26);

        let windows = schedule.availability(day, now, |start| {
            if start == 1200 {
                8
            } else if start == 1140 {
                3
            } else {
                0
            }
        });

        let seen: Vec<_> = windows.iter().map(|w| (w.slot.window.to_string(), w.remaining, w.is_open())).collect();
        assert_eq!(
            seen,
            [
                ("19:00-20:00".to_owned(), 5, true),
                ("20:00-21:00".to_owned(), 0, false),
                ("21:00-22:00".to_owned(), 8, true)
            ]
        );
        assert_eq!(
            windows[1].refusal.as_ref().map(ToString::to_string).as_deref(),
            Some("The Thu 26 Nov, 20:00-21:00 window is full. Please choose another window.")
        );
    }

    #[test]
    fn more_bookings_than_capacity_leave_none_not_a_negative_number() {
        let schedule = Schedule::default();
        let now = datetime!(2026-11-25 09:00).assume_offset(NAIROBI);

        let windows = schedule.availability(date!(2026 - 11 - 25), now, |_| 12);

        assert!(windows.iter().all(|w| w.remaining == 0 && !w.is_open() && w.is_full()));
    }

    #[test]
    fn past_closed_and_far_windows_have_nothing_left_and_their_reason() {
        let mut schedule = Schedule::default();
        schedule.closed.insert(date!(2026 - 11 - 27));
        // 18:30 in Nairobi: the 19:00 window closed at 18:00, the 20:00 one is still open.
        let now = datetime!(2026-11-25 18:30).assume_offset(NAIROBI);

        let today = schedule.availability(date!(2026 - 11 - 25), now, |_| 0);
        let closed = schedule.availability(date!(2026 - 11 - 27), now, |_| 0);
        let far = schedule.availability(date!(2026 - 12 - 25), now, |_| 0);

        assert_eq!(
            today[0].refusal.as_ref().map(ToString::to_string).as_deref(),
            Some("Booking for Wed 25 Nov, 19:00-20:00 closed at 18:00. Please choose a later window.")
        );
        assert_eq!((today[0].remaining, today[0].is_full()), (0, false));
        assert_eq!((today[1].remaining, today[1].is_open()), (8, true));
        assert!(closed.iter().all(|w| w.remaining == 0 && matches!(w.refusal, Some(SlotRefusal::Closed(_)))));
        assert!(far.iter().all(|w| w.remaining == 0 && w.refusal == Some(SlotRefusal::TooFar(14))));
    }
}
