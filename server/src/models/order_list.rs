//! The staff's list of orders: filtered by status and by payment, searched by name, pickup
//! location, phone or order ID, a page at a time; and what staff see of each order's M-PESA (its
//! newest prompt, payments to check) and, for a re-clean, of the order it cleans again. A read
//! model: it joins orders with their prompts, payments and re-clean links, and writes nothing;
//! no other model imports it.

use crate::db::DbConnection;
use crate::db::schema::{mpesa_prompts, mpesa_receipts, orders};
use crate::domain::{Balance, OrderReference, OrderStatus, PaymentStatus, PhoneNumber};
use crate::models::Page;
use crate::models::ledger::Entry;
use crate::models::mpesa::MpesaPrompt;
use crate::models::order::{Order, OrderLine};
use crate::models::reclean::Reclean;
use diesel::dsl::sql;
use diesel::prelude::*;
use diesel::sql_types::Bool;
use std::collections::HashMap;

/// The orders whose ledger says something is still to pay.
const OWING: &str = "orders.id IN (SELECT ledger_entries.order_id FROM ledger_entries GROUP BY ledger_entries.order_id \
                     HAVING SUM(CASE WHEN ledger_entries.kind = 'payment' THEN -ledger_entries.amount \
                     ELSE ledger_entries.amount END) > 0)";

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

diesel::define_sql_function! {
    /// SQL `lower`, the same on both backends.
    fn lower(text: diesel::sql_types::Text) -> diesel::sql_types::Text;
}

impl ListedOrder {
    /// A page of orders matching `filter`, newest first, each with its lines, its M-PESA and (a
    /// re-clean) the order ID of the order it cleans again.
    /// `page` counts from 1.
    pub fn page(
        connection: &mut DbConnection,
        filter: &OrderFilter,
        page: i64,
        page_size: i64,
    ) -> QueryResult<Page<ListedOrder>> {
        let query = || {
            let mut query = orders::table.into_boxed();
            if let Some(status) = filter.status {
                query = query.filter(orders::status.eq(status));
            }
            if let Some(payment) = filter.payment {
                let owing = sql::<Bool>(OWING);
                query = match payment {
                    PaymentStatus::Unpaid => query.filter(owing),
                    PaymentStatus::Paid => query.filter(diesel::dsl::not(owing)),
                };
                if filter.status.is_none() {
                    query = query.filter(orders::status.ne(OrderStatus::Cancelled));
                }
            }
            if let Some(search) = filter.search.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
                let pattern = format!("%{}%", escape_like(&search.to_lowercase()));
                let mut matches: Box<dyn BoxableExpression<orders::table, _, SqlType = diesel::sql_types::Bool>> =
                    Box::new(
                        lower(orders::customer_name)
                            .like(pattern.clone())
                            .escape('\\')
                            .or(lower(orders::location).like(pattern).escape('\\')),
                    );
                // The dashboard shows the order ID after '#'; `parse` drops it.
                if let Some(reference) = OrderReference::parse(search) {
                    matches = Box::new(matches.or(orders::reference.eq(reference.as_str().to_owned())));
                }
                if let Ok(phone) = PhoneNumber::parse(search) {
                    matches = Box::new(matches.or(orders::phone.eq(phone.as_str().to_owned())));
                } else {
                    let digits: String = search.chars().filter(char::is_ascii_digit).collect();
                    if digits.len() >= 4 && search.chars().all(|c| c.is_ascii_digit() || " +-".contains(c)) {
                        matches = Box::new(matches.or(orders::phone.like(format!("%{digits}"))));
                    }
                }
                query = query.filter(matches);
            }
            query
        };
        let total = query().count().get_result(connection)?;
        let items = query()
            .order((orders::created_at.desc(), orders::id.desc()))
            .limit(page_size)
            .offset((page.max(1) - 1) * page_size)
            .select(Order::as_select())
            .load(connection)?;
        let mut lines = Order::lines_of(connection, &items)?;
        let ids: Vec<&str> = items.iter().map(|order| order.id.as_str()).collect();
        let mut mpesa = MoneyFacts::of_orders(connection, &ids)?;
        let mut originals = Reclean::originals_of(connection, &ids)?;
        let items = items
            .into_iter()
            .map(|order| ListedOrder {
                lines: lines.remove(&order.id).unwrap_or_default(),
                mpesa: mpesa.remove(&order.id).unwrap_or_default(),
                reclean_of: originals.remove(&order.id),
                order,
            })
            .collect();
        Ok(Page { items, total })
    }
}

/// An order of the staff's list.
#[derive(Debug, Clone, PartialEq)]
pub struct ListedOrder {
    /// The order.
    pub order: Order,
    /// Its lines, the main (kg) line first.
    pub lines: Vec<OrderLine>,
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

/// `text` with LIKE's wildcards escaped by `\`.
fn escape_like(text: &str) -> String {
    text.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_")
}
