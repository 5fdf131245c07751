//! What the outbox report reads: each channel's messages and what it lacks, and the owner's budget
//! of texts.

use crate::auth::CurrentStaff;
use crate::config::Settings;
use crate::db::DbConnection;
use crate::domain::{Channel, StaffRole};
use crate::models::outbox::{DayBudget, OutboxMessage};
use crate::state::AppState;
use crate::views::outbox::{ChannelReport, OutboxReport, TextBudgetView};

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
