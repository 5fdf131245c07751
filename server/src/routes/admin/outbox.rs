//! The outbox as staff see it, e-mails and texts: per channel whether it can send (the variables
//! missing), the counts and the newest problem; the messages that need a look (a text reported
//! not delivered among them); and 'Send again'.

use super::{load_failed, private_json};
use crate::auth::CurrentStaff;
use crate::config::Settings;
use crate::db::{DbConnection, DbError};
use crate::domain::{Channel, StaffRole};
use crate::error::ApiError;
use crate::models::outbox::{DayBudget, OutboxMessage};
use crate::state::AppState;
use crate::views::outbox::{ChannelReport, MessageResent, OutboxMessageView, OutboxReport, TextBudgetView};
use actix_web::{HttpResponse, web};

/// Messages listed as needing a look.
const PROBLEMS_SHOWN: i64 = 20;

/// The variables each channel still needs, taken from the settings before a query runs.
#[derive(Debug, Clone)]
pub struct Unconfigured {
    email: Vec<&'static str>,
    sms: Vec<&'static str>,
}

impl Unconfigured {
    /// What `settings` lack for e-mail and for texts.
    pub fn of(settings: &Settings) -> Self {
        Unconfigured { email: settings.mail.missing(), sms: settings.sms.missing() }
    }
}

/// Today's budget of texts when `staff` is the owner (only the owner is warned about it).
pub fn owners_budget(state: &AppState, staff: &CurrentStaff) -> Option<DayBudget> {
    let settings = state.settings();
    (staff.role == StaffRole::Owner).then(|| DayBudget::of(settings.sms.limits.daily_budget, settings.clock.now()))
}

/// The outbox report, read now; `missing` says which channels can send, `budget` (the owner's)
/// whether to warn about the day's texts.
pub fn load_report(
    connection: &mut DbConnection,
    missing: &Unconfigured,
    budget: Option<DayBudget>,
) -> diesel::QueryResult<OutboxReport> {
    let email = OutboxMessage::summary(connection, Channel::Email)?;
    let sms = OutboxMessage::summary(connection, Channel::Sms)?;
    let problems = OutboxMessage::problems(connection, PROBLEMS_SHOWN)?;
    let text_budget = match budget {
        Some(day) => {
            let sent = OutboxMessage::sent_between(connection, Channel::Sms, day.start, day.end)?;
            TextBudgetView::new(sent, day.budget)
        }
        None => None,
    };
    Ok(OutboxReport::new(
        ChannelReport::new(Channel::Email, &missing.email, &email),
        ChannelReport::new(Channel::Sms, &missing.sms, &sms),
        &problems,
        text_budget,
    ))
}

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
