//! The transitions, example by example, and the property tests over random sequences of events.
use super::*;
use crate::domain::TextEnum;
use crate::domain::schedule::Window;
use proptest::prelude::*;
use time::macros::date;

const NOW: Moment = Moment { day: date!(2026 - 11 - 26), minute: 12 * 60 };

fn slot(day: u8, start: u16) -> Slot {
    let day = date!(2026 - 11 - 20).replace_day(day).unwrap();
    Slot { day, window: Window { start, end: start + 60 } }
}

/// A placed order: pending, pickup tomorrow evening, delivery two days later.
fn placed() -> Life {
    Life {
        status: OrderStatus::Pending,
        pickup: Some(StopLife { state: StopState::Planned, slot: slot(27, 1140) }),
        delivery: Some(StopLife { state: StopState::Planned, slot: slot(29, 1140) }),
        paid: 0,
    }
}

fn run(life: &Life, events: &[Event]) -> Result<Life, Refusal> {
    events.iter().try_fold(*life, |life, event| apply(&life, *event, NOW).map(|t| t.after))
}

#[test]
fn a_missed_pickup_withdraws_the_delivery_and_texts_the_customer() {
    let missed = apply(&placed(), Event::Missed(StopKind::Pickup), NOW).unwrap();
    assert_eq!(missed.after.pickup.unwrap().state, StopState::Missed);
    assert_eq!(missed.after.delivery.unwrap().state, StopState::Cancelled);
    assert_eq!(missed.effects, vec![Effect::Text(Notice::Missed(StopKind::Pickup))]);
    // Never a delivery for laundry the shop does not have.
    for event in [Event::SetOff(StopKind::Delivery), Event::Delivered, Event::Missed(StopKind::Delivery)] {
        assert_eq!(apply(&missed.after, event, NOW), Err(Refusal::NotPickedUp), "{event:?}");
    }
    // A new window books both again.
    let moved = apply(&missed.after, Event::CustomerMovePickup { to: slot(28, 1140), delivery: slot(30, 1140) }, NOW)
        .unwrap()
        .after;
    assert_eq!(moved.pickup, Some(StopLife { state: StopState::Planned, slot: slot(28, 1140) }));
    assert_eq!(moved.delivery, Some(StopLife { state: StopState::Planned, slot: slot(30, 1140) }));
}

#[test]
fn a_pickup_whose_window_passed_is_late_once_and_its_delivery_is_withdrawn() {
    // The pickup's window is the 27th, 19:00-20:00: not over at 19:59, over at 20:00.
    let during = Moment { day: date!(2026 - 11 - 27), minute: 1199 };
    let after = Moment { day: date!(2026 - 11 - 27), minute: 1200 };
    assert_eq!(apply(&placed(), Event::WindowPassed(StopKind::Pickup), during), Err(Refusal::WindowNotOver));
    let late = apply(&placed(), Event::WindowPassed(StopKind::Pickup), after).unwrap();
    assert_eq!(late.after.pickup.unwrap().state, StopState::Missed);
    assert_eq!(late.after.delivery.unwrap().state, StopState::Cancelled, "no delivery for laundry never collected");
    assert_eq!(late.effects, vec![Effect::Text(Notice::Late(StopKind::Pickup))]);
    // The next look of the clock changes nothing and texts nobody.
    let again = apply(&late.after, Event::WindowPassed(StopKind::Pickup), after).unwrap();
    assert_eq!((again.after, again.effects), (late.after, vec![]));
    // A pending order's delivery is never late: it has no laundry to bring.
    let later = Moment { day: date!(2026 - 11 - 30), minute: 0 };
    assert_eq!(apply(&placed(), Event::WindowPassed(StopKind::Delivery), later), Err(Refusal::NotPickedUp));
}

