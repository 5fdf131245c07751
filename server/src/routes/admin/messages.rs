//! The contact messages tab: the list, and marking a message handled or new again.

use super::query::{ListQuery, PAGE_SIZE, message_status, page_number};
use super::{StatusChange, json_body, load_failed, private_json, today};
use crate::auth::CurrentStaff;
use crate::db::DbError;
use crate::domain::MessageStatus;
use crate::error::ApiError;
use crate::models::contact_message::ContactMessage;
use crate::models::stats::Stats;
use crate::state::AppState;
use crate::views::messages::{MessageChanged, MessagesPage};
use crate::views::orders::AdminMessage;
use actix_web::{HttpResponse, web};

/// GET /api/admin/messages?status=&page=
pub async fn list_messages(
    state: web::Data<AppState>,
    _staff: CurrentStaff,
    query: web::Query<ListQuery>,
) -> Result<HttpResponse, ApiError> {
    let status = message_status(query.status.as_deref())?;
    let number = page_number(query.page.as_deref())?;
    let page = state
        .db()
        .run(move |c| ContactMessage::page(c, status, number, PAGE_SIZE).map_err(DbError::from))
        .await
        .map_err(load_failed)?;
    Ok(private_json(&MessagesPage::new(&page, status, number, PAGE_SIZE)))
}

/// POST /api/admin/messages/{id}/status `{"status": "handled"|"new"}`
pub async fn change_message_status(
    state: web::Data<AppState>,
    staff: CurrentStaff,
    id: web::Path<String>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let change: StatusChange = json_body(&body, r#"a JSON object like {"status": "handled"}"#)?;
    let status = MessageStatus::parse(change.status.trim()).ok_or_else(|| {
        ApiError::BadRequest(format!("Unknown message status '{}': use new or handled.", change.status.trim()))
    })?;
    let (id, by, day, now) = (id.into_inner(), staff.email.clone(), today(&state), state.now());
    let updated = state
        .db()
        .run(move |connection| {
            let message = ContactMessage::set_status(connection, &id, status, &by, now)?;
            let stats = Stats::load(connection, day)?;
            Ok::<_, DbError>(message.map(|message| (message, stats)))
        })
        .await
        .map_err(|source| ApiError::Storage {
            message: "The message could not be updated. Please try again.",
            source,
        })?;
    let (message, stats) = updated.ok_or_else(|| ApiError::NotFound("There is no such message.".to_owned()))?;
    Ok(private_json(&MessageChanged { message: AdminMessage::from(&message), stats }))
}
