//! The process's memory allocator: jemalloc, with its background threads on, so that memory freed
//! after a burst (a flood of sign-ins, of orders, of texts) goes back to the system within seconds,
//! even while the server is idle. glibc's malloc, the default, keeps freed memory in its per-thread
//! arenas: a sign-in flood left the server 60 MB larger for good (issue 28).
//!
//! Photos are prepared in an arena of their own that gives freed pages back at once
//! ([`in_photo_arena`]): twenty photos at once otherwise left each one's buffers (some 30 MB) on
//! whichever arena its thread used until the decay, and the peak grew by 68 MB (issue 50). The
//! pages faulted in again cost a photo some 45 ms (BENCHMARKS.md).

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

/// The arena photos are prepared in, made on first use with no decay: what a photo frees goes back
/// to the system at once. `None` when jemalloc refused to make it (photos then use their thread's).
fn photo_arena() -> Option<u32> {
    static ARENA: std::sync::OnceLock<Option<u32>> = std::sync::OnceLock::new();
    *ARENA.get_or_init(|| {
        let arena: u32 = match b"arenas.create\0".name().read() {
            Ok(arena) => arena,
            Err(error) => {
                tracing::warn!(%error, "jemalloc made no arena for photos: their memory goes back after the decay");
                return None;
            }
        };
        for decay in ["dirty_decay_ms", "muzzy_decay_ms"] {
            let name = format!("arena.{arena}.{decay}\0");
            if let Err(error) = name.as_bytes().name().write(0isize) {
                tracing::warn!(%error, decay, "the photo arena keeps freed pages until the decay");
            }
        }
        Some(arena)
    })
}

/// Runs `work` (preparing a photo) with its thread's allocations in the photo arena, then gives the
/// thread its own arena back. One photo is prepared at a time (the photo gate), so the arena holds
/// at most one photo's buffers, and gives them back as they are freed.
pub fn in_photo_arena<T>(work: impl FnOnce() -> T) -> T {
    let switched = photo_arena().and_then(|arena| {
        let own: u32 = b"thread.arena\0".name().read().ok()?;
        b"thread.arena\0".name().write(arena).ok()?;
        Some(own)
    });
    let result = work();
    if let Some(own) = switched {
        let _ = b"thread.arena\0".name().write(own);
    }
    result
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

    #[test]
    fn a_photo_is_prepared_in_an_arena_that_keeps_nothing_freed_and_the_thread_gets_its_own_back() {
        let own: u32 = b"thread.arena\0".name().read().unwrap();
        let inside: u32 = in_photo_arena(|| {
            let pixels = vec![7u8; 20 << 20];
            std::hint::black_box(&pixels);
            b"thread.arena\0".name().read().unwrap()
        });
        let arena = photo_arena().unwrap();
        assert_eq!(inside, arena, "the photo's allocations go to the photo arena");
        assert_ne!(arena, own);
        let after: u32 = b"thread.arena\0".name().read().unwrap();
        assert_eq!(after, own, "the thread gets its own arena back");
        let decay: isize = format!("arena.{arena}.dirty_decay_ms\0").as_bytes().name().read().unwrap();
        assert_eq!(decay, 0, "freed pages go back at once");
    }
}
