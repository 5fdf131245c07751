//! The order status of spec section 4, plus 'cancelled'.

use super::text_enum::text_enum;

text_enum! {
    /// Where an order is. Staff may set any status from any other (spec section 4).
    pub enum OrderStatus {
        /// Set on creation.
        Pending = "pending",
        /// Collected by a valet.
        PickedUp = "picked-up",
        /// Being cleaned.
        InProgress = "in-progress",
        /// Ready for delivery.
        Ready = "ready",
        /// Back with the customer.
        Delivered = "delivered",
        /// Will not be done.
        Cancelled = "cancelled",
    }
}

impl OrderStatus {
    /// What a customer reads (as the tracking page shows it).
    pub fn label(self) -> &'static str {
        match self {
            OrderStatus::Pending => "Pending",
            OrderStatus::PickedUp => "Picked Up",
            OrderStatus::InProgress => "In Progress",
            OrderStatus::Ready => "Ready for Delivery",
            OrderStatus::Delivered => "Delivered",
            OrderStatus::Cancelled => "Cancelled",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::TextEnum;

    #[test]
    fn every_status_round_trips_through_its_stored_value() {
        for status in OrderStatus::ALL {
            assert_eq!(OrderStatus::parse(status.as_str()), Some(*status));
        }
        assert_eq!(OrderStatus::parse("lost"), None);
    }
}
