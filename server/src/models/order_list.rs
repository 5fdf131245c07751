//! The staff's list of orders: filtered by status and by payment, searched by name, pickup
//! location, phone or order ID, a page at a time; and what staff see of each order's M-PESA (its
//! newest prompt, payments to check) and, for a re-clean, of the order it cleans again. A read
//! model: it joins orders with their prompts, payments and re-clean links, and writes nothing;
//! no other model imports it.

use crate::db::schema::{mpesa_prompts, mpesa_receipts, order_balances, order_status_counts, orders};
use crate::db::{DbBackend, DbConnection};
use crate::domain::{Balance, OrderReference, OrderStatus, PaymentStatus, PhoneNumber};
use crate::models::Page;
use crate::models::ledger::Entry;
use crate::models::mpesa::MpesaPrompt;
use crate::models::order::{Order, OrderLine};
use crate::models::reclean::Reclean;
use crate::models::stop::Stop;
use diesel::dsl::sql;
use diesel::prelude::*;
use diesel::query_builder::{AstPass, QueryFragment, QueryId};
use diesel::sql_types::{BigInt, Bool, Text};
use std::collections::HashMap;
use time::PrimitiveDateTime;

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

/// A search of names and places is counted up to this many orders (to the next multiple of it
/// past the page's end); the page says "more than" beyond it. Counting every order that holds a common word (a tenth of all
/// orders hold "Kilimani") would cost more as history grows, and tells staff nothing a "more than
/// 1,000" does not.
pub const COUNTED_AT_MOST: i64 = 1_000;

/// The orders a staff search finds, each alternative through an index: a name or a pickup
/// location holding the search (three characters or more, any case: the trigram index of
/// `order_search` cannot look up less), the order ID (with or without '#'), the phone number in
/// any usual form, or its last digits (four or more). Written as one `IN` over the union of the
/// alternatives the search uses (OR-ing them makes PostgreSQL read every order); a search with
/// none of them finds nothing.
///
/// A search of names and places alone can also be answered without looking every match up: its
/// page by walking the orders newest first and testing each order's own columns with the same
/// test the index answers (`instr` on SQLite, whose index matches the words as stored; the same
/// `LIKE` on PostgreSQL), and its count up to [`COUNTED_AT_MOST`].
#[derive(Debug, Clone, QueryId)]
struct SearchMatches {
    /// `%words%`, lower case (PostgreSQL's trigram index answers LIKE).
    words: Option<String>,
    /// `"words"`, its ASCII letters in lower case as SQLite's `lower()` stores them: the same as an
    /// FTS5 phrase, which SQLite's trigram index answers from the index alone (LIKE reads each
    /// candidate's text again: 12 ms rather than 2 for a place a tenth of 100,000 orders hold).
    phrase: Option<String>,
    /// The same words as SQLite's walk looks for them in each order's text (`instr`).
    needle: Option<String>,
    /// An order ID.
    reference: Option<String>,
    /// A phone number, stored form.
    phone: Option<String>,
    /// The last digits of a phone number: `%digits%` for the trigram index (`"digits"` on
    /// SQLite), `%digits` for the number itself.
    ending: Option<(String, String, String)>,
}

impl SearchMatches {
    fn of(search: &str) -> Self {
        // LIKE's wildcards stand for themselves as any one character, rather than escaped (FTS5
        // does not use its index with an ESCAPE clause): "100%" finds "100%" (and "100x").
        let words: String =
            search.chars().map(|c| if "%_\\".contains(c) { '_' } else { c }).collect::<String>().to_lowercase();
        let (phone, ending) = match PhoneNumber::parse(search) {
            Ok(phone) => (Some(phone.as_str().to_owned()), None),
            Err(_) => {
                let digits: String = search.chars().filter(char::is_ascii_digit).collect();
                let only_digits = search.chars().all(|c| c.is_ascii_digit() || " +-".contains(c));
                let ending = (format!("%{digits}%"), format!("\"{digits}\""), format!("%{digits}"));
                (None, (digits.len() >= 4 && only_digits).then_some(ending))
            }
        };
        let long_enough = search.trim().chars().count() >= 3;
        let needle = search.trim().to_ascii_lowercase();
        SearchMatches {
            words: long_enough.then(|| format!("%{words}%")),
            phrase: long_enough.then(|| format!("\"{}\"", needle.replace('"', "\"\""))),
            needle: long_enough.then_some(needle),
            // The dashboard shows the order ID after '#'; `parse` drops it.
            reference: OrderReference::parse(search).map(|reference| reference.as_str().to_owned()),
            phone,
            ending,
        }
    }

    /// Whether the search is of names and places alone (no order ID, phone number or last digits
    /// among its alternatives).
    fn words_alone(&self) -> bool {
        self.phrase.is_some() && self.reference.is_none() && self.phone.is_none() && self.ending.is_none()
    }
}