#[test]
fn a_delivery_whose_window_passed_is_late_and_waits_for_a_new_window() {
    let collected = run(&placed(), &[Event::PickedUp]).unwrap();
    let later = Moment { day: date!(2026 - 11 - 29), minute: 1200 };
    let late = apply(&collected, Event::WindowPassed(StopKind::Delivery), later).unwrap();
    assert_eq!(late.after.delivery.unwrap().state, StopState::Missed);
    assert_eq!(late.after.status, OrderStatus::PickedUp);
    assert_eq!(late.effects, vec![Effect::Text(Notice::Late(StopKind::Delivery))]);
    // Booked again, it is planned; a delivered order is never late.
    let moved = apply(&late.after, Event::CustomerMoveDelivery { to: slot(30, 1140) }, later).unwrap().after;
    assert_eq!(moved.delivery.unwrap().state, StopState::Planned);
    let delivered = run(&collected, &[Event::Delivered]).unwrap();
    assert_eq!(apply(&delivered, Event::WindowPassed(StopKind::Delivery), later), Err(Refusal::AlreadyDelivered));
}

#[test]
fn cancelling_collected_laundry_sends_it_back_on_a_return_stop() {
    let collected = run(&placed(), &[Event::PickedUp]).unwrap();
    let back = slot(28, 1140);
    let cancelled = apply(&collected, Event::StaffCancel { tell: true, return_to: Some(back) }, NOW).unwrap();
    assert_eq!(cancelled.after.status, OrderStatus::Cancelled);
    assert_eq!(cancelled.after.delivery, Some(StopLife { state: StopState::Planned, slot: back }));
    assert!(cancelled.after.returning());
    assert_eq!(consistent(&cancelled.after), Ok(()));
    // The valet sets off, may miss it (it stays a return) and hands it back: still cancelled.
    let on_the_way = apply(&cancelled.after, Event::SetOff(StopKind::Delivery), NOW).unwrap().after;
    let missed = apply(&on_the_way, Event::Missed(StopKind::Delivery), NOW).unwrap().after;
    assert_eq!((missed.delivery.unwrap().state, missed.returning()), (StopState::Missed, true));
    let moved = Event::StaffMove { kind: StopKind::Delivery, to: slot(30, 1140), delivery: None, tell: false };
    let booked = apply(&missed, moved, NOW).unwrap().after;
    let returned = apply(&booked, Event::Delivered, NOW).unwrap();
    assert_eq!(returned.after.status, OrderStatus::Cancelled);
    assert_eq!(returned.after.delivery.unwrap().state, StopState::Done);
    assert_eq!(returned.effects, vec![Effect::Text(Notice::Returned)]);
    // Collected at the shop instead: no stop; and nothing collected, nothing to return.
    let at_shop = apply(&collected, Event::StaffCancel { tell: false, return_to: None }, NOW).unwrap().after;
    assert_eq!(at_shop.delivery.unwrap().state, StopState::Cancelled);
    let pending = apply(&placed(), Event::StaffCancel { tell: false, return_to: Some(back) }, NOW).unwrap().after;
    assert_eq!(pending.delivery.unwrap().state, StopState::Cancelled);
}

#[test]
fn the_valet_cannot_deliver_a_pending_order() {
    assert_eq!(apply(&placed(), Event::SetOff(StopKind::Delivery), NOW), Err(Refusal::NotPickedUp));
    assert_eq!(apply(&placed(), Event::Delivered, NOW), Err(Refusal::NotPickedUp));
}

#[test]
fn cancelling_a_paid_order_withdraws_what_is_not_done_and_undoing_it_restores_the_stops() {
    let paid = run(&placed(), &[Event::PickedUp, Event::Paid(1200)]).unwrap();
    let cancelled = apply(&paid, Event::StaffCancel { tell: true, return_to: None }, NOW).unwrap();
    assert_eq!(cancelled.after.paid, 1200, "the money received stays received: the ledger owes it back");
    assert_eq!(cancelled.after.delivery.unwrap().state, StopState::Cancelled);
    assert_eq!(cancelled.after.pickup.unwrap().state, StopState::Done);
    assert!(cancelled.effects.contains(&Effect::Text(Notice::Cancelled)));
    let quiet = apply(&paid, Event::StaffCancel { tell: false, return_to: None }, NOW).unwrap();
    assert!(!quiet.effects.iter().any(|effect| matches!(effect, Effect::Text(_))));
    let back = apply(
        &cancelled.after,
        Event::StaffUndoCancel { to: OrderStatus::PickedUp, tell: false, pickup_room: true },
        NOW,
    )
    .unwrap();
    assert_eq!(back.after.status, OrderStatus::PickedUp);
    assert_eq!(back.after.delivery.unwrap().state, StopState::Planned);
}

