//! The owner's Reports tab: a period (today, this week, this month, last month, or from one day
//! to another, in Nairobi days), and for it the money taken in by method with what was given back,
//! the orders and kilos booked, and the delivered orders that still owe by how long ago they were
//! delivered. Each is a chart the server draws (`ReportsPanel.tsx`) over a table of exact figures.

use crate::domain::ledger::MethodSum;
use crate::domain::schedule::{day_label, parse_day};
use crate::domain::{Method, TextEnum};
use crate::models::reports::{Age, DayMoney, DayOrders, Owing};
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
    fn of(period: &Period) -> Grouping {
        match period.days() {
            ..=31 => Grouping::Day,
            32..=92 => Grouping::Week,
            _ => Grouping::Month,
        }
    }

    /// The first day of the bar `day` falls in.
    fn start(self, day: Date) -> Date {
        match self {
            Grouping::Day => day,
            Grouping::Week => day - Duration::days(i64::from(day.weekday().number_days_from_monday())),
            Grouping::Month => day.replace_day(1).unwrap_or(day),
        }
    }

    fn next(self, start: Date) -> Date {
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

    fn label(self, start: Date) -> String {
        match self {
            Grouping::Day => day_label(start),
            Grouping::Week => format!("Week of {}", day_label(start)),
            Grouping::Month => format!("{} {}", start.month(), start.year()),
        }
    }
}

/// One bar of the money chart and its row of the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct MoneyBar {
    /// Its first day, YYYY-MM-DD.
    pub start: String,
    /// "Fri 27 Nov", "Week of Mon 23 Nov", "November 2026".
    pub label: String,
    /// Received by each method of [`Reports::methods`], in that order (0 where none).
    pub received: Vec<MethodSum>,
    /// Given back by each method, in the same order.
    pub refunded: Vec<MethodSum>,
    /// Received less given back.
    #[ts(type = "number")]
    pub total: i64,
}

/// One bar of the orders chart and its row of the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct OrdersBar {
    /// Its first day, YYYY-MM-DD.
    pub start: String,
    /// As [`MoneyBar::label`].
    pub label: String,
    /// Orders placed (not cancelled).
    #[ts(type = "number")]
    pub orders: i64,
    /// Kilos billed.
    #[ts(type = "number")]
    pub kilos: i64,
    /// KSh billed.
    #[ts(type = "number")]
    pub amount: i64,
}

/// A delivered order that still owes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct OwingOrder {
    /// Its order ID.
    pub reference: String,
    /// The customer's name.
    pub name: String,
    /// KSh owed.
    #[ts(type = "number")]
    pub due: i64,
    /// "Fri 20 Nov".
    pub delivered: String,
    /// Days since.
    #[ts(type = "number")]
    pub days: i64,
}

/// The orders owing of one age.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct OwingBucket {
    /// "0-7 days", "8-30 days", "31+ days".
    pub label: String,
    /// KSh owed in all.
    #[ts(type = "number")]
    pub due: i64,
    /// The orders, most overdue first.
    pub orders: Vec<OwingOrder>,
}

/// The Reports tab's props.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Reports {
    /// How the period was chosen.
    pub period: PeriodKind,
    /// Its first day, YYYY-MM-DD.
    pub from: String,
    /// Its last day, YYYY-MM-DD.
    pub to: String,
    /// "Sun 1 Nov to Fri 27 Nov".
    pub label: String,
    /// What was wrong with the period asked for (this month is shown instead).
    pub error: Option<String>,
    /// How the bars group the days.
    pub grouping: Grouping,
    /// The methods money moved by in the period, in [`Method::ALL`]'s order: the chart's legend.
    pub methods: Vec<MethodSum>,
    /// Money by bar, every bar of the period (empty ones too).
    pub money: Vec<MoneyBar>,
    /// The period's money: by method, given back by method, and the total.
    pub money_total: MoneyBar,
    /// Orders by bar, every bar of the period.
    pub orders: Vec<OrdersBar>,
    /// The period's orders.
    pub orders_total: OrdersBar,
    /// The delivered orders that owe, by age (now, whatever the period).
    pub owing: Vec<OwingBucket>,
    /// The period's ledger entries as CSV.
    pub export_url: String,
}

fn sums(methods: &[Method], amounts: &[(Method, i64)]) -> Vec<MethodSum> {
    methods
        .iter()
        .map(|&method| MethodSum {
            method,
            label: method.label(),
            amount: amounts.iter().filter(|(m, _)| *m == method).map(|(_, amount)| amount).sum(),
        })
        .collect()
}

