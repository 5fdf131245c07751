//! The report figures of past days, kept in `report_days` once counted (issue 34): a view of a
//! year adds up 365 small rows rather than reading a year of orders, entries and stops. The
//! migration's triggers forget a day when anything it was counted from changes; this module counts
//! the days not kept (and keeps them), counts today live, and adds a period's days up.

use super::{
    DayCash, DayMoney, DayOrders, DayStops, DayTurnaround, ItemPieces, Spender, WeekCustomers, cash_by_day,
    customers_by_day, items_by_day, money_by_day, orders_by_day, recleans_by_day, spend_by_day, stops_by_day,
    turnaround_by_day,
};
use crate::db::DbConnection;
use crate::db::schema::{orders, report_days};
use crate::domain::{EntryKind, Method, StopKind};
use diesel::prelude::*;
use time::{Date, PrimitiveDateTime};

/// The most days counted in one write transaction.
const MAX_COUNTED: i64 = 31;

/// One Nairobi day's figures that add up over days, as `report_days` keeps them (the day is the
/// row's key).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct DayFigures {
    /// (payment or refund, method, KSh).
    money: Vec<(EntryKind, Method, i64)>,
    /// Orders placed, kilos, KSh billed.
    orders: (i64, i64, i64),
    /// (item, label, pieces).
    items: Vec<(String, String, i64)>,
    /// (kind, done, on time, missed).
    stops: Vec<(StopKind, i64, i64, i64)>,
    /// (hours, orders) of the orders delivered that day.
    turnaround: Vec<(i64, i64)>,
    /// Re-cleans asked for.
    recleans: i64,
    /// (holder, cash taken less given back, handed in).
    cash: Vec<(String, i64, i64)>,
    /// The day's customers, `phone:orders:first,…` (first 1 or 0): a compact text, as a year of
    /// them is read at each view.
    customers: String,
    /// What each customer paid less given back, `phone:KSh,…`.
    spend: String,
}

/// The figures of a period, from its days: what the money, orders, service, customers and cash
/// sections are drawn from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PeriodFigures {
    /// Money by day.
    pub money: Vec<DayMoney>,
    /// Orders by day.
    pub orders: Vec<DayOrders>,
    /// The ten items most pieces were ordered of in the period, most first.
    pub items: Vec<ItemPieces>,
    /// Stops by day and kind.
    pub stops: Vec<DayStops>,
    /// The turnaround histogram by day.
    pub turnaround: Vec<DayTurnaround>,
    /// Re-cleans by day.
    pub recleans: Vec<(Date, i64)>,
    /// Cash by day and holder.
    pub cash: Vec<DayCash>,
    /// Customers by week (in the period).
    pub customer_weeks: Vec<WeekCustomers>,
    /// The period's customers, and of them those with two orders or more by its end.
    pub repeat: (i64, i64),
    /// The ten who paid most in the period (names as [`period_figures`] fills them in).
    pub top: Vec<Spender>,
}

/// Counts the days `first` to `last` from the orders, the ledger and the stops: every day of the
/// range, empty ones too.
fn count_days(connection: &mut DbConnection, first: Date, last: Date) -> QueryResult<Vec<(Date, DayFigures)>> {
    let money = money_by_day(connection, first, last)?;
    let orders = orders_by_day(connection, first, last)?;
    let items = items_by_day(connection, first, last)?;
    let stops = stops_by_day(connection, first, last)?;
    let turnaround = turnaround_by_day(connection, first, last)?;
    let recleans = recleans_by_day(connection, first, last)?;
    let cash = cash_by_day(connection, first, last)?;
    // A year of customers is a row per customer and day: written out by day once, not searched.
    let mut customers: std::collections::HashMap<Date, String> = std::collections::HashMap::new();
    for (day, phone, orders, first) in customers_by_day(connection, first, last)? {
        customers.entry(day).or_default().push_str(&format!("{phone}:{orders}:{},", u8::from(first)));
    }
    let mut spend: std::collections::HashMap<Date, String> = std::collections::HashMap::new();
    for (day, phone, amount) in spend_by_day(connection, first, last)? {
        spend.entry(day).or_default().push_str(&format!("{phone}:{amount},"));
    }
    let mut days = Vec::new();
    let mut day = first;
    while day <= last {
        let mut figures = DayFigures::default();
        for d in money.iter().filter(|d| d.day == day) {
            figures.money.extend(d.received.iter().map(|&(method, amount)| (EntryKind::Payment, method, amount)));
            figures.money.extend(d.refunded.iter().map(|&(method, amount)| (EntryKind::Refund, method, amount)));
        }
        if let Some(d) = orders.iter().find(|d| d.day == day) {
            figures.orders = (d.orders, d.kilos, d.amount);
        }
        figures.items = items
            .iter()
            .filter(|(d, _)| *d == day)
            .map(|(_, item)| (item.item.clone(), item.label.clone(), item.pieces))
            .collect();
        figures.stops = stops.iter().filter(|s| s.day == day).map(|s| (s.kind, s.done, s.kept, s.missed)).collect();
        figures.turnaround = turnaround.iter().filter(|t| t.day == day).map(|t| (t.hours, t.orders)).collect();
        figures.recleans = recleans.iter().filter(|(d, _)| *d == day).map(|(_, n)| n).sum();
        figures.cash =
            cash.iter().filter(|c| c.day == day).map(|c| (c.holder.clone(), c.collected, c.handed_in)).collect();
        figures.customers = customers.remove(&day).unwrap_or_default();
        figures.spend = spend.remove(&day).unwrap_or_default();
        days.push((day, figures));
        day += time::Duration::days(1);
    }
    Ok(days)
}

