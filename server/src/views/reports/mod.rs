//! The owner's Reports tab: a period (today, this week, this month, last month, or from one day
//! to another, in Nairobi days), and for it the money taken in by method with what was given back,
//! the orders, kilos and pieces booked, the delivered orders that still owe by how long ago they
//! were delivered, turnaround and windows kept with the missed stops and re-cleans, the customers,
//! and each day's cash-up. Each is a chart the server draws (`ReportsPanel.tsx`, `ReportChart.tsx`) over a table of
//! exact figures. Staff see the sections the owner shares ([`ReportSection`]), phone numbers masked.

use crate::domain::ledger::MethodSum;
use crate::domain::schedule::{day_label, parse_day};
use crate::domain::{EntryKind, Method, PhoneNumber, ReportSection, StopKind, StoreCredit, Takings, TextEnum};
use crate::models::reports::{
    Age, DayCash, DayMoney, DayOrders, DayStops, DayTurnaround, ItemPieces, Owing, Spender, WeekCustomers,
};
use serde::Serialize;
use time::{Date, Duration, Month};
use ts_rs::TS;

mod summary;

pub use summary::{MonthSummary, SummaryLine, month_of};

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

/// One bar of the money chart and its row of the table: money that moved (M-PESA and cash), and
/// apart from it the store credit kept and used, which is a debt to the customer, not money.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct MoneyBar {
    /// Its first day, YYYY-MM-DD.
    pub start: String,
    /// "Fri 27 Nov", "Week of Mon 23 Nov", "November 2026".
    pub label: String,
    /// Received by each method of [`MoneyReport::received_methods`], in that order (0 where none).
    pub received: Vec<MethodSum>,
    /// Given back by each method of [`MoneyReport::refunded_methods`], in that order.
    pub refunded: Vec<MethodSum>,
    /// Received less given back.
    #[ts(type = "number")]
    pub total: i64,
    /// Store credit kept and used.
    pub credit: StoreCredit,
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

/// The money section: what came in and went back by method, by bar, and the store credit apart.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct MoneyReport {
    /// The methods money came in by in the period, in [`Method::ALL`]'s order: the chart's legend
    /// and the table's columns (store credit is never one).
    pub received_methods: Vec<MethodSum>,
    /// The methods money went back by in the period, each a column of its own.
    pub refunded_methods: Vec<MethodSum>,
    /// Money by bar, every bar of the period (empty ones too).
    pub bars: Vec<MoneyBar>,
    /// The period's money: by method, given back by method, and the total.
    pub total: MoneyBar,
    /// The store credit the shop owed its customers at the period's end, KSh (kept less used, over
    /// all history to then).
    #[ts(type = "number")]
    pub credit_owed: i64,
}

/// Pieces of one item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ItemView {
    /// The catalogue id.
    pub item: String,
    /// "Shirt".
    pub label: String,
    /// Pieces.
    #[ts(type = "number")]
    pub pieces: i64,
}

/// The orders section.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct OrdersReport {
    /// Orders by bar, every bar of the period.
    pub bars: Vec<OrdersBar>,
    /// The period's orders.
    pub total: OrdersBar,
    /// The ten items most pieces were ordered of, most first.
    pub items: Vec<ItemView>,
}

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

/// The hours at percentile `p` (nearest rank) of a histogram of (hours, orders).
fn percentile(histogram: &[(i64, i64)], p: i64) -> Option<i64> {
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

/// The bars' first days from `first` to `last` by `grouping`.
fn bar_starts(grouping: Grouping, first: Date, last: Date) -> Vec<Date> {
    let mut starts = Vec::new();
    let mut start = grouping.start(first);
    while start <= last {
        starts.push(start);
        start = grouping.next(start);
    }
    starts
}

impl MoneyReport {
    /// The money of `period`'s days by bar, with `credit_owed` the store credit owed at its end.
    fn new(grouping: Grouping, starts: &[Date], period: &Period, money: &[DayMoney], credit_owed: i64) -> MoneyReport {
        let used = |list: fn(&DayMoney) -> &Vec<(Method, i64)>| -> Vec<Method> {
            Method::ALL
                .iter()
                .copied()
                .filter(|method| {
                    method.is_money() && money.iter().any(|day| list(day).iter().any(|(m, _)| m == method))
                })
                .collect()
        };
        let (in_methods, out_methods) = (used(|day| &day.received), used(|day| &day.refunded));
        let bar = |start: Date, label: String, days: &mut dyn Iterator<Item = &DayMoney>| {
            let mut entries = Vec::new();
            for day in days {
                entries.extend(day.received.iter().map(|&(method, amount)| (EntryKind::Payment, method, amount)));
                entries.extend(day.refunded.iter().map(|&(method, amount)| (EntryKind::Refund, method, amount)));
            }
            let moved = Takings::of(entries.iter().copied());
            let amounts = |sums: &[MethodSum]| sums.iter().map(|sum| (sum.method, sum.amount)).collect::<Vec<_>>();
            MoneyBar {
                start: start.to_string(),
                label,
                received: sums(&in_methods, &amounts(&moved.received)),
                refunded: sums(&out_methods, &amounts(&moved.refunded)),
                total: moved.total,
                credit: StoreCredit::of(entries),
            }
        };
        MoneyReport {
            credit_owed,
            received_methods: sums(&in_methods, &[]),
            refunded_methods: sums(&out_methods, &[]),
            bars: starts
                .iter()
                .map(|&start| {
                    bar(start, grouping.label(start), &mut money.iter().filter(|d| grouping.start(d.day) == start))
                })
                .collect(),
            total: bar(period.first, "In all".to_owned(), &mut money.iter()),
        }
    }
}

impl OrdersReport {
    fn new(grouping: Grouping, starts: &[Date], period: &Period, orders: &[DayOrders], items: &[ItemPieces]) -> Self {
        let bar = |start: Date, label: String, days: &mut dyn Iterator<Item = &DayOrders>| {
            let mut bar = OrdersBar { start: start.to_string(), label, orders: 0, kilos: 0, amount: 0 };
            for day in days {
                bar.orders += day.orders;
                bar.kilos += day.kilos;
                bar.amount += day.amount;
            }
            bar
        };
        OrdersReport {
            bars: starts
                .iter()
                .map(|&start| {
                    bar(start, grouping.label(start), &mut orders.iter().filter(|d| grouping.start(d.day) == start))
                })
                .collect(),
            total: bar(period.first, "In all".to_owned(), &mut orders.iter()),
            items: items
                .iter()
                .map(|item| ItemView { item: item.item.clone(), label: item.label.clone(), pieces: item.pieces })
                .collect(),
        }
    }
}

impl ServiceWeek {
    fn new(start: Date, label: String, stops: &[&DayStops], turnaround: &[&DayTurnaround]) -> ServiceWeek {
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
    fn new(period: &Period, figures: &ServiceFigures) -> ServiceReport {
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

impl CustomersReport {
    fn new(period: &Period, figures: &CustomerFigures, masked: bool) -> CustomersReport {
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

fn owing_buckets(owing: &[Owing]) -> Vec<OwingBucket> {
    Age::ALL
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
        .collect()
}

fn cash_days(cash: &[DayCash]) -> Vec<CashDayView> {
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
