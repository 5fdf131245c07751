//! The e-mail outbox as staff see it: counts, the last error, the e-mails that need a look, and
//! 'Send again'.

use super::{load_failed, private_json};
use crate::auth::CurrentStaff;
use crate::clock::now_utc;
use crate::db::{DbConnection, DbError};
use crate::error::ApiError;
use crate::mail::MailSettings;
use crate::models::outbox::OutboxMessage;
use crate::state::AppState;
use crate::views::admin::{MailReport, MailResent, OutboxMessageView};
use actix_web::{HttpResponse, web};

/// E-mails listed as needing a look.
const MAIL_PROBLEMS_SHOWN: i64 = 20;

/// The outbox report under `settings`, read now.
pub fn load_report(connection: &mut DbConnection, settings: &MailSettings) -> diesel::QueryResult<MailReport> {
    let summary = OutboxMessage::summary(connection, crate::domain::Channel::Email)?;
    let problems = OutboxMessage::problems(connection, MAIL_PROBLEMS_SHOWN)?;
    Ok(MailReport::new(settings, &summary, &problems))
}

/// GET /api/admin/mail: the outbox's counts, last error and the e-mails that need a look.
pub async fn get_mail(state: web::Data<AppState>, _staff: CurrentStaff) -> Result<HttpResponse, ApiError> {
    let settings = state.settings().mail.clone();
    let report =
        state.db().run(move |c| load_report(c, &settings).map_err(DbError::from)).await.map_err(load_failed)?;
    Ok(private_json(&report))
}

/// POST /api/admin/mail/{id}/resend: a failed or blocked e-mail goes back in the queue, due now.
pub async fn resend_email(
    state: web::Data<AppState>,
    staff: CurrentStaff,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    let settings = state.settings().mail.clone();
    let resent = state
        .db()
        .run(move |connection| {
            let Some(email) = OutboxMessage::resend(connection, &id, now_utc())? else { return Ok(None) };
            let order_id = OutboxMessage::order_id_of(connection, &email)?;
            Ok::<_, DbError>(Some((
                OutboxMessageView::new(&email, order_id.as_deref()),
                load_report(connection, &settings),
            )))
        })
        .await
        .map_err(|source| ApiError::Storage {
            message: "The e-mail could not be queued again. Please try again.",
            source,
        })?;
    let (email, report) = resent.ok_or_else(|| {
        ApiError::NotFound("There is no such e-mail, it was sent already, or it is being sent right now.".to_owned())
    })?;
    let report = report.map_err(|e| load_failed(DbError::from(e)))?;
    tracing::info!(email_id = %email.id, staff = %staff.email, "e-mail queued again by staff");
    state.wake_outbox();
    Ok(private_json(&MailResent { email, mail: report }))
}
