//! The server's numbers in Prometheus' text format, for `GET /metrics` (docs/operations.md says
//! which of them mean trouble). Two kinds:
//! - counted by this process as things happen, since it started: requests by route pattern,
//!   method and status with their latency, page renders' time, the scheduled jobs' runs;
//! - read when scraped ([`Readings`]): the outbox's depth and oldest waiting message per channel,
//!   the M-PESA prompts of the last day by state, the database pool, the rendering engines'
//!   counters, the jobs' last finished day and the newest backup.
//!
//! Each server has its own registry (no global one), so that two servers in one process (the
//! tests) count apart.

use crate::db::PoolUse;
use prometheus::core::Collector;
use prometheus::{
    Encoder, GaugeVec, HistogramOpts, HistogramVec, IntCounterVec, IntGauge, IntGaugeVec, Opts, Registry, TextEncoder,
};
use ssr_runtime::RendererStats;
use std::time::Duration;

/// The buckets of requests' and renders' durations, in seconds: a page takes milliseconds; the
/// top buckets catch a slow database or a render near its time limit.
const SECONDS: &[f64] = &[0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0];

/// Every metric's name starts with this and an underscore.
const PREFIX: &str = "laundry";

/// What a request is counted under when no route matched it (a 404): one label value, however many
/// addresses are tried.
pub const UNMATCHED: &str = "(unmatched)";

/// The metrics this process counts as it goes.
pub struct Metrics {
    registry: Registry,
    requests: IntCounterVec,
    request_seconds: HistogramVec,
    render_seconds: HistogramVec,
    job_runs: IntCounterVec,
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Metrics").finish_non_exhaustive()
    }
}

impl Default for Metrics {
    fn default() -> Self {
        Self::new()
    }
}

/// `collector`, registered with `registry`. The names and labels are this file's constants, so a
/// failure is a mistake in this file, which the tests below would show.
fn registered<C: Collector + Clone + 'static>(registry: &Registry, collector: C) -> C {
    registry.register(Box::new(collector.clone())).expect("each metric is named once, with a valid name");
    collector
}

fn counter(registry: &Registry, name: &str, help: &str, labels: &[&str]) -> IntCounterVec {
    let counter = IntCounterVec::new(Opts::new(name, help), labels).expect("a valid counter");
    registered(registry, counter)
}

fn histogram(registry: &Registry, name: &str, help: &str, labels: &[&str]) -> HistogramVec {
    let histogram =
        HistogramVec::new(HistogramOpts::new(name, help).buckets(SECONDS.to_vec()), labels).expect("a valid histogram");
    registered(registry, histogram)
}

fn gauge(registry: &Registry, name: &str, help: &str, labels: &[&str]) -> GaugeVec {
    registered(registry, GaugeVec::new(Opts::new(name, help), labels).expect("a valid gauge"))
}

fn int_gauge(registry: &Registry, name: &str, help: &str, labels: &[&str]) -> IntGaugeVec {
    registered(registry, IntGaugeVec::new(Opts::new(name, help), labels).expect("a valid gauge"))
}

fn registry() -> Registry {
    Registry::new_custom(Some(PREFIX.to_owned()), None).expect("a valid prefix")
}

impl Metrics {
    /// Every counter at zero.
    pub fn new() -> Self {
        let registry = registry();
        Self {
            requests: counter(
                &registry,
                "http_requests_total",
                "HTTP requests answered, by route pattern, method and status.",
                &["route", "method", "status"],
            ),
            request_seconds: histogram(
                &registry,
                "http_request_duration_seconds",
                "Time from a request's arrival to its response's headers, by route pattern and method.",
                &["route", "method"],
            ),
            render_seconds: histogram(
                &registry,
                "page_render_duration_seconds",
                "Time a page took to render in the engines (pages kept in memory are not rendered again), by page and outcome.",
                &["page", "outcome"],
            ),
            job_runs: counter(
                &registry,
                "job_runs_total",
                "Runs of each scheduled job (each looks for work due every 30 seconds), by outcome.",
                &["job", "outcome"],
            ),
            registry,
        }
    }

    /// One request answered: its route pattern (like `/t/{token}`, or [`UNMATCHED`]), method,
    /// status and time taken.
    pub fn request(&self, route: &str, method: &str, status: u16, took: Duration) {
        self.requests.with_label_values(&[route, method, &status.to_string()]).inc();
        self.request_seconds.with_label_values(&[route, method]).observe(took.as_secs_f64());
    }

