//! The owner's reports: the Reports tab's figures (`/admin?tab=reports&period=…`, loaded by the
//! dashboard; staff see the sections the owner shares), the owner's sharing form
//! (`POST /admin/reports/sharing`), and the period's ledger, orders and payments as CSV
//! (`GET /admin/exports/{ledger,orders,payments}.csv?from=&to=`), each streamed a thousand rows at
//! a time so that a year of them never sits in memory. The exports and the sharing are the owner's
//! (the guard's owner area, `auth::guard::staff_area`).

use crate::auth::CurrentStaff;
use crate::db::schema::{ledger_entries, orders};
use crate::db::{DbConnection, DbError};
use crate::domain::ledger::MethodSum;
use crate::domain::schedule::day_bounds;
use crate::domain::{Balance, EntryKind, Method, OrderStatus, ReportSection, StaffRole, StoreCredit, Takings};
use crate::models::ledger::Entry;
use crate::models::reports::{charges_by_kind, owing_after_delivery, period_figures, share_sections, shared_sections};
use crate::state::AppState;
use crate::views::reports::{CustomerFigures, Figures, MonthSummary, Period, Reader, Reports, ServiceFigures};
use actix_web::http::header;
use actix_web::web::Bytes;
use actix_web::{HttpResponse, web};
use diesel::prelude::*;
use serde::Deserialize;
use std::collections::HashMap;
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

/// Who `role` reads the Reports tab as, from what the owner shares; none without a tab: staff
/// with nothing shared, and valets.
pub fn reader_of(connection: &mut DbConnection, role: StaffRole) -> Result<Option<Reader>, DbError> {
    Ok(match role {
        StaffRole::Owner => Some(Reader::Owner(shared_sections(connection)?)),
        StaffRole::Staff => Some(shared_sections(connection)?).filter(|shared| !shared.is_empty()).map(Reader::Staff),
        StaffRole::Valet => None,
    })
}

/// The Reports tab's figures for `period` (and the orders owing at `today`), as `reader` may see
/// them: each section is read only for a reader who may see it. Every section but what is owed
/// comes from the days kept in `report_days` ([`period_figures`]); what is owed is read as it
/// stands.
pub fn load_reports(
    connection: &mut DbConnection,
    period: (Period, Option<String>),
    (today, now): (Date, PrimitiveDateTime),
    reader: &Reader,
) -> Result<Reports, DbError> {
    let (first, last) = (period.0.first, period.0.last);
    let shows = |section| reader.shows(section);
    let mut figures = Figures::default();
    let by_day = [
        ReportSection::Money,
        ReportSection::Orders,
        ReportSection::Service,
        ReportSection::Customers,
        ReportSection::Cash,
    ];
    if by_day.into_iter().any(shows) {
        let days = period_figures(connection, first, last, today, now)?;
        if shows(ReportSection::Money) {
            figures.money = Some(days.money);
            figures.credit_ever = Entry::credit_before(connection, day_bounds(last).1)?;
        }
        figures.orders = shows(ReportSection::Orders).then_some((days.orders, days.items));
        figures.service = shows(ReportSection::Service).then_some(ServiceFigures {
            stops: days.stops,
            turnaround: days.turnaround,
            recleans: days.recleans,
        });
        figures.customers = shows(ReportSection::Customers).then_some(CustomerFigures {
            weeks: days.customer_weeks,
            repeat: days.repeat,
            top: days.top,
        });
        figures.cash = shows(ReportSection::Cash).then_some(days.cash);
    }
    if shows(ReportSection::Owing) {
        figures.owing = Some(owing_after_delivery(connection, today)?);
    }
    Ok(Reports::new(period, &figures, reader))
}

/// The sharing form: a checkbox per section (`money=on`, …), the CSRF token, and the period to
/// come back to.
#[derive(Debug, Deserialize)]
pub struct SharingForm {
    #[serde(flatten)]
    fields: HashMap<String, String>,
}

