//! Status queries of M-PESA prompts whose callback has not come: Daraja's callbacks are known to
//! go missing. A prompt waiting [`FIRST_QUERY_AFTER`] (90 s) after Daraja accepted it is asked
//! about (`/mpesa/stkpushquery/v1/query`); "still being processed" asks again later, at growing
//! intervals, up to [`MAX_QUERIES`]. After that the prompt stays `waiting` and its page says
//! "checking": money may still have moved, and the till's confirmation or staff settle it.
//!
//! Each due query is taken by one instance (a compare-and-set on `next_query_at`), so two
//! instances do not ask twice; an answer that arrives with the callback is recorded once
//! ([`lifecycle::payment::resolve_prompt`]).
//!
//! [`FIRST_QUERY_AFTER`]: crate::models::mpesa::FIRST_QUERY_AFTER

use super::{JobContext, Looking};
use crate::clock::stored;
use crate::db::DbError;
use crate::lifecycle;
use crate::models::mpesa::{Money, MpesaPrompt};
use crate::mpesa::client::QueryAnswer;
use time::PrimitiveDateTime;

/// The most status queries of one prompt.
pub const MAX_QUERIES: i32 = 5;

/// The job.
#[derive(Debug, Default)]
pub struct PaymentQueries;

/// When the query after the `made`-th is due: 2, 4, 8, 16 minutes later.
fn next_after(made: i32, now: PrimitiveDateTime) -> Option<PrimitiveDateTime> {
    (made < MAX_QUERIES).then(|| now + time::Duration::minutes(2_i64.pow(made.clamp(1, 4) as u32)))
}

impl super::Job for PaymentQueries {
    fn name(&self) -> &'static str {
        "payment-queries"
    }

    fn run_due<'a>(&'a self, context: &'a JobContext) -> Looking<'a> {
        Box::pin(async move {
            let Some(daraja) = context.daraja.as_ref().filter(|d| d.settings().sends_prompts()) else {
                return Ok(());
            };
            let now = stored(context.clock.now());
            let due =
                context.database.run(move |c| MpesaPrompt::due_queries(c, 20, now).map_err(DbError::from)).await?;
            for prompt in due {
                let Some(checkout) = prompt.checkout_request_id.clone() else { continue };
                let next = next_after(prompt.queries + 1, now);
                let taken = {
                    let prompt = prompt.clone();
                    context
                        .database
                        .run(move |c| MpesaPrompt::take_query(c, &prompt, next).map_err(DbError::from))
                        .await?
                };
                if !taken {
                    continue;
                }
                match daraja.stk_query(&checkout, context.clock.now(), daraja.settings().request_timeout).await {
                    Ok(QueryAnswer::Ended(code, desc)) => {
                        let raw = serde_json::json!({"query": {"ResultCode": code, "ResultDesc": desc}}).to_string();
                        let notify = context.notify.clone();
                        context
                            .database
                            .run(move |c| {
                                lifecycle::payment::resolve_prompt(
                                    c,
                                    &checkout,
                                    code,
                                    &desc,
                                    &Money::NotSaid,
                                    &raw,
                                    &notify,
                                    now,
                                )
                                .map_err(DbError::from)
                            })
                            .await?;
                        context.wake_outbox();
                    }
                    Ok(QueryAnswer::Processing) => {
                        tracing::info!(prompt = %prompt.id, queries = prompt.queries + 1, "an M-PESA prompt is still being processed; asked again later")
                    }
                    Err(error) => {
                        tracing::warn!(%error, prompt = %prompt.id, "an M-PESA status query failed; asked again later")
                    }
                }
            }
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn queries_space_out_and_stop() {
        let now = datetime!(2026-11-24 10:00);
        assert_eq!(next_after(1, now), Some(datetime!(2026-11-24 10:02)));
        assert_eq!(next_after(3, now), Some(datetime!(2026-11-24 10:08)));
        assert_eq!(next_after(4, now), Some(datetime!(2026-11-24 10:16)));
        assert_eq!(next_after(MAX_QUERIES, now), None);
    }
}
