//! The owner's reports: the Reports tab's figures (`/admin?tab=reports&period=…`, loaded by the
//! dashboard; staff see the sections the owner shares), the owner's sharing form
//! (`POST /admin/reports/sharing`), and the period's ledger, orders and payments as CSV
//! (`GET /admin/exports/{ledger,orders,payments}.csv?from=&to=`), each streamed a thousand rows at
//! a time so that a year of them never sits in memory. The exports and the sharing are the owner's
//! (the guard's owner area, `auth::guard::staff_area`).

use crate::auth::CurrentStaff;
use crate::db::{DbConnection, DbError};
use crate::domain::schedule::day_bounds;
use crate::domain::{ReportSection, StaffRole};
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

use crate::models::reports::exports::{LEDGER_HEADER, ORDERS_HEADER, PAYMENTS_HEADER, ledger_chunk, orders_chunk};

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
