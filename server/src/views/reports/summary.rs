//! The accountant's summary of a month (`GET /admin/exports/summary?month=YYYY-MM`), a page that
//! prints on one A4 sheet, drawn from the same figures as the Reports tab.

use super::{DayCash, DayMoney, DayOrders, Grouping, MoneyReport, OrdersBar, OrdersReport, Period, PeriodKind};
use crate::domain::ledger::MethodSum;
use crate::domain::{EntryKind, StoreCredit};
use serde::Serialize;
use time::{Date, Duration, Month};
use ts_rs::TS;

/// A month as the summary's address names it (`2026-11`): its first and last day.
pub fn month_of(text: &str) -> Option<(Date, Date)> {
    let (year, month) = text.trim().split_once('-')?;
    let (year, month): (i32, u8) = (year.parse().ok()?, month.parse().ok()?);
    if !(2000..=2200).contains(&year) || month.to_string().len() > 2 {
        return None;
    }
    let first = Date::from_calendar_date(year, Month::try_from(month).ok()?, 1).ok()?;
    let last = Grouping::Month.next(first) - Duration::days(1);
    Some((first, last))
}

/// `GET /admin/exports/summary?month=YYYY-MM`: the accountant's summary of a month, a page that
/// prints on one A4 sheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct MonthSummary {
    /// "November 2026".
    pub month: String,
    /// Its first day, YYYY-MM-DD.
    pub from: String,
    /// Its last day, YYYY-MM-DD.
    pub to: String,
    /// Whether the month is not over yet (the figures are to date).
    pub to_date: bool,
    /// Received by each method that took something.
    pub received: Vec<MethodSum>,
    /// Given back by each method that gave something.
    pub refunded: Vec<MethodSum>,
    /// Received in all, KSh.
    #[ts(type = "number")]
    pub received_total: i64,
    /// Given back in all, KSh.
    #[ts(type = "number")]
    pub refunded_total: i64,
    /// Received less given back, KSh.
    #[ts(type = "number")]
    pub net: i64,
    /// Store credit kept and used in the month (not money: neither received nor given back).
    pub credit: StoreCredit,
    /// Store credit owed to customers at the month's end (to date: now), KSh.
    #[ts(type = "number")]
    pub credit_owed: i64,
    /// What the ledger charged, by kind: "Charges", "Adjustments", "Discounts".
    pub charged: Vec<SummaryLine>,
    /// Charged in all, KSh.
    #[ts(type = "number")]
    pub charged_total: i64,
    /// Orders placed (not cancelled), their kilos and bills.
    pub orders: OrdersBar,
    /// Cash taken less given back, KSh.
    #[ts(type = "number")]
    pub cash_collected: i64,
    /// Cash handed in for the month's days, KSh.
    #[ts(type = "number")]
    pub cash_handed_in: i64,
    /// The month before, YYYY-MM.
    pub previous: String,
    /// The month after, YYYY-MM, unless it has not begun.
    pub next: Option<String>,
}

/// A labelled amount.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SummaryLine {
    /// What it is.
    pub label: String,
    /// KSh.
    #[ts(type = "number")]
    pub amount: i64,
}

impl MonthSummary {
    /// The summary of the month from `first` to `last` at `today`, from its money by day, the
    /// store credit owed at its end, the ledger's charges by kind, its orders by day and its cash
    /// by day.
    pub fn new(
        (first, last): (Date, Date),
        today: Date,
        (money, credit_owed): (&[DayMoney], i64),
        charged: &[(EntryKind, i64)],
        orders: &[DayOrders],
        cash: &[DayCash],
    ) -> MonthSummary {
        let period = Period { kind: PeriodKind::Custom, first, last };
        let report = MoneyReport::new(Grouping::Month, &[first], &period, money, credit_owed);
        let taken = |sums: &[MethodSum]| sums.iter().filter(|s| s.amount != 0).copied().collect::<Vec<_>>();
        let received_total: i64 = report.total.received.iter().map(|s| s.amount).sum();
        let refunded_total: i64 = report.total.refunded.iter().map(|s| s.amount).sum();
        let orders = OrdersReport::new(Grouping::Month, &[first], &period, orders, &[]).total;
        let charged: Vec<SummaryLine> = charged
            .iter()
            .map(|(kind, amount)| SummaryLine {
                label: match kind {
                    EntryKind::Adjustment => "Adjustments (new bills, cancellations)",
                    EntryKind::Discount => "Discounts",
                    _ => "Charges (orders placed)",
                }
                .to_owned(),
                amount: *amount,
            })
            .collect();
        let next = Grouping::Month.next(first);
        let month = |day: Date| format!("{:04}-{:02}", day.year(), u8::from(day.month()));
        MonthSummary {
            month: Grouping::Month.label(first),
            from: first.to_string(),
            to: last.to_string(),
            to_date: today <= last,
            received: taken(&report.total.received),
            refunded: taken(&report.total.refunded),
            received_total,
            refunded_total,
            net: received_total - refunded_total,
            credit: report.total.credit,
            credit_owed,
            charged_total: charged.iter().map(|line| line.amount).sum(),
            charged,
            orders: OrdersBar { label: "Orders placed".to_owned(), ..orders },
            cash_collected: cash.iter().map(|day| day.collected).sum(),
            cash_handed_in: cash.iter().map(|day| day.handed_in).sum(),
            previous: month(first - Duration::days(1)),
            next: (next <= today).then(|| month(next)),
        }
    }
}
