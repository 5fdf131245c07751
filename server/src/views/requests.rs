//! The JSON bodies the frontend sends, with the views' derive, so that their TypeScript types are
//! generated too (`make generate`) and the code that sends them is checked by `tsc`. The server
//! reads each of them leniently (numbers as text or JSON, a message per wrong field, unknown
//! fields ignored), so these are not what it parses: they are the shape the frontend sends, and
//! API tests (`server/tests/api/request_bodies.rs`) check that a body made from them is accepted.

use crate::domain::PaymentMethod;
use serde::Serialize;
use std::collections::BTreeMap;
use ts_rs::TS;

/// `POST /api/orders`: the order form as the hydrated page sends it, every value as it was typed
/// (the server checks them, and answers a message per wrong field).
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct OrderBody {
    /// Full Name.
    pub customer_name: String,
    /// Phone Number, as typed (`0712 345 678`).
    pub phone: String,
    /// Email Address (optional; empty is none).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub email: Option<String>,
    /// Location.
    pub location: String,
    /// A landmark beside the location (optional).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub landmark: Option<String>,
    /// The catalogue id of the service by the kg; empty for an order of pieces alone.
    pub service_type: String,
    /// Whole kilograms, as typed; empty for an order of pieces alone.
    pub quantity: String,
    /// How the customer pays.
    pub payment_method: PaymentMethod,
    /// Possibly empty.
    pub special_instructions: String,
    /// The pickup window, `2026-11-25T19:00`; none: the next open window.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub pickup: Option<String>,
    /// Next-day rush.
    pub rush: bool,
    /// The map pin's latitude in degrees, as the page holds it (with `pinLng`, or neither).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub pin_lat: Option<String>,
    /// The map pin's longitude in degrees.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub pin_lng: Option<String>,
    /// Price-list items by id, with how many as typed (`{"shirt": "2"}`); a blank count is none.
    pub pieces: BTreeMap<String, String>,
}

/// `POST /api/admin/run`: a day's stops whose valet or place in the run changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct RunSave {
    /// The day, `2026-11-25`.
    pub date: String,
    /// The changed stops.
    pub stops: Vec<RunItem>,
}

/// One stop of a [`RunSave`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RunItem {
    /// The stop.
    pub stop_id: String,
    /// The valet whose run it is in; null: in no run.
    pub valet_id: Option<String>,
    /// Its place in that run, from 1; null: none yet.
    pub position: Option<i32>,
}

/// `POST /api/admin/orders/{orderId}/payment`: an order recorded paid (and how) or unpaid.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(tag = "paymentStatus", rename_all = "lowercase")]
pub enum PaymentChange {
    /// Paid, by M-PESA with its code or in cash.
    Paid(PaidWith),
    /// Not paid (a payment recorded by mistake is taken back).
    Unpaid,
}

/// How a [`PaymentChange::Paid`] order was paid.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(tag = "paidVia", rename_all = "lowercase")]
pub enum PaidWith {
    /// M-PESA, with the code from the customer's message.
    Mpesa {
        /// The M-PESA code, `QJK3L5X9TZ`.
        #[serde(rename = "mpesaCode")]
        mpesa_code: String,
    },
    /// Cash.
    Cash,
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;

    #[test]
    fn a_payment_change_is_sent_as_the_server_reads_it() {
        let mpesa = PaymentChange::Paid(PaidWith::Mpesa { mpesa_code: "QJK3L5X9TZ".to_owned() });
        let json = |change| serde_json::to_value(change).unwrap();
        assert_eq!(json(mpesa), json!({ "paymentStatus": "paid", "paidVia": "mpesa", "mpesaCode": "QJK3L5X9TZ" }));
        assert_eq!(json(PaymentChange::Paid(PaidWith::Cash)), json!({ "paymentStatus": "paid", "paidVia": "cash" }));
        assert_eq!(json(PaymentChange::Unpaid), json!({ "paymentStatus": "unpaid" }));
    }
}
