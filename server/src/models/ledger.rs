//! The ledger's rows: each order's entries (only ever added) and the cash handed in at the shop,
//! with the sums every page reads. What the sums mean is `domain::ledger`'s; which entries a
//! change writes is `lifecycle::money`'s.

use crate::db::DbConnection;
use crate::db::schema::{cash_handovers, ledger_entries, order_balances, orders};
use crate::domain::schedule::day_bounds;
use crate::domain::{Balance, EntryKind, Method, OrderStatus, StoreCredit, Takings};
use diesel::dsl::{sql, sum};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Bool, Nullable, Text};
use std::collections::HashMap;
use time::{Date, PrimitiveDateTime};

/// What an order owes, as SQL over its entries: charges − payments + refunds.
const DUE: &str = "COALESCE(SUM(CASE WHEN ledger_entries.kind = 'payment' THEN -ledger_entries.amount \
                   ELSE ledger_entries.amount END), 0)";

/// One entry of an order's ledger.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = ledger_entries)]
pub struct Entry {
    /// Increasing: later entries have higher ids.
    pub id: i64,
    /// The order's key.
    pub order_id: String,
    /// Charge, adjustment, discount, payment or refund.
    pub kind: EntryKind,
    /// How money came or went (payments and refunds).
    pub method: Option<Method>,
    /// KSh; see the migration for the signs.
    pub amount: i32,
    /// The M-PESA code of a payment, or a refund's reference.
    pub reference: Option<String>,
    /// The prompt a payment answered.
    pub prompt_id: Option<String>,
    /// What it is, or why.
    pub note: String,
    /// The entry this one corrects.
    pub corrects: Option<i64>,
    /// Who: a staff member's or valet's e-mail, "M-PESA", or none (the customer, the site).
    pub recorded_by: Option<String>,
    /// When, UTC.
    pub recorded_at: PrimitiveDateTime,
}

/// An entry to add.
#[derive(Debug, Clone, Copy)]
pub struct NewEntry<'a> {
    /// What it is.
    pub kind: EntryKind,
    /// How, for a payment or a refund.
    pub method: Option<Method>,
    /// KSh.
    pub amount: i32,
    /// An M-PESA code or a refund's reference.
    pub reference: Option<&'a str>,
    /// The prompt a payment answered.
    pub prompt_id: Option<&'a str>,
    /// What it is, or why.
    pub note: &'a str,
    /// The entry it corrects.
    pub corrects: Option<i64>,
    /// Who.
    pub by: Option<&'a str>,
}

impl<'a> NewEntry<'a> {
    /// A change of the charges (`kind` charge, adjustment or discount).
    pub fn charge(kind: EntryKind, amount: i32, note: &'a str, by: Option<&'a str>) -> Self {
        NewEntry { kind, method: None, amount, reference: None, prompt_id: None, note, corrects: None, by }
    }

    /// Money received.
    pub fn payment(method: Method, amount: i32, reference: Option<&'a str>, by: Option<&'a str>) -> Self {
        NewEntry {
            kind: EntryKind::Payment,
            method: Some(method),
            amount,
            reference,
            prompt_id: None,
            note: "",
            corrects: None,
            by,
        }
    }

    /// Money given back.
    pub fn refund(method: Method, amount: i32, reference: Option<&'a str>, note: &'a str, by: Option<&'a str>) -> Self {
        NewEntry {
            kind: EntryKind::Refund,
            method: Some(method),
            amount,
            reference,
            prompt_id: None,
            note,
            corrects: None,
            by,
        }
    }
}

/// Cash handed in at the shop for one day.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = cash_handovers)]
pub struct Handover {
    /// Increasing.
    pub id: i64,
    /// Whose cash (the e-mail its entries were recorded under).
    pub holder: String,
    /// The Nairobi day it was collected.
    pub day: Date,
    /// KSh counted.
    pub amount: i32,
    /// Staff's words (short by 50, say).
    pub note: String,
    /// The staff member who counted it.
    pub recorded_by: String,
    /// When, UTC.
    pub recorded_at: PrimitiveDateTime,
    /// The key the dashboard sent with it: the same key again is this handover, not another.
    pub idempotency_key: Option<String>,
}

