//! The kinds of text staff switch off and on again: `GET /api/admin/texts` lists them,
//! `POST /api/admin/texts` `{"kind": "sms-eta", "enabled": false}` switches one. A kind switched
//! off is not written from then on, and texts of it already queued are skipped by the worker.

use super::{json_body, load_failed, private_json};
use crate::auth::CurrentStaff;
use crate::db::{DbError, write_transaction};
use crate::domain::{Channel, FieldErrors, MessageKind};
use crate::error::ApiError;
use crate::models::outbox::MessageSwitch;
use crate::state::AppState;
use crate::views::texts::TextSwitches;
use actix_web::{HttpResponse, web};
use serde::Deserialize;

/// GET /api/admin/texts: every kind of text, on or off, and who switched it last.
pub async fn list_texts(state: web::Data<AppState>, _staff: CurrentStaff) -> Result<HttpResponse, ApiError> {
    let switches = state
        .db()
        .run(|connection| MessageSwitch::all(connection).map_err(DbError::from))
        .await
        .map_err(load_failed)?;
    Ok(private_json(&TextSwitches::new(&switches)))
}

/// `{"kind": "sms-eta", "enabled": false}`
#[derive(Debug, Deserialize)]
struct SwitchInput {
    kind: String,
    enabled: Option<bool>,
}

impl SwitchInput {
    fn validate(self) -> Result<(MessageKind, bool), ApiError> {
        let mut fields = FieldErrors::default();
        let kind = MessageKind::parse(self.kind.trim()).filter(|kind| kind.channel() == Channel::Sms);
        let mut message = None;
        if kind.is_none() {
            let choices: Vec<&str> = MessageKind::SMS.iter().map(|kind| kind.as_str()).collect();
            let unknown = format!("Unknown kind of text '{}': use one of {}.", self.kind, choices.join(", "));
            fields.add("kind", unknown.clone());
            message = Some(unknown);
        }
        if self.enabled.is_none() {
            fields.add("enabled", "Say whether texts of this kind are sent: true or false.");
        }
        match (kind, self.enabled) {
            (Some(kind), Some(enabled)) => Ok((kind, enabled)),
            _ => Err(match message {
                Some(message) => ApiError::Invalid { message, fields },
                None => ApiError::invalid(fields),
            }),
        }
    }
}

/// POST /api/admin/texts: switches one kind of text on or off, recording who and when; answers
/// every kind as it now stands.
pub async fn switch_text(
    state: web::Data<AppState>,
    staff: CurrentStaff,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let input: SwitchInput = json_body(&body, r#"a JSON object like {"kind": "sms-eta", "enabled": false}"#)?;
    let (kind, enabled) = input.validate()?;
    let (by, now) = (staff.email.clone(), state.now());
    let switches = state
        .db()
        .run(move |connection| {
            write_transaction(connection, |connection| {
                MessageSwitch::set(connection, kind, enabled, &by, now)?;
                MessageSwitch::all(connection)
            })
            .map_err(DbError::from)
        })
        .await
        .map_err(|source| ApiError::Storage { message: "The change could not be saved. Please try again.", source })?;
    tracing::info!(kind = kind.as_str(), enabled, staff = %staff.email, "a kind of text switched");
    Ok(private_json(&TextSwitches::new(&switches)))
}
