//! The demo's week: its customers, and what happened to each order on each day (placed, paid,
//! planned, missed, cancelled, re-cleaned).

use time::{Date, Duration, PrimitiveDateTime, Time};

/// The demo's customers: name, phone, location, landmark.
pub(super) const CUSTOMERS: [(&str, &str, &str, &str); 8] = [
    ("Amina Wanjiru", "0712345678", "Kilimani, Argwings Kodhek Rd, House 12", "Opposite Yaya Centre"),
    ("Brian Otieno", "0722111222", "Westlands, Waiyaki Way, Apt 4B", "Next to Sarit Centre"),
    ("Cynthia Mwangi", "0733222333", "Lavington, James Gichuru Rd", "Blue gate"),
    ("David Kamau", "0701333444", "Kileleshwa, Othaya Rd, Flat 7", ""),
    ("Esther Achieng", "0711444555", "South B, Mukoma Rd", "Behind the Shell station"),
    ("Felix Mutua", "0720555666", "Parklands, 3rd Avenue", ""),
    ("Grace Njoroge", "0799666777", "Upper Hill, Ralph Bunche Rd", "Reception desk"),
    ("Hassan Chebet", "0745777888", "Karen, Langata Rd", ""),
];

/// How a past order's week went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Story {
    /// Picked up, cleaned and delivered; paid as said.
    Delivered(Paid),
    /// Picked up and cleaned; its delivery is on today's run.
    Ready(Paid),
    /// Picked up, in the wash.
    InProgress,
    /// Picked up, not yet started.
    PickedUp,
    /// The valet found nobody home at its pickup.
    Missed,
    /// Cancelled by staff before its pickup.
    Cancelled,
}

/// How a past order was paid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Paid {
    /// Cash at the door, the whole bill.
    Cash,
    /// KSh 300 cash at the door: the rest is still owed.
    Part,
    /// An M-PESA code at the door (the till).
    CodeAtDoor,
    /// To the till before delivery, entered by staff.
    Before,
    /// Not yet.
    Unpaid,
}

/// One past order: placed `days_ago` days before today, by the `customer`-th customer.
pub(super) struct Planned {
    pub(super) days_ago: i64,
    pub(super) customer: usize,
    pub(super) service: &'static str,
    pub(super) kg: i32,
    pub(super) pieces: &'static [(&'static str, i32)],
    pub(super) pay_now: bool,
    pub(super) window: u16,
    pub(super) story: Story,
}

pub(super) const WEEK: [Planned; 12] = [
    Planned {
        days_ago: 6,
        customer: 0,
        service: "wash-fold",
        kg: 5,
        pieces: &[],
        pay_now: false,
        window: 19,
        story: Story::Delivered(Paid::Cash),
    },
    Planned {
        days_ago: 6,
        customer: 1,
        service: "wash-fold",
        kg: 4,
        pieces: &[("shirt", 2)],
        pay_now: false,
        window: 20,
        story: Story::Delivered(Paid::CodeAtDoor),
    },
    Planned {
        days_ago: 5,
        customer: 2,
        service: "dry-cleaning",
        kg: 2,
        pieces: &[],
        pay_now: true,
        window: 19,
        story: Story::Delivered(Paid::Before),
    },
    Planned {
        days_ago: 5,
        customer: 3,
        service: "wash-fold",
        kg: 6,
        pieces: &[],
        pay_now: false,
        window: 21,
        story: Story::Cancelled,
    },
    Planned {
        days_ago: 4,
        customer: 4,
        service: "wash-fold",
        kg: 3,
        pieces: &[("dress", 1)],
        pay_now: false,
        window: 20,
        story: Story::Delivered(Paid::Part),
    },
    Planned {
        days_ago: 4,
        customer: 5,
        service: "wash-fold",
        kg: 7,
        pieces: &[],
        pay_now: false,
        window: 19,
        story: Story::Delivered(Paid::Cash),
    },
    Planned {
        days_ago: 3,
        customer: 6,
        service: "wash-fold",
        kg: 4,
        pieces: &[("trouser", 2)],
        pay_now: false,
        window: 19,
        story: Story::Ready(Paid::Unpaid),
    },
    Planned {
        days_ago: 3,
        customer: 7,
        service: "wash-fold",
        kg: 5,
        pieces: &[],
        pay_now: true,
        window: 20,
        story: Story::Ready(Paid::Before),
    },
    Planned {
        days_ago: 2,
        customer: 0,
        service: "wash-fold",
        kg: 3,
        pieces: &[],
        pay_now: false,
        window: 20,
        story: Story::InProgress,
    },
    Planned {
        days_ago: 2,
        customer: 5,
        service: "wash-fold",
        kg: 4,
        pieces: &[],
        pay_now: false,
        window: 21,
        story: Story::Missed,
    },
    Planned {
        days_ago: 1,
        customer: 3,
        service: "wash-fold",
        kg: 6,
        pieces: &[("jacket", 1)],
        pay_now: false,
        window: 19,
        story: Story::PickedUp,
    },
    Planned {
        days_ago: 1,
        customer: 6,
        service: "dry-cleaning",
        kg: 2,
        pieces: &[],
        pay_now: false,
        window: 20,
        story: Story::InProgress,
    },
];

/// The moment `minutes` after midnight of `day` in Nairobi, as stored (UTC).
pub(super) fn at(day: Date, minutes: i64) -> PrimitiveDateTime {
    PrimitiveDateTime::new(day, Time::MIDNIGHT) + Duration::minutes(minutes) - Duration::hours(3)
}