#[test]
fn undoing_a_cancellation_after_the_window_passed_asks_for_a_new_one() {
    let cancelled = apply(&placed(), Event::StaffCancel { tell: false, return_to: None }, NOW).unwrap().after;
    let later = Moment { day: date!(2026 - 11 - 28), minute: 9 * 60 };
    let back =
        apply(&cancelled, Event::StaffUndoCancel { to: OrderStatus::Pending, tell: true, pickup_room: true }, later)
            .unwrap();
    assert_eq!(back.after.pickup.unwrap().state, StopState::Missed);
    assert_eq!(back.after.delivery.unwrap().state, StopState::Cancelled);
    assert_eq!(back.effects, vec![Effect::StatusEmail, Effect::Text(Notice::Reinstated)]);
}

#[test]
fn the_dropdown_cannot_cancel_and_a_cancelled_order_is_undone_not_set() {
    assert_eq!(apply(&placed(), Event::StaffSet(OrderStatus::Cancelled), NOW), Err(Refusal::CancelByStatus));
    let cancelled = apply(&placed(), Event::StaffCancel { tell: false, return_to: None }, NOW).unwrap().after;
    assert_eq!(apply(&cancelled, Event::StaffSet(OrderStatus::Ready), NOW), Err(Refusal::Cancelled));
    assert_eq!(apply(&cancelled, Event::StaffCancel { tell: true, return_to: None }, NOW), Err(Refusal::Cancelled));
}

#[test]
fn setting_an_order_back_to_pending_reopens_its_pickup() {
    let picked = run(&placed(), &[Event::PickedUp]).unwrap();
    let back = apply(&picked, Event::StaffSet(OrderStatus::Pending), NOW).unwrap().after;
    assert_eq!(back.pickup.unwrap().state, StopState::Planned);
    let late = Moment { day: date!(2026 - 11 - 28), minute: 0 };
    let back = apply(&picked, Event::StaffSet(OrderStatus::Pending), late).unwrap().after;
    assert_eq!(back.pickup.unwrap().state, StopState::Missed);
    assert_eq!(back.delivery.unwrap().state, StopState::Cancelled);
}

#[test]
fn a_missed_delivery_is_moved_by_the_customer_and_not_before_it_is_missed() {
    let ready = run(&placed(), &[Event::PickedUp, Event::StaffSet(OrderStatus::Ready)]).unwrap();
    let to = Event::CustomerMoveDelivery { to: slot(30, 1140) };
    assert_eq!(apply(&ready, to, NOW), Err(Refusal::DeliveryBooked));
    let missed = apply(&ready, Event::Missed(StopKind::Delivery), NOW).unwrap().after;
    assert_eq!(missed.status, OrderStatus::Ready);
    let moved = apply(&missed, to, NOW).unwrap().after;
    assert_eq!(moved.delivery, Some(StopLife { state: StopState::Planned, slot: slot(30, 1140) }));
}

#[test]
fn staff_move_a_delivery_only_after_the_pickup() {
    let to_early = Event::StaffMove { kind: StopKind::Delivery, to: slot(26, 1140), delivery: None, tell: true };
    assert_eq!(apply(&placed(), to_early, NOW), Err(Refusal::DeliveryBeforePickup));
    let to_later = Event::StaffMove { kind: StopKind::Delivery, to: slot(30, 600), delivery: None, tell: true };
    let moved = apply(&placed(), to_later, NOW).unwrap();
    assert_eq!(moved.after.delivery.unwrap().slot, slot(30, 600));
    assert_eq!(moved.effects, vec![Effect::Text(Notice::Moved(StopKind::Delivery))]);
}

