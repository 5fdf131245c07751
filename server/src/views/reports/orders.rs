//! The orders section: orders, kilos and pieces booked, by bar and by item.

use super::{Grouping, Period};
use crate::models::reports::{DayOrders, ItemPieces};
use serde::Serialize;
use time::Date;
use ts_rs::TS;

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

impl OrdersReport {
    pub(super) fn new(
        grouping: Grouping,
        starts: &[Date],
        period: &Period,
        orders: &[DayOrders],
        items: &[ItemPieces],
    ) -> Self {
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
