//! What the dashboard's tabs read, one file per tab: used by the tab's own handler and by the
//! dashboard's first page, so that no handler file reaches into another.

pub mod awaiting;
pub mod garments;
pub mod money;
pub mod outbox;
pub mod payments;
pub mod run;
