//! `GET /readyz` beside `/healthz`: ready when the database answers, every migration is applied and
//! the engines render; otherwise 503 naming the check that failed.

use crate::helpers::{Backend, TestApp};
use diesel::prelude::*;

async fn ready_when_the_database_answers_the_schema_is_current_and_pages_render(backend: Backend) {
    let app = TestApp::builder().on(backend).start().await;

    let ready = app.get("/readyz").await;
    assert_eq!(ready.status(), 200);
    assert_eq!(ready.headers()["cache-control"], "no-store");
    assert_eq!(ready.text().await.unwrap(), "database: ok\nmigrations: ok\nrendering: ok\n");

    // A migration forgotten (as if the binary were newer than the schema): not ready, and why.
    app.with_db(|c| {
        diesel::sql_query(
            "DELETE FROM __diesel_schema_migrations WHERE version = (SELECT MAX(version) FROM __diesel_schema_migrations)",
        )
        .execute(c)
        .unwrap()
    });
    let pending = app.get("/readyz").await;
    assert_eq!(pending.status(), 503);
    let text = pending.text().await.unwrap();
    assert!(text.contains("migrations: failed: migrations are pending"), "{text}");
    assert_eq!(app.get("/healthz").await.status(), 200, "alive, though not ready");
}

crate::on_each_backend!(ready_when_the_database_answers_the_schema_is_current_and_pages_render);
