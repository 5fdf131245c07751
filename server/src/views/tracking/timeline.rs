//! Where an order's status history has brought it: when each step of the tracking page's progress
//! bar was reached, read from `order_status_history` so that the bar and the dates never disagree.
//!
//! Staff may set any status from any other (spec section 4), so the history can skip steps
//! (pending straight to ready), go back (delivered to in-progress), or cancel and reinstate an
//! order. [`Progress::replay`] turns such a history into what is true now.

use crate::domain::OrderStatus;
use time::PrimitiveDateTime;

/// The five steps of the progress bar (spec section 2), in order: Order Placed, Picked Up,
/// In Progress, Ready for Delivery, Delivered.
pub const STEPS: [OrderStatus; 5] =
    [OrderStatus::Pending, OrderStatus::PickedUp, OrderStatus::InProgress, OrderStatus::Ready, OrderStatus::Delivered];

/// The step of a status on the bar; none for cancelled, which is not a step.
fn step_of(status: OrderStatus) -> Option<usize> {
    STEPS.iter().position(|step| *step == status)
}

/// When a step was reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StepTime {
    /// UTC.
    pub at: PrimitiveDateTime,
    /// False when staff skipped the step: `at` is then when a later step was reached, so the step
    /// was done by then, not necessarily at that time.
    pub exact: bool,
}

/// When each step of the bar was reached, and the cancellation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Progress {
    /// One per entry of [`STEPS`]; `None`: not done.
    pub steps: [Option<StepTime>; 5],
    /// When the order was cancelled, while its status is cancelled.
    pub cancelled_at: Option<PrimitiveDateTime>,
}

impl Progress {
    /// Replays an order's `history` (oldest first) for an order now in `status`, placed at
    /// `placed_at` and last changed at `updated_at`. The rule:
    ///
    /// - A change to a step records its time for that step and forgets the times of every later
    ///   step: a move backwards (delivered to in-progress) undoes them, a move forwards has none
    ///   to forget. So each step keeps the time of its latest entry that no later backwards move
    ///   undid.
    /// - A change to cancelled leaves the steps as they were: a cancelled order still shows
    ///   whether it had been picked up, and an order taken back from cancelled shows the steps of
    ///   the status it was given then.
    /// - The current step is that of `status` (of a cancelled order: that of the last status
    ///   before the cancellation). A step up to it without a time was skipped by staff, and is
    ///   done by the time of the next step that has one (`exact: false`); steps after it are not
    ///   done.
    /// - Order Placed is done at `placed_at`, whatever the history says.
    pub fn replay(
        status: OrderStatus,
        placed_at: PrimitiveDateTime,
        updated_at: PrimitiveDateTime,
        history: impl IntoIterator<Item = (OrderStatus, PrimitiveDateTime)>,
    ) -> Self {
        let mut reached: [Option<PrimitiveDateTime>; 5] = [None; 5];
        let mut last_step = 0;
        let mut cancelled_at = None;
        for (changed_to, at) in history {
            match step_of(changed_to) {
                Some(step) => {
                    reached[step] = Some(at);
                    reached[step + 1..].fill(None);
                    last_step = step;
                }
                None => cancelled_at = Some(at),
            }
        }
        let current = step_of(status).unwrap_or(last_step);
        let mut steps: [Option<StepTime>; 5] = [None; 5];
        // Backwards from the current step, so that a skipped step borrows the next one's time; the
        // current step itself has a time unless the history is missing, and then it was reached
        // by the order's last change at the latest.
        let mut next = StepTime { at: updated_at, exact: false };
        for step in (1..=current).rev() {
            let time = reached[step].map_or(StepTime { exact: false, ..next }, |at| StepTime { at, exact: true });
            steps[step] = Some(time);
            next = time;
        }
        steps[0] = Some(StepTime { at: placed_at, exact: true });
        let cancelled_at = (status == OrderStatus::Cancelled).then(|| cancelled_at.unwrap_or(updated_at));
        Progress { steps, cancelled_at }
    }

    /// When it was picked up (or by when), if it was.
    pub fn picked_up(&self) -> Option<StepTime> {
        self.steps[1]
    }

    /// Whether it is ready, delivered or cancelled: nothing is left to estimate.
    fn finished(&self) -> bool {
        self.steps[3].is_some() || self.cancelled_at.is_some()
    }

