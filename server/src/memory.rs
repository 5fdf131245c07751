//! The process's memory allocator: jemalloc, with its background threads on, so that memory freed
//! after a burst (a flood of sign-ins, of orders, of texts) goes back to the system within seconds,
//! even while the server is idle. glibc's malloc, the default, keeps freed memory in its per-thread
//! arenas: a sign-in flood left the server 60 MB larger for good (issue 28).

/// Every allocation of the process (the server, its tests and benches) goes through jemalloc.
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// Starts jemalloc's background threads, which give freed pages back to the system after its
/// decay time (10 s by default) without waiting for the next allocation. Idempotent.
pub fn return_freed_memory_in_the_background() {
    if let Err(error) = tikv_jemalloc_ctl::background_thread::write(true) {
        tracing::warn!(%error, "jemalloc's background threads did not start: freed memory goes back to the system later");
    }
}
