//! Rows and their queries, next to each other. Handlers call these; none of them writes SQL.

pub mod contact_message;
pub mod order;
pub mod outbox;
pub mod staff;
pub mod stats;

/// One page of a list, and how many items there are in all.
#[derive(Debug, Clone)]
pub struct Page<T> {
    /// The items of this page.
    pub items: Vec<T>,
    /// Items matching the filter, on all pages.
    pub total: i64,
}
