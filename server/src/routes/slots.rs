//! `GET /api/slots?date=YYYY-MM-DD`: a day's pickup windows, with the places left in each and why
//! one cannot be chosen (past its cut-off, a closed day, too far ahead, full).

use crate::db::DbError;
use crate::domain::schedule::parse_day;
use crate::error::ApiError;
use crate::models::stop::Stop;
use crate::state::AppState;
use crate::views::slots::SlotsAnswer;
use actix_web::http::header::{CacheControl, CacheDirective};
use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;

/// How the day is asked for.
const EXAMPLE: &str = "?date=YYYY-MM-DD, for example ?date=2026-11-25";

/// The query: `?date=2026-11-25`.
#[derive(Debug, Deserialize)]
pub struct SlotsQuery {
    date: Option<String>,
}

/// The day's windows as they stand now. A missing or unreadable date is 400; a day outside the
/// bookable days answers its windows, each closed with the reason.
pub async fn list_slots(state: web::Data<AppState>, request: HttpRequest) -> Result<HttpResponse, ApiError> {
    // Read here rather than by the extractor, so that a bad query is answered in JSON too.
    let query = web::Query::<SlotsQuery>::from_query(request.query_string()).ok();
    let text = query.as_ref().and_then(|query| query.date.as_deref()).map(str::trim).filter(|date| !date.is_empty());
    let text = text.ok_or_else(|| ApiError::BadRequest(format!("Please give the day: {EXAMPLE}.")))?;
    let day = parse_day(text)
        .ok_or_else(|| ApiError::BadRequest(format!("The date could not be read. Please give it as {EXAMPLE}.")))?;
    let booked = state
        .db()
        .run(move |connection| Stop::pickups_booked_between(connection, day, day).map_err(DbError::from))
        .await?;
    let now = state.clock().now();
    let count = |start: u16| {
        booked
            .iter()
            .find(|(_, window_start, _)| *window_start == i32::from(start))
            .map_or(0, |(_, _, count)| u32::try_from(*count).unwrap_or(u32::MAX))
    };
    let windows = state.settings().schedule.availability(day, now, count);
    // Places change with every booking: a browser asks again rather than keeping an answer.
    Ok(HttpResponse::Ok()
        .insert_header(CacheControl(vec![CacheDirective::NoStore]))
        .json(SlotsAnswer::new(day, &windows)))
}