/// Cash handed in, to record.
#[derive(Debug, Clone, Copy)]
pub struct NewHandover<'a> {
    /// Whose cash.
    pub holder: &'a str,
    /// The Nairobi day it was collected.
    pub day: Date,
    /// KSh counted.
    pub amount: i32,
    /// Staff's words.
    pub note: &'a str,
    /// Who counted it.
    pub by: &'a str,
    /// The dashboard's key for this handover, if it sent one.
    pub key: Option<&'a str>,
}

impl Entry {
    /// Adds `entry` to the order `order_id`'s ledger inside the caller's transaction (which holds
    /// the order's lock) and returns it as stored.
    pub fn add(
        connection: &mut DbConnection,
        order_id: &str,
        entry: &NewEntry<'_>,
        now: PrimitiveDateTime,
    ) -> QueryResult<Entry> {
        diesel::insert_into(ledger_entries::table)
            .values((
                ledger_entries::order_id.eq(order_id),
                ledger_entries::kind.eq(entry.kind),
                ledger_entries::method.eq(entry.method),
                ledger_entries::amount.eq(entry.amount),
                ledger_entries::reference.eq(entry.reference),
                ledger_entries::prompt_id.eq(entry.prompt_id),
                ledger_entries::note.eq(entry.note),
                ledger_entries::corrects.eq(entry.corrects),
                ledger_entries::recorded_by.eq(entry.by),
                ledger_entries::recorded_at.eq(now),
            ))
            .execute(connection)?;
        ledger_entries::table
            .filter(ledger_entries::order_id.eq(order_id))
            .order(ledger_entries::id.desc())
            .select(Entry::as_select())
            .first(connection)
    }

    /// The entry `id` of the order `order_id`.
    pub fn find(connection: &mut DbConnection, order_id: &str, id: i64) -> QueryResult<Option<Entry>> {
        ledger_entries::table
            .filter(ledger_entries::id.eq(id).and(ledger_entries::order_id.eq(order_id)))
            .select(Entry::as_select())
            .first(connection)
            .optional()
    }

    /// The entry that corrects `id`, if one does.
    pub fn correction_of(connection: &mut DbConnection, id: i64) -> QueryResult<Option<Entry>> {
        ledger_entries::table
            .filter(ledger_entries::corrects.eq(id))
            .select(Entry::as_select())
            .first(connection)
            .optional()
    }

    /// The order's entries, oldest first.
    pub fn of_order(connection: &mut DbConnection, order_id: &str) -> QueryResult<Vec<Entry>> {
        ledger_entries::table
            .filter(ledger_entries::order_id.eq(order_id))
            .order(ledger_entries::id.asc())
            .select(Entry::as_select())
            .load(connection)
    }

    /// The payment entered with the M-PESA code `code` (on any order) and not corrected since, if
    /// one was. A payment corrected (entered on the wrong order, say) holds its code no more.
    pub fn payment_with_code(connection: &mut DbConnection, code: &str) -> QueryResult<Option<Entry>> {
        ledger_entries::table
            .filter(ledger_entries::kind.eq(EntryKind::Payment))
            .filter(ledger_entries::reference.eq(code).and(ledger_entries::amount.gt(0)))
            .filter(sql::<Bool>(
                "NOT EXISTS (SELECT 1 FROM ledger_entries AS correction \
                 WHERE correction.corrects = ledger_entries.id)",
            ))
            .select(Entry::as_select())
            .first(connection)
            .optional()
    }

    /// The payment that answered the prompt `prompt_id`, if one was entered.
    pub fn payment_of_prompt(connection: &mut DbConnection, prompt_id: &str) -> QueryResult<Option<Entry>> {
        ledger_entries::table
            .filter(ledger_entries::kind.eq(EntryKind::Payment))
            .filter(ledger_entries::prompt_id.eq(prompt_id).and(ledger_entries::amount.gt(0)))
            .select(Entry::as_select())
            .first(connection)
            .optional()
    }

