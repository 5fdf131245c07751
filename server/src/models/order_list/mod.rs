//! The staff's list of orders: filtered by status and by payment, searched by name, pickup
//! location, phone or order ID, a page at a time; and what staff see of each order's M-PESA (its
//! newest prompt, payments to check) and, for a re-clean, of the order it cleans again. A read
//! model: it joins orders with their prompts, payments and re-clean links, and writes nothing;
//! no other model imports it.

use crate::db::schema::{mpesa_prompts, mpesa_receipts, order_balances, order_status_counts, orders};
use crate::db::{DbBackend, DbConnection};
use crate::domain::{Balance, OrderStatus, PaymentStatus};
use crate::models::Page;
use crate::models::ledger::Entry;
use crate::models::mpesa::MpesaPrompt;
use crate::models::order::{Order, OrderLine};
use crate::models::reclean::Reclean;
use crate::models::stop::Stop;
use diesel::prelude::*;
use std::collections::HashMap;

mod search;

pub use search::COUNTED_AT_MOST;
use search::SearchMatches;

/// A query of the staff's list, before its order and page.
type Filtered = orders::BoxedQuery<'static, DbBackend>;

/// What the staff's order list shows: optionally one status, optionally a search.
#[derive(Debug, Clone, Default)]
pub struct OrderFilter {
    /// Only this status.
    pub status: Option<OrderStatus>,
    /// Only orders with something still to pay, or only orders with nothing to pay; from their
    /// ledgers. Either leaves out cancelled orders unless `status` asks for them: nobody chases
    /// their money, and one never paid has "nothing to pay" without being paid (a refund due is
    /// in the balances' list).
    pub payment: Option<PaymentStatus>,
    /// A name or a pickup location (part of it, any case), a phone number (any usual form, or its
    /// last digits) or an order ID (with or without the '#' the table shows).
    pub search: Option<String>,
}

impl ListedOrder {
    /// `order` as the list shows it, read again after a change to it.
    pub fn of(connection: &mut DbConnection, order: Order) -> QueryResult<ListedOrder> {
        Ok(ListedOrder {
            lines: Order::lines(connection, &order.id)?,
            stops: Stop::for_order(connection, &order.id)?,
            mpesa: MoneyFacts::of_order(connection, &order.id)?,
            reclean_of: Reclean::original_of(connection, &order.id)?,
            order,
        })
    }

    /// A page of orders matching `filter`, newest first, each with its lines, its M-PESA and (a
    /// re-clean) the order ID of the order it cleans again.
    /// `page` counts from 1.
    pub fn page(
        connection: &mut DbConnection,
        filter: &OrderFilter,
        page: i64,
        page_size: i64,
    ) -> QueryResult<Page<ListedOrder>> {
        let search = filter.search.as_deref().map(str::trim).filter(|s| !s.is_empty());
        let offset = (page.max(1) - 1) * page_size;
        // A search of names and places alone, with no other filter: counted up to a bound and
        // paged by walking the orders newest first when it matches many (see `SearchMatches`).
        let words_alone = search
            .map(SearchMatches::of)
            .filter(|matches| matches.words_alone() && filter.status.is_none() && filter.payment.is_none());
        // Counted from the counts the triggers keep where they can be: counting the orders would
        // cost more as history grows. Filtered by status alone, or not at all, the count is kept;
        // "paid" is every order of those statuses less the few that owe.
        let (total, more) = match (filter.payment, search, &words_alone) {
            (None, None, _) => (Self::kept_count(connection, filter.status, false)?, false),
            (Some(PaymentStatus::Unpaid), None, _) => (Entry::owing(connection, filter.status)?.0, false),
            (Some(PaymentStatus::Paid), None, _) => {
                let (owing, _) = Entry::owing(connection, filter.status)?;
                (Self::kept_count(connection, filter.status, filter.status.is_none())? - owing, false)
            }
            (_, _, Some(matches)) => {
                // To the thousand past the page's end: "more than 1,000" on the first 50 pages.
                let at_most = ((offset + page_size + COUNTED_AT_MOST - 1) / COUNTED_AT_MOST).max(1) * COUNTED_AT_MOST;
                matches.counted(connection, at_most)?
            }
            _ => (filtered(filter).count().get_result(connection)?, false),
        };
        let walked = match &words_alone {
            Some(matches) => {
                let everything = Self::kept_count(connection, None, false)?;
                matches.walked_page(connection, (offset, page_size), (total, more, everything))?
            }
            None => None,
        };
        let items = match walked {
            Some(items) => items,
            None => filtered(filter)
                .order((orders::created_at.desc(), orders::id.desc()))
                .limit(page_size)
                .offset(offset)
                .select(Order::as_select())
                .load(connection)?,
        };
        let mut lines = Order::lines_of(connection, &items)?;
        let ids: Vec<&str> = items.iter().map(|order| order.id.as_str()).collect();
        let mut mpesa = MoneyFacts::of_orders(connection, &ids)?;
        let mut originals = Reclean::originals_of(connection, &ids)?;
        let mut stops = Stop::of_orders(connection, &ids)?;
        let items = items
            .into_iter()
            .map(|order| ListedOrder {
                lines: lines.remove(&order.id).unwrap_or_default(),
                stops: stops.remove(&order.id).unwrap_or_default(),
                mpesa: mpesa.remove(&order.id).unwrap_or_default(),
                reclean_of: originals.remove(&order.id),
                order,
            })
            .collect();
        Ok(Page { items, total, more })
    }
}