/// A count of `COUNT(*) AS n`.
#[derive(QueryableByName)]
struct Counted {
    #[diesel(sql_type = BigInt)]
    n: i64,
}

impl SearchMatches {
    /// A search of names and places alone, counted from the trigram index up to `at_most`:
    /// `(orders, more)`, `more` when others match too. `order_search` holds one row per order (its
    /// triggers keep it so; `dashboard_totals.rs` checks it), so the rows holding the words are the
    /// orders found.
    fn counted(&self, connection: &mut DbConnection, at_most: i64) -> QueryResult<(i64, bool)> {
        let counted: Counted = match connection {
            DbConnection::Sqlite(_) => diesel::sql_query(
                "SELECT COUNT(*) AS n FROM (SELECT 1 FROM order_search WHERE order_search MATCH ? LIMIT ?)",
            )
            .bind::<Text, _>(self.phrase.clone().unwrap_or_default())
            .bind::<BigInt, _>(at_most + 1)
            .get_result(connection)?,
            DbConnection::Postgres(_) => diesel::sql_query(
                "SELECT COUNT(*) AS n FROM (SELECT 1 FROM order_search WHERE words LIKE $1 LIMIT $2) AS found",
            )
            .bind::<Text, _>(self.words.clone().unwrap_or_default())
            .bind::<BigInt, _>(at_most + 1)
            .get_result(connection)?,
        };
        Ok((counted.n.min(at_most), counted.n > at_most))
    }

    /// The page `(offset, size)` of a search of names and places alone that `found` of
    /// `everything` orders match (`more`: at least that many), newest first, by walking the orders
    /// by time and stopping at the page's end: when matches are many, that reads fewer orders than
    /// looking each match up and sorting them all (the planners' choice, as they cannot know how
    /// many match). The walk reads at most four times the orders the matches' density promises;
    /// matches bunched further back (a place the shop no longer serves) are looked up instead.
    /// None when they are, or when matches are few.
    fn walked_page(
        &self,
        connection: &mut DbConnection,
        (offset, size): (i64, i64),
        (found, more, everything): (i64, bool, i64),
    ) -> QueryResult<Option<Vec<Order>>> {
        if found == 0 {
            return Ok(None);
        }
        // Orders walked to fill the page, at the matches' density, against the matches looked up.
        let promised = (offset + size).saturating_mul(everything) / found;
        if !more && promised >= found {
            return Ok(None);
        }
        let walk = promised.saturating_mul(4).saturating_add(size).min(everything);
        // The walk stops at the page's end, or at the `walk`-th newest order (from its time: a
        // LIMIT on the walk itself would make the page's ORDER BY read all of it first).
        let oldest_walked: Option<PrimitiveDateTime> = match walk < everything {
            true => orders::table
                .select(orders::created_at)
                .order(orders::created_at.desc())
                .offset(walk - 1)
                .first(connection)
                .optional()?,
            false => None,
        };
        // The test the index answers, on the order's own columns.
        let holds = match connection {
            DbConnection::Sqlite(_) => sql::<Bool>(
                "instr(lower(orders.customer_name) || ' | ' || lower(orders.location) || ' | ' || orders.phone, ",
            )
            .bind::<Text, _>(self.needle.clone().unwrap_or_default())
            .sql(") > 0"),
            DbConnection::Postgres(_) => sql::<Bool>(
                "(lower(orders.customer_name) || ' | ' || lower(orders.location) || ' | ' || orders.phone) LIKE ",
            )
            .bind::<Text, _>(self.words.clone().unwrap_or_default())
            .sql(""),
        };
        let mut walked = orders::table.filter(holds).into_boxed();
        if let Some(oldest) = oldest_walked {
            walked = walked.filter(orders::created_at.ge(oldest));
        }
        let page: Vec<Order> = walked
            .order((orders::created_at.desc(), orders::id.desc()))
            .limit(size)
            .offset(offset)
            .select(Order::as_select())
            .load(connection)?;
        // A short page is the last one only if the walk reached the oldest order.
        if (page.len() as i64) < size && oldest_walked.is_some() {
            return Ok(None);
        }
        Ok(Some(page))
    }
}

impl Expression for SearchMatches {
    type SqlType = Bool;
}

impl diesel::expression::ValidGrouping<()> for SearchMatches {
    type IsAggregate = diesel::expression::is_aggregate::Never;
}

impl AppearsOnTable<orders::table> for SearchMatches {}

impl SelectableExpression<orders::table> for SearchMatches {}

