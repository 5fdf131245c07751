//! The messages of the outbox, e-mail and SMS: the channel, what each one is, where it stands, and
//! what the SMS provider reported of its delivery.

use super::text_enum::text_enum;

text_enum! {
    /// How a message travels.
    pub enum Channel {
        /// Through the EmailJS-compatible mail API.
        Email = "email",
        /// Through Africa's Talking.
        Sms = "sms",
    }
}

text_enum! {
    /// What an outbox message is. E-mails keep the names they had; SMS kinds start with `sms-`.
    pub enum MessageKind {
        /// Spec section 7: the order e-mail to staff.
        OrderAdmin = "order-admin",
        /// Spec section 7: the customer's confirmation (only when they gave an e-mail).
        OrderCustomer = "order-customer",
        /// Spec section 7: the contact message e-mail to staff.
        Contact = "contact-admin",
        /// Beyond the spec: the customer's e-mail when the order's status changes.
        OrderStatus = "order-status",
        /// Beyond the spec: the customer's e-mail when staff confirm (or move) the pickup slot.
        SlotConfirmed = "slot-confirmed",
        /// SMS: the order is in (its ID and the link to its page).
        SmsOrderReceived = "sms-order-received",
        /// SMS: staff confirmed (or moved) the pickup window.
        SmsSlotConfirmed = "sms-slot-confirmed",
        /// SMS: the 5:30pm text with the evening's 30-minute ETA window.
        SmsEta = "sms-eta",
        /// SMS: the valet set off to pick up.
        SmsOnTheWay = "sms-on-the-way",
        /// SMS: picked up, with the weighed bill and how to pay.
        SmsPickedUp = "sms-picked-up",
        /// SMS: cleaned and ready.
        SmsReady = "sms-ready",
        /// SMS: the valet set off to deliver.
        SmsOutForDelivery = "sms-out-for-delivery",
        /// SMS: delivered, with the link to the receipt.
        SmsDelivered = "sms-delivered",
        /// SMS: payment received.
        SmsPaymentReceived = "sms-payment-received",
        /// SMS: the answer to a text sent to the shop's number (a pickup booked, the order form's
        /// link, or help).
        SmsReply = "sms-reply",
        /// SMS: staff's answer to a text to the shop's number, written in the inbox.
        SmsAnswer = "sms-answer",
        /// SMS: the valet missed the customer (not home, not ready): pick a new window.
        SmsMissed = "sms-missed",
        /// SMS: staff cancelled the order.
        SmsCancelled = "sms-cancelled",
        /// SMS: staff moved the pickup or the delivery.
        SmsMoved = "sms-moved",
        /// SMS: staff took a cancellation back.
        SmsReinstated = "sms-reinstated",
    }
}

/// The start of the dedupe key of staff's answer to a claim (`claim:{claim id}`): an
/// [`MessageKind::SmsAnswer`] about a claim, not about a text to the shop.
pub const CLAIM_ANSWER_KEY: &str = "claim:";

impl MessageKind {
    /// The SMS kinds, in the order a customer receives them.
    pub const SMS: [MessageKind; 15] = [
        MessageKind::SmsOrderReceived,
        MessageKind::SmsSlotConfirmed,
        MessageKind::SmsEta,
        MessageKind::SmsOnTheWay,
        MessageKind::SmsPickedUp,
        MessageKind::SmsReady,
        MessageKind::SmsOutForDelivery,
        MessageKind::SmsDelivered,
        MessageKind::SmsPaymentReceived,
        MessageKind::SmsReply,
        MessageKind::SmsAnswer,
        MessageKind::SmsMissed,
        MessageKind::SmsCancelled,
        MessageKind::SmsMoved,
        MessageKind::SmsReinstated,
    ];

    /// How it travels.
    pub fn channel(self) -> Channel {
        if Self::SMS.contains(&self) { Channel::Sms } else { Channel::Email }
    }

    /// Whether it is the automatic reply to a text to the shop's number rather than a text about
    /// a customer's order: held to the tighter limit per phone (`LAUNDRY_SMS_PER_PHONE_PER_HOUR`)
    /// and sent after the texts about orders ([`MessageKind::priority`]).
    pub fn is_reply(self) -> bool {
        matches!(self, MessageKind::SmsReply)
    }

