//! What happens to an order (an event at a moment), what the machine answers: the transition, the
//! notices to the customer, the effects to apply, or the refusal and why.

use super::Life;
use crate::domain::schedule::Slot;
use crate::domain::{OrderStatus, StopKind};
use time::Date;

/// Now, as the lifecycle needs it: Nairobi's day and minute.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Moment {
    /// The day in Nairobi.
    pub day: Date,
    /// Minutes after Nairobi's midnight.
    pub minute: u16,
}

impl Moment {
    /// Whether `slot`'s window has not ended yet: a visit there can still happen.
    pub fn before_end_of(self, slot: Slot) -> bool {
        (self.day, self.minute) < (slot.day, slot.window.end)
    }
}

/// Something that happens to an order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// Staff set a status from the dashboard (not cancelled: that is [`Event::StaffCancel`]; not
    /// from cancelled: that is [`Event::StaffUndoCancel`]).
    StaffSet(OrderStatus),
    /// Staff cancel the order (after confirming, with a reason); `tell`: the customer is texted.
    StaffCancel {
        /// Text the customer.
        tell: bool,
        /// Laundry already collected goes back as it is: its delivery becomes a return stop in
        /// this window; `None`: the customer collects it at the shop (or nothing was collected).
        return_to: Option<Slot>,
    },
    /// Staff take back a cancellation, to `to` (the status before it, or another).
    StaffUndoCancel {
        /// The status the order goes back to.
        to: OrderStatus,
        /// Text the customer.
        tell: bool,
        /// Whether the pickup's window still has room for it (else it asks for a new window).
        pickup_room: bool,
    },
    /// Staff move a stop to another window (capacity is checked by the caller); moving the pickup
    /// moves the delivery to `delivery` too (the turnaround kept).
    StaffMove {
        /// Which stop.
        kind: StopKind,
        /// Where to.
        to: Slot,
        /// With a pickup: where its delivery goes.
        delivery: Option<Slot>,
        /// Text the customer.
        tell: bool,
    },
    /// The customer moves their pickup (before its cut-off, or after it was missed), and the
    /// delivery with it.
    CustomerMovePickup {
        /// Where to.
        to: Slot,
        /// Where its delivery goes.
        delivery: Slot,
    },
    /// The customer picks a new window for a delivery that was missed.
    CustomerMoveDelivery {
        /// Where to.
        to: Slot,
    },
    /// The customer cancels from the order's page (before the pickup's cut-off).
    CustomerCancel,
    /// The valet pressed "On my way".
    SetOff(StopKind),
    /// The valet collected the laundry.
    PickedUp,
    /// The valet handed it back.
    Delivered,
    /// The valet found nobody home, or the laundry not ready.
    Missed(StopKind),
    /// The clock: this stop's window ended with nothing recorded (not done, not missed). It is
    /// late: missed, with a missed stop's effects (a late pickup withdraws its delivery), and the
    /// customer is told we did not come.
    WindowPassed(StopKind),
    /// Money arrived for the order (a prompt, the till, a code typed, cash).
    Paid(i32),
}

/// A text the customer gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Notice {
    /// Collected, with the bill.
    PickedUp,
    /// Ready, with the delivery window.
    Ready,
    /// Handed back.
    Delivered,
    /// The valet is on the way to this stop.
    OnTheWay(StopKind),
    /// The valet missed them at this stop: choose a new window.
    Missed(StopKind),
    /// Nobody came in this stop's window: sorry, and a new window (the customer's choice for a
    /// pickup; staff's to come, or the customer's, for a delivery).
    Late(StopKind),
    /// Staff cancelled the order.
    Cancelled,
    /// Staff took the cancellation back.
    Reinstated,
    /// Staff moved this stop.
    Moved(StopKind),
    /// The laundry of a cancelled order was handed back as it was.
    Returned,
}

/// What a transition causes besides the new state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// Text the customer.
    Text(Notice),
    /// The customer's status e-mail (when they gave an address and it is configured).
    StatusEmail,
    /// Ask the customer's phone for the bill (a "Pay Now" order just picked up).
    BillPrompt,
    /// Prompts to pay still waiting are withdrawn (the order was cancelled).
    WithdrawPrompts,
}

/// The new state and what it causes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transition {
    /// The state after the event.
    pub after: Life,
    /// What to write besides it, in order.
    pub effects: Vec<Effect>,
}

/// Why an event cannot happen to the order as it is; nothing changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The order is cancelled.
    #[error("This order was cancelled.")]
    Cancelled,
    /// The order is not cancelled (an undo of nothing).
    #[error("This order is not cancelled.")]
    NotCancelled,
    /// Cancelling goes through its own confirmation.
    #[error("Cancel the order with Cancel order, which asks for a reason.")]
    CancelByStatus,
    /// A delivered order is not cancelled: its money goes back as a refund.
    #[error("This order was delivered, so it cannot be cancelled.")]
    Delivered,
    /// The order has no such stop (an order from before slots).
    #[error("This order has no {0} booked.")]
    NoStop(&'static str),
    /// The delivery before the pickup.
    #[error("This order has not been picked up yet.")]
    NotPickedUp,
    /// The clock's lateness before the stop's window ended.
    #[error("This stop's window has not ended yet.")]
    WindowNotOver,
    /// The pickup after it was done.
    #[error("The laundry has been picked up already.")]
    AlreadyPickedUp,
    /// The delivery after it was done.
    #[error("This order has been delivered already.")]
    AlreadyDelivered,
    /// The stop was marked missed: staff or the customer book it again first.
    #[error("This stop was missed. Book a new window for it first.")]
    StopMissed,
    /// The delivery would come before the pickup.
    #[error("The delivery must come after the pickup (its window).")]
    DeliveryBeforePickup,
    /// The stop is already in that window.
    #[error("It is already booked in that window. Please choose another one.")]
    SameWindow,
    /// The pickup was missed: its delivery waits for a new pickup window.
    #[error("The pickup was missed: book a new pickup window first.")]
    PickupMissed,
    /// The customer may move a delivery only after it was missed.
    #[error("Your delivery is booked. Please call or WhatsApp us to change it.")]
    DeliveryBooked,
    /// A paid order is cancelled by staff, who send the money back.
    #[error(
        "Money was paid for this order, so it cannot be cancelled online. Please call or WhatsApp us: we will cancel it and send your money back."
    )]
    Paid,
}
