//! The staff's search of orders: by name, pickup location, phone number or order ID, each
//! alternative through an index, and for a name or a place alone a count up to a bound and a page
//! read by walking the newest orders (issue 32).

use crate::db::schema::orders;
use crate::db::{DbBackend, DbConnection};
use crate::domain::{OrderReference, PhoneNumber};
use crate::models::order::Order;
use diesel::dsl::sql;
use diesel::prelude::*;
use diesel::query_builder::{AstPass, QueryFragment, QueryId};
use diesel::sql_types::{BigInt, Bool, Text};
use time::PrimitiveDateTime;

/// A search of names and places is counted up to this many orders (to the next multiple of it
/// past the page's end); the page says "more than" beyond it. Counting every order that holds a
/// common word (a tenth of all orders hold "Kilimani") would cost more as history grows, and
/// tells staff nothing a "more than 1,000" does not.
pub const COUNTED_AT_MOST: i64 = 1_000;

/// An order's words as its row holds them: the text the `order_search` triggers index (both
/// migrations write the same expression).
const ORDER_WORDS: &str = "lower(orders.customer_name) || ' | ' || lower(orders.location) || ' | ' || orders.phone";

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
pub(super) struct SearchMatches {
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
    pub(super) fn of(search: &str) -> Self {
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
    pub(super) fn words_alone(&self) -> bool {
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
    pub(super) fn counted(&self, connection: &mut DbConnection, at_most: i64) -> QueryResult<(i64, bool)> {
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
    pub(super) fn walked_page(
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
        // The test the index answers, on the order's own columns (`.sql("")` gives both arms
        // one type).
        let holds = match connection {
            DbConnection::Sqlite(_) => sql::<Bool>(&format!("instr({ORDER_WORDS}, "))
                .bind::<Text, _>(self.needle.clone().unwrap_or_default())
                .sql(") > 0"),
            DbConnection::Postgres(_) => sql::<Bool>(&format!("({ORDER_WORDS}) LIKE "))
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

#[cfg(test)]
mod tests {
    use super::super::{OrderFilter, filtered};
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
