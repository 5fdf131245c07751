//! Each holder's cash-up of each day of the period.

use crate::domain::schedule::day_label;
use crate::models::reports::DayCash;
use serde::Serialize;
use ts_rs::TS;

/// One holder's cash-up of one day.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CashDayView {
    /// YYYY-MM-DD.
    pub day: String,
    /// "Fri 27 Nov".
    pub label: String,
    /// Who took the cash (their sign-in), or "the site".
    pub holder: String,
    /// Cash taken less given back, KSh.
    #[ts(type = "number")]
    pub collected: i64,
    /// Handed in for the day, KSh.
    #[ts(type = "number")]
    pub handed_in: i64,
    /// Still held: taken less handed in (negative when more was handed in).
    #[ts(type = "number")]
    pub still_held: i64,
    /// The day's cash-up on the Money tab.
    pub url: String,
}

pub(super) fn cash_days(cash: &[DayCash]) -> Vec<CashDayView> {
    cash.iter()
        .map(|day| CashDayView {
            day: day.day.to_string(),
            label: day_label(day.day),
            holder: day.holder.clone(),
            collected: day.collected,
            handed_in: day.handed_in,
            still_held: day.collected - day.handed_in,
            url: format!("/admin?tab=money&date={}", day.day),
        })
        .collect()
}