/// The figures of the days `first` to `last` that add up over days. The days before `today` come
/// from `report_days` where it keeps them; those it does not are counted and kept (a month at
/// most per write transaction; on PostgreSQL under a lock that the triggers' forgetting waits for,
/// so a change made while they are counted cannot be lost). Today and later are counted every time.
pub fn period_figures(
    connection: &mut DbConnection,
    first: Date,
    last: Date,
    today: Date,
    now: PrimitiveDateTime,
) -> QueryResult<PeriodFigures> {
    let mut days: Vec<(Date, DayFigures)> = Vec::new();
    let settled_last = last.min(today - time::Duration::days(1));
    if first <= settled_last {
        let kept: Vec<(Date, String)> = report_days::table
            .filter(report_days::day.ge(first).and(report_days::day.le(settled_last)))
            .select((report_days::day, report_days::figures))
            .load(connection)?;
        for (day, figures) in kept {
            // A row that does not read (written by another version) is counted again.
            if let Ok(figures) = serde_json::from_str::<DayFigures>(&figures) {
                days.push((day, figures));
            }
        }
        // Runs of days not kept, at most a month each: each is counted in a transaction of its
        // own, so that writes (whose triggers wait for it) wait for a month's counting at most.
        let mut missing: Vec<(Date, Date)> = Vec::new();
        let mut day = first;
        while day <= settled_last {
            if !days.iter().any(|(d, _)| *d == day) {
                match missing.last_mut() {
                    Some((start, end))
                        if *end + time::Duration::days(1) == day && (day - *start).whole_days() < MAX_COUNTED =>
                    {
                        *end = day
                    }
                    _ => missing.push((day, day)),
                }
            }
            day += time::Duration::days(1);
        }
        for (from, to) in missing {
            let counted = crate::db::write_transaction(connection, |connection| {
                // Under READ COMMITTED (PostgreSQL's default, which the pool keeps), each statement
                // after the lock sees every change committed before it, and a trigger's DELETE
                // that waited for it sees the rows written here: no change is lost in between.
                if let DbConnection::Postgres(_) = connection {
                    diesel::sql_query("LOCK TABLE report_days IN SHARE ROW EXCLUSIVE MODE").execute(connection)?;
                }
                let counted = count_days(connection, from, to)?;
                for (day, figures) in &counted {
                    let text = serde_json::to_string(figures).unwrap_or_default();
                    diesel::delete(report_days::table.find(*day)).execute(connection)?;
                    diesel::insert_into(report_days::table)
                        .values((
                            report_days::day.eq(*day),
                            report_days::figures.eq(text),
                            report_days::counted_at.eq(now),
                        ))
                        .execute(connection)?;
                }
                Ok::<_, diesel::result::Error>(counted)
            })?;
            days.extend(counted);
        }
    }
    let live_first = first.max(today);
    if live_first <= last {
        days.extend(count_days(connection, live_first, last)?);
    }
    days.sort_by_key(|(day, _)| *day);
    let mut period = assemble(&days);
    name_spenders(connection, &mut period.top)?;
    Ok(period)
}

/// Gives each top spender the name on their newest order (by the phone index).
fn name_spenders(connection: &mut DbConnection, top: &mut [Spender]) -> QueryResult<()> {
    for spender in top {
        spender.name = orders::table
            .filter(orders::phone.eq(&spender.phone))
            .order(orders::created_at.desc())
            .select(orders::customer_name)
            .first(connection)
            .optional()?
            .unwrap_or_default();
    }
    Ok(())
}