    /// One page rendered by the engines (`rendered`: a page came back, not an error).
    pub fn render(&self, page: &str, rendered: bool, took: Duration) {
        let outcome = if rendered { "rendered" } else { "failed" };
        self.render_seconds.with_label_values(&[page, outcome]).observe(took.as_secs_f64());
    }

    /// One run of a scheduled job: `outcome` is `ok`, `failed` or `panicked`.
    pub fn job_run(&self, job: &str, outcome: &str) {
        self.job_runs.with_label_values(&[job, outcome]).inc();
    }

    /// Everything in Prometheus' text format (version 0.0.4): what this process counted, then
    /// `readings`.
    pub fn encode(&self, readings: &Readings) -> String {
        let mut families = self.registry.gather();
        families.extend(readings.registry().gather());
        families.sort_by(|a, b| a.name().cmp(b.name()));
        let mut text = Vec::new();
        if let Err(error) = TextEncoder::new().encode(&families, &mut text) {
            tracing::error!(%error, "the metrics could not be written out");
        }
        String::from_utf8(text).unwrap_or_default()
    }

    /// The `Content-Type` of [`Metrics::encode`]'s text.
    pub fn content_type() -> String {
        TextEncoder::new().format_type().to_owned()
    }
}

/// One channel of the outbox when scraped.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OutboxReading {
    /// `email` or `sms`.
    pub channel: String,
    /// Messages by status (`pending`, `sent`, …), as kept by the outbox's totals.
    pub by_status: Vec<(String, i64)>,
    /// How long the oldest message still waiting has waited (none waiting: `None`).
    pub oldest_waiting: Option<Duration>,
}

/// What is read when scraped.
#[derive(Debug, Clone, Default)]
pub struct Readings {
    /// Each channel of the outbox.
    pub outbox: Vec<OutboxReading>,
    /// The M-PESA prompts asked for in the last 24 hours, by state.
    pub prompts_last_day: Vec<(String, i64)>,
    /// How long ago the oldest prompt still open was asked for.
    pub oldest_open_prompt: Option<Duration>,
    /// The database pool.
    pub pool: PoolUse,
    /// The rendering engines' counters since the start.
    pub renders: RendererStats,
    /// Each scheduled job's last finished day, as seconds since 1970 (UTC).
    pub jobs_last_done: Vec<(String, f64)>,
    /// The newest backup's age and size, when a backup folder is set and holds one.
    pub newest_backup: Option<(Duration, u64)>,
}

