//! `POST /hooks/sms/delivery/{secret}`: Africa's Talking's delivery reports (form fields `id`,
//! `status`, `phoneNumber`, `networkCode`, `failureReason`). Each marks its SMS delivered, failed
//! (shown to staff) or still on its way; a report repeated or late never undoes a final one.

use super::{check_secret, field};
use crate::db::DbError;
use crate::domain::Delivery;
use crate::error::ApiError;
use crate::models::outbox::DeliveryReport;
use crate::state::AppState;
use actix_web::{HttpRequest, HttpResponse, web};
use std::collections::HashMap;

/// The longest id taken (Africa's Talking's are about 40 characters).
const MAX_ID: usize = 100;

/// Checks a report's fields.
fn report(form: &HashMap<String, String>) -> Result<DeliveryReport, ApiError> {
    let id = field(form, "id");
    if id.is_empty() || id.len() > MAX_ID || !id.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(ApiError::BadRequest("id must be the messageId of a sent SMS.".to_owned()));
    }
    let status = plain(field(form, "status"), 40);
    if status.is_empty() {
        return Err(ApiError::BadRequest("status must be the message's delivery status, like Success.".to_owned()));
    }
    // A word Africa's Talking may add later is kept in the detail and read as still on its way
    // (staff see it), rather than refused: the provider would only send it again.
    let delivery = Delivery::from_report(&status).unwrap_or(Delivery::Waiting);
    let mut detail = status;
    let network = plain(field(form, "networkCode"), 10);
    if !network.is_empty() {
        detail.push_str(&format!(" (network {network})"));
    }
    let reason = plain(field(form, "failureReason"), 100);
    if !reason.is_empty() {
        detail.push_str(&format!(": {reason}"));
    }
    Ok(DeliveryReport { provider_id: id.to_owned(), delivery, detail })
}

/// At most `max` characters of `text`, without control characters (a NUL would fail the insert
/// on PostgreSQL on every retry).
fn plain(text: &str, max: usize) -> String {
    text.chars().filter(|c| !c.is_control()).take(max).collect()
}

/// Records one delivery report. 200 also for an id we never sent (an old message, another
/// application of the account): the provider has nothing to retry.
pub async fn sms_delivery_report(
    state: web::Data<AppState>,
    request: HttpRequest,
    form: web::Form<HashMap<String, String>>,
) -> Result<HttpResponse, ApiError> {
    check_secret(&request, state.settings().sms.hook_secret.as_ref())?;
    let report = report(&form)?;
    let recorded = {
        let (report, now) = (report.clone(), state.now());
        state
            .db()
            .run(move |c| report.record(c, now).map_err(DbError::from))
            .await
            .map_err(|source| ApiError::Storage { message: "The report could not be stored.", source })?
    };
    if recorded {
        tracing::info!(provider_id = %report.provider_id, delivery = %report.delivery, detail = %report.detail, "SMS delivery report");
    } else {
        tracing::warn!(provider_id = %report.provider_id, "a delivery report for no SMS of ours");
    }
    Ok(HttpResponse::Ok().content_type("text/plain").body("OK"))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn form(fields: &[(&str, &str)]) -> HashMap<String, String> {
        fields.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
    }

    #[test]
    fn a_failed_report_keeps_its_network_and_reason() {
        let report = report(&form(&[
            ("id", "ATXid_1"),
            ("status", "Failed"),
            ("phoneNumber", "+254712345678"),
            ("networkCode", "63902"),
            ("failureReason", "UserInBlacklist"),
        ]))
        .unwrap();
        assert_eq!(report.delivery, Delivery::Failed);
        assert_eq!(report.detail, "Failed (network 63902): UserInBlacklist");
    }

    #[test]
    fn a_report_without_an_id_or_a_status_is_refused_and_an_unknown_status_is_kept_as_waiting() {
        assert!(report(&form(&[("status", "Success")])).is_err());
        assert!(report(&form(&[("id", "ATXid_1")])).is_err());
        let unknown = report(&form(&[("id", "ATXid_1"), ("status", "AbsentSubscriber\u{0}")])).unwrap();
        assert_eq!((unknown.delivery, unknown.detail.as_str()), (Delivery::Waiting, "AbsentSubscriber"));
    }
}
