//! The owner's reports: the Reports tab's figures (`/admin?tab=reports&period=…`, loaded by the
//! dashboard) and the period's ledger as CSV (`GET /admin/exports/ledger.csv?from=&to=`), streamed
//! a thousand entries at a time so that a year of them never sits in memory. Owners only.

use crate::auth::CurrentStaff;
use crate::db::schema::{ledger_entries, orders};
use crate::db::{DbConnection, DbError};
use crate::domain::schedule::day_bounds;
use crate::domain::{EntryKind, Method};
use crate::models::reports::{money_by_day, orders_by_day, owing_after_delivery};
use crate::state::AppState;
use crate::views::reports::{Period, Reports};
use actix_web::http::header;
use actix_web::web::Bytes;
use actix_web::{HttpResponse, web};
use diesel::prelude::*;
use serde::Deserialize;
use time::{Date, PrimitiveDateTime};

/// The Reports tab's query: `period` (`today`, `week`, `month`, `last-month`, `custom`) and, for a
/// custom one, `from` and `to` (YYYY-MM-DD).
#[derive(Debug, Default, Clone, Deserialize)]
pub struct PeriodQuery {
    /// How the period is chosen.
    pub period: Option<String>,
    /// A custom period's first day.
    pub from: Option<String>,
    /// Its last day.
    pub to: Option<String>,
}

/// The period asked for at `today`, and what was wrong with it.
pub fn period_of(query: &PeriodQuery, today: Date) -> (Period, Option<String>) {
    Period::ask(query.period.as_deref(), query.from.as_deref(), query.to.as_deref(), today)
}

/// The Reports tab's figures for `period` (and the orders owing at `today`).
pub fn load_reports(
    connection: &mut DbConnection,
    period: (Period, Option<String>),
    today: Date,
) -> Result<Reports, DbError> {
    let (first, last) = (period.0.first, period.0.last);
    let money = money_by_day(connection, first, last)?;
    let orders = orders_by_day(connection, first, last)?;
    let owing = owing_after_delivery(connection, today)?;
    Ok(Reports::new(period, &money, &orders, &owing))
}

/// The export's header row.
const LEDGER_HEADER: &str =
    "entry,recorded_at,order_id,customer,kind,method,amount_kes,mpesa_code,note,recorded_by,corrects\r\n";

/// Entries per chunk of the stream.
const CHUNK: i64 = 1000;

/// One CSV field: quoted when it holds a comma, a quote or a line break; a text a spreadsheet would
/// take for a formula (`=`, `+`, `-`, `@` first) is kept as text with a `'` before it.
fn field(text: &str) -> String {
    let text = match text.chars().next() {
        Some('=' | '+' | '-' | '@') => format!("'{text}"),
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
/// the last entry's id.
fn ledger_chunk(
    connection: &mut DbConnection,
    (from, until): (PrimitiveDateTime, PrimitiveDateTime),
    after: i64,
) -> QueryResult<(String, Option<i64>)> {
    let rows: Vec<LedgerRow> = ledger_entries::table
        .inner_join(orders::table)
        .filter(ledger_entries::id.gt(after))
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
        let line = [
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
        .join(",");
        text.push_str(&line);
        text.push_str("\r\n");
    }
    Ok((text, rows.last().map(|row| row.0)))
}

/// GET /admin/exports/ledger.csv?from=YYYY-MM-DD&to=YYYY-MM-DD: every ledger entry recorded in
/// those Nairobi days, oldest first, one header row, amounts in whole shillings as the ledger keeps
/// them (charges and adjustments signed; payments and refunds positive, their kind says which way),
/// times in Nairobi time. Owners only: the guard keeps `/admin/exports` to the owner's area
/// (`auth::guard::staff_area`). A wrong period is a 400 saying why.
pub async fn export_ledger(
    state: web::Data<AppState>,
    _owner: CurrentStaff,
    query: web::Query<PeriodQuery>,
) -> HttpResponse {
    let asked = PeriodQuery { period: Some("custom".to_owned()), ..query.into_inner() };
    let (period, error) = period_of(&asked, super::today(&state));
    if let Some(error) = error {
        return HttpResponse::BadRequest().content_type("text/plain; charset=utf-8").body(error);
    }
    let bounds = (day_bounds(period.first).0, day_bounds(period.last).1);
    let database = state.db().clone();
    // The header first; then a chunk per read, until a read comes back short.
    let chunks = futures_util::stream::unfold(Some(None::<i64>), move |after| {
        let database = database.clone();
        async move {
            let after = after?;
            let Some(after) = after else {
                return Some((Ok::<_, actix_web::Error>(Bytes::from_static(LEDGER_HEADER.as_bytes())), Some(Some(0))));
            };
            let read = database.run(move |c| ledger_chunk(c, bounds, after).map_err(DbError::from)).await;
            match read {
                Ok((text, Some(last))) => Some((Ok(Bytes::from(text)), Some(Some(last)))),
                Ok((_, None)) => None,
                Err(error) => {
                    tracing::error!(%error, "the ledger export stopped");
                    Some((Err(actix_web::error::ErrorServiceUnavailable("the export stopped")), None))
                }
            }
        }
    });
    let name = format!("ledger-{}-to-{}.csv", period.first, period.last);
    HttpResponse::Ok()
        .content_type("text/csv; charset=utf-8")
        .insert_header((header::CONTENT_DISPOSITION, format!("attachment; filename=\"{name}\"")))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .streaming(chunks)
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