    /// Writes the M-PESA code a prompt's callback brought on the payment a status query entered
    /// without it: the one field of an entry ever written after it was added (it names the
    /// payment; the money is unchanged).
    pub fn name_code(connection: &mut DbConnection, id: i64, code: &str) -> QueryResult<()> {
        diesel::update(ledger_entries::table.find(id).filter(ledger_entries::reference.is_null()))
            .set(ledger_entries::reference.eq(code))
            .execute(connection)?;
        Ok(())
    }

    /// The balance of `entries` already loaded (an order's, to show them with it).
    pub fn sum(entries: &[Entry]) -> Balance {
        Balance::of(entries.iter().map(|entry| (entry.kind, i64::from(entry.amount))))
    }

    /// The order's balance.
    pub fn balance(connection: &mut DbConnection, order_id: &str) -> QueryResult<Balance> {
        let sums: Vec<(EntryKind, Option<i64>)> = ledger_entries::table
            .filter(ledger_entries::order_id.eq(order_id))
            .group_by(ledger_entries::kind)
            .select((ledger_entries::kind, sum(ledger_entries::amount)))
            .load(connection)?;
        Ok(Balance::of(sums.into_iter().map(|(kind, amount)| (kind, amount.unwrap_or(0)))))
    }

    /// The balances of the orders `order_ids`, by order key (an order without entries is absent).
    pub fn balances(connection: &mut DbConnection, order_ids: &[&str]) -> QueryResult<HashMap<String, Balance>> {
        let mut balances: HashMap<String, Balance> = HashMap::new();
        for chunk in order_ids.chunks(500) {
            let sums: Vec<(String, EntryKind, Option<i64>)> = ledger_entries::table
                .filter(ledger_entries::order_id.eq_any(chunk))
                .group_by((ledger_entries::order_id, ledger_entries::kind))
                .select((ledger_entries::order_id, ledger_entries::kind, sum(ledger_entries::amount)))
                .load(connection)?;
            for (order, kind, amount) in sums {
                balances.entry(order).or_default().add(kind, amount.unwrap_or(0));
            }
        }
        Ok(balances)
    }

    /// The orders that owe something (`owing`) or are owed something back (not `owing`), with
    /// what, oldest order first, at most `limit`: from the balances the triggers keep
    /// (`order_balances`), which hold the same sums as the entries.
    pub fn unsettled(connection: &mut DbConnection, owing: bool, limit: i64) -> QueryResult<Vec<(String, i64)>> {
        let mut query = order_balances::table.into_boxed();
        query = if owing { query.filter(order_balances::due.gt(0)) } else { query.filter(order_balances::due.lt(0)) };
        query
            .order(order_balances::first_entry.asc())
            .limit(limit)
            .select((order_balances::order_id, order_balances::due))
            .load(connection)
    }

    /// The orders that owe (of `status`, or of any status but cancelled: nobody chases a
    /// cancelled order's money), and what they owe in all, KSh.
    pub fn owing(connection: &mut DbConnection, status: Option<OrderStatus>) -> QueryResult<(i64, i64)> {
        // SUM of a BIGINT is a NUMERIC on PostgreSQL.
        let (orders, due): (i64, Option<i64>) = owing_balances(status)
            .select((diesel::dsl::count_star(), sql::<Nullable<BigInt>>("CAST(SUM(order_balances.due) AS BIGINT)")))
            .first(connection)?;
        Ok((orders, due.unwrap_or(0)))
    }

    /// The oldest `limit` orders that owe, with what, cancelled ones left out: what the money tab
    /// lists.
    pub fn owing_oldest(connection: &mut DbConnection, limit: i64) -> QueryResult<Vec<(String, i64)>> {
        owing_balances(None)
            .order(order_balances::first_entry.asc())
            .limit(limit)
            .select((order_balances::order_id, order_balances::due))
            .load(connection)
    }

