//! A per-client limit on how often something may be done, in memory. Behind a load balancer each
//! instance counts on its own, so the effective limit is at most the instances times this one.

use crate::config::Settings;
use actix_web::HttpRequest;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// At most `limit` events per client per `window` (a fixed window that starts at the first event).
#[derive(Debug)]
pub struct RateLimiter {
    limit: u32,
    window: Duration,
    clients: Mutex<HashMap<IpAddr, (Instant, u32)>>,
}

impl RateLimiter {
    /// Order look-ups: 10 per client per 10 minutes. A customer checks an order a few times; a
    /// script trying references or phone numbers is stopped after ten.
    pub fn tracking() -> Self {
        Self::new(10, Duration::from_secs(600))
    }

    /// A limiter of `limit` events per `window`.
    pub fn new(limit: u32, window: Duration) -> Self {
        Self { limit, window, clients: Mutex::new(HashMap::new()) }
    }

    /// Counts one event for `client`; `Err` with the time to wait when over the limit.
    pub fn check(&self, client: IpAddr) -> Result<(), Duration> {
        let now = Instant::now();
        let Ok(mut clients) = self.clients.lock() else { return Ok(()) };
        if clients.len() > 100_000 {
            clients.retain(|_, (started, _)| now.duration_since(*started) < self.window);
        }
        let entry = clients.entry(client).or_insert((now, 0));
        if now.duration_since(entry.0) >= self.window {
            *entry = (now, 0);
        }
        if entry.1 >= self.limit {
            return Err(self.window.saturating_sub(now.duration_since(entry.0)));
        }
        entry.1 += 1;
        Ok(())
    }
}

/// The address the limit counts by: the connection's peer, or the proxy's forwarded address.
pub fn client_ip(settings: &Settings, request: &HttpRequest) -> IpAddr {
    let forwarded =
        settings.behind_proxy.then(|| request.connection_info().realip_remote_addr().map(str::to_owned)).flatten();
    forwarded
        .and_then(|addr| {
            addr.parse::<IpAddr>().ok().or_else(|| addr.parse::<std::net::SocketAddr>().ok().map(|s| s.ip()))
        })
        .or_else(|| request.peer_addr().map(|addr| addr.ip()))
        .unwrap_or(IpAddr::from([0, 0, 0, 0]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_over_the_limit_is_refused_and_others_are_not() {
        let limiter = RateLimiter::new(2, Duration::from_secs(60));
        let one: IpAddr = [10, 0, 0, 1].into();
        let two: IpAddr = [10, 0, 0, 2].into();
        assert!(limiter.check(one).is_ok());
        assert!(limiter.check(one).is_ok());
        assert!(limiter.check(one).is_err());
        assert!(limiter.check(two).is_ok());
    }

    #[test]
    fn the_window_starts_again_after_it_passes() {
        let limiter = RateLimiter::new(1, Duration::from_millis(20));
        let client: IpAddr = [10, 0, 0, 1].into();
        assert!(limiter.check(client).is_ok());
        assert!(limiter.check(client).is_err());
        std::thread::sleep(Duration::from_millis(30));
        assert!(limiter.check(client).is_ok());
    }
}