/// POST /admin/reports/sharing: the sections staff may see from now on (those ticked), then back
/// to the Reports tab. An unknown field is refused, so a form from another version cannot share
/// what it did not mean to.
pub async fn share_reports(
    state: web::Data<AppState>,
    owner: CurrentStaff,
    form: web::Form<SharingForm>,
) -> Result<HttpResponse, crate::error::ApiError> {
    let mut sections = Vec::new();
    let mut back = String::from("/admin?tab=reports");
    for (name, value) in &form.fields {
        match (name.as_str(), ReportSection::parse(name)) {
            ("csrf", _) => {}
            ("period", _) if value.len() <= 12 && value.chars().all(|c| c.is_ascii_lowercase() || c == '-') => {
                back.push_str(&format!("&period={value}"));
            }
            ("from" | "to", _) if crate::domain::schedule::parse_day(value).is_some() => {
                let day = crate::domain::schedule::parse_day(value).map(|day| day.to_string()).unwrap_or_default();
                back.push_str(&format!("&{name}={day}"));
            }
            (_, Some(section)) if value == "on" => sections.push(section),
            _ => {
                return Err(crate::error::ApiError::BadRequest(format!(
                    "The sharing form has a field it should not: {}.",
                    name.chars().take(40).collect::<String>()
                )));
            }
        }
    }
    let now = state.now();
    state
        .db()
        .run(move |connection| share_sections(connection, &sections, &owner.email, now).map_err(DbError::from))
        .await
        .map_err(super::load_failed)?;
    Ok(HttpResponse::SeeOther()
        .insert_header((header::LOCATION, format!("{back}#reports-sharing")))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .finish())
}

/// The export's header row.
const LEDGER_HEADER: &str =
    "entry,recorded_at,order_id,customer,kind,method,amount_kes,mpesa_code,note,recorded_by,corrects\r\n";

/// Entries per chunk of the stream.
const CHUNK: i64 = 1000;

