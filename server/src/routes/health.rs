//! GET /healthz: for load balancers and `make run` scripts: the process answers.
//! GET /readyz: whether this instance can serve customers now: its database answers, its schema
//! is the one this binary expects (every migration applied), and its rendering engines render a
//! page. 200 with each check's "ok", or 503 naming the one that failed (docs/operations.md).
//! GET /metrics: the server's numbers in Prometheus' text format ([`crate::metrics`]), for a
//! scraper holding `LAUNDRY_METRICS_TOKEN` as its Bearer token; off (404) while that is unset.

use crate::db::{DbError, schema_is_current};
use crate::domain::{Channel, TextEnum};
use crate::metrics::{Metrics, OutboxReading, Readings};
use crate::models::job_run::JobRun;
use crate::models::mpesa::MpesaPrompt;
use crate::models::outbox::OutboxMessage;
use crate::state::AppState;
use crate::views::pages::ErrorProps;
use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};
use diesel::RunQueryDsl;
use secrecy::ExposeSecret;
use sha2::{Digest, Sha256};
use std::time::Duration;

/// 200 while the server accepts requests.
pub async fn health() -> HttpResponse {
    HttpResponse::Ok().content_type("text/plain; charset=utf-8").body("ok")
}

/// The readiness checks, one line each: `database: ok`, `migrations: ok`, `rendering: ok`.
pub async fn ready(state: web::Data<AppState>) -> HttpResponse {
    let schema = state
        .db()
        .run(|connection| {
            diesel::sql_query("SELECT 1").execute(connection)?;
            Ok::<_, DbError>(schema_is_current(connection))
        })
        .await;
    let (database, migrations) = match schema {
        Ok(Ok(true)) => ("ok".to_owned(), "ok".to_owned()),
        Ok(Ok(false)) => {
            ("ok".to_owned(), "failed: migrations are pending; restart the server to apply them".to_owned())
        }
        Ok(Err(error)) => ("ok".to_owned(), format!("failed: {error}")),
        Err(error) => (format!("failed: {error}"), "not checked".to_owned()),
    };
    let (_, rendered) = state.pages().render("", &ErrorProps { status: 503 }).await;
    let rendering = if rendered { "ok" } else { "failed: the engines did not render a page" };
    let ready = database == "ok" && migrations == "ok" && rendered;
    let body = format!("database: {database}\nmigrations: {migrations}\nrendering: {rendering}\n");
    let mut response = if ready { HttpResponse::Ok() } else { HttpResponse::ServiceUnavailable() };
    response.insert_header((header::CACHE_CONTROL, "no-store")).content_type("text/plain; charset=utf-8").body(body)
}

/// The metrics, for a request with `Authorization: Bearer <LAUNDRY_METRICS_TOKEN>`: 404 while no
/// token is set (the figures are never open by default), 401 with a wrong or missing one.
pub async fn metrics(state: web::Data<AppState>, request: HttpRequest) -> HttpResponse {
    let Some(token) = state.settings().metrics_token.as_ref() else {
        return plain(HttpResponse::NotFound(), "Not found: metrics are off until LAUNDRY_METRICS_TOKEN is set.\n");
    };
    let given = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.strip_prefix("Bearer "))
        .unwrap_or_default();
    // Compared as digests: the time taken says nothing of the token. Exactly: a token with spaces
    // around it is another token.
    let digest = |text: &str| Sha256::digest(text.as_bytes());
    if given.is_empty() || digest(given) != digest(token.expose_secret()) {
        let mut refused = HttpResponse::Unauthorized();
        refused.insert_header((header::WWW_AUTHENTICATE, "Bearer realm=\"metrics\""));
        return plain(refused, "The metrics need the Bearer token LAUNDRY_METRICS_TOKEN holds.\n");
    }
    let readings = match read(&state).await {
        Ok(readings) => readings,
        Err(error) => {
            tracing::error!(%error, "the metrics could not be read from the database");
            return plain(HttpResponse::ServiceUnavailable(), &format!("The database did not answer: {error}\n"));
        }
    };
    HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .content_type(Metrics::content_type())
        .body(state.metrics().encode(&readings))
}

fn plain(mut response: actix_web::HttpResponseBuilder, text: &str) -> HttpResponse {
    response
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .content_type("text/plain; charset=utf-8")
        .body(text.to_owned())
}

/// What the metrics read when scraped: a handful of small reads by index, the pool's and engines'
/// counters, and the backup folder's listing.
async fn read(state: &AppState) -> Result<Readings, DbError> {
    let now = state.settings().clock.utc();
    let age = move |at: time::PrimitiveDateTime| Duration::try_from(now - at).unwrap_or_default();
    let mut readings = state
        .db()
        .run(move |c| {
            let mut outbox = Vec::new();
            for &channel in Channel::ALL {
                let counts = OutboxMessage::kept_counts(c, channel)?;
                outbox.push(OutboxReading {
                    channel: channel.as_str().to_owned(),
                    by_status: counts
                        .into_iter()
                        .map(|(status, count, _)| (status.as_str().to_owned(), count))
                        .collect(),
                    oldest_waiting: OutboxMessage::oldest_waiting(c, channel)?.map(age),
                });
            }
            let since = now - time::Duration::days(1);
            let prompts_last_day = MpesaPrompt::states_since(c, since)?
                .into_iter()
                .map(|(prompt_state, count)| (prompt_state.as_str().to_owned(), count))
                .collect();
            let jobs_last_done = JobRun::last_done(c)?
                .into_iter()
                .filter_map(|(job, done)| Some((job, done?.assume_utc().unix_timestamp() as f64)))
                .collect();
            Ok::<_, DbError>(Readings {
                outbox,
                prompts_last_day,
                oldest_open_prompt: MpesaPrompt::oldest_open(c)?.map(age),
                jobs_last_done,
                ..Readings::default()
            })
        })
        .await?;
    readings.pool = state.db().pool_use();
    readings.renders = state.pages().render_stats();
    if let Some(dir) = state.settings().backups.dir.clone() {
        let wall = state.settings().clock.now();
        readings.newest_backup = web::block(move || crate::jobs::backups::newest_copy(&dir))
            .await
            .ok()
            .flatten()
            .map(|(written, bytes)| (Duration::try_from(wall - written).unwrap_or_default(), bytes));
    }
    Ok(readings)
}
