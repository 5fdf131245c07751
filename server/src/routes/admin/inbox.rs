//! The inbox tab: texts customers sent to the shop's number. `GET /api/admin/inbox?status=&page=`
//! lists them; `POST /api/admin/inbox/{id}/status` `{"status": "read"|"handled"|"new"}` marks one;
//! `POST /api/admin/inbox/{id}/answer` `{"text": "…"}` answers one by text (an SMS of its own
//! kind, to the text's number, unless it opted out), recording who answered and when.

use super::query::{PAGE_SIZE, page_number};
use super::{json_body, load_failed, private_json};
use crate::auth::CurrentStaff;
use crate::db::DbError;
use crate::domain::{FieldErrors, InboxStatus, PhoneNumber};
use crate::error::ApiError;
use crate::models::inbox::{AnswerError, Inbox};
use crate::sms::gsm;
use crate::state::AppState;
use crate::views::inbox::{
    ANSWER_GSM_CHARS, ANSWER_SEGMENTS, ANSWER_UNICODE_CHARS, InboxChanged, InboxPage, InboxText,
};
use actix_web::{HttpResponse, web};
use serde::Deserialize;

/// `?status=&page=` of the inbox.
#[derive(Debug, Default, Deserialize)]
pub struct InboxQuery {
    /// new, read, handled, or all.
    pub status: Option<String>,
    /// From 1.
    pub page: Option<String>,
}

/// An inbox status filter: `None` for all.
pub fn inbox_status(value: Option<&str>) -> Result<Option<InboxStatus>, ApiError> {
    match value.map(str::trim).filter(|s| !s.is_empty() && *s != "all") {
        None => Ok(None),
        Some(value) => InboxStatus::parse(value).map(Some).ok_or_else(|| {
            ApiError::BadRequest(format!("Unknown text status '{value}': use new, read, handled or all."))
        }),
    }
}

/// GET /api/admin/inbox?status=&page=
pub async fn list_inbox(
    state: web::Data<AppState>,
    _staff: CurrentStaff,
    query: web::Query<InboxQuery>,
) -> Result<HttpResponse, ApiError> {
    let status = inbox_status(query.status.as_deref())?;
    let number = page_number(query.page.as_deref())?;
    let page = state.db().run(move |connection| load_inbox(connection, status, number)).await.map_err(load_failed)?;
    Ok(private_json(&page))
}

/// The inbox's page `number` of texts of `status`, as the dashboard shows it.
pub fn load_inbox(
    connection: &mut crate::db::DbConnection,
    status: Option<InboxStatus>,
    number: i64,
) -> Result<InboxPage, DbError> {
    let page = Inbox::page(connection, status, number, PAGE_SIZE)?;
    let unread = Inbox::unread(connection)?;
    Ok(InboxPage::new(&page, status, number, PAGE_SIZE, unread))
}

/// `{"status": "read"}`
#[derive(Debug, Deserialize)]
struct StatusInput {
    status: String,
}