    /// What staff read for a message of this kind written with `dedupe_key`: staff's answer to a
    /// claim (its key starts with [`CLAIM_ANSWER_KEY`]) is named as such, not as an answer to a
    /// text.
    pub fn label_of(self, dedupe_key: Option<&str>) -> &'static str {
        match self {
            MessageKind::SmsAnswer if dedupe_key.is_some_and(|key| key.starts_with(CLAIM_ANSWER_KEY)) => {
                "Staff's answer to a claim"
            }
            _ => self.label(),
        }
    }

    /// Its place in the outbox's queue: lower goes first, and rows of one priority go in the order
    /// they are due. Texts about an order (received, confirmed, ETA, payment…) come before replies
    /// to texts, automatic or staff's answers from the inbox: a flood of texts to the shop's number
    /// never delays an order's text. (Staff's answers are not held to the replies' limit per phone,
    /// only to the limit of every text: a person chose to send them.)
    pub fn priority(self) -> i32 {
        if self.is_reply() || self == MessageKind::SmsAnswer { 1 } else { 0 }
    }

    /// [`MessageKind::priority`] as an SQL expression over the `kind` column, for the worker's
    /// `ORDER BY`: `CASE WHEN kind IN ('sms-reply') THEN 1 ELSE 0 END`. Built from the kinds' own
    /// names (constants), never from input.
    pub fn priority_sql() -> String {
        let mut by_priority: Vec<(i32, Vec<String>)> = Vec::new();
        for &kind in <Self as super::TextEnum>::ALL {
            let priority = kind.priority();
            if priority == 0 {
                continue;
            }
            let name = format!("'{}'", super::TextEnum::as_str(kind));
            match by_priority.iter_mut().find(|(p, _)| *p == priority) {
                Some((_, names)) => names.push(name),
                None => by_priority.push((priority, vec![name])),
            }
        }
        if by_priority.is_empty() {
            return "0".to_owned();
        }
        let whens: String = by_priority
            .iter()
            .map(|(priority, names)| format!(" WHEN kind IN ({}) THEN {priority}", names.join(", ")))
            .collect();
        format!("CASE{whens} ELSE 0 END")
    }

    /// Whether it goes to `ADMIN_NOTIFY_EMAIL` (the address is taken when it is sent).
    pub fn to_staff(self) -> bool {
        matches!(self, MessageKind::OrderAdmin | MessageKind::Contact)
    }

    /// What staff read in the dashboard.
    pub fn label(self) -> &'static str {
        match self {
            MessageKind::OrderAdmin => "New order (to staff)",
            MessageKind::OrderCustomer => "Order confirmation (to the customer)",
            MessageKind::Contact => "Contact message (to staff)",
            MessageKind::OrderStatus => "Status update (to the customer)",
            MessageKind::SlotConfirmed => "Pickup slot confirmed (to the customer)",
            MessageKind::SmsOrderReceived => "Order received",
            MessageKind::SmsSlotConfirmed => "Pickup slot confirmed",
            MessageKind::SmsEta => "5:30pm ETA",
            MessageKind::SmsOnTheWay => "Valet on the way",
            MessageKind::SmsPickedUp => "Picked up, with the bill",
            MessageKind::SmsReady => "Ready",
            MessageKind::SmsOutForDelivery => "Out for delivery",
            MessageKind::SmsDelivered => "Delivered, with the receipt",
            MessageKind::SmsPaymentReceived => "Payment received",
            MessageKind::SmsReply => "Reply to a text to the shop's number",
            MessageKind::SmsAnswer => "Staff's answer to a text (from the inbox) or a claim",
            MessageKind::SmsMissed => "Missed visit: choose a new window",
            MessageKind::SmsCancelled => "Order cancelled by staff",
            MessageKind::SmsMoved => "Pickup or delivery moved by staff",
            MessageKind::SmsReinstated => "Cancellation taken back",
        }
    }
}

text_enum! {
    /// Where an outbox message stands.
    pub enum OutboxStatus {
        /// Waiting to be sent (also while a worker holds its lease).
        Pending = "pending",
        /// Sent: the API accepted it (e-mail: 200; SMS: recipient status 101).
        Sent = "sent",
        /// Given up: refused as it is, or still failing after every retry.
        Failed = "failed",
        /// The API refused the account (401, 403, 412): retried slowly, shown to staff.
        Blocked = "blocked",
        /// Not sent on purpose: the customer opted out of texts, or staff switched its kind off,
        /// after it was written; or its phone had as many texts in the last hour as the limits
        /// allow (written so, with the limit in `last_error`).
        Skipped = "skipped",
    }
}

text_enum! {
    /// What the SMS provider's last delivery report said.
    pub enum Delivery {
        /// On its way (Africa's Talking: Sent, Submitted, Buffered).
        Waiting = "waiting",
        /// On the phone (Success).
        Delivered = "delivered",
        /// Not delivered (Rejected, Failed): shown to staff.
        Failed = "failed",
    }
}

impl Delivery {
    /// The report's `status` word, if it is one Africa's Talking sends.
    pub fn from_report(status: &str) -> Option<Delivery> {
        match status.trim() {
            "Sent" | "Submitted" | "Buffered" => Some(Delivery::Waiting),
            "Success" => Some(Delivery::Delivered),
            "Rejected" | "Failed" => Some(Delivery::Failed),
            _ => None,
        }
    }

    /// Whether no later report changes it.
    pub fn is_final(self) -> bool {
        !matches!(self, Delivery::Waiting)
    }
}

text_enum! {
    /// How an order came in.
    pub enum OrderSource {
        /// The order form (or the JSON API behind it).
        Web = "web",
        /// A text with the pickup letter to the shop's number.
        Sms = "sms",
        /// Taken by staff on a call.
        Phone = "phone",
        /// Taken by staff from a WhatsApp chat.
        Whatsapp = "whatsapp",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::TextEnum;

    #[test]
    fn every_sms_kind_starts_with_sms_and_no_email_kind_does() {
        for kind in MessageKind::ALL {
            assert_eq!(kind.channel() == Channel::Sms, kind.as_str().starts_with("sms-"), "{kind:?}");
        }
    }

    #[test]
    fn replies_wait_behind_every_text_about_an_order() {
        for kind in MessageKind::SMS {
            let expected = if matches!(kind, MessageKind::SmsReply | MessageKind::SmsAnswer) { 1 } else { 0 };
            assert_eq!(kind.priority(), expected, "{kind:?}");
        }
        assert_eq!(MessageKind::priority_sql(), "CASE WHEN kind IN ('sms-reply', 'sms-answer') THEN 1 ELSE 0 END");
    }

    #[test]
    fn a_final_delivery_report_is_not_undone_by_a_late_one() {
        assert_eq!(Delivery::from_report("Success"), Some(Delivery::Delivered));
        assert_eq!(Delivery::from_report("Rejected"), Some(Delivery::Failed));
        assert_eq!(Delivery::from_report("Buffered"), Some(Delivery::Waiting));
        assert_eq!(Delivery::from_report("Lost"), None);
        assert!(Delivery::Delivered.is_final() && !Delivery::Waiting.is_final());
    }
}
