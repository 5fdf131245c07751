//! The e-mails of the outbox: what each one is, and where it stands.

use super::text_enum::text_enum;

text_enum! {
    /// What an outbox e-mail is.
    pub enum EmailKind {
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
    }
}

impl EmailKind {
    /// Whether it goes to `ADMIN_NOTIFY_EMAIL` (the address is taken when it is sent).
    pub fn to_staff(self) -> bool {
        matches!(self, EmailKind::OrderAdmin | EmailKind::Contact)
    }

    /// What staff read in the dashboard.
    pub fn label(self) -> &'static str {
        match self {
            EmailKind::OrderAdmin => "New order (to staff)",
            EmailKind::OrderCustomer => "Order confirmation (to the customer)",
            EmailKind::Contact => "Contact message (to staff)",
            EmailKind::OrderStatus => "Status update (to the customer)",
            EmailKind::SlotConfirmed => "Pickup slot confirmed (to the customer)",
        }
    }
}

text_enum! {
    /// Where an outbox e-mail stands.
    pub enum OutboxStatus {
        /// Waiting to be sent (also while a worker holds its lease).
        Pending = "pending",
        /// Sent: the API answered 200.
        Sent = "sent",
        /// Given up: refused as it is, or still failing after every retry.
        Failed = "failed",
        /// The API refused the account (401, 403, 412): retried slowly, shown to staff.
        Blocked = "blocked",
    }
}
