//! The owner's CSV exports, read a chunk at a time by SQL on both backends and written as CSV: the
//! ledger's entries, the payments (money that moved) and the orders; each field quoted so that a
//! spreadsheet reads it as text.

use crate::db::DbConnection;
use crate::db::schema::{ledger_entries, orders};
use crate::domain::ledger::MethodSum;
use crate::domain::{Balance, EntryKind, Method, OrderStatus, StoreCredit, Takings};
use diesel::prelude::*;
use std::collections::HashMap;
use time::PrimitiveDateTime;

/// The export's header row.
pub const LEDGER_HEADER: &str =
    "entry,recorded_at,order_id,customer,kind,method,amount_kes,mpesa_code,note,recorded_by,corrects\r\n";

/// Entries per chunk of the stream.
const CHUNK: i64 = 1000;

/// One CSV field: quoted when it holds a comma, a quote or a line break; a text a spreadsheet would
/// take for a formula (`=`, `+`, `-`, `@`, a tab or a carriage return first) is kept as text with
/// a `'` before it.
pub fn field(text: &str) -> String {
    let text = match text.chars().next() {
        Some('=' | '+' | '-' | '@' | '\t' | '\r') => format!("'{text}"),
        _ => text.to_owned(),
    };
    if text.contains([',', '"', '\n', '\r']) { format!("\"{}\"", text.replace('"', "\"\"")) } else { text }
}

/// A stored UTC time as ISO 8601 in Nairobi time: `2026-11-27T19:25:00+03:00`.
fn nairobi_iso(at: PrimitiveDateTime) -> String {
    let local = at.assume_utc().to_offset(crate::clock::NAIROBI);
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}+03:00",
        local.year(),
        u8::from(local.month()),
        local.day(),
        local.hour(),
        local.minute(),
        local.second()
    )
}

/// An entry as the ledger export reads it.
type LedgerRow = (
    i64,
    PrimitiveDateTime,
    String,
    String,
    EntryKind,
    Option<Method>,
    i32,
    Option<String>,
    String,
    Option<String>,
    Option<i64>,
);

/// The entries recorded in `[from, until)` after entry `after`, at most [`CHUNK`], as CSV lines; and
/// the last entry's id. With `payments`, only the money that moved (payments and refunds, store
/// credit left out), in the payments export's columns (a refund negative).
pub fn ledger_chunk(
    connection: &mut DbConnection,
    (from, until): (PrimitiveDateTime, PrimitiveDateTime),
    after: i64,
    payments: bool,
) -> QueryResult<(String, Option<i64>)> {
    let mut query = ledger_entries::table.inner_join(orders::table).filter(ledger_entries::id.gt(after)).into_boxed();
    if payments {
        // Money that moved: store credit is a debt to the customer, not money (the ledger's export
        // keeps it).
        query = query
            .filter(ledger_entries::kind.eq_any([EntryKind::Payment, EntryKind::Refund]))
            .filter(ledger_entries::method.ne(Method::Credit));
    }
    let rows: Vec<LedgerRow> = query
        .filter(ledger_entries::recorded_at.ge(from).and(ledger_entries::recorded_at.lt(until)))
        .order(ledger_entries::id.asc())
        .limit(CHUNK)
        .select((
            ledger_entries::id,
            ledger_entries::recorded_at,
            orders::reference,
            orders::customer_name,
            ledger_entries::kind,
            ledger_entries::method,
            ledger_entries::amount,
            ledger_entries::reference,
            ledger_entries::note,
            ledger_entries::recorded_by,
            ledger_entries::corrects,
        ))
        .load(connection)?;
    let mut text = String::with_capacity(rows.len() * 120);
    for (id, at, order, customer, kind, method, amount, code, note, by, corrects) in &rows {
        let line = if payments {
            let signed = if *kind == EntryKind::Refund { -amount } else { *amount };
            [
                id.to_string(),
                nairobi_iso(*at),
                field(order),
                field(customer),
                kind.as_str().to_owned(),
                method.map(|m| m.as_str().to_owned()).unwrap_or_default(),
                signed.to_string(),
                field(code.as_deref().unwrap_or_default()),
                field(by.as_deref().unwrap_or_default()),
            ]
            .join(",")
        } else {
            [
                id.to_string(),
                nairobi_iso(*at),
                field(order),
                field(customer),
                kind.as_str().to_owned(),
                method.map(|m| m.as_str().to_owned()).unwrap_or_default(),
                amount.to_string(),
                field(code.as_deref().unwrap_or_default()),
                field(note),
                field(by.as_deref().unwrap_or_default()),
                corrects.map(|c| c.to_string()).unwrap_or_default(),
            ]
            .join(",")
        };
        text.push_str(&line);
        text.push_str("\r\n");
    }
    Ok((text, rows.last().map(|row| row.0)))
}

