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

/// Milliseconds, for printing.
pub fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}
