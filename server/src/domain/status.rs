//! The order status of spec section 4, plus 'cancelled'.

use serde::Serialize;

/// Where an order is. Staff may set any status from any other (spec section 4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum OrderStatus {
    /// Set on creation.
    Pending,
    /// Collected by a valet.
    PickedUp,
    /// Being cleaned.
    InProgress,
    /// Ready for delivery.
    Ready,
    /// Back with the customer.
    Delivered,
    /// Will not be done.
    Cancelled,
}

impl OrderStatus {
    /// Every status, in the order of the work.
    pub const ALL: [OrderStatus; 6] = [
        OrderStatus::Pending,
        OrderStatus::PickedUp,
        OrderStatus::InProgress,
        OrderStatus::Ready,
        OrderStatus::Delivered,
        OrderStatus::Cancelled,
    ];

    /// The stored value.
    pub fn as_str(self) -> &'static str {
        match self {
            OrderStatus::Pending => "pending",
            OrderStatus::PickedUp => "picked-up",
            OrderStatus::InProgress => "in-progress",
            OrderStatus::Ready => "ready",
            OrderStatus::Delivered => "delivered",
            OrderStatus::Cancelled => "cancelled",
        }
    }

    /// The status with this stored value.
    pub fn parse(value: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|status| status.as_str() == value)
    }

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

    #[test]
    fn every_status_round_trips_through_its_stored_value() {
        for status in OrderStatus::ALL {
            assert_eq!(OrderStatus::parse(status.as_str()), Some(status));
        }
        assert_eq!(OrderStatus::parse("lost"), None);
    }
}