/// The period's figures from its days'.
fn assemble(days: &[(Date, DayFigures)]) -> PeriodFigures {
    let mut period = PeriodFigures::default();
    let mut items: Vec<ItemPieces> = Vec::new();
    for (day, figures) in days {
        let day = *day;
        if !figures.money.is_empty() {
            let of = |kind: EntryKind| {
                figures.money.iter().filter(|(k, ..)| *k == kind).map(|&(_, method, amount)| (method, amount)).collect()
            };
            period.money.push(DayMoney { day, received: of(EntryKind::Payment), refunded: of(EntryKind::Refund) });
        }
        let (orders, kilos, amount) = figures.orders;
        if orders > 0 {
            period.orders.push(DayOrders { day, orders, kilos, amount });
        }
        for (item, label, pieces) in &figures.items {
            match items.iter_mut().find(|i| i.item == *item) {
                Some(known) => known.pieces += pieces,
                None => items.push(ItemPieces { item: item.clone(), label: label.clone(), pieces: *pieces }),
            }
        }
        period.stops.extend(figures.stops.iter().map(|&(kind, done, kept, missed)| DayStops {
            day,
            kind,
            done,
            kept,
            missed,
        }));
        period.turnaround.extend(figures.turnaround.iter().map(|&(hours, orders)| DayTurnaround {
            day,
            hours,
            orders,
        }));
        if figures.recleans > 0 {
            period.recleans.push((day, figures.recleans));
        }
        period.cash.extend(figures.cash.iter().map(|(holder, collected, handed_in)| DayCash {
            day,
            holder: holder.clone(),
            collected: *collected,
            handed_in: *handed_in,
        }));
    }
    items.sort_by(|a, b| b.pieces.cmp(&a.pieces).then_with(|| a.item.cmp(&b.item)));
    items.truncate(10);
    period.items = items;
    customers_of(days, &mut period);
    period
}

/// The period's customers from its days': by week, the repeat rate, the top spenders (unnamed).
fn customers_of(days: &[(Date, DayFigures)], period: &mut PeriodFigures) {
    use std::collections::{HashMap, HashSet};
    // By phone: orders in the period, whether their first order ever is in it, what they paid.
    let mut phones: HashMap<&str, (i64, bool, i64)> = HashMap::new();
    let mut weeks: Vec<(Date, HashSet<&str>, i64)> = Vec::new();
    for (day, figures) in days {
        let monday = *day - time::Duration::days(i64::from(day.weekday().number_days_from_monday()));
        for entry in figures.customers.split(',').filter(|entry| !entry.is_empty()) {
            let mut fields = entry.split(':');
            let (Some(phone), Some(orders), Some(first)) = (fields.next(), fields.next(), fields.next()) else {
                continue;
            };
            let (orders, first) = (orders.parse::<i64>().unwrap_or(0), first == "1");
            let known = phones.entry(phone).or_default();
            known.0 += orders;
            known.1 |= first;
            if weeks.last().is_none_or(|(week, ..)| *week != monday) {
                weeks.push((monday, HashSet::new(), 0));
            }
            if let Some((_, seen, new)) = weeks.last_mut() {
                seen.insert(phone);
                *new += i64::from(first);
            }
        }
        for entry in figures.spend.split(',').filter(|entry| !entry.is_empty()) {
            if let Some((phone, amount)) = entry.split_once(':') {
                phones.entry(phone).or_default().2 += amount.parse::<i64>().unwrap_or(0);
            }
        }
    }
    period.customer_weeks =
        weeks.into_iter().map(|(week, seen, new)| WeekCustomers { week, customers: seen.len() as i64, new }).collect();
    let customers: Vec<&(i64, bool, i64)> = phones.values().filter(|(orders, ..)| *orders > 0).collect();
    let repeat = customers.iter().filter(|(orders, first, _)| !*first || *orders >= 2).count();
    period.repeat = (customers.len() as i64, repeat as i64);
    let mut top: Vec<Spender> = phones
        .iter()
        .filter(|(_, (.., spend))| *spend > 0)
        .map(|(phone, (orders, _, spend))| Spender {
            phone: (*phone).to_owned(),
            name: String::new(),
            orders: *orders,
            spend: *spend,
        })
        .collect();
    top.sort_by(|a, b| b.spend.cmp(&a.spend).then_with(|| a.phone.cmp(&b.phone)));
    top.truncate(10);
    period.top = top;
}

/// The same figures counted afresh, none kept or read from `report_days`: what the kept days must
/// always equal (the recount of the tests).
pub fn period_figures_recounted(connection: &mut DbConnection, first: Date, last: Date) -> QueryResult<PeriodFigures> {
    let mut period = assemble(&count_days(connection, first, last)?);
    name_spenders(connection, &mut period.top)?;
    Ok(period)
}
