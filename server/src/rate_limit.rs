//! A per-client limit on how often something may be done, in memory. Behind a load balancer each
//! instance counts on its own, so the effective limit is at most the instances times this one.
//!
//! A client is an IPv4 address or an IPv6 /64 (one household or phone gets a whole /64; an IPv4
//! address is not widened to its /24, because Kenyan carriers put many phones behind one address
//! already). Each limiter remembers at most its capacity of clients, least recently seen first
//! out ([`lru::LruCache`]): a flood of new addresses pushes out old entries, it never fills the
//! map against strangers. Forgetting a client only ever gives it a fresh count, so eviction can
//! let an attacker who cycles through more addresses than the capacity count afresh, which it
//! could do with those addresses anyway; it can never refuse a customer. See `docs/security.md`.

use crate::config::{Business, Settings};
use crate::error::ApiError;
use actix_web::HttpRequest;
use lru::LruCache;
use std::net::IpAddr;
use std::num::NonZeroUsize;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// At most `limit` events per client per `window` (a fixed window that starts at the first event).
#[derive(Debug)]
pub struct RateLimiter {
    limit: u32,
    window: Duration,
    clients: Mutex<LruCache<IpAddr, Window>>,
}

/// One client's count in its current window.
#[derive(Debug, Clone, Copy)]
struct Window {
    started: Instant,
    count: u32,
}

impl RateLimiter {
    /// Order look-ups on /tracking: `per_10_minutes` per client per 10 minutes.
    pub fn tracking(per_10_minutes: u32, capacity: usize) -> Self {
        Self::new(per_10_minutes, Duration::from_secs(600), capacity)
    }

    /// Confirmation pages of an order (`/confirmation?ref=`): 30 per client per 10 minutes. A
    /// customer opens theirs a few times; a script trying references is stopped.
    pub fn confirmations(capacity: usize) -> Self {
        Self::new(30, Duration::from_secs(600), capacity)
    }

    /// A limiter of `limit` events per `window` that remembers at most `capacity` clients (at
    /// least one).
    pub fn new(limit: u32, window: Duration, capacity: usize) -> Self {
        let capacity = NonZeroUsize::new(capacity).unwrap_or(NonZeroUsize::MIN);
        Self { limit, window, clients: Mutex::new(LruCache::new(capacity)) }
    }

    /// Counts one event for `client`; `Err` with the time to wait when over the limit.
    pub fn check(&self, client: IpAddr) -> Result<(), Duration> {
        self.count(client)
    }

    /// Counts one event for `client` now, for something that counts only once it has happened (an
    /// order stored): the [`Reservation`] gives the count back when it is dropped without
    /// [`Reservation::keep`]. Counted before the work starts, so requests that arrive at the same
    /// moment cannot pass the limit together.
    pub fn reserve(&self, client: IpAddr) -> Result<Reservation<'_>, Duration> {
        self.count(client)?;
        Ok(Reservation { limiter: self, client, kept: false })
    }

    /// How many clients are remembered now.
    pub fn clients(&self) -> usize {
        self.clients.lock().map_or(0, |clients| clients.len())
    }

    fn give_back(&self, client: IpAddr) {
        let Ok(mut clients) = self.clients.lock() else { return };
        // `peek_mut`: giving a count back is not a sign of life that should keep the entry.
        if let Some(window) = clients.peek_mut(&client_key(client)) {
            window.count = window.count.saturating_sub(1);
        }
    }

    fn count(&self, client: IpAddr) -> Result<(), Duration> {
        let client = client_key(client);
        let now = Instant::now();
        // A poisoned lock (a panic while it was held) fails open: customers before counting.
        let Ok(mut clients) = self.clients.lock() else { return Ok(()) };
        let Some(window) = clients.get_mut(&client) else {
            // New (or forgotten): pushes out the client seen longest ago when full.
            clients.push(client, Window { started: now, count: 1 });
            return Ok(());
        };
        if now.duration_since(window.started) >= self.window {
            *window = Window { started: now, count: 0 };
        }
        if window.count >= self.limit {
            return Err(self.window.saturating_sub(now.duration_since(window.started)));
        }
        window.count += 1;
        Ok(())
    }
}

