//! The JSON bodies the frontend sends, with the views' derive, so that their TypeScript types are
//! generated too (`make generate`) and the code that sends them is checked by `tsc`. The server
//! reads each of them leniently (numbers as text or JSON, a message per wrong field, unknown
//! fields ignored), so these are not what it parses: they are the shape the frontend sends, and
//! API tests (`server/tests/api/request_bodies.rs`) check that a body made from them is accepted.

use crate::domain::{Method, PaymentMethod};
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
    /// On a busy day, the window the answer shows (`19:00`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub window: Option<String>,
    /// And its part, from 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub part: Option<u32>,
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

/// `POST /api/admin/orders/{orderId}/payment`: a payment taken by hand.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PaymentBody {
    /// `cash` or `mpesa`.
    pub method: String,
    /// KSh received; none: what the order owes (an M-PESA code M-PESA reported: its amount).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub amount: Option<i32>,
    /// The M-PESA code, for `mpesa`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub mpesa_code: Option<String>,
    /// For `cash`: the e-mail of the staff member or valet who took it, when not the one typing
    /// it (their cash-up counts it; the entry says who typed it).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub taken_by: Option<String>,
}

/// `POST /api/admin/orders/{orderId}/refund`: money given back.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct RefundBody {
    /// KSh, at most what the order owes back.
    pub amount: i32,
    /// `mpesa-reversal`, `cash` or `credit`.
    pub method: Method,
    /// The reversal's M-PESA code, or any reference.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub reference: Option<String>,
    /// Staff's words.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub note: Option<String>,
}

/// `POST /api/admin/orders/{orderId}/discount`: a discount with its reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct DiscountBody {
    /// KSh, at most what the order costs.
    pub amount: i32,
    /// Why (required).
    pub reason: String,
}

/// `POST /api/admin/cash-up`: cash handed in for a day.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct HandoverBody {
    /// The e-mail the cash was entered under.
    pub holder: String,
    /// `2026-11-25`.
    pub day: String,
    /// KSh counted.
    pub amount: i32,
    /// Staff's words.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub note: Option<String>,
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;

    #[test]
    fn a_payment_is_sent_as_the_server_reads_it() {
        let mpesa = PaymentBody {
            method: "mpesa".to_owned(),
            amount: None,
            mpesa_code: Some("QJK3L5X9TZ".to_owned()),
            taken_by: None,
        };
        let json = |body| serde_json::to_value(body).unwrap();
        assert_eq!(json(mpesa), json!({ "method": "mpesa", "mpesaCode": "QJK3L5X9TZ" }));
        let cash = PaymentBody { method: "cash".to_owned(), amount: Some(500), mpesa_code: None, taken_by: None };
        assert_eq!(json(cash), json!({ "method": "cash", "amount": 500 }));
        let valets = PaymentBody { taken_by: Some("otieno@example.com".to_owned()), ..cash_body() };
        assert_eq!(json(valets), json!({ "method": "cash", "takenBy": "otieno@example.com" }));
    }

    fn cash_body() -> PaymentBody {
        PaymentBody { method: "cash".to_owned(), amount: None, mpesa_code: None, taken_by: None }
    }
}