impl ListedOrder {
    /// The orders of `status` (without one: all orders, or all but the cancelled ones), from the
    /// counts the triggers keep.
    fn kept_count(connection: &mut DbConnection, status: Option<OrderStatus>, but_cancelled: bool) -> QueryResult<i64> {
        let mut counts = order_status_counts::table.into_boxed();
        if let Some(status) = status {
            counts = counts.filter(order_status_counts::status.eq(status));
        } else if but_cancelled {
            counts = counts.filter(order_status_counts::status.ne(OrderStatus::Cancelled));
        }
        let counts: Vec<i64> = counts.select(order_status_counts::orders).load(connection)?;
        Ok(counts.into_iter().sum())
    }
}

/// The orders matching `filter`, unordered.
fn filtered(filter: &OrderFilter) -> Filtered {
    let mut query = orders::table.into_boxed();
    if let Some(status) = filter.status {
        query = query.filter(orders::status.eq(status));
    }
    if let Some(payment) = filter.payment {
        // The orders whose ledger says something is still to pay, from the kept balances.
        let owing =
            orders::id.eq_any(order_balances::table.filter(order_balances::due.gt(0)).select(order_balances::order_id));
        query = match payment {
            PaymentStatus::Unpaid => query.filter(owing),
            PaymentStatus::Paid => query.filter(diesel::dsl::not(owing)),
        };
        if filter.status.is_none() {
            query = query.filter(orders::status.ne(OrderStatus::Cancelled));
        }
    }
    if let Some(search) = filter.search.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        query = query.filter(SearchMatches::of(search));
    }
    query
}

/// An order of the staff's list.
#[derive(Debug, Clone, PartialEq)]
pub struct ListedOrder {
    /// The order.
    pub order: Order,
    /// Its lines, the main (kg) line first.
    pub lines: Vec<OrderLine>,
    /// Its pickup and delivery.
    pub stops: Vec<Stop>,
    /// Its newest prompt and payments to check.
    pub mpesa: MoneyFacts,
    /// A re-clean: the order ID of the order it cleans again.
    pub reclean_of: Option<String>,
}

/// What staff see of an order's money: its ledger's sums, the newest prompt sent to the
/// customer's phone, and the payments matched to it that wait for staff to check them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MoneyFacts {
    /// Its ledger's sums.
    pub balance: Balance,
    /// The newest prompt, if any was sent.
    pub prompt: Option<MpesaPrompt>,
    /// Payments matched to the order but flagged (another amount, paid already), not yet checked.
    pub to_check: i64,
}

impl MoneyFacts {
    /// The [`MoneyFacts`] of the orders `ids` (internal ids), by id; an order without entries,
    /// prompts or flagged payments has none.
    pub fn of_orders(connection: &mut DbConnection, ids: &[&str]) -> QueryResult<HashMap<String, MoneyFacts>> {
        let mut facts: HashMap<String, MoneyFacts> = HashMap::new();
        if ids.is_empty() {
            return Ok(facts);
        }
        for (order_id, balance) in Entry::balances(connection, ids)? {
            facts.entry(order_id).or_default().balance = balance;
        }
        let prompts: Vec<MpesaPrompt> = mpesa_prompts::table
            .filter(mpesa_prompts::order_id.eq_any(ids))
            .order((mpesa_prompts::created_at.desc(), mpesa_prompts::id.desc()))
            .select(MpesaPrompt::as_select())
            .load(connection)?;
        for prompt in prompts {
            let entry = facts.entry(prompt.order_id.clone()).or_default();
            if entry.prompt.is_none() {
                entry.prompt = Some(prompt);
            }
        }
        let flagged: Vec<Option<String>> = mpesa_receipts::table
            .filter(mpesa_receipts::order_id.eq_any(ids))
            .filter(mpesa_receipts::problem.is_not_null())
            .filter(mpesa_receipts::checked_at.is_null())
            .select(mpesa_receipts::order_id)
            .load(connection)?;
        for order_id in flagged.into_iter().flatten() {
            facts.entry(order_id).or_default().to_check += 1;
        }
        Ok(facts)
    }

    /// The one order's [`MoneyFacts`].
    pub fn of_order(connection: &mut DbConnection, id: &str) -> QueryResult<MoneyFacts> {
        Ok(MoneyFacts::of_orders(connection, &[id])?.remove(id).unwrap_or_default())
    }
}