/// POST /api/admin/inbox/{id}/status `{"status": "new"|"read"|"handled"}`
pub async fn change_text_status(
    state: web::Data<AppState>,
    staff: CurrentStaff,
    id: web::Path<String>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let change: StatusInput = json_body(&body, r#"a JSON object like {"status": "handled"}"#)?;
    let status = InboxStatus::parse(change.status.trim()).ok_or_else(|| {
        ApiError::BadRequest(format!("Unknown text status '{}': use new, read or handled.", change.status.trim()))
    })?;
    let (id, by, now) = (id.into_inner(), staff.email.clone(), state.now());
    let changed = state
        .db()
        .run(move |connection| {
            let entry = Inbox::set_status(connection, &id, status, &by, now)?;
            let unread = Inbox::unread(connection)?;
            Ok::<_, DbError>(entry.map(|entry| InboxChanged { text: InboxText::from(&entry), unread }))
        })
        .await
        .map_err(|source| ApiError::Storage { message: "The text could not be updated. Please try again.", source })?;
    let changed = changed.ok_or_else(no_such_text)?;
    Ok(private_json(&changed))
}

/// `{"text": "…"}`
#[derive(Debug, Deserialize)]
struct AnswerInput {
    text: Option<String>,
}

/// The answer's words, checked: not empty, no control characters but line breaks, at most
/// [`ANSWER_SEGMENTS`] SMS segments.
pub fn check_answer(text: Option<&str>) -> Result<String, ApiError> {
    let words: String = text
        .unwrap_or_default()
        .trim()
        .chars()
        .filter(|c| !c.is_control() || *c == '\n')
        .collect::<String>()
        .replace("\r\n", "\n");
    let mut fields = FieldErrors::default();
    if words.is_empty() {
        fields.add("text", "Write the answer: it cannot be empty.");
    } else if gsm::segments(&words) > ANSWER_SEGMENTS {
        let (limit, alphabet) = if gsm::is_gsm(&words) {
            (ANSWER_GSM_CHARS, "")
        } else {
            (ANSWER_UNICODE_CHARS, " (it has an emoji or another character outside the plain SMS alphabet)")
        };
        fields.add(
            "text",
            format!(
                "The answer is too long: at most {ANSWER_SEGMENTS} texts, that is {limit} characters{alphabet}; it has {}.",
                words.chars().count()
            ),
        );
    }
    if fields.is_empty() { Ok(words) } else { Err(ApiError::invalid(fields)) }
}

/// POST /api/admin/inbox/{id}/answer `{"text": "…"}`: 200 with the text and its answers; 422 with
/// the field's problem (empty, too long) or when the number opted out of texts.
pub async fn answer_text(
    state: web::Data<AppState>,
    staff: CurrentStaff,
    id: web::Path<String>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let input: AnswerInput = json_body(&body, r#"a JSON object like {"text": "We come at 7pm."}"#)?;
    let words = check_answer(input.text.as_deref())?;
    let (id, by, now) = (id.into_inner(), staff.email.clone(), state.now());
    let limits = state.texts().limits;
    let answered = state
        .db()
        .run(move |connection| match Inbox::answer(connection, &id, &words, &by, &limits, now) {
            Ok(entry) => {
                let unread = Inbox::unread(connection)?;
                Ok(Ok(InboxChanged { text: InboxText::from(&entry), unread }))
            }
            Err(AnswerError::Database(error)) => Err(DbError::from(error)),
            Err(refused) => Ok(Err(refused)),
        })
        .await
        .map_err(|source| ApiError::Storage { message: "The answer could not be saved. Please try again.", source })?;
    let refused = |message: &str| {
        let mut fields = FieldErrors::default();
        fields.add("text", message.to_owned());
        ApiError::Invalid { message: message.to_owned(), fields }
    };
    match answered {
        Ok(changed) => {
            let to = PhoneNumber::masked(&changed.text.from);
            tracing::info!(sms_id = %changed.text.id, %to, staff = %staff.email, "a text answered from the inbox");
            state.wake_outbox();
            Ok(private_json(&changed))
        }
        Err(AnswerError::NotFound) => Err(no_such_text()),
        Err(AnswerError::OptedOut) => Err(refused(
            "This number opted out of texts (it texted STOP, or chose so on its order page): nothing was sent. Call the customer instead.",
        )),
        Err(AnswerError::SwitchedOff) => Err(refused(
            "Staff's answers are switched off under 'Texts to customers': nothing was sent. Switch them on to answer by text.",
        )),
        Err(AnswerError::OverLimit) => Err(refused(
            "This number has had as many texts in the last hour as we send one phone: nothing was sent. Call the customer instead, or answer later.",
        )),
        Err(AnswerError::Database(_)) => Err(no_such_text()),
    }
}

fn no_such_text() -> ApiError {
    ApiError::NotFound("There is no such text.".to_owned())
}
