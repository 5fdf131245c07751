//! `make bench`, part 2: orders submitted concurrently to the release server over loopback, on
//! SQLite and (when `TEST_DATABASE_URL` names a PostgreSQL server) on PostgreSQL. Prints orders per
//! second and p50/p99 latency, then checks the database against the answers: every 2xx answer has
//! its row, and no row lacks an answer. One in ten submissions is sent twice with the same
//! `Idempotency-Key`, as a phone on a flaky network would, and must not create a second row.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

mod common;

use common::{ScratchPostgres, ms, order_body, percentile, scaled, serve_for_load, wait_until_up};
use diesel::prelude::*;
use futures::StreamExt;
use laundry::db::Database;
use laundry::db::schema::orders;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::{Duration, Instant};

const CONCURRENCY: usize = 32;

fn main() {
    // reqwest is built without a TLS provider of its own (the server picks ring); this bench speaks
    // plain HTTP, but the client still wants one installed.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let count = scaled(2_000, 200);
    println!("## Concurrent order submission ({count} orders, {CONCURRENCY} at a time, 10% retried once)");

    let folder = tempfile::tempdir().unwrap();
    let sqlite_url = format!("sqlite://{}/bench.db", folder.path().display());
    let mut consistent = run_backend("SQLite", &root, &sqlite_url, count);

    match std::env::var("TEST_DATABASE_URL").ok().filter(|url| !url.trim().is_empty()) {
        Some(admin_url) => {
            let database = ScratchPostgres::create(&admin_url);
            consistent &= run_backend("PostgreSQL", &root, &database.url, count);
        }
        None => println!("PostgreSQL: skipped (set TEST_DATABASE_URL=postgres://user@host:5432/db to include it)"),
    }
    if !consistent {
        eprintln!("the database does not match the answers");
        std::process::exit(1);
    }
}

/// Runs the load on one backend and prints its figures; false when the rows and answers disagree.
fn run_backend(label: &str, root: &Path, database_url: &str, count: usize) -> bool {
    let (_server, base) = serve_for_load(root, database_url);
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let outcome = runtime.block_on(async {
        wait_until_up(&base).await;
        submit_all(&base, count).await
    });

    let database = Database::open(database_url, 1).unwrap();
    let mut connection = database.connection().unwrap();
    let stored: Vec<(String, Option<String>)> =
        orders::table.select((orders::reference, orders::idempotency_key)).load(&mut *connection).unwrap();
    let stored_references: BTreeSet<&str> = stored.iter().map(|(reference, _)| reference.as_str()).collect();
    let stored_by_key: BTreeMap<&str, &str> =
        stored.iter().filter_map(|(reference, key)| Some((key.as_deref()?, reference.as_str()))).collect();
    let answered: BTreeSet<&str> = outcome.references.values().map(String::as_str).collect();
    let unanswered_rows = stored_references.difference(&answered).count();
    let answers_without_row = answered.difference(&stored_references).count();
    // Each key's 2xx answer named the row stored under that key, and no two rows share a key.
    let wrong_row_for_key = outcome
        .references
        .iter()
        .filter(|(key, reference)| stored_by_key.get(key.as_str()) != Some(&reference.as_str()))
        .count();
    let rows_sharing_a_key = stored.len() - stored_by_key.len();

    let mut latencies = outcome.latencies;
    let (p50, p99) = (percentile(&mut latencies, 50.0), percentile(&mut latencies, 99.0));
    println!(
        "{label:<10} {:>6.0} orders/s   p50 {:>6.1} ms   p99 {:>6.1} ms   ({} requests in {:.1} s; answers: {})",
        answered.len() as f64 / outcome.elapsed.as_secs_f64(),
        ms(p50),
        ms(p99),
        latencies.len(),
        outcome.elapsed.as_secs_f64(),
        outcome.statuses.iter().map(|(status, n)| format!("{status}×{n}")).collect::<Vec<_>>().join(", "),
    );
    println!(
        "{label:<10} rows {} | distinct orders answered 2xx {} | 2xx answers without a row: {} | rows without a 2xx answer: {} | answers naming another key's row: {} | rows sharing a key: {} | retries that changed the reference: {}",
        stored.len(),
        answered.len(),
        answers_without_row,
        unanswered_rows,
        wrong_row_for_key,
        rows_sharing_a_key,
        outcome.mismatched_retries,
    );
    let consistent = answers_without_row == 0
        && unanswered_rows == 0
        && wrong_row_for_key == 0
        && rows_sharing_a_key == 0
        && outcome.mismatched_retries == 0;
    println!("{label:<10} {}", if consistent { "consistent" } else { "INCONSISTENT: see the counts above" });
    consistent
}

struct Outcome {
    elapsed: Duration,
    latencies: Vec<Duration>,
    statuses: BTreeMap<u16, usize>,
    /// Idempotency key -> the reference its 2xx answer carried.
    references: BTreeMap<String, String>,
    mismatched_retries: usize,
}

/// One answer: the key sent, the status (0 when the request failed), the reference, the latency.
type Answer = (String, u16, Option<String>, Duration);

async fn submit_all(base: &str, count: usize) -> Outcome {
    let client = reqwest::Client::builder().pool_max_idle_per_host(CONCURRENCY).build().unwrap();
    let started = Instant::now();
    let answers: Vec<Vec<Answer>> = futures::stream::iter(0..count)
        .map(|n| {
            let client = client.clone();
            let url = format!("{base}/api/orders");
            async move {
                let key = format!("bench-{n}-{}", uuid::Uuid::new_v4().simple());
                let body = order_body(n);
                let tries = if n.is_multiple_of(10) { 2 } else { 1 };
                let mut answers = Vec::with_capacity(tries);
                for _ in 0..tries {
                    let sent = Instant::now();
                    let response = client.post(&url).header("Idempotency-Key", &key).json(&body).send().await;
                    let (status, reference) = match response {
                        Ok(response) => {
                            let status = response.status().as_u16();
                            let json: serde_json::Value = response.json().await.unwrap_or_default();
                            (status, json["id"].as_str().map(str::to_owned))
                        }
                        Err(_) => (0, None),
                    };
                    answers.push((key.clone(), status, reference, sent.elapsed()));
                }
                answers
            }
        })
        .buffer_unordered(CONCURRENCY)
        .collect()
        .await;
    let elapsed = started.elapsed();

    let mut outcome = Outcome {
        elapsed,
        latencies: Vec::new(),
        statuses: BTreeMap::new(),
        references: BTreeMap::new(),
        mismatched_retries: 0,
    };
    for (key, status, reference, latency) in answers.into_iter().flatten() {
        outcome.latencies.push(latency);
        *outcome.statuses.entry(status).or_default() += 1;
        if (200..300).contains(&status) {
            let reference = reference.expect("a 2xx answer carries the order's reference");
            if let Some(earlier) = outcome.references.insert(key, reference.clone())
                && earlier != reference
            {
                outcome.mismatched_retries += 1;
            }
        }
    }
    outcome
}
