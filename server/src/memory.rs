//! The process's memory allocator: jemalloc, with its background threads on, so that memory freed
//! after a burst (a flood of sign-ins, of orders, of texts) goes back to the system within seconds,
//! even while the server is idle. glibc's malloc, the default, keeps freed memory in its per-thread
//! arenas: a sign-in flood left the server 60 MB larger for good (issue 28).

use tikv_jemalloc_ctl::{Access, AsName};

/// Every allocation of the process (the server, its tests and benches) goes through jemalloc.
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// How long freed pages stay with jemalloc before they go back to the system (its default is 10 s).
/// A year's Reports view at 100,000 orders frees some 13 MB when it is drawn, on whichever of
/// jemalloc's arenas its thread uses: three views in a row left the server 40 MB larger for ten
/// seconds (issue 32). Given back after a second, a burst costs a few more `madvise` calls.
const DECAY_MS: isize = 1_000;

/// Starts jemalloc's background threads, which give freed pages back to the system after
/// [`DECAY_MS`] without waiting for the next allocation. Idempotent.
pub fn return_freed_memory_in_the_background() {
    // The default of arenas made from now on, then each arena made already.
    if let Err(error) = b"arenas.dirty_decay_ms\0".name().write(DECAY_MS) {
        tracing::warn!(%error, "jemalloc's decay time was not set: freed memory goes back to the system after 10 s");
    }
    for arena in 0..tikv_jemalloc_ctl::arenas::narenas::read().unwrap_or(0) {
        // An arena not made yet has no setting to change: it will take the default above.
        let _ = format!("arena.{arena}.dirty_decay_ms\0").as_bytes().name().write(DECAY_MS);
    }
    if let Err(error) = tikv_jemalloc_ctl::background_thread::write(true) {
        tracing::warn!(%error, "jemalloc's background threads did not start: freed memory goes back to the system later");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn freed_memory_goes_back_after_a_second() {
        return_freed_memory_in_the_background();
        let default: isize = b"arenas.dirty_decay_ms\0".name().read().unwrap();
        assert_eq!(default, DECAY_MS);
        let first: isize = b"arena.0.dirty_decay_ms\0".name().read().unwrap();
        assert_eq!(first, DECAY_MS, "the arena made before the setting takes it too");
    }
}
