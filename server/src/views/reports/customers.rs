//! The customers section: new and returning customers by week, and the top spenders (phones masked
//! for staff).

use super::{Grouping, Period, bar_starts, percent};
use crate::domain::PhoneNumber;
use crate::models::reports::{Spender, WeekCustomers};
use serde::Serialize;
use ts_rs::TS;

/// One week's customers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CustomerWeek {
    /// Its Monday, YYYY-MM-DD.
    pub start: String,
    /// "Week of Mon 23 Nov".
    pub label: String,
    /// Customers whose first order it was.
    #[ts(type = "number")]
    pub new: i64,
    /// Customers who had ordered before.
    #[ts(type = "number")]
    pub returning: i64,
}

/// A customer among the top spenders.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TopCustomer {
    /// The name on their orders.
    pub name: String,
    /// Their phone number (masked for staff: "+254 7** *** 678").
    pub phone: String,
    /// Orders they placed in the period (not cancelled).
    #[ts(type = "number")]
    pub orders: i64,
    /// Paid less given back, KSh.
    #[ts(type = "number")]
    pub spend: i64,
}

/// The customers section.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CustomersReport {
    /// Every week of the period.
    pub weeks: Vec<CustomerWeek>,
    /// Customers (phone numbers) who placed an order in the period.
    #[ts(type = "number")]
    pub customers: i64,
    /// Of them, those with two orders or more by its end.
    #[ts(type = "number")]
    pub repeat: i64,
    /// "40%", or "–".
    pub repeat_share: String,
    /// The ten who paid most in the period.
    pub top: Vec<TopCustomer>,
}

/// The customers section's rows, as read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CustomerFigures {
    /// By week.
    pub weeks: Vec<WeekCustomers>,
    /// (customers, repeat customers).
    pub repeat: (i64, i64),
    /// The top spenders.
    pub top: Vec<Spender>,
}

impl CustomersReport {
    pub(super) fn new(period: &Period, figures: &CustomerFigures, masked: bool) -> CustomersReport {
        let weeks = bar_starts(Grouping::Week, period.first, period.last)
            .into_iter()
            .map(|start| {
                let week = figures.weeks.iter().find(|w| w.week == start);
                let (customers, new) = week.map_or((0, 0), |w| (w.customers, w.new));
                CustomerWeek {
                    start: start.to_string(),
                    label: Grouping::Week.label(start),
                    new,
                    returning: customers - new,
                }
            })
            .collect();
        let (customers, repeat) = figures.repeat;
        CustomersReport {
            weeks,
            customers,
            repeat,
            repeat_share: percent(repeat, customers, 0),
            top: figures
                .top
                .iter()
                .map(|spender| TopCustomer {
                    name: spender.name.clone(),
                    phone: if masked { PhoneNumber::masked(&spender.phone) } else { spender.phone.clone() },
                    orders: spender.orders,
                    spend: spender.spend,
                })
                .collect(),
        }
    }
}