    /// The same as [`Entry::unsettled`] with no limit, summed from every entry: what the kept
    /// balances must equal (tests).
    pub fn unsettled_recounted(connection: &mut DbConnection, owing: bool) -> QueryResult<Vec<(String, i64)>> {
        let condition = if owing { format!("{DUE} > 0") } else { format!("{DUE} < 0") };
        ledger_entries::table
            .group_by(ledger_entries::order_id)
            .having(sql::<Bool>(&condition))
            .select((ledger_entries::order_id, sql::<BigInt>(DUE)))
            .order(sql::<BigInt>("MIN(ledger_entries.id)"))
            .load(connection)
    }

    /// The store credit the phone number (stored form) holds: refunds kept as credit on its orders
    /// less the credit its orders used.
    pub fn credit_of(connection: &mut DbConnection, phone: &str) -> QueryResult<i64> {
        let sums: Vec<(EntryKind, Option<i64>)> = ledger_entries::table
            .inner_join(orders::table)
            .filter(orders::phone.eq(phone))
            .filter(ledger_entries::method.eq(Method::Credit))
            .group_by(ledger_entries::kind)
            .select((ledger_entries::kind, sum(ledger_entries::amount)))
            .load(connection)?;
        Ok(sums
            .into_iter()
            .map(|(kind, amount)| match kind {
                EntryKind::Refund => amount.unwrap_or(0),
                EntryKind::Payment => -amount.unwrap_or(0),
                _ => 0,
            })
            .sum())
    }

    /// The store credit kept and used by the entries recorded before `until` (UTC): what the shop
    /// owed its customers in credit at that moment is its [`StoreCredit::owed`]. Read through the
    /// index of credit entries alone (its condition is written as the index's, so that SQLite
    /// takes it).
    pub fn credit_before(connection: &mut DbConnection, until: PrimitiveDateTime) -> QueryResult<StoreCredit> {
        let sums: Vec<(EntryKind, Option<i64>)> = ledger_entries::table
            .filter(sql::<Bool>("ledger_entries.method = 'credit'"))
            .filter(ledger_entries::recorded_at.lt(until))
            .group_by(ledger_entries::kind)
            .select((ledger_entries::kind, sum(ledger_entries::amount)))
            .load(connection)?;
        Ok(StoreCredit::of(sums.into_iter().map(|(kind, amount)| (kind, Method::Credit, amount.unwrap_or(0)))))
    }

    /// Every phone number that holds store credit, with the name on its newest order and how
    /// much, most first.
    pub fn credit_held(connection: &mut DbConnection) -> QueryResult<Vec<(String, String, i64)>> {
        const HELD: &str = "COALESCE(SUM(CASE WHEN ledger_entries.kind = 'refund' THEN ledger_entries.amount \
                            WHEN ledger_entries.kind = 'payment' THEN -ledger_entries.amount ELSE 0 END), 0)";
        const NAME: &str = "(SELECT newest.customer_name FROM orders newest WHERE newest.phone = orders.phone \
                            ORDER BY newest.created_at DESC, newest.id DESC LIMIT 1)";
        ledger_entries::table
            .inner_join(orders::table)
            .filter(ledger_entries::method.eq(Method::Credit))
            .group_by(orders::phone)
            .having(sql::<Bool>(&format!("{HELD} > 0")))
            .select((orders::phone, sql::<Text>(NAME), sql::<BigInt>(HELD)))
            .order(sql::<BigInt>(&format!("{HELD} DESC")))
            .load(connection)
    }

    /// The takings from `from` until `until` (UTC): payments less refunds, by method.
    pub fn takings(
        connection: &mut DbConnection,
        from: PrimitiveDateTime,
        until: PrimitiveDateTime,
    ) -> QueryResult<Takings> {
        let sums: Vec<(EntryKind, Option<Method>, Option<i64>)> = ledger_entries::table
            .filter(ledger_entries::kind.eq_any([EntryKind::Payment, EntryKind::Refund]))
            .filter(ledger_entries::recorded_at.ge(from).and(ledger_entries::recorded_at.lt(until)))
            .group_by((ledger_entries::kind, ledger_entries::method))
            .select((ledger_entries::kind, ledger_entries::method, sum(ledger_entries::amount)))
            .load(connection)?;
        Ok(Takings::of(
            sums.into_iter().filter_map(|(kind, method, amount)| Some((kind, method?, amount.unwrap_or(0)))),
        ))
    }

