//! The day and the window of a busy day that the run is asked for.

use crate::domain::schedule::{parse_day, parse_minute};
use crate::error::ApiError;
use crate::models::day_board::BoardAsk;
use time::Date;

/// The window and part of a busy day asked for (`19:00`, `2`); blank: the first.
pub fn board_ask(window: Option<&str>, part: Option<&str>) -> Result<BoardAsk, ApiError> {
    let window = match window.map(str::trim).filter(|w| !w.is_empty()) {
        None => None,
        Some(text) => Some(parse_minute(text).ok_or_else(|| {
            ApiError::BadRequest(format!("A window is named by its start, like 19:00, not '{text}'."))
        })?),
    };
    let part = match part.map(str::trim).filter(|p| !p.is_empty()) {
        None => None,
        Some(text) => Some(
            text.parse::<u32>()
                .ok()
                .filter(|n| *n >= 1)
                .ok_or_else(|| ApiError::BadRequest(format!("The part is a whole number from 1, not '{text}'.")))?,
        ),
    };
    Ok(BoardAsk { window, part })
}

/// The day asked for: `YYYY-MM-DD`, or `today` (in Nairobi) when blank.
pub fn run_day(date: Option<&str>, today: Date) -> Result<Date, ApiError> {
    match date.map(str::trim).filter(|d| !d.is_empty()) {
        None => Ok(today),
        Some(text) => parse_day(text)
            .ok_or_else(|| ApiError::BadRequest(format!("The date must be like 2026-11-25, not '{text}'."))),
    }
}
