//! GET /healthz: for load balancers and `make run` scripts: the process answers.
//! GET /readyz: whether this instance can serve customers now: its database answers, its schema
//! is the one this binary expects (every migration applied), and its rendering engines render a
//! page. 200 with each check's "ok", or 503 naming the one that failed (docs/operations.md).

use crate::db::{DbError, schema_is_current};
use crate::state::AppState;
use crate::views::pages::ErrorProps;
use actix_web::http::header;
use actix_web::{HttpResponse, web};
use diesel::RunQueryDsl;

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