impl QueryFragment<DbBackend> for SearchMatches {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, DbBackend>) -> QueryResult<()> {
        let mut alternatives = 0;
        let mut union = |out: &mut AstPass<'_, 'b, DbBackend>, sql: &str| {
            out.push_sql(if alternatives == 0 { "orders.id IN (" } else { " UNION ALL " });
            out.push_sql(sql);
            alternatives += 1;
        };
        let sqlite = matches!(out.backend(), DbBackend::Sqlite(_));
        if let (Some(words), Some(phrase)) = (&self.words, &self.phrase) {
            if sqlite {
                union(&mut out, "SELECT order_search.order_id FROM order_search WHERE order_search MATCH ");
                out.push_bind_param::<Text, _>(phrase)?;
            } else {
                union(&mut out, "SELECT order_search.order_id FROM order_search WHERE order_search.words LIKE ");
                out.push_bind_param::<Text, _>(words)?;
            }
        }
        if let Some(reference) = &self.reference {
            union(&mut out, "SELECT by_reference.id FROM orders AS by_reference WHERE by_reference.reference = ");
            out.push_bind_param::<Text, _>(reference)?;
        }
        if let Some(phone) = &self.phone {
            union(&mut out, "SELECT by_phone.id FROM orders AS by_phone WHERE by_phone.phone = ");
            out.push_bind_param::<Text, _>(phone)?;
        }
        if let Some((holding, phrase, ending)) = &self.ending {
            if sqlite {
                union(
                    &mut out,
                    "SELECT by_ending.id FROM order_search AS ending INNER JOIN orders AS by_ending \
                     ON by_ending.id = ending.order_id WHERE ending.order_search MATCH ",
                );
                out.push_bind_param::<Text, _>(phrase)?;
            } else {
                union(
                    &mut out,
                    "SELECT by_ending.id FROM order_search AS ending INNER JOIN orders AS by_ending \
                     ON by_ending.id = ending.order_id WHERE ending.words LIKE ",
                );
                out.push_bind_param::<Text, _>(holding)?;
            }
            out.push_sql(" AND by_ending.phone LIKE ");
            out.push_bind_param::<Text, _>(ending)?;
        }
        out.push_sql(if alternatives == 0 { "1 = 0" } else { ")" });
        Ok(())
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::Database;
    use diesel::connection::SimpleConnection;
    use proptest::prelude::*;

    /// Bits of names and places, in several cases, some with letters outside ASCII.
    const PIECES: [&str; 10] =
        ["Kilimani", "KILIMANI", "kili", "Élodie", "élodie", "ÉLODIE", "Straße", "Ngong", "100%", "Zoë"];

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

        /// A search's walk (each order's own text, `instr`) finds exactly the orders its index look-up
        /// finds (the FTS5 phrase), whatever the case of the names, the places and the search: the
        /// walk pages and the index counts, so they must agree.
        #[test]
        fn the_walk_finds_what_the_index_finds(
            orders in proptest::collection::vec((0..PIECES.len(), 0..PIECES.len()), 1..12),
            search in (0..PIECES.len(), 0usize..4, 3usize..8),
        ) {
            let dir = tempfile::tempdir().unwrap();
            let database = Database::open(&format!("sqlite://{}/search.db", dir.path().display()), 1).unwrap();
            let mut connection = database.connection().unwrap();
            for (n, (name, place)) in orders.iter().enumerate() {
                connection.batch_execute(&format!(
                    "INSERT INTO orders (id, reference, customer_name, phone, location, service_type, service_label, \
                     quantity, payment_method, price_per_kg, total_amount, status, created_at, updated_at, \
                     estimate_amount) VALUES ('o{n:02}', 'R{n:07}', '{} Amina', '+254712345678', '{}, Nairobi', \
                     'wash-fold', 'Wash & Fold', 3, 'pay-now', 150, 450, 'pending', '2026-11-20 10:{n:02}:00', \
                     '2026-11-20 10:{n:02}:00', 450)",
                    PIECES[*name], PIECES[*place]
                )).unwrap();
            }
            // A run of the piece's characters, or the whole of it.
            let (piece, start, length) = search;
            let text: String = PIECES[piece].chars().chain(" Amina".chars()).skip(start).take(length).collect();
            let matches = SearchMatches::of(&text);
            prop_assume!(matches.words_alone());
            let filter = OrderFilter { search: Some(text.clone()), ..OrderFilter::default() };
            let looked_up: Vec<String> = filtered(&filter)
                .order((orders::created_at.desc(), orders::id.desc()))
                .select(orders::id)
                .load(&mut connection)
                .unwrap();
            let everything = orders.len() as i64;
            let walked = matches.walked_page(&mut connection, (0, 100), (1, true, everything)).unwrap();
            let walked: Vec<String> = walked.unwrap().into_iter().map(|order| order.id).collect();
            prop_assert_eq!(&walked, &looked_up, "searching {:?}", text);
            let (counted, more) = matches.counted(&mut connection, 1_000).unwrap();
            prop_assert_eq!((counted, more), (looked_up.len() as i64, false));
        }
    }
}