/// One event counted by [`RateLimiter::reserve`]; given back when dropped unless kept.
#[derive(Debug)]
#[must_use = "a reservation is given back when dropped"]
pub struct Reservation<'a> {
    limiter: &'a RateLimiter,
    client: IpAddr,
    kept: bool,
}

impl Reservation<'_> {
    /// The event happened: it stays counted.
    pub fn keep(mut self) {
        self.kept = true;
    }
}

impl Drop for Reservation<'_> {
    fn drop(&mut self) {
        if !self.kept {
            self.limiter.give_back(self.client);
        }
    }
}

/// What a client is counted as: an IPv4 address, or the /64 network of an IPv6 address.
fn client_key(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V4(_) => address,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6((u128::from(v6) & !u128::from(u64::MAX)).into()),
        },
    }
}

/// The address the limit counts by: the connection's peer or, behind a proxy, the address the
/// proxy saw, which is the last one of `X-Forwarded-For` (the proxy appends it; everything before
/// it is what the client claims, and a client can claim anything). `Forwarded` is not read.
pub fn client_ip(settings: &Settings, request: &HttpRequest) -> IpAddr {
    let peer = request.peer_addr().map_or(IpAddr::from([0, 0, 0, 0]), |addr| addr.ip());
    if !settings.behind_proxy {
        return peer;
    }
    let forwarded = request.headers().get_all("x-forwarded-for").filter_map(|value| value.to_str().ok()).last();
    forwarded
        .and_then(|list| list.rsplit(',').next())
        .map(str::trim)
        .and_then(|addr| {
            addr.parse::<IpAddr>().ok().or_else(|| addr.parse::<std::net::SocketAddr>().ok().map(|s| s.ip()))
        })
        .unwrap_or(peer)
}

