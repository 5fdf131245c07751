//! What both benches use: the release server as a child process, and percentiles.
#![allow(dead_code)]

use std::process::Child;
use std::time::Duration;

/// Kills the server when the bench ends, however it ends.
pub struct Server(pub Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The `p`th percentile (0 to 100) of `times`, nearest rank.
pub fn percentile(times: &mut [Duration], p: f64) -> Duration {
    times.sort_unstable();
    let index = ((p / 100.0) * (times.len() - 1) as f64).round() as usize;
    times[index]
}

/// `BENCH_QUICK=1` (`make bench-quick`, run by CI): a tenth of the work, enough to show that the
/// bench still runs and that its checks hold; its figures are not for BENCHMARKS.md.
pub fn quick() -> bool {
    std::env::var("BENCH_QUICK").is_ok_and(|value| value == "1")
}

/// `full`, or a tenth of it (at least `floor`) in a quick run.
pub fn scaled(full: usize, floor: usize) -> usize {
    if quick() { (full / 10).max(floor) } else { full }
}

/// Whether `BENCH_PARTS` (a comma-separated list, like `1,4`; all parts when unset) names `part`.
pub fn runs_part(part: &str) -> bool {
    std::env::var("BENCH_PARTS").map_or(true, |parts| parts.split(',').any(|p| p.trim() == part))
}

/// The server binary cargo built for this bench (the release profile).
pub fn server_binary() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_BIN_EXE_laundry"))
}

/// Milliseconds, for printing.
pub fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}
