//! The limits on texts (`LAUNDRY_SMS_PER_PHONE_PER_HOUR`, `LAUNDRY_SMS_SERVICE_PER_PHONE_PER_HOUR`,
//! `LAUNDRY_SMS_DAILY_BUDGET`): read by `config`, honoured by `models::outbox` when a text
//! is written, and by the outbox worker of the SMS channel (the daily budget) when it is sent.

use super::MessageKind;

/// What texts may cost and whom they may reach: per phone number and hour, and for the whole shop
/// per Nairobi day (`LAUNDRY_SMS_PER_PHONE_PER_HOUR`, `LAUNDRY_SMS_SERVICE_PER_PHONE_PER_HOUR`,
/// `LAUNDRY_SMS_DAILY_BUDGET`). docs/text-limits.md says how each is counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SmsLimits {
    /// Replies to texts (kinds not about an order) one phone may get in an hour.
    pub per_phone_per_hour: u32,
    /// Texts of any kind one phone may get in an hour: texts about an order are held only by this
    /// cap, replies by both.
    pub service_per_phone_per_hour: u32,
    /// Texts the shop sends in one Nairobi day; beyond it texts wait in the outbox.
    pub daily_budget: u32,
}

impl SmsLimits {
    /// The default replies per phone and hour.
    pub const PER_PHONE_PER_HOUR: u32 = 3;
    /// The default cap of all texts per phone and hour: room for the steps of an order that can
    /// fall in one hour (received, confirmed, on the way, picked up, paid…) with a reply or two,
    /// far below the thirty an attacker once sent one phone.
    pub const SERVICE_PER_PHONE_PER_HOUR: u32 = 8;
    /// The default daily budget: a small shop's busiest day with room to spare.
    pub const DAILY_BUDGET: u32 = 500;

    /// The share of the budget at which the owner is warned, in percent.
    pub const WARN_AT_PERCENT: u32 = 80;

    /// How many texts `kind` may find already written to its phone in the last hour and still be
    /// written: `(replies, all)` for a reply, `(None, all)` for a text about an order.
    pub fn room_for(&self, kind: MessageKind) -> (Option<u32>, u32) {
        let replies = kind.is_reply().then_some(self.per_phone_per_hour);
        (replies, self.service_per_phone_per_hour)
    }
}

impl Default for SmsLimits {
    fn default() -> Self {
        Self {
            per_phone_per_hour: Self::PER_PHONE_PER_HOUR,
            service_per_phone_per_hour: Self::SERVICE_PER_PHONE_PER_HOUR,
            daily_budget: Self::DAILY_BUDGET,
        }
    }
}
