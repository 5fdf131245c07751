//! The service section: turnaround, windows kept and missed stops by week, and re-cleans by month.

use super::{Grouping, Period, bar_starts, percent};
use crate::domain::StopKind;
use crate::models::reports::{DayStops, DayTurnaround};
use serde::Serialize;
use time::Date;
use ts_rs::TS;

/// One week of turnaround, windows kept and missed stops.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ServiceWeek {
    /// Its Monday, YYYY-MM-DD.
    pub start: String,
    /// "Week of Mon 23 Nov".
    pub label: String,
    /// Orders delivered whose pickup was done: what the turnaround counts.
    #[ts(type = "number")]
    pub delivered: i64,
    /// Median hours from pickup to delivery (whole hours), none without deliveries.
    #[ts(type = "number | null")]
    pub median_hours: Option<i64>,
    /// 90th percentile, whole hours.
    #[ts(type = "number | null")]
    pub p90_hours: Option<i64>,
    /// Pickups done.
    #[ts(type = "number")]
    pub pickups_done: i64,
    /// Pickups done by their window's end.
    #[ts(type = "number")]
    pub pickups_kept: i64,
    /// Pickup misses.
    #[ts(type = "number")]
    pub pickups_missed: i64,
    /// Deliveries done.
    #[ts(type = "number")]
    pub deliveries_done: i64,
    /// Deliveries done by their window's end.
    #[ts(type = "number")]
    pub deliveries_kept: i64,
    /// Delivery misses.
    #[ts(type = "number")]
    pub deliveries_missed: i64,
    /// Stops kept of stops done or missed: "92%", or "–" when there were none.
    pub kept_share: String,
}

/// One month of re-cleans.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RecleanMonth {
    /// Its first day in the period, YYYY-MM-DD.
    pub start: String,
    /// "November 2026".
    pub label: String,
    /// Re-cleans asked for.
    #[ts(type = "number")]
    pub recleans: i64,
    /// Orders delivered.
    #[ts(type = "number")]
    pub delivered: i64,
    /// Re-cleans of deliveries: "2.5%", or "–".
    pub share: String,
}

/// The service section.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ServiceReport {
    /// Every week of the period.
    pub weeks: Vec<ServiceWeek>,
    /// The whole period.
    pub total: ServiceWeek,
    /// Every month of the period.
    pub recleans: Vec<RecleanMonth>,
}

/// The service section's rows, as read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ServiceFigures {
    /// Stops done, kept and missed by day.
    pub stops: Vec<DayStops>,
    /// The turnaround histogram by day.
    pub turnaround: Vec<DayTurnaround>,
    /// Re-cleans by day.
    pub recleans: Vec<(Date, i64)>,
}

/// The hours at percentile `p` (nearest rank) of a histogram of (hours, orders).
pub(super) fn percentile(histogram: &[(i64, i64)], p: i64) -> Option<i64> {
    let mut sorted = histogram.to_vec();
    sorted.sort_unstable();
    let n: i64 = sorted.iter().map(|(_, count)| count).sum();
    if n == 0 {
        return None;
    }
    let rank = ((n * p) + 99) / 100;
    let mut seen = 0;
    for (hours, count) in sorted {
        seen += count;
        if seen >= rank.max(1) {
            return Some(hours);
        }
    }
    None
}

impl ServiceWeek {
    pub(super) fn new(start: Date, label: String, stops: &[&DayStops], turnaround: &[&DayTurnaround]) -> ServiceWeek {
        let histogram: Vec<(i64, i64)> = turnaround.iter().map(|t| (t.hours, t.orders)).collect();
        let of = |kind: StopKind, field: fn(&DayStops) -> i64| {
            stops.iter().filter(|s| s.kind == kind).map(|s| field(s)).sum::<i64>()
        };
        let week = ServiceWeek {
            start: start.to_string(),
            label,
            delivered: histogram.iter().map(|(_, count)| count).sum(),
            median_hours: percentile(&histogram, 50),
            p90_hours: percentile(&histogram, 90),
            pickups_done: of(StopKind::Pickup, |s| s.done),
            pickups_kept: of(StopKind::Pickup, |s| s.kept),
            pickups_missed: of(StopKind::Pickup, |s| s.missed),
            deliveries_done: of(StopKind::Delivery, |s| s.done),
            deliveries_kept: of(StopKind::Delivery, |s| s.kept),
            deliveries_missed: of(StopKind::Delivery, |s| s.missed),
            kept_share: String::new(),
        };
        let booked = week.pickups_done + week.pickups_missed + week.deliveries_done + week.deliveries_missed;
        ServiceWeek { kept_share: percent(week.pickups_kept + week.deliveries_kept, booked, 0), ..week }
    }
}

impl ServiceReport {
    pub(super) fn new(period: &Period, figures: &ServiceFigures) -> ServiceReport {
        let weeks = bar_starts(Grouping::Week, period.first, period.last)
            .into_iter()
            .map(|start| {
                let in_week = |day: Date| Grouping::Week.start(day) == start;
                let stops: Vec<&DayStops> = figures.stops.iter().filter(|s| in_week(s.day)).collect();
                let turnaround: Vec<&DayTurnaround> = figures.turnaround.iter().filter(|t| in_week(t.day)).collect();
                ServiceWeek::new(start, Grouping::Week.label(start), &stops, &turnaround)
            })
            .collect();
        let all_stops: Vec<&DayStops> = figures.stops.iter().collect();
        let all_turnaround: Vec<&DayTurnaround> = figures.turnaround.iter().collect();
        let recleans = bar_starts(Grouping::Month, period.first, period.last)
            .into_iter()
            .map(|month| {
                let in_month = |day: Date| Grouping::Month.start(day) == month;
                let recleans = figures.recleans.iter().filter(|(day, _)| in_month(*day)).map(|(_, n)| n).sum();
                let delivered = figures
                    .stops
                    .iter()
                    .filter(|s| s.kind == StopKind::Delivery && in_month(s.day))
                    .map(|s| s.done)
                    .sum();
                RecleanMonth {
                    start: month.max(period.first).to_string(),
                    label: Grouping::Month.label(month),
                    recleans,
                    delivered,
                    share: percent(recleans, delivered, 1),
                }
            })
            .collect();
        ServiceReport {
            weeks,
            total: ServiceWeek::new(period.first, "In all".to_owned(), &all_stops, &all_turnaround),
            recleans,
        }
    }
}
