//! `GET /metrics`: off (404) without `LAUNDRY_METRICS_TOKEN`, 401 without its Bearer token, and
//! with it the Prometheus text of requests by route pattern, renders, the outbox, M-PESA prompts
//! and the pool.

use crate::helpers::{Backend, TestApp, mpesa_env, quick_retries};
use laundry::fakes::FakeDaraja;
use std::time::Duration;

const TOKEN: &str = "metrics-token-0123456789abcdef";

fn metric(text: &str, name_and_labels: &str) -> Option<f64> {
    text.lines().find_map(|line| line.strip_prefix(name_and_labels)?.strip_prefix(' ')?.parse().ok())
}

async fn scrape(app: &crate::helpers::TestApp) -> String {
    let response = app.get_with("/metrics", &[("Authorization", &format!("Bearer {TOKEN}"))]).await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "text/plain; version=0.0.4");
    assert_eq!(response.headers()["cache-control"], "no-store");
    response.text().await.unwrap()
}

async fn off_by_default_and_closed_without_the_token(backend: Backend) {
    let off = TestApp::builder().on(backend).retries(quick_retries()).start().await;
    assert_eq!(off.get("/metrics").await.status(), 404);
    let bearer = format!("Bearer {TOKEN}");
    assert_eq!(off.get_with("/metrics", &[("Authorization", &bearer)]).await.status(), 404);

    let env = [("LAUNDRY_METRICS_TOKEN", TOKEN.to_owned())];
    let app = TestApp::builder().on(backend).env(&env).retries(quick_retries()).start().await;
    let missing = app.get("/metrics").await;
    assert_eq!(missing.status(), 401);
    assert_eq!(missing.headers()["www-authenticate"], "Bearer realm=\"metrics\"");
    for wrong in ["Bearer metrics-token-0123456789abcdeX", "Bearer ", TOKEN, "Basic bWV0cmljczp4"] {
        assert_eq!(app.get_with("/metrics", &[("Authorization", wrong)]).await.status(), 401, "{wrong}");
    }
    // The token exactly (issue 50): spaces or a tab inside the header are not trimmed away.
    for padded in [format!("Bearer  {TOKEN}"), format!("Bearer \t{TOKEN}"), format!("Bearer {TOKEN} x")] {
        assert_eq!(app.get_with("/metrics", &[("Authorization", &padded)]).await.status(), 401, "{padded:?}");
    }
}

async fn requests_renders_outbox_prompts_and_pool_are_counted(backend: Backend) {
    let daraja = FakeDaraja::start().await;
    let mut env = mpesa_env(&daraja.url);
    env.push(("LAUNDRY_METRICS_TOKEN", TOKEN.to_owned()));
    let app = TestApp::builder().on(backend).env(&env).retries(quick_retries()).start().await;

    assert_eq!(app.get("/pricing").await.status(), 200);
    assert_eq!(app.get("/no/such/page").await.status(), 404);
    // A Pay Now order: its texts wait in the outbox (no SMS provider set) and its prompt goes to
    // Daraja.
    crate::helpers::mpesa::place_pay_now(&app, "0712345678").await;
    daraja.wait_for_pushes(1, Duration::from_secs(5)).await;

    let text = scrape(&app).await;

    let requests = |route: &str, method: &str, status: &str| {
        metric(&text, &format!(r#"laundry_http_requests_total{{method="{method}",route="{route}",status="{status}"}}"#))
    };
    assert_eq!(requests("/pricing", "GET", "200"), Some(1.0), "{text}");
    assert_eq!(requests("(unmatched)", "GET", "404"), Some(1.0), "{text}");
    assert_eq!(requests("/api/orders", "POST", "201"), Some(1.0), "{text}");
    assert_eq!(
        metric(&text, r#"laundry_http_request_duration_seconds_count{method="GET",route="/pricing"}"#),
        Some(1.0)
    );
    assert!(
        metric(&text, r#"laundry_page_render_duration_seconds_count{outcome="rendered",page="pricing"}"#).is_some()
    );
    assert!(metric(&text, r#"laundry_renders_total{outcome="rendered"}"#).unwrap() >= 1.0, "{text}");
    assert_eq!(metric(&text, r#"laundry_render_engines_replaced_total{reason="crashed"}"#), Some(0.0));
    assert!(metric(&text, r#"laundry_outbox_messages{channel="sms",status="pending"}"#).unwrap() >= 1.0, "{text}");
    assert!(metric(&text, r#"laundry_outbox_oldest_waiting_seconds{channel="sms"}"#).is_some(), "{text}");
    assert_eq!(metric(&text, r#"laundry_outbox_messages{channel="email",status="sent"}"#), Some(0.0));
    let prompts: f64 = text
        .lines()
        .filter(|line| line.starts_with("laundry_mpesa_prompts_last_day{"))
        .filter_map(|line| line.rsplit(' ').next()?.parse::<f64>().ok())
        .sum();
    assert_eq!(prompts, 1.0, "{text}");
    assert!(metric(&text, r#"laundry_db_pool_connections{state="max"}"#).unwrap() >= 8.0, "{text}");
    // An order's own address is counted by its pattern: no token becomes a label.
    assert!(!text.contains("/t/") || text.contains("/t/{token}"), "{text}");
}

crate::on_each_backend!(
    off_by_default_and_closed_without_the_token,
    requests_renders_outbox_prompts_and_pool_are_counted
);