/// One CSV field: quoted when it holds a comma, a quote or a line break; a text a spreadsheet would
/// take for a formula (`=`, `+`, `-`, `@`, a tab or a carriage return first) is kept as text with
/// a `'` before it.
fn field(text: &str) -> String {
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
fn ledger_chunk(
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

/// The summary's query: `month=YYYY-MM`.
#[derive(Debug, Deserialize)]
pub struct SummaryQuery {
    month: Option<String>,
}

/// GET /admin/exports/summary?month=YYYY-MM: the accountant's summary of a month (this month
/// without one), a page that prints on A4: money in by method, given back, net, what the ledger
/// charged, the orders placed, and the cash taken and handed in. Owners only (the guard's owner
/// area). A month that is not `YYYY-MM`, or has not begun, is a 400 saying so.
pub async fn show_summary(
    state: web::Data<AppState>,
    request: actix_web::HttpRequest,
    _owner: CurrentStaff,
    query: web::Query<SummaryQuery>,
) -> HttpResponse {
    let today = super::today(&state);
    let asked = match query.month.as_deref() {
        None => crate::views::reports::month_of(&today.to_string()[..7]),
        Some(month) => crate::views::reports::month_of(month),
    };
    let Some((first, last)) = asked.filter(|(first, _)| *first <= today) else {
        return HttpResponse::BadRequest()
            .content_type("text/plain; charset=utf-8")
            .body("Give a month that has begun, as YYYY-MM, like 2026-11.");
    };
    let now = state.now();
    let read = state
        .db()
        .run(move |connection| {
            let days = period_figures(connection, first, last, today, now)?;
            let charged = charges_by_kind(connection, first, last)?;
            let credit = Entry::credit_before(connection, day_bounds(last).1)?;
            let money = (days.money.as_slice(), credit.owed());
            Ok::<_, DbError>(MonthSummary::new((first, last), today, money, &charged, &days.orders, &days.cash))
        })
        .await;
    match read {
        Ok(summary) => {
            let (page, _) = state.pages().render("/admin/exports/summary", &summary).await;
            page.respond_private(&request)
        }
        Err(error) => {
            tracing::error!(%error, "the month's summary could not be read");
            HttpResponse::ServiceUnavailable()
                .insert_header((header::RETRY_AFTER, "5"))
                .content_type("text/plain; charset=utf-8")
                .body(super::LOAD_FAILED)
        }
    }
}

/// The Nairobi days asked for by an export (`from`, `to`), and their UTC bounds; or what is wrong.
fn export_period(
    state: &AppState,
    query: PeriodQuery,
) -> Result<(Period, (PrimitiveDateTime, PrimitiveDateTime)), String> {
    let asked = PeriodQuery { period: Some("custom".to_owned()), ..query };
    match period_of(&asked, super::today(state)) {
        (_, Some(error)) => Err(error),
        (period, None) => Ok((period, (day_bounds(period.first).0, day_bounds(period.last).1))),
    }
}

/// A CSV download named `name`: `header`, then what `read` gives chunk by chunk (each read takes
/// the cursor the last one returned, none at first) until it returns no cursor.
fn stream_csv<C, F>(state: &AppState, name: String, header: &'static str, read: F) -> HttpResponse
where
    C: Send + 'static,
    F: Fn(&mut DbConnection, Option<C>) -> QueryResult<(String, Option<C>)> + Clone + Send + Sync + 'static,
{
    enum Step<C> {
        Header,
        After(Option<C>),
    }
    let database = state.db().clone();
    let chunks = futures_util::stream::unfold(Some(Step::Header), move |step| {
        let (database, read) = (database.clone(), read.clone());
        async move {
            let after = match step? {
                Step::Header => {
                    return Some((
                        Ok::<_, actix_web::Error>(Bytes::from_static(header.as_bytes())),
                        Some(Step::After(None)),
                    ));
                }
                Step::After(after) => after,
            };
            match database.run(move |c| read(c, after).map_err(DbError::from)).await {
                Ok((text, Some(next))) => Some((Ok(Bytes::from(text)), Some(Step::After(Some(next))))),
                Ok((_, None)) => None,
                Err(error) => {
                    tracing::error!(%error, "an export stopped");
                    Some((Err(actix_web::error::ErrorServiceUnavailable("the export stopped")), None))
                }
            }
        }
    });
    HttpResponse::Ok()
        .content_type("text/csv; charset=utf-8")
        .insert_header((header::CONTENT_DISPOSITION, format!("attachment; filename=\"{name}\"")))
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .streaming(chunks)
}

/// The CSV download of `what` for the period `query` asks (a 400 saying what is wrong with a wrong
/// one): named `{what}-{first}-to-{last}.csv`, `header`, then what `read` gives for the period's
/// bounds, chunk by chunk.
fn export_csv<C, F>(
    state: &AppState,
    query: PeriodQuery,
    what: &str,
    header: &'static str,
    read: impl FnOnce((PrimitiveDateTime, PrimitiveDateTime)) -> F,
) -> HttpResponse
where
    C: Send + 'static,
    F: Fn(&mut DbConnection, Option<C>) -> QueryResult<(String, Option<C>)> + Clone + Send + Sync + 'static,
{
    match export_period(state, query) {
        Ok((period, bounds)) => {
            stream_csv(state, format!("{what}-{}-to-{}.csv", period.first, period.last), header, read(bounds))
        }
        Err(error) => HttpResponse::BadRequest().content_type("text/plain; charset=utf-8").body(error),
    }
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
    export_csv(&state, query.into_inner(), "ledger", LEDGER_HEADER, |bounds| {
        move |c: &mut DbConnection, after: Option<i64>| ledger_chunk(c, bounds, after.unwrap_or(0), false)
    })
}

/// GET /admin/exports/payments.csv?from=&to=: the money that moved in those days (payments and
/// refunds by M-PESA and cash; store credit is in the ledger's export), oldest first, a refund's
/// amount negative (the column sums to the net received). Owners only.
pub async fn export_payments(
    state: web::Data<AppState>,
    _owner: CurrentStaff,
    query: web::Query<PeriodQuery>,
) -> HttpResponse {
    export_csv(&state, query.into_inner(), "payments", PAYMENTS_HEADER, |bounds| {
        move |c: &mut DbConnection, after: Option<i64>| ledger_chunk(c, bounds, after.unwrap_or(0), true)
    })
}

/// GET /admin/exports/orders.csv?from=&to=: the orders placed in those days, oldest first, with
/// what the ledger charges them (their bill less discounts; nothing once cancelled), the money paid
/// and given back, the store credit used and kept, and what is still due. Owners only.
pub async fn export_orders(
    state: web::Data<AppState>,
    _owner: CurrentStaff,
    query: web::Query<PeriodQuery>,
) -> HttpResponse {
    export_csv(&state, query.into_inner(), "orders", ORDERS_HEADER, |bounds| {
        move |c: &mut DbConnection, after| orders_chunk(c, bounds, after)
    })
}

/// The payments export's header row.
const PAYMENTS_HEADER: &str = "entry,recorded_at,order_id,customer,kind,method,amount_kes,mpesa_code,recorded_by\r\n";

/// The orders export's header row.
const ORDERS_HEADER: &str = "order_id,placed_at,customer,phone,location,service,source,status,payment_method,billed_kes,paid_kes,\
     given_back_kes,credit_used_kes,credit_kept_kes,due_kes\r\n";

/// An order row of the export: key, time, order ID, name, phone, location, service, source,
/// status, payment method, bill.
type OrderRow = (String, PrimitiveDateTime, String, String, String, String, String, String, OrderStatus, String, i32);

/// The orders placed in `[from, until)` after the one at `after` (its time and key), at most
/// [`CHUNK`], as CSV lines; and the last one's time and key.
fn orders_chunk(
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
