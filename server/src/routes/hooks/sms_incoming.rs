//! `POST /hooks/sms/incoming/{secret}`: texts customers send to the shop's number, as Africa's
//! Talking's incoming-message callback (form fields `from`, `to`, `text`, `date`, `id`,
//! `linkId`). Every text is stored for staff (the inbox); the pickup letter books a pickup for a
//! number with a recent order; STOP and START switch the number's texts; a reply is written only
//! to a number with a recent order, a few a day (see `lifecycle::by_text`). The same callback
//! again is answered 200 and changes nothing.

use super::{check_secret, field};
use crate::db::DbError;
use crate::domain::{IncomingSms, OrderSource, PhoneNumber};
use crate::error::ApiError;
use crate::lifecycle::by_text::{self, Answered, ReplyRules};
use crate::lifecycle::place::{PlaceError, PlacingTerms};
use crate::state::AppState;
use actix_web::{HttpRequest, HttpResponse, web};
use std::collections::HashMap;

/// Answers one text. 200 once it is stored and answered (or was before): Africa's Talking has
/// nothing to retry then.
pub async fn sms_incoming(
    state: web::Data<AppState>,
    request: HttpRequest,
    form: web::Form<HashMap<String, String>>,
) -> Result<HttpResponse, ApiError> {
    check_secret(&request, state.settings().sms.hook_secret.as_ref())?;
    // The text is kept as sent (its spaces too); the other fields are trimmed.
    let text = form.get("text").map_or("", String::as_str);
    let sms = IncomingSms::parse(field(&form, "id"), field(&form, "from"), field(&form, "to"), text)
        .map_err(ApiError::BadRequest)?;
    let answered = {
        let (sms, texts) = (sms.clone(), state.texts().clone());
        let (first_order_discount, schedule) =
            (state.settings().first_order_discount, state.settings().schedule.clone());
        let sms_settings = &state.settings().sms;
        let rules = ReplyRules { months: sms_settings.reply_months, per_day: sms_settings.replies_per_day };
        let now = state.now();
        state
            .db()
            .run(move |connection| {
                let terms = PlacingTerms::new(first_order_discount, &schedule, &texts, OrderSource::Sms, false);
                // Now as orders are stamped: the months and the day of the rules compare with them.
                by_text::answer(connection, &sms, &terms, rules, now).map_err(|error| match error {
                    PlaceError::Database(error) => DbError::Query(error),
                    // Not reachable for a text (its key is its own id, new orders are allowed,
                    // a window taken meanwhile is looked for again): kept as the cause.
                    other => DbError::Task(other.to_string()),
                })
            })
            .await
            .map_err(|source| ApiError::Storage { message: "The text could not be stored.", source })?
    };
    let from = PhoneNumber::masked(sms.from.as_str());
    match answered {
        Answered::Now { outcome, order, booked } => {
            let order = order.map(|order| order.reference);
            tracing::info!(sms_id = %sms.id, %from, %outcome, order = ?order, booked, "text to the shop's number answered");
            state.wake_outbox();
        }
        Answered::Before => tracing::info!(sms_id = %sms.id, %from, "text to the shop's number seen before"),
    }
    Ok(HttpResponse::Ok().content_type("text/plain").body("OK"))
}
