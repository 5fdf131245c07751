//! The day board: a day's pickups and deliveries by window, and saving the day's runs (which
//! valet takes each stop, in which order) all at once.

use super::{json_body, load_failed, private_json, today};
use crate::auth::CurrentStaff;
use crate::db::DbError;
use crate::domain::FieldErrors;
use crate::domain::schedule::parse_day;
use crate::error::ApiError;
use crate::models::day_board::{BoardAsk, DayBoard, MAX_RUN_ITEMS, RunAssignment, RunError, RunProblem, save_run};
use crate::state::AppState;
use crate::views::run::DayRun;
use actix_web::{HttpResponse, web};
use serde::Deserialize;
use serde_json::Value;

use super::read::run::{board_ask, run_day};

/// `?date=YYYY-MM-DD&window=HH:MM&part=N`; today (Nairobi) when no date is given, and on a busy
/// day the first window with stops and its first part.
#[derive(Debug, Default, Deserialize)]
pub struct RunQuery {
    date: Option<String>,
    window: Option<String>,
    part: Option<String>,
}

/// GET /api/admin/run?date=YYYY-MM-DD&window=HH:MM&part=N: that day's stops by window (on a
/// busy day, a window's part), and the valets.
pub async fn show_run(
    state: web::Data<AppState>,
    _staff: CurrentStaff,
    query: web::Query<RunQuery>,
) -> Result<HttpResponse, ApiError> {
    let day = run_day(query.date.as_deref(), today(&state))?;
    let ask = board_ask(query.window.as_deref(), query.part.as_deref())?;
    let board =
        state.db().run(move |c| DayBoard::load(c, day, ask).map_err(DbError::from)).await.map_err(load_failed)?;
    Ok(private_json(&DayRun::new(&board, &state.settings().schedule)))
}

/// `{"date": "2026-11-25", "stops": [{"stopId": "…", "valetId": "…"|null, "position": 1|null}]}`,
/// and on a busy day the window and part to answer with (`"window": "19:00", "part": 1`).
#[derive(Debug, Deserialize)]
struct RunInput {
    date: String,
    stops: Vec<RunItemInput>,
    window: Option<String>,
    part: Option<u32>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RunItemInput {
    stop_id: String,
    valet_id: Option<String>,
    position: Option<Value>,
}

/// A place in a run as sent: a whole number from 1, or null.
fn position(value: Option<&Value>) -> Result<Option<i32>, String> {
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => n
            .as_i64()
            .and_then(|n| i32::try_from(n).ok())
            .filter(|n| *n >= 1)
            .map(Some)
            .ok_or_else(|| format!("A place in a run is a whole number from 1, not {n}.")),
        Some(other) => Err(format!("A place in a run is a whole number from 1, not {other}.")),
    }
}

/// 422 naming each wrong item (`stops[2].valetId`); the message is the first problem.
fn invalid(problems: &[RunProblem]) -> ApiError {
    let mut fields = FieldErrors::default();
    for problem in problems {
        fields.add(format!("stops[{}].{}", problem.item, problem.field), problem.message.clone());
    }
    let message = problems.first().map_or_else(|| "The run could not be saved.".to_owned(), |p| p.message.clone());
    ApiError::Invalid { message, fields }
}

/// POST /api/admin/run: gives the day's stops to valets and puts each valet's run in order, in one
/// transaction; one wrong item (unknown stop or valet, a stop of another day, a place taken twice)
/// and nothing changes. Answers the board as saved.
pub async fn save_day_run(
    state: web::Data<AppState>,
    staff: CurrentStaff,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let input: RunInput = json_body(
        &body,
        r#"a JSON object like {"date": "2026-11-25", "stops": [{"stopId": "…", "valetId": "…", "position": 1}]}"#,
    )?;
    let day = parse_day(&input.date).ok_or_else(|| {
        let mut fields = FieldErrors::default();
        fields.add("date", "The date must be like 2026-11-25.");
        ApiError::invalid(fields)
    })?;
    let ask = BoardAsk { part: input.part, ..board_ask(input.window.as_deref(), None)? };
    if input.stops.len() > MAX_RUN_ITEMS {
        return Err(ApiError::BadRequest(format!("At most {MAX_RUN_ITEMS} stops can be saved at once.")));
    }
    let mut problems = Vec::new();
    let mut items = Vec::with_capacity(input.stops.len());
    for (index, item) in input.stops.into_iter().enumerate() {
        let place = position(item.position.as_ref()).unwrap_or_else(|message| {
            problems.push(RunProblem { item: index, field: "position", message });
            None
        });
        if item.stop_id.len() > 64 {
            problems.push(RunProblem { item: index, field: "stopId", message: "There is no such stop.".to_owned() });
        }
        let valet_id = item.valet_id.map(|id| id.trim().to_owned()).filter(|id| !id.is_empty());
        items.push(RunAssignment { stop_id: item.stop_id.trim().to_owned(), valet_id, position: place });
    }
    if !problems.is_empty() {
        return Err(invalid(&problems));
    }
    let saved = state
        .db()
        .run(move |connection| {
            match save_run(connection, day, &items) {
                Ok(_) => {}
                Err(RunError::Invalid(problems)) => return Ok(Err(problems)),
                Err(RunError::Database(error)) => return Err(DbError::from(error)),
            }
            Ok(Ok((items.len(), DayBoard::load(connection, day, ask)?)))
        })
        .await
        .map_err(|source| ApiError::Storage { message: "The run could not be saved. Please try again.", source })?;
    let (count, board) = saved.map_err(|problems| invalid(&problems))?;
    tracing::info!(%day, stops = count, staff = %staff.email, "day's run saved");
    Ok(private_json(&DayRun::new(&board, &state.settings().schedule)))
}
