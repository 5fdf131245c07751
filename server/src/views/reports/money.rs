//! The money section: what came in and went back by method, by bar, store credit apart, and the
//! delivered orders that still owe by age.

use super::{Grouping, Period};
use crate::domain::ledger::MethodSum;
use crate::domain::schedule::day_label;
use crate::domain::{EntryKind, Method, StoreCredit, Takings, TextEnum};
use crate::models::reports::{Age, DayMoney, Owing};
use serde::Serialize;
use time::Date;
use ts_rs::TS;

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

pub(super) fn sums(methods: &[Method], amounts: &[(Method, i64)]) -> Vec<MethodSum> {
    methods
        .iter()
        .map(|&method| MethodSum {
            method,
            label: method.label(),
            amount: amounts.iter().filter(|(m, _)| *m == method).map(|(_, amount)| amount).sum(),
        })
        .collect()
}

impl MoneyReport {
    /// The money of `period`'s days by bar, with `credit_owed` the store credit owed at its end.
    pub(super) fn new(
        grouping: Grouping,
        starts: &[Date],
        period: &Period,
        money: &[DayMoney],
        credit_owed: i64,
    ) -> MoneyReport {
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

pub(super) fn owing_buckets(owing: &[Owing]) -> Vec<OwingBucket> {
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
