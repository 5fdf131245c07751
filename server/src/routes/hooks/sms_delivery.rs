//! `POST /hooks/sms/delivery/{secret}`: Africa's Talking's delivery reports (form fields `id`,
//! `status`, `phoneNumber`, `networkCode`, `failureReason`). Each marks its SMS delivered, failed
//! (shown to staff) or still on its way; a report repeated or late never undoes a final one.

use super::{check_secret, field};
use crate::clock::now_utc;
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
    let status = field(form, "status");
    let delivery = Delivery::from_report(status).ok_or_else(|| {
        ApiError::BadRequest("status must be one of Sent, Submitted, Buffered, Success, Rejected or Failed.".to_owned())
    })?;
    let mut detail = status.to_owned();
    let network = field(form, "networkCode");
    if !network.is_empty() {
        detail.push_str(&format!(" (network {})", network.chars().take(10).collect::<String>()));
    }
    let reason = field(form, "failureReason");
    if !reason.is_empty() {
        detail.push_str(&format!(": {}", reason.chars().take(100).collect::<String>()));
    }
    Ok(DeliveryReport { provider_id: id.to_owned(), delivery, detail })
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
        let report = report.clone();
        state
            .db()
            .run(move |c| report.record(c, now_utc()).map_err(DbError::from))
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
    fn a_report_without_an_id_or_with_an_unknown_status_is_refused() {
        assert!(report(&form(&[("status", "Success")])).is_err());
        assert!(report(&form(&[("id", "ATXid_1"), ("status", "Lost")])).is_err());
    }
}