    /// When it should be ready: `turnaround_days` after the pickup, while it is picked up and not
    /// yet ready. Before the pickup there is no date to count from.
    pub fn estimated_completion(&self, turnaround_days: i64) -> Option<PrimitiveDateTime> {
        let picked_up = self.picked_up().filter(|_| !self.finished())?;
        Some(picked_up.at + time::Duration::days(turnaround_days))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use OrderStatus::*;
    use time::macros::datetime;

    const PLACED: PrimitiveDateTime = datetime!(2026-11-23 16:00:00);
    const T1: PrimitiveDateTime = datetime!(2026-11-23 17:00:00);
    const T2: PrimitiveDateTime = datetime!(2026-11-24 09:00:00);
    const T3: PrimitiveDateTime = datetime!(2026-11-25 12:00:00);
    const T4: PrimitiveDateTime = datetime!(2026-11-26 18:00:00);
    const T5: PrimitiveDateTime = datetime!(2026-11-27 10:00:00);

    fn exact(at: PrimitiveDateTime) -> Option<StepTime> {
        Some(StepTime { at, exact: true })
    }

    fn by(at: PrimitiveDateTime) -> Option<StepTime> {
        Some(StepTime { at, exact: false })
    }

    /// Replays `changes` after the creation's own pending entry; the status is the last change's.
    fn replay(changes: &[(OrderStatus, PrimitiveDateTime)]) -> Progress {
        let status = changes.last().map_or(Pending, |change| change.0);
        let updated = changes.last().map_or(PLACED, |change| change.1);
        Progress::replay(status, PLACED, updated, [(Pending, PLACED)].into_iter().chain(changes.iter().copied()))
    }

    #[test]
    fn a_new_order_has_only_its_placing_done_and_no_estimate_before_pickup() {
        let progress = replay(&[]);

        assert_eq!(progress.steps, [exact(PLACED), None, None, None, None]);
        assert_eq!(progress.estimated_completion(3), None);
        assert_eq!(progress.cancelled_at, None);
    }

    #[test]
    fn each_step_taken_in_turn_keeps_its_own_time() {
        let progress = replay(&[(PickedUp, T1), (InProgress, T2), (Ready, T3), (Delivered, T4)]);

        assert_eq!(progress.steps, [exact(PLACED), exact(T1), exact(T2), exact(T3), exact(T4)]);
        assert_eq!(progress.estimated_completion(3), None, "done: nothing to estimate");
    }

    #[test]
    fn the_estimate_counts_the_turnaround_from_the_pickup() {
        let progress = replay(&[(PickedUp, T1), (InProgress, T2)]);

        assert_eq!(progress.estimated_completion(3), Some(datetime!(2026-11-26 17:00:00)));
    }

    #[test]
    fn a_skipped_step_is_done_by_the_time_of_the_next_one() {
        let progress = replay(&[(InProgress, T2)]);

        assert_eq!(progress.steps, [exact(PLACED), by(T2), exact(T2), None, None]);
        assert_eq!(progress.estimated_completion(3), Some(datetime!(2026-11-27 09:00:00)));
        let delivered_at_once = replay(&[(Delivered, T4)]);
        assert_eq!(delivered_at_once.steps, [exact(PLACED), by(T4), by(T4), by(T4), exact(T4)]);
    }

    #[test]
    fn a_move_backwards_undoes_the_later_steps_and_the_step_returned_to_gets_its_new_time() {
        let progress = replay(&[(PickedUp, T1), (InProgress, T2), (Ready, T3), (Delivered, T4), (InProgress, T5)]);

        assert_eq!(progress.steps, [exact(PLACED), exact(T1), exact(T5), None, None]);
        assert_eq!(progress.estimated_completion(3), Some(datetime!(2026-11-26 17:00:00)), "from the pickup");
    }

    #[test]
    fn a_step_reached_again_after_going_back_shows_its_latest_time() {
        let progress = replay(&[(PickedUp, T1), (Ready, T2), (InProgress, T3), (Ready, T4)]);

        assert_eq!(progress.steps, [exact(PLACED), exact(T1), exact(T3), exact(T4), None]);
    }

    #[test]
    fn an_order_set_back_to_pending_is_waiting_for_pickup_again() {
        let progress = replay(&[(PickedUp, T1), (Pending, T2)]);

        assert_eq!(progress.steps, [exact(PLACED), None, None, None, None]);
    }

    #[test]
    fn a_cancelled_order_keeps_the_steps_it_had_reached_and_says_when_it_was_cancelled() {
        let before_pickup = replay(&[(Cancelled, T1)]);
        let after_pickup = replay(&[(PickedUp, T1), (Cancelled, T2)]);

        assert_eq!(before_pickup.steps, [exact(PLACED), None, None, None, None]);
        assert_eq!(before_pickup.cancelled_at, Some(T1));
        assert_eq!(after_pickup.steps, [exact(PLACED), exact(T1), None, None, None]);
        assert_eq!(after_pickup.cancelled_at, Some(T2));
        assert_eq!(after_pickup.estimated_completion(3), None, "a cancelled order is not coming back");
    }

    #[test]
    fn an_order_taken_back_from_cancelled_shows_its_new_status_and_no_cancellation() {
        let progress = replay(&[(PickedUp, T1), (Cancelled, T2), (Ready, T3)]);

        assert_eq!(progress.steps, [exact(PLACED), exact(T1), by(T3), exact(T3), None]);
        assert_eq!(progress.cancelled_at, None);
    }

    #[test]
    fn a_status_without_history_is_reached_by_the_orders_last_change() {
        let progress = Progress::replay(Ready, PLACED, T3, []);

        assert_eq!(progress.steps, [exact(PLACED), by(T3), by(T3), by(T3), None]);
    }
}