impl Reports {
    /// The report of `period` from the days' figures and the orders owing at `today`.
    pub fn new(
        (period, error): (Period, Option<String>),
        money: &[DayMoney],
        orders: &[DayOrders],
        owing: &[Owing],
    ) -> Reports {
        let grouping = Grouping::of(&period);
        let methods: Vec<Method> = Method::ALL
            .iter()
            .copied()
            .filter(|method| money.iter().any(|day| day.received.iter().chain(&day.refunded).any(|(m, _)| m == method)))
            .collect();
        let mut starts = Vec::new();
        let mut start = grouping.start(period.first);
        while start <= period.last {
            starts.push(start);
            start = grouping.next(start);
        }
        let in_bar = |bar: Date, day: Date| grouping.start(day) == bar;
        let money_bar = |start: Date, label: String, days: &mut dyn Iterator<Item = &DayMoney>| {
            let (mut received, mut refunded) = (Vec::new(), Vec::new());
            for day in days {
                received.extend(day.received.iter().copied());
                refunded.extend(day.refunded.iter().copied());
            }
            let received = sums(&methods, &received);
            let refunded = sums(&methods, &refunded);
            let total = received.iter().map(|s| s.amount).sum::<i64>() - refunded.iter().map(|s| s.amount).sum::<i64>();
            MoneyBar { start: start.to_string(), label, received, refunded, total }
        };
        let orders_bar = |start: Date, label: String, days: &mut dyn Iterator<Item = &DayOrders>| {
            let mut bar = OrdersBar { start: start.to_string(), label, orders: 0, kilos: 0, amount: 0 };
            for day in days {
                bar.orders += day.orders;
                bar.kilos += day.kilos;
                bar.amount += day.amount;
            }
            bar
        };
        let owing = Age::ALL
            .iter()
            .map(|&age| {
                let orders: Vec<OwingOrder> = owing
                    .iter()
                    .filter(|order| Age::of(order.days) == age)
                    .map(|order| OwingOrder {
                        reference: order.reference.clone(),
                        name: order.name.clone(),
                        due: order.due,
                        delivered: day_label(order.delivered),
                        days: order.days,
                    })
                    .collect();
                OwingBucket { label: age.label().to_owned(), due: orders.iter().map(|o| o.due).sum(), orders }
            })
            .collect();
        let (from, to) = (period.first.to_string(), period.last.to_string());
        Reports {
            period: period.kind,
            label: if period.first == period.last {
                day_label(period.first)
            } else {
                format!("{} to {}", day_label(period.first), day_label(period.last))
            },
            error,
            grouping,
            methods: sums(&methods, &[]),
            money: starts
                .iter()
                .map(|&bar| money_bar(bar, grouping.label(bar), &mut money.iter().filter(|d| in_bar(bar, d.day))))
                .collect(),
            money_total: money_bar(period.first, "In all".to_owned(), &mut money.iter()),
            orders: starts
                .iter()
                .map(|&bar| orders_bar(bar, grouping.label(bar), &mut orders.iter().filter(|d| in_bar(bar, d.day))))
                .collect(),
            orders_total: orders_bar(period.first, "In all".to_owned(), &mut orders.iter()),
            owing,
            export_url: format!("/admin/exports/ledger.csv?from={from}&to={to}"),
            from,
            to,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::date;

    #[test]
    fn each_period_is_its_nairobi_days() {
        let today = date!(2026 - 11 - 27); // a Friday
        let ask = |period: &str| Period::ask(Some(period), None, None, today).0;
        assert_eq!((ask("today").first, ask("today").last), (today, today));
        assert_eq!(ask("week").first, date!(2026 - 11 - 23));
        assert_eq!((ask("month").first, ask("month").last), (date!(2026 - 11 - 01), today));
        assert_eq!((ask("last-month").first, ask("last-month").last), (date!(2026 - 10 - 01), date!(2026 - 10 - 31)));
        let (january, _) = Period::ask(Some("last-month"), None, None, date!(2027 - 01 - 10));
        assert_eq!((january.first, january.last), (date!(2026 - 12 - 01), date!(2026 - 12 - 31)));
        let (custom, error) = Period::ask(Some("custom"), Some("2026-01-01"), Some("2026-03-31"), today);
        assert_eq!((custom.first, custom.last, error), (date!(2026 - 01 - 01), date!(2026 - 03 - 31), None));
        assert_eq!(Grouping::of(&custom), Grouping::Week);
    }

    #[test]
    fn a_wrong_period_shows_this_month_and_says_why() {
        let today = date!(2026 - 11 - 27);
        for (from, to, says) in [
            ("2026-11-20", "2026-11-01", "swap them"),
            ("2024-01-01", "2026-11-01", "at most 366 days"),
            ("yesterday", "2026-11-01", "like 2026-11-01"),
        ] {
            let (period, error) = Period::ask(Some("custom"), Some(from), Some(to), today);
            assert_eq!(period.kind, PeriodKind::Month);
            assert!(error.unwrap().contains(says));
        }
        assert!(Period::ask(Some("fortnight"), None, None, today).1.is_some());
    }

    #[test]
    fn every_bar_of_the_period_is_shown_and_the_totals_add_up() {
        let today = date!(2026 - 11 - 27);
        let (period, _) = Period::ask(Some("week"), None, None, today);
        let money = [
            DayMoney {
                day: date!(2026 - 11 - 24),
                received: vec![(Method::Cash, 500), (Method::Prompt, 450)],
                refunded: vec![],
            },
            DayMoney {
                day: date!(2026 - 11 - 26),
                received: vec![(Method::Till, 700)],
                refunded: vec![(Method::Cash, 200)],
            },
        ];
        let orders = [DayOrders { day: date!(2026 - 11 - 24), orders: 2, kilos: 9, amount: 1350 }];

        let reports = Reports::new((period, None), &money, &orders, &[]);

        assert_eq!(reports.money.len(), 5, "Monday to Friday");
        assert_eq!(
            reports.methods.iter().map(|m| m.method).collect::<Vec<_>>(),
            [Method::Prompt, Method::Till, Method::Cash]
        );
        assert_eq!(reports.money[1].total, 950);
        assert_eq!(reports.money[3].total, 500);
        assert_eq!(reports.money_total.total, 1450);
        assert_eq!(reports.money_total.refunded.iter().map(|s| s.amount).sum::<i64>(), 200);
        assert_eq!((reports.orders_total.orders, reports.orders_total.kilos), (2, 9));
        assert_eq!(reports.export_url, "/admin/exports/ledger.csv?from=2026-11-23&to=2026-11-27");
    }
}