#[test]
fn a_customer_cannot_cancel_a_paid_order() {
    let paid = run(&placed(), &[Event::Paid(500)]).unwrap();
    assert_eq!(apply(&paid, Event::CustomerCancel, NOW), Err(Refusal::Paid));
}

fn any_status() -> impl Strategy<Value = OrderStatus> {
    prop::sample::select(OrderStatus::ALL.to_vec())
}

fn any_kind() -> impl Strategy<Value = StopKind> {
    prop::sample::select(vec![StopKind::Pickup, StopKind::Delivery])
}

fn any_slot() -> impl Strategy<Value = Slot> {
    (24u8..31, prop::sample::select(vec![420u16, 600, 1140, 1260])).prop_map(|(day, start)| slot(day, start))
}

fn any_event() -> impl Strategy<Value = Event> {
    prop_oneof![
        any_status().prop_map(Event::StaffSet),
        (any::<bool>(), prop::option::of(any_slot()))
            .prop_map(|(tell, return_to)| Event::StaffCancel { tell, return_to }),
        (any_status(), any::<bool>(), any::<bool>()).prop_map(|(to, tell, pickup_room)| Event::StaffUndoCancel {
            to,
            tell,
            pickup_room
        }),
        (any_kind(), any_slot(), any_slot(), any::<bool>()).prop_map(|(kind, to, delivery, tell)| {
            Event::StaffMove { kind, to, delivery: (kind == StopKind::Pickup).then_some(delivery), tell }
        }),
        (any_slot(), any_slot()).prop_map(|(to, delivery)| Event::CustomerMovePickup { to, delivery }),
        any_slot().prop_map(|to| Event::CustomerMoveDelivery { to }),
        Just(Event::CustomerCancel),
        any_kind().prop_map(Event::SetOff),
        Just(Event::PickedUp),
        Just(Event::Delivered),
        any_kind().prop_map(Event::Missed),
        any_kind().prop_map(Event::WindowPassed),
        (0i32..3000).prop_map(Event::Paid),
    ]
}

fn any_moment() -> impl Strategy<Value = Moment> {
    (24u8..31, 0u16..1440)
        .prop_map(|(day, minute)| Moment { day: date!(2026 - 11 - 20).replace_day(day).unwrap(), minute })
}

proptest! {
    /// No sequence of events leaves an order inconsistent (no delivery for laundry never picked
    /// up, no stop planned for a cancelled order, no
    /// status its stops contradict), and a refused event changes nothing.
    #[test]
    fn no_sequence_of_events_leaves_an_order_inconsistent(
        events in prop::collection::vec((any_event(), any_moment()), 0..40),
        stops in any::<bool>(),
    ) {
        let mut life = placed();
        if !stops {
            life.pickup = None;
            life.delivery = None;
        }
        for (event, now) in events {
            // A refused event changes nothing: `life` stays as it was.
            if let Ok(transition) = apply(&life, event, now) {
                prop_assert_eq!(consistent(&transition.after), Ok(()), "{:?} + {:?}", life, event);
                if transition.after == life {
                    prop_assert!(!transition.effects.iter().any(|e| matches!(e, Effect::Text(_))),
                        "nothing changed but a text was written: {:?} + {:?}", life, event);
                }
                life = transition.after;
            }
        }
    }

    /// Once cancelled, only an undo changes the status, and nothing is planned meanwhile.
    #[test]
    fn a_cancelled_order_has_nothing_planned(events in prop::collection::vec((any_event(), any_moment()), 0..30)) {
        let mut life = apply(&placed(), Event::StaffCancel { tell: false, return_to: None }, NOW).unwrap().after;
        for (event, now) in events {
            if matches!(event, Event::StaffUndoCancel { .. }) {
                continue;
            }
            if let Ok(transition) = apply(&life, event, now) {
                life = transition.after;
            }
            prop_assert_eq!(life.status, OrderStatus::Cancelled);
            prop_assert!(life.pickup.is_none_or(|s| !s.state.is_open()));
            prop_assert!(life.delivery.is_none_or(|s| !s.state.is_open()));
        }
    }
}