/// The payments export's header row.
pub const PAYMENTS_HEADER: &str =
    "entry,recorded_at,order_id,customer,kind,method,amount_kes,mpesa_code,recorded_by\r\n";

/// The orders export's header row.
pub const ORDERS_HEADER: &str = "order_id,placed_at,customer,phone,location,service,source,status,payment_method,billed_kes,paid_kes,\
     given_back_kes,credit_used_kes,credit_kept_kes,due_kes\r\n";

/// An order row of the export: key, time, order ID, name, phone, location, service, source,
/// status, payment method, bill.
/// An order as the orders export reads it.
type OrderRow = (String, PrimitiveDateTime, String, String, String, String, String, String, OrderStatus, String, i32);

/// The orders placed in `[from, until)` after the one at `after` (its time and key), at most
/// [`CHUNK`], as CSV lines; and the last one's time and key.
pub fn orders_chunk(
    connection: &mut DbConnection,
    (from, until): (PrimitiveDateTime, PrimitiveDateTime),
    after: Option<(PrimitiveDateTime, String)>,
) -> QueryResult<(String, Option<(PrimitiveDateTime, String)>)> {
    let mut query = orders::table
        .filter(orders::created_at.ge(from).and(orders::created_at.lt(until)))
        .order((orders::created_at.asc(), orders::id.asc()))
        .limit(CHUNK)
        .select((
            orders::id,
            orders::created_at,
            orders::reference,
            orders::customer_name,
            orders::phone,
            orders::location,
            orders::service_label,
            orders::source,
            orders::status,
            orders::payment_method,
            orders::total_amount,
        ))
        .into_boxed();
    if let Some((at, id)) = &after {
        query = query.filter(orders::created_at.gt(*at).or(orders::created_at.eq(*at).and(orders::id.gt(id.clone()))));
    }
    let rows: Vec<OrderRow> = query.load(connection)?;
    let ids: Vec<&str> = rows.iter().map(|row| row.0.as_str()).collect();
    let entries: Vec<(String, EntryKind, Option<Method>, i32)> = ledger_entries::table
        .filter(ledger_entries::order_id.eq_any(&ids))
        .select((ledger_entries::order_id, ledger_entries::kind, ledger_entries::method, ledger_entries::amount))
        .load(connection)?;
    let mut of_order: HashMap<String, Vec<(EntryKind, Option<Method>, i64)>> = HashMap::new();
    for (order, kind, method, amount) in entries {
        of_order.entry(order).or_default().push((kind, method, i64::from(amount)));
    }
    let mut text = String::with_capacity(rows.len() * 160);
    for (id, at, reference, name, phone, location, service, source, status, method, _) in &rows {
        let entries = of_order.get(id).map(Vec::as_slice).unwrap_or_default();
        let balance = Balance::of(entries.iter().map(|&(kind, _, amount)| (kind, amount)));
        let moves = entries.iter().filter_map(|&(kind, method, amount)| Some((kind, method?, amount)));
        let moved = Takings::of(moves.clone());
        let credit = StoreCredit::of(moves);
        let sum = |sums: &[MethodSum]| sums.iter().map(|sum| sum.amount).sum::<i64>();
        let line = [
            field(reference),
            nairobi_iso(*at),
            field(name),
            // Stored numbers are `+254…` and digits only: not a formula, kept as they are (a
            // spreadsheet may show one as a number; the `'` of a guarded field would show).
            phone.clone(),
            field(location),
            field(service),
            field(source),
            status.as_str().to_owned(),
            field(method),
            balance.charged.to_string(),
            sum(&moved.received).to_string(),
            sum(&moved.refunded).to_string(),
            credit.used.to_string(),
            credit.kept.to_string(),
            balance.due().to_string(),
        ]
        .join(",");
        text.push_str(&line);
        text.push_str("\r\n");
    }
    Ok((text, rows.last().map(|row| (row.1, row.0.clone()))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_a_spreadsheet_would_misread_is_quoted_or_kept_as_text() {
        assert_eq!(field("Amina Wanjiru"), "Amina Wanjiru");
        assert_eq!(field("Kilimani, Hse 4"), "\"Kilimani, Hse 4\"");
        assert_eq!(field("the \"big\" bag"), "\"the \"\"big\"\" bag\"");
        assert_eq!(field("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
        assert_eq!(field("-200"), "'-200");
    }

    #[test]
    fn times_are_nairobi_time_with_their_offset() {
        assert_eq!(nairobi_iso(time::macros::datetime!(2026-11-27 21:30)), "2026-11-28T00:30:00+03:00");
    }
}
