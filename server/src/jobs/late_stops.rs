//! Late stops: every look (each `job_poll`), the stops whose window ended with nothing recorded
//! are marked late by [`crate::lifecycle::late`], on the app's clock. Cheap when nothing is due
//! (one indexed query of the open stops before now); safe on several instances at once, as the
//! lifecycle changes each stop under its order's lock and texts the customer once.

use super::{JobContext, Looking};
use crate::lifecycle::late::mark_late_stops;

/// The job's name in logs and metrics.
pub const JOB: &str = "late-stops";

/// The scheduled job.
#[derive(Debug, Default)]
pub struct LateStops;

impl super::Job for LateStops {
    fn name(&self) -> &'static str {
        JOB
    }

    fn run_due<'a>(&'a self, context: &'a JobContext) -> Looking<'a> {
        Box::pin(async move {
            let now = crate::clock::stored(context.clock.now());
            let (schedule, notify) = (context.schedule.clone(), context.notify.clone());
            let marked = context
                .database
                .run(move |connection| {
                    mark_late_stops(connection, &schedule, &notify, now).map_err(|error| anyhow::anyhow!(error))
                })
                .await?;
            if marked > 0 {
                tracing::info!(job = JOB, marked, "stops whose window passed with nothing recorded are late");
                context.wake_outbox();
            }
            Ok(())
        })
    }
}