    /// Every payment less every refund, by method.
    pub fn takings_ever(connection: &mut DbConnection) -> QueryResult<Takings> {
        let (first, last) = (time::macros::datetime!(1970-01-01 0:00), time::macros::datetime!(9999-12-31 0:00));
        Entry::takings(connection, first, last)
    }

    /// The takings of the Nairobi day `day`.
    pub fn takings_of_day(connection: &mut DbConnection, day: Date) -> QueryResult<Takings> {
        let (from, until) = day_bounds(day);
        Entry::takings(connection, from, until)
    }

    /// The cash taken and given back on the Nairobi day `day`, oldest first, with the order ID of
    /// each.
    pub fn cash_of_day(connection: &mut DbConnection, day: Date) -> QueryResult<Vec<(Entry, String)>> {
        let (from, until) = day_bounds(day);
        ledger_entries::table
            .inner_join(orders::table)
            .filter(ledger_entries::method.eq(Method::Cash))
            .filter(ledger_entries::kind.eq_any([EntryKind::Payment, EntryKind::Refund]))
            .filter(ledger_entries::recorded_at.ge(from).and(ledger_entries::recorded_at.lt(until)))
            .order(ledger_entries::id.asc())
            .select((Entry::as_select(), orders::reference))
            .load(connection)
    }

    /// Who entered each of the entries `ids` (none for the site's own): a cash correction is the
    /// cash of whoever took the cash it corrects.
    pub fn entered_by(connection: &mut DbConnection, ids: &[i64]) -> QueryResult<HashMap<i64, Option<String>>> {
        if ids.is_empty() {
            return Ok(HashMap::new());
        }
        let rows: Vec<(i64, Option<String>)> = ledger_entries::table
            .filter(ledger_entries::id.eq_any(ids))
            .select((ledger_entries::id, ledger_entries::recorded_by))
            .load(connection)?;
        Ok(rows.into_iter().collect())
    }
}

impl Handover {
    /// Records cash handed in.
    pub fn add(connection: &mut DbConnection, handover: &NewHandover<'_>, now: PrimitiveDateTime) -> QueryResult<()> {
        diesel::insert_into(cash_handovers::table)
            .values((
                cash_handovers::holder.eq(handover.holder),
                cash_handovers::day.eq(handover.day),
                cash_handovers::amount.eq(handover.amount),
                cash_handovers::note.eq(handover.note),
                cash_handovers::recorded_by.eq(handover.by),
                cash_handovers::recorded_at.eq(now),
                cash_handovers::idempotency_key.eq(handover.key),
            ))
            .execute(connection)?;
        Ok(())
    }

    /// The handover recorded with the dashboard's key `key`, if any.
    pub fn with_key(connection: &mut DbConnection, key: &str) -> QueryResult<Option<Handover>> {
        cash_handovers::table
            .filter(cash_handovers::idempotency_key.eq(key))
            .select(Handover::as_select())
            .first(connection)
            .optional()
    }

    /// The cash handed in for `day`, oldest first.
    pub fn of_day(connection: &mut DbConnection, day: Date) -> QueryResult<Vec<Handover>> {
        cash_handovers::table
            .filter(cash_handovers::day.eq(day))
            .order(cash_handovers::id.asc())
            .select(Handover::as_select())
            .load(connection)
    }
}

/// The kept balances that owe, of orders of `status` (or of any status but cancelled): each
/// order's status looked up by its key, a few hundred look-ups on a busy shop's day. (As a join,
/// PostgreSQL read every order to hash them: 34 ms at 100,000 orders.)
fn owing_balances(status: Option<OrderStatus>) -> order_balances::BoxedQuery<'static, crate::db::DbBackend> {
    let status_of = orders::table.filter(orders::id.eq(order_balances::order_id)).select(orders::status).single_value();
    let owing = order_balances::table.filter(order_balances::due.gt(0)).into_boxed();
    match status {
        Some(status) => owing.filter(status_of.eq(status)),
        None => owing.filter(status_of.ne(OrderStatus::Cancelled)),
    }
}
