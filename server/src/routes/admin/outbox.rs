//! The outbox as staff see it, e-mails and texts: per channel whether it can send (the variables
//! missing), the counts and the newest problem; the messages that need a look (a text reported
//! not delivered among them); and 'Send again'.

use super::{load_failed, private_json};
use crate::auth::CurrentStaff;
use crate::db::DbError;
use crate::error::ApiError;
use crate::models::outbox::OutboxMessage;
use crate::state::AppState;
use crate::views::outbox::{MessageResent, OutboxMessageView};
use actix_web::{HttpResponse, web};

use super::read::outbox::{Unconfigured, load_report, owners_budget};

/// GET /api/admin/outbox: each channel's state and the messages that need a look.
pub async fn show_outbox(state: web::Data<AppState>, staff: CurrentStaff) -> Result<HttpResponse, ApiError> {
    let missing = Unconfigured::of(state.settings());
    let budget = owners_budget(&state, &staff);
    let report =
        state.db().run(move |c| load_report(c, &missing, budget).map_err(DbError::from)).await.map_err(load_failed)?;
    Ok(private_json(&report))
}

/// POST /api/admin/outbox/{id}/resend: a failed, blocked or retried message, or a text reported
/// not delivered, goes back in the queue, due now.
pub async fn resend_message(
    state: web::Data<AppState>,
    staff: CurrentStaff,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    let missing = Unconfigured::of(state.settings());
    let budget = owners_budget(&state, &staff);
    let now = state.now();
    let resent = state
        .db()
        .run(move |connection| {
            let Some(message) = OutboxMessage::resend(connection, &id, now)? else { return Ok(None) };
            let order_id = OutboxMessage::order_id_of(connection, &message)?;
            Ok::<_, DbError>(Some((
                OutboxMessageView::new(&message, order_id.as_deref()),
                load_report(connection, &missing, budget),
            )))
        })
        .await
        .map_err(|source| ApiError::Storage {
            message: "The message could not be queued again. Please try again.",
            source,
        })?;
    let (message, report) = resent.ok_or_else(|| {
        ApiError::NotFound("There is no such message, it was sent already, or it is being sent right now.".to_owned())
    })?;
    let report = report.map_err(|e| load_failed(DbError::from(e)))?;
    tracing::info!(message_id = %message.id, channel = %message.channel, staff = %staff.email, "message queued again by staff");
    state.wake_outbox();
    Ok(private_json(&MessageResent { message, outbox: report }))
}
