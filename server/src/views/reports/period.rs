//! A report's period (Nairobi days, both ends in) as the owner asks for it, and how a chart's bars
//! group its days.

use crate::domain::schedule::{day_label, parse_day};
use serde::Serialize;
use time::{Date, Duration, Month};
use ts_rs::TS;

/// The longest period a report covers.
pub const MAX_DAYS: i64 = 366;

/// How the period was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "kebab-case")]
pub enum PeriodKind {
    /// Today.
    Today,
    /// Monday to today.
    Week,
    /// The 1st to today.
    Month,
    /// The whole of last month.
    LastMonth,
    /// From one day to another.
    Custom,
}

/// A report's period: Nairobi days, both ends in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Period {
    /// How it was chosen.
    pub kind: PeriodKind,
    /// The first day.
    pub first: Date,
    /// The last day.
    pub last: Date,
}

impl Period {
    /// The period `period` names (`today`, `week`, `month`, `last-month`, or `custom` with `from`
    /// and `to` as YYYY-MM-DD) at `today`; this month when nothing is asked. A wrong one is this
    /// month, with the message saying what was wrong.
    pub fn ask(period: Option<&str>, from: Option<&str>, to: Option<&str>, today: Date) -> (Period, Option<String>) {
        let month_start = today.replace_day(1).unwrap_or(today);
        let this_month = Period { kind: PeriodKind::Month, first: month_start, last: today };
        let day = |text: Option<&str>| text.and_then(parse_day);
        let period = match period.unwrap_or("month") {
            "today" => Period { kind: PeriodKind::Today, first: today, last: today },
            "week" => Period {
                kind: PeriodKind::Week,
                first: today - Duration::days(i64::from(today.weekday().number_days_from_monday())),
                last: today,
            },
            "month" => this_month,
            "last-month" => {
                let last = month_start - Duration::days(1);
                Period { kind: PeriodKind::LastMonth, first: last.replace_day(1).unwrap_or(last), last }
            }
            "custom" => match (day(from), day(to)) {
                (Some(first), Some(last)) if first > last => {
                    return (this_month, Some("The first day comes after the last: swap them.".to_owned()));
                }
                (Some(first), Some(last)) if (last - first).whole_days() >= MAX_DAYS => {
                    return (this_month, Some("A report covers at most 366 days: choose a shorter period.".to_owned()));
                }
                (Some(first), Some(last)) => Period { kind: PeriodKind::Custom, first, last },
                _ => {
                    return (this_month, Some("Give both days as dates, like 2026-11-01 and 2026-11-30.".to_owned()));
                }
            },
            _ => return (this_month, Some("Choose a period from the list.".to_owned())),
        };
        (period, None)
    }

    /// How many days it covers.
    pub fn days(&self) -> i64 {
        (self.last - self.first).whole_days() + 1
    }
}

/// How a chart's bars group the days: by day up to a month, by week up to a quarter, else by month.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum Grouping {
    /// One bar a day.
    Day,
    /// One bar a week (Monday to Sunday).
    Week,
    /// One bar a month.
    Month,
}

impl Grouping {
    pub(super) fn of(period: &Period) -> Grouping {
        match period.days() {
            ..=31 => Grouping::Day,
            32..=92 => Grouping::Week,
            _ => Grouping::Month,
        }
    }

    /// The first day of the bar `day` falls in.
    pub(super) fn start(self, day: Date) -> Date {
        match self {
            Grouping::Day => day,
            Grouping::Week => day - Duration::days(i64::from(day.weekday().number_days_from_monday())),
            Grouping::Month => day.replace_day(1).unwrap_or(day),
        }
    }

    pub(super) fn next(self, start: Date) -> Date {
        match self {
            Grouping::Day => start + Duration::days(1),
            Grouping::Week => start + Duration::days(7),
            Grouping::Month => {
                let (year, month) = if start.month() == Month::December {
                    (start.year() + 1, Month::January)
                } else {
                    (start.year(), start.month().next())
                };
                Date::from_calendar_date(year, month, 1).unwrap_or(start + Duration::days(31))
            }
        }
    }

    pub(super) fn label(self, start: Date) -> String {
        match self {
            Grouping::Day => day_label(start),
            Grouping::Week => format!("Week of {}", day_label(start)),
            Grouping::Month => format!("{} {}", start.month(), start.year()),
        }
    }
}

/// The bars' first days from `first` to `last` by `grouping`.
pub(super) fn bar_starts(grouping: Grouping, first: Date, last: Date) -> Vec<Date> {
    let mut starts = Vec::new();
    let mut start = grouping.start(first);
    while start <= last {
        starts.push(start);
        start = grouping.next(start);
    }
    starts
}
