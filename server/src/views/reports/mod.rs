//! The owner's Reports tab: a period (today, this week, this month, last month, or from one day
//! to another, in Nairobi days), and for it the money taken in by method with what was given back,
//! the orders, kilos and pieces booked, the delivered orders that still owe by how long ago they
//! were delivered, turnaround and windows kept with the missed stops and re-cleans, the customers,
//! and each day's cash-up. Each is a chart the server draws (`ReportsPanel.tsx`, `ReportChart.tsx`) over a table of
//! exact figures. Staff see the sections the owner shares ([`ReportSection`]), phone numbers masked.

use crate::domain::schedule::day_label;
use crate::domain::{ReportSection, StoreCredit};
use crate::models::reports::{DayCash, DayMoney, DayOrders, ItemPieces, Owing};
use serde::Serialize;
use ts_rs::TS;

mod cash;
mod customers;
mod money;
mod orders;
mod period;
mod service;
mod summary;

pub use cash::CashDayView;
pub use customers::{CustomerFigures, CustomerWeek, CustomersReport, TopCustomer};
pub use money::{MoneyBar, MoneyReport, OwingBucket, OwingOrder};
pub use orders::{ItemView, OrdersBar, OrdersReport};
pub use period::{Grouping, MAX_DAYS, Period, PeriodKind};
pub use service::{RecleanMonth, ServiceFigures, ServiceReport, ServiceWeek};
pub use summary::{MonthSummary, SummaryLine, month_of};

use cash::cash_days;
use money::owing_buckets;
use period::bar_starts;
#[cfg(test)]
use service::percentile;

/// A section of the tab, and whether staff may see it (the owner's sharing form).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SharedSection {
    /// The section.
    pub section: ReportSection,
    /// What the owner reads.
    pub label: String,
    /// Staff see it.
    pub shared: bool,
}

/// The period's downloads and printable summary (the owner's).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Exports {
    /// The ledger entries as CSV.
    pub ledger: String,
    /// The orders placed as CSV.
    pub orders: String,
    /// The payments and refunds as CSV.
    pub payments: String,
    /// The accountant's summary of the month the period ends in.
    pub summary: String,
}

/// The Reports tab's props. A section is null when its reader may not see it.
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
    /// How the money and orders bars group the days.
    pub grouping: Grouping,
    /// Money in.
    pub money: Option<MoneyReport>,
    /// Orders, kilos and pieces.
    pub orders: Option<OrdersReport>,
    /// The delivered orders that owe, by age (now, whatever the period).
    pub owing: Option<Vec<OwingBucket>>,
    /// Turnaround, windows, misses and re-cleans.
    pub service: Option<ServiceReport>,
    /// New and returning customers, repeat rate, top spenders.
    pub customers: Option<CustomersReport>,
    /// Each day's cash-up by holder, oldest first.
    pub cash: Option<Vec<CashDayView>>,
    /// The owner's form: which sections staff see.
    pub sharing: Option<Vec<SharedSection>>,
    /// The owner's downloads.
    pub exports: Option<Exports>,
}

/// What was read for a report: each section's rows, none for a section not shown.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Figures {
    /// Money by day.
    pub money: Option<Vec<DayMoney>>,
    /// The store credit kept and used from the start of history to the period's end (read with
    /// the money): what is owed at its end.
    pub credit_ever: StoreCredit,
    /// Orders by day, and the top items.
    pub orders: Option<(Vec<DayOrders>, Vec<ItemPieces>)>,
    /// The orders owing.
    pub owing: Option<Vec<Owing>>,
    /// Service.
    pub service: Option<ServiceFigures>,
    /// Customers.
    pub customers: Option<CustomerFigures>,
    /// Cash-up by day.
    pub cash: Option<Vec<DayCash>>,
}

/// Who reads the report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reader {
    /// The owner: every section, full phone numbers, the sharing form (with what is shared) and
    /// the downloads.
    Owner(Vec<ReportSection>),
    /// Staff: the sections shared with them, phone numbers masked.
    Staff(Vec<ReportSection>),
}

impl Reader {
    /// Whether this reader sees `section`.
    pub fn shows(&self, section: ReportSection) -> bool {
        match self {
            Reader::Owner(_) => true,
            Reader::Staff(shared) => shared.contains(&section),
        }
    }
}

/// `part` of `whole` as a percentage with `decimals` places, rounded down (99.6% of windows kept is
/// not 100%), or "–" of nothing.
fn percent(part: i64, whole: i64, decimals: usize) -> String {
    if whole <= 0 {
        return "–".to_owned();
    }
    let scale = 10_i64.pow(decimals as u32);
    let scaled = part * 100 * scale / whole;
    match decimals {
        0 => format!("{scaled}%"),
        _ => format!("{}.{:0width$}%", scaled / scale, scaled % scale, width = decimals),
    }
}