/// 429 for a client over the submission limit, with when to try again and the shop's phone.
pub fn submissions_limited(business: &Business, retry_after: Duration) -> ApiError {
    ApiError::too_many("orders and messages", business, retry_after)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_over_the_limit_is_refused_and_others_are_not() {
        let limiter = RateLimiter::new(2, Duration::from_secs(60), 10);
        let one: IpAddr = [10, 0, 0, 1].into();
        let two: IpAddr = [10, 0, 0, 2].into();
        assert!(limiter.check(one).is_ok());
        assert!(limiter.check(one).is_ok());
        assert!(limiter.check(one).is_err());
        assert!(limiter.check(two).is_ok());
    }

    #[test]
    fn an_ipv6_network_counts_as_one_client() {
        let limiter = RateLimiter::new(2, Duration::from_secs(60), 10);
        let one: IpAddr = "2001:db8:1:2::1".parse().unwrap();
        let same_network: IpAddr = "2001:db8:1:2:ffff::9".parse().unwrap();
        let other_network: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert!(limiter.check(one).is_ok());
        assert!(limiter.check(same_network).is_ok());
        assert!(limiter.check(one).is_err());
        assert!(limiter.check(other_network).is_ok());
    }

    #[test]
    fn a_flood_of_new_addresses_never_refuses_a_stranger_and_never_grows_the_map() {
        let limiter = RateLimiter::new(1, Duration::from_secs(60), 3);
        let known: IpAddr = [10, 0, 0, 1].into();
        assert!(limiter.check(known).is_ok());
        for n in 2..=200 {
            assert!(limiter.check([10, 0, 0, n].into()).is_ok(), "full: a new client still counts");
            assert!(limiter.clients() <= 3);
        }
        assert!(limiter.check("2001:db8::1".parse().unwrap()).is_ok(), "a stranger after the flood");
    }

    #[test]
    fn a_client_active_during_a_flood_keeps_its_count() {
        let limiter = RateLimiter::new(2, Duration::from_secs(60), 3);
        let busy: IpAddr = [10, 0, 0, 1].into();
        assert!(limiter.check(busy).is_ok());
        assert!(limiter.check(busy).is_ok());
        for n in 2..=50u8 {
            assert!(limiter.check([10, 0, 1, n].into()).is_ok());
            // Seen again between the new ones: the least recently seen go first, not it.
            assert!(limiter.check(busy).is_err(), "still over its limit");
        }
    }

    #[test]
    fn behind_a_proxy_the_address_it_appended_counts_not_what_the_client_claims() {
        let proxied =
            Settings::from_lookup(|name| (name == "LAUNDRY_BEHIND_PROXY").then(|| "true".to_owned())).unwrap();
        let direct = Settings::from_lookup(|_| None).unwrap();
        let request = actix_web::test::TestRequest::default()
            .peer_addr("10.0.0.2:5000".parse().unwrap())
            .insert_header(("forwarded", "for=5.6.7.8"))
            .insert_header(("x-forwarded-for", "1.2.3.4, 41.90.1.7"))
            .to_http_request();
        assert_eq!(client_ip(&proxied, &request), IpAddr::from([41, 90, 1, 7]));
        assert_eq!(client_ip(&direct, &request), IpAddr::from([10, 0, 0, 2]), "headers are ignored without a proxy");
    }

    #[test]
    fn a_reservation_given_back_does_not_count_and_a_kept_one_does() {
        let limiter = RateLimiter::new(1, Duration::from_secs(60), 10);
        let client: IpAddr = [10, 0, 0, 1].into();
        let first = limiter.reserve(client).unwrap();
        assert!(limiter.reserve(client).is_err(), "held while the first is in flight");
        drop(first);
        limiter.reserve(client).unwrap().keep();
        assert!(limiter.reserve(client).is_err());
        assert!(limiter.check(client).is_err());
    }

    #[test]
    fn the_window_starts_again_after_it_passes() {
        let limiter = RateLimiter::new(1, Duration::from_millis(20), 10);
        let client: IpAddr = [10, 0, 0, 1].into();
        assert!(limiter.check(client).is_ok());
        assert!(limiter.check(client).is_err());
        std::thread::sleep(Duration::from_millis(30));
        assert!(limiter.check(client).is_ok());
    }

    mod properties {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            /// Whatever arrives: the map never holds more than its capacity, a client it does not
            /// hold is always let in, and while nobody is forgotten (no more clients than the
            /// capacity) nobody gets more than the limit.
            #[test]
            fn the_limiter_is_bounded_lets_strangers_in_and_holds_the_limit(
                limit in 1u32..5,
                capacity in 1usize..8,
                events in proptest::collection::vec((0u8..12, any::<bool>()), 1..200),
            ) {
                let limiter = RateLimiter::new(limit, Duration::from_secs(3600), capacity);
                let distinct = events.iter().map(|(client, _)| client).collect::<std::collections::HashSet<_>>().len();
                let mut admitted = std::collections::HashMap::<u8, u32>::new();
                for (client, reserve_and_keep) in events {
                    let address: IpAddr = [10, 0, 0, client].into();
                    let known = limiter.clients.lock().unwrap().contains(&address);
                    let outcome = if reserve_and_keep {
                        limiter.reserve(address).map(Reservation::keep)
                    } else {
                        limiter.check(address)
                    };
                    prop_assert!(limiter.clients() <= capacity);
                    if !known {
                        prop_assert!(outcome.is_ok(), "a client the map does not hold is let in");
                    }
                    if outcome.is_ok() {
                        *admitted.entry(client).or_default() += 1;
                    }
                }
                if distinct <= capacity {
                    prop_assert!(admitted.values().all(|&n| n <= limit), "{admitted:?}");
                }
            }
        }
    }
}