impl Readings {
    /// The readings as metrics, in a registry of their own made for this scrape.
    fn registry(&self) -> Registry {
        let registry = registry();
        let outbox = int_gauge(
            &registry,
            "outbox_messages",
            "Messages in the outbox by channel and status (sent ones are kept until the retention job summarises them).",
            &["channel", "status"],
        );
        let waiting = gauge(
            &registry,
            "outbox_oldest_waiting_seconds",
            "How long the oldest message still waiting to be sent has waited, by channel (0: none waits).",
            &["channel"],
        );
        for channel in &self.outbox {
            for (status, count) in &channel.by_status {
                outbox.with_label_values(&[channel.channel.as_str(), status.as_str()]).set(*count);
            }
            let seconds = channel.oldest_waiting.map_or(0.0, |age| age.as_secs_f64());
            waiting.with_label_values(&[channel.channel.as_str()]).set(seconds);
        }
        let prompts = int_gauge(
            &registry,
            "mpesa_prompts_last_day",
            "M-PESA prompts asked for in the last 24 hours, by state (queued, sending, waiting, paid, failed, cancelled).",
            &["state"],
        );
        for (state, count) in &self.prompts_last_day {
            prompts.with_label_values(&[state.as_str()]).set(*count);
        }
        gauge(
            &registry,
            "mpesa_prompt_oldest_open_seconds",
            "How long ago the oldest prompt still open (queued, being sent, or on the customer's phone) was asked for (0: none open).",
            &[],
        )
        .with_label_values::<&str>(&[])
        .set(self.oldest_open_prompt.map_or(0.0, |age| age.as_secs_f64()));
        let pool = int_gauge(
            &registry,
            "db_pool_connections",
            "The database pool's connections: open, idle, in use, and the most it opens.",
            &["state"],
        );
        let PoolUse { connections, idle, max } = self.pool;
        for (state, count) in [("open", connections), ("idle", idle), ("in_use", connections - idle), ("max", max)] {
            pool.with_label_values(&[state]).set(i64::from(count));
        }
        let renders = counter(
            &registry,
            "renders_total",
            "Renders the engines finished since the start, by outcome.",
            &["outcome"],
        );
        renders.with_label_values(&["rendered"]).inc_by(self.renders.rendered);
        renders.with_label_values(&["failed"]).inc_by(self.renders.failed);
        let replaced = counter(
            &registry,
            "render_engines_replaced_total",
            "Render processes replaced since the start: cut off by the time or memory limit, crashed, or recycled (memory, renders served).",
            &["reason"],
        );
        let stats = &self.renders;
        replaced.with_label_values(&["limit"]).inc_by(stats.engines_rebuilt.saturating_sub(stats.crashed));
        replaced.with_label_values(&["crashed"]).inc_by(stats.crashed);
        replaced.with_label_values(&["recycled"]).inc_by(stats.recycled);
        let jobs = gauge(
            &registry,
            "job_last_done_timestamp_seconds",
            "When each daily job (the 5:30pm texts, the backup) last finished a day's run, as seconds since 1970.",
            &["job"],
        );
        for (job, at) in &self.jobs_last_done {
            jobs.with_label_values(&[job.as_str()]).set(*at);
        }
        if let Some((age, bytes)) = self.newest_backup {
            let backup = gauge(&registry, "backup_newest_age_seconds", "How old the newest backup copy is.", &[]);
            backup.with_label_values::<&str>(&[]).set(age.as_secs_f64());
            let size = IntGauge::new("backup_newest_bytes", "The newest backup copy's size.").expect("a valid gauge");
            registered(&registry, size).set(i64::try_from(bytes).unwrap_or(i64::MAX));
        }
        registry
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_was_counted_and_what_was_read_come_out_in_prometheus_text() {
        let metrics = Metrics::new();
        metrics.request("/t/{token}", "GET", 200, Duration::from_millis(3));
        metrics.request("/t/{token}", "GET", 200, Duration::from_millis(30));
        metrics.request(UNMATCHED, "GET", 404, Duration::from_millis(1));
        metrics.render("order", true, Duration::from_millis(4));
        metrics.job_run("backup", "ok");
        let readings = Readings {
            outbox: vec![OutboxReading {
                channel: "sms".to_owned(),
                by_status: vec![("pending".to_owned(), 3), ("sent".to_owned(), 40)],
                oldest_waiting: Some(Duration::from_secs(95)),
            }],
            prompts_last_day: vec![("paid".to_owned(), 7), ("failed".to_owned(), 2)],
            oldest_open_prompt: None,
            pool: PoolUse { connections: 5, idle: 4, max: 8 },
            renders: RendererStats { rendered: 12, failed: 1, engines_rebuilt: 3, crashed: 1, recycled: 2 },
            jobs_last_done: vec![("backup".to_owned(), 1_796_000_000.0)],
            newest_backup: Some((Duration::from_secs(3600), 4096)),
        };

        let text = metrics.encode(&readings);

        for line in [
            "# TYPE laundry_http_requests_total counter",
            r#"laundry_http_requests_total{method="GET",route="/t/{token}",status="200"} 2"#,
            r#"laundry_http_requests_total{method="GET",route="(unmatched)",status="404"} 1"#,
            r#"laundry_http_request_duration_seconds_bucket{method="GET",route="/t/{token}",le="0.005"} 1"#,
            r#"laundry_http_request_duration_seconds_count{method="GET",route="/t/{token}"} 2"#,
            r#"laundry_page_render_duration_seconds_count{outcome="rendered",page="order"} 1"#,
            r#"laundry_job_runs_total{job="backup",outcome="ok"} 1"#,
            r#"laundry_outbox_messages{channel="sms",status="pending"} 3"#,
            r#"laundry_outbox_oldest_waiting_seconds{channel="sms"} 95"#,
            r#"laundry_mpesa_prompts_last_day{state="failed"} 2"#,
            "laundry_mpesa_prompt_oldest_open_seconds 0",
            r#"laundry_db_pool_connections{state="in_use"} 1"#,
            r#"laundry_renders_total{outcome="failed"} 1"#,
            r#"laundry_render_engines_replaced_total{reason="limit"} 2"#,
            r#"laundry_render_engines_replaced_total{reason="crashed"} 1"#,
            r#"laundry_job_last_done_timestamp_seconds{job="backup"} 1796000000"#,
            "laundry_backup_newest_age_seconds 3600",
            "laundry_backup_newest_bytes 4096",
        ] {
            assert!(text.lines().any(|l| l == line), "missing {line:?} in:\n{text}");
        }
    }

    #[test]
    fn without_a_backup_folder_no_backup_figures_are_made_up() {
        let text = Metrics::new().encode(&Readings::default());
        assert!(!text.contains("backup_newest"), "{text}");
        assert!(text.contains("laundry_mpesa_prompt_oldest_open_seconds 0"), "{text}");
    }
}