impl Reports {
    /// The report of `period` from what was read, for `reader`.
    pub fn new((period, error): (Period, Option<String>), figures: &Figures, reader: &Reader) -> Reports {
        let grouping = Grouping::of(&period);
        let starts = bar_starts(grouping, period.first, period.last);
        let (from, to) = (period.first.to_string(), period.last.to_string());
        let owner = matches!(reader, Reader::Owner(_));
        Reports {
            period: period.kind,
            label: if period.first == period.last {
                day_label(period.first)
            } else {
                format!("{} to {}", day_label(period.first), day_label(period.last))
            },
            error,
            grouping,
            money: figures
                .money
                .as_ref()
                .map(|money| MoneyReport::new(grouping, &starts, &period, money, figures.credit_ever.owed())),
            orders: figures
                .orders
                .as_ref()
                .map(|(orders, items)| OrdersReport::new(grouping, &starts, &period, orders, items)),
            owing: figures.owing.as_deref().map(owing_buckets),
            service: figures.service.as_ref().map(|service| ServiceReport::new(&period, service)),
            customers: figures.customers.as_ref().map(|customers| CustomersReport::new(&period, customers, !owner)),
            cash: figures.cash.as_deref().map(cash_days),
            sharing: match reader {
                Reader::Owner(shared) => Some(
                    ReportSection::ALL
                        .iter()
                        .map(|&section| SharedSection {
                            section,
                            label: section.label().to_owned(),
                            shared: shared.contains(&section),
                        })
                        .collect(),
                ),
                Reader::Staff(_) => None,
            },
            exports: owner.then(|| Exports {
                ledger: format!("/admin/exports/ledger.csv?from={from}&to={to}"),
                orders: format!("/admin/exports/orders.csv?from={from}&to={to}"),
                payments: format!("/admin/exports/payments.csv?from={from}&to={to}"),
                summary: format!("/admin/exports/summary?month={}", to.get(..7).unwrap_or_default()),
            }),
            from,
            to,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Method;
    use crate::domain::ledger::MethodSum;
    use crate::models::reports::{Spender, WeekCustomers};
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
                received: vec![(Method::Till, 1000), (Method::Credit, 150)],
                refunded: vec![(Method::Cash, 200), (Method::Credit, 300), (Method::Reversal, 450)],
            },
        ];
        let orders = [DayOrders { day: date!(2026 - 11 - 24), orders: 2, kilos: 9, amount: 1350 }];

        let figures =
            Figures { money: Some(money.to_vec()), orders: Some((orders.to_vec(), Vec::new())), ..Figures::default() };

        let reports = Reports::new((period, None), &figures, &Reader::Owner(Vec::new()));

        let money = reports.money.unwrap();
        assert_eq!(money.bars.len(), 5, "Monday to Friday");
        let methods = |sums: &[MethodSum]| sums.iter().map(|m| m.method).collect::<Vec<_>>();
        assert_eq!(
            methods(&money.received_methods),
            [Method::Prompt, Method::Till, Method::Cash],
            "credit is not money"
        );
        assert_eq!(methods(&money.refunded_methods), [Method::Cash, Method::Reversal], "each way back a column");
        assert_eq!(money.bars[1].total, 950);
        assert_eq!(money.bars[3].total, 1000 - 200 - 450, "money that moved, store credit apart");
        assert_eq!(money.bars[3].refunded.iter().map(|s| s.amount).collect::<Vec<_>>(), [200, 450]);
        assert_eq!((money.bars[3].credit.kept, money.bars[3].credit.used), (300, 150));
        assert_eq!(money.total.total, 950 + 350);
        assert_eq!(money.total.refunded.iter().map(|s| s.amount).sum::<i64>(), 650);
        let orders = reports.orders.unwrap();
        assert_eq!((orders.total.orders, orders.total.kilos), (2, 9));
        assert_eq!(reports.exports.unwrap().ledger, "/admin/exports/ledger.csv?from=2026-11-23&to=2026-11-27");
        assert!(reports.service.is_none() && reports.customers.is_none(), "what was not read is not shown");
    }

    #[test]
    fn shares_are_rounded_down() {
        assert_eq!(percent(996, 1000, 0), "99%");
        assert_eq!(percent(1, 40, 1), "2.5%");
        assert_eq!(percent(1, 3, 1), "33.3%");
        assert_eq!(percent(5, 5, 0), "100%");
        assert_eq!(percent(1, 0, 0), "–");
    }

    #[test]
    fn turnaround_percentiles_are_read_from_the_hours_histogram() {
        assert_eq!(percentile(&[], 50), None);
        // 10 orders: 4 back in 24 hours, 5 in 48, 1 in 120.
        let histogram = [(48, 5), (24, 4), (120, 1)];
        assert_eq!(percentile(&histogram, 50), Some(48));
        assert_eq!(percentile(&histogram, 90), Some(48));
        assert_eq!(percentile(&[(24, 4), (48, 5), (120, 2)], 90), Some(120));
        assert_eq!(percentile(&[(7, 1)], 50), Some(7));
    }

    #[test]
    fn staff_see_masked_phones_and_no_downloads() {
        let today = date!(2026 - 11 - 27);
        let (period, _) = Period::ask(Some("week"), None, None, today);
        let spender = Spender { phone: "+254712345678".to_owned(), name: "Amina".to_owned(), orders: 2, spend: 1500 };
        let figures = Figures {
            customers: Some(CustomerFigures {
                weeks: vec![WeekCustomers { week: date!(2026 - 11 - 23), customers: 5, new: 2 }],
                repeat: (5, 2),
                top: vec![spender],
            }),
            ..Figures::default()
        };

        let staff = Reports::new((period, None), &figures, &Reader::Staff(vec![ReportSection::Customers]));
        let owner = Reports::new((period, None), &figures, &Reader::Owner(vec![ReportSection::Customers]));

        let customers = staff.customers.unwrap();
        assert_eq!(customers.top[0].phone, "+254 7** *** 678");
        assert_eq!(
            (customers.weeks[0].new, customers.weeks[0].returning, customers.repeat_share.as_str()),
            (2, 3, "40%")
        );
        assert!(staff.exports.is_none() && staff.sharing.is_none());
        assert_eq!(owner.customers.unwrap().top[0].phone, "+254712345678");
        let sharing = owner.sharing.unwrap();
        assert!(sharing.iter().any(|s| s.section == ReportSection::Customers && s.shared));
        assert!(sharing.iter().any(|s| s.section == ReportSection::Money && !s.shared));
    }
}
