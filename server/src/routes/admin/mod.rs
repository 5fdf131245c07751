//! The staff side: the login, and behind [`crate::auth::require_staff`] the dashboard page under
//! `/admin` and its JSON API under `/api/admin`. `startup.rs` lists every route; the handlers are
//! grouped by what they serve:
//!
//! - [`bookings`]: bookings staff take for a caller (phone, WhatsApp), and the form's choices;
//! - [`customers`]: finding a caller by their phone number;
//! - [`session`]: sign in (limit check, password check, session start) and sign out;
//! - [`dashboard`]: the dashboard page and its stat cards;
//! - [`garments`]: an order's items, photos, bags, rack and tag labels (issue 36);
//! - [`floor`]: the shop floor: find by tag, the rack audit, claims resolved;
//! - [`money`]: an order's payments, refunds, discounts, credit and corrections; the cash-up and
//!   the balances due;
//! - [`orders`]: the orders list and status changes;
//! - [`detail`]: one order with its history, e-mails, texts and M-PESA;
//! - [`payments`]: M-PESA payments to check (match to an order, mark checked), and prompts sent
//!   by staff;
//! - [`messages`]: the contact messages list and their status;
//! - [`inbox`]: texts customers sent to the shop's number, their state, and staff's answers;
//! - [`outbox`]: the outbox of e-mails and texts as staff see it, and 'Send again';
//! - [`slots`]: pickup slots awaiting confirmation, confirming and moving them;
//! - [`run`]: the day board and saving the day's runs;
//! - [`staff`]: staff accounts (owner only);
//! - [`texts`]: the kinds of text staff switch off and on.

pub mod bookings;
pub mod customers;
pub mod dashboard;
pub mod detail;
pub mod floor;
mod form;
pub mod garments;
pub mod inbox;
pub mod messages;
pub mod money;
pub mod orders;
pub mod outbox;
mod payment_search;
pub mod payments;
mod query;
mod read;
pub mod reports;
pub mod run;
pub mod session;
pub mod slots;
pub mod staff;
pub mod texts;

use crate::clock::stored;
use crate::db::DbError;
use crate::domain::schedule::nairobi_day;
use crate::error::ApiError;
use crate::state::AppState;
use actix_web::HttpResponse;
use actix_web::http::header;
use serde::Serialize;

pub use query::PAGE_SIZE;

/// The message of a failed query on the dashboard.
const LOAD_FAILED: &str = "The dashboard data could not be loaded. Please try again.";

fn load_failed(source: DbError) -> ApiError {
    ApiError::Storage { message: LOAD_FAILED, source }
}

/// Now by the settings' clock, as the M-PESA callbacks and jobs read it (prompts' rate limits
/// compare times written by both).
fn clock_now(state: &AppState) -> time::PrimitiveDateTime {
    stored(state.settings().clock.now())
}

/// Today in Nairobi, the day whose takings the stat cards show.
fn today(state: &AppState) -> time::Date {
    nairobi_day(state.settings().clock.now())
}

/// A JSON answer no cache may keep: it holds customers' details.
fn private_json(body: &impl Serialize) -> HttpResponse {
    HttpResponse::Ok().insert_header((header::CACHE_CONTROL, "no-store")).json(body)
}

/// The body of a change, or 400 naming the `shape` expected.
fn json_body<T: serde::de::DeserializeOwned>(body: &[u8], shape: &str) -> Result<T, ApiError> {
    serde_json::from_slice(body).map_err(|error| ApiError::BadRequest(format!("The body must be {shape} ({error}).")))
}

/// `{"status": …}`; orders also take `"notifyCustomer": false` (the customer's e-mail and text are
/// then not written; the default tells them).
#[derive(Debug, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct StatusChange {
    status: String,
    notify_customer: Option<bool>,
    /// Why, when the status is `cancelled` (required then).
    reason: Option<String>,
    /// The rack the order hangs on, when the status is `ready` (required then, unless the order
    /// is ready already): one of `LAUNDRY_RACKS`.
    rack: Option<String>,
    /// When the status is `cancelled` and the laundry was collected (required then): the window
    /// it goes back in, `2026-11-27T19:00`, or `shop` when the customer collects it there.
    return_stop: Option<String>,
}
