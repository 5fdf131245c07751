//! The orders tab: the list and status changes (an order's money is `money`'s). An order is named in the path
//! by its order ID, the 8 characters the table shows after '#'.

use super::query::{ListQuery, OrdersQuery, PAGE_SIZE, no_such_order, order_id};
use super::{StatusChange, json_body, load_failed, private_json, today};
use crate::auth::CurrentStaff;
use crate::db::DbError;
use crate::domain::{FieldErrors, OrderStatus, TextEnum};
use crate::error::ApiError;
use crate::lifecycle::status::MAX_REASON;
use crate::lifecycle::{self, Context, LifeError};
use crate::models::order::Order;
use crate::models::order_list::ListedOrder;
use crate::models::stats::Stats;
use crate::notify::NotifyCustomer;
use crate::state::AppState;
use crate::views::admin::OrdersPage;
use crate::views::order_detail::OrderChanged;
use crate::views::orders::AdminOrder;
use actix_web::{HttpResponse, web};

/// GET /api/admin/orders?status=&payment=&q=&page=
pub async fn list_orders(
    state: web::Data<AppState>,
    _staff: CurrentStaff,
    query: web::Query<ListQuery>,
) -> Result<HttpResponse, ApiError> {
    let query = OrdersQuery::parse(&query)?;
    let filter = query.clone();
    let page = state
        .db()
        .run(move |c| ListedOrder::page(c, &filter.filter, filter.page, PAGE_SIZE).map_err(DbError::from))
        .await
        .map_err(load_failed)?;
    Ok(private_json(&OrdersPage::new(&page, query.view(), query.page, PAGE_SIZE, state.now())))
}

/// POST /api/admin/orders/{orderId}/status `{"status": "ready", "notifyCustomer": true}`: any status
/// to any other, stored with its time and the staff member in the history; the customer is told by
/// e-mail and text unless `notifyCustomer` is false. `cancelled` needs a `reason` (the dashboard
/// asks for it after a confirmation), and, when the laundry was collected, a `returnStop` (the
/// window it goes back in, or `shop`); from `cancelled`, another status takes the cancellation back.
/// The stops follow the status (`lifecycle::status`); a change its stops refuse is a 409.
pub async fn change_order_status(
    state: web::Data<AppState>,
    staff: CurrentStaff,
    id: web::Path<String>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let change: StatusChange = json_body(
        &body,
        r#"a JSON object like {"status": "ready"}, {"status": "ready", "notifyCustomer": false} or {"status": "cancelled", "reason": "Customer asked"}"#,
    )?;
    let status = OrderStatus::parse(change.status.trim()).ok_or_else(|| {
        ApiError::BadRequest(format!("Unknown status '{}': use one of {}.", change.status, OrderStatus::choices()))
    })?;
    let reason = match crate::domain::optional_text(change.reason.as_deref(), "reason", MAX_REASON, false) {
        Ok(reason) => reason,
        Err(message) => {
            let mut fields = FieldErrors::default();
            fields.add("reason", message);
            return Err(ApiError::invalid(fields));
        }
    };
    if status == OrderStatus::Cancelled && reason.is_none() {
        let mut fields = FieldErrors::default();
        fields.add("reason", "Say why the order is cancelled (the customer asked, a duplicate, …).");
        return Err(ApiError::invalid(fields));
    }
    let racks = &state.settings().racks;
    let rack = match change.rack.as_deref().map(str::trim).filter(|rack| !rack.is_empty()) {
        None => None,
        Some(asked) => Some(lifecycle::garments::rack_named(asked, racks).ok_or_else(|| {
            let mut fields = FieldErrors::default();
            fields.add(
                "rack",
                format!(
                    "{} is not one of the racks. Choose one of: {}.",
                    asked.chars().take(20).collect::<String>(),
                    racks.join(", ")
                ),
            );
            ApiError::invalid(fields)
        })?),
    };
    let rack_needed = format!("Choose the rack where the order hangs: {}.", racks.join(", "));
    let return_stop = ReturnStop::parse(change.return_stop.as_deref())?;
    let (reference, by, day) = (order_id(&id)?, staff.email.clone(), today(&state));
    let now = state.now();
    let tell = change.notify_customer.unwrap_or(true);
    let notify = if tell { state.notify_customer() } else { NotifyCustomer::nobody() };
    let schedule = state.settings().schedule.clone();
    let updated = state
        .db()
        .run(move |connection| {
            let Some(found) = Order::find_by_reference(connection, &reference)? else { return Ok(Ok(None)) };
            let context = Context { by: &by, notify: &notify, schedule: &schedule, now };
            let set = match (status, rack.as_deref()) {
                (OrderStatus::Ready, Some(rack)) => {
                    lifecycle::status::set_ready_on_rack(connection, &found.id, rack, tell, &context)
                }
                (OrderStatus::Ready, None) if found.status != OrderStatus::Ready => {
                    return Ok(Err(Refused::RackNeeded));
                }
                (OrderStatus::Cancelled, _) if lifecycle::status::holds_laundry(found.status) => {
                    let reason = reason.as_deref().unwrap_or_default();
                    let return_to = match return_stop {
                        ReturnStop::NotAsked => return Ok(Err(Refused::ReturnNeeded)),
                        ReturnStop::Shop => Ok(None),
                        ReturnStop::Window(day, start) => {
                            schedule.check(day, start, now.assume_utc()).map(|(slot, _)| Some(slot))
                        }
                    };
                    match return_to {
                        Ok(return_to) => {
                            let told = (tell, return_to);
                            lifecycle::status::cancel_by_staff(connection, &found.id, reason, told, &context)
                        }
                        Err(refusal) => Err(LifeError::Slot(refusal)),
                    }
                }
                _ => lifecycle::status::set_by_staff(connection, &found.id, status, reason.as_deref(), tell, &context),
            };
            let changed = match set {
                Ok(changed) => changed,
                Err(LifeError::Database(error)) => return Err(DbError::from(error)),
                Err(refused) => return Ok(Err(Refused::Life(refused))),
            };
            let shown = AdminOrder::listed(&ListedOrder::of(connection, changed.after.order)?);
            Ok::<_, DbError>(Ok(Some((shown, Stats::load(connection, day)?))))
        })
        .await
        .map_err(|source| ApiError::Storage { message: "The status could not be saved. Please try again.", source })?;
    let (order, stats) = match updated {
        Ok(found) => found.ok_or_else(no_such_order)?,
        Err(Refused::RackNeeded) => {
            let mut fields = FieldErrors::default();
            fields.add("rack", rack_needed);
            return Err(ApiError::invalid(fields));
        }
        Err(Refused::ReturnNeeded) => {
            let mut fields = FieldErrors::default();
            fields.add("returnStop", RETURN_NEEDED);
            return Err(ApiError::invalid(fields));
        }
        Err(Refused::Life(LifeError::NotFound)) => return Err(no_such_order()),
        Err(Refused::Life(refused)) => return Err(ApiError::Conflict(refused.to_string())),
    };
    tracing::info!(order_id = %order.order.id, status = %order.order.status, staff = %staff.email, "order status changed");
    state.wake_outbox();
    Ok(private_json(&OrderChanged { order, stats }))
}

/// Why a status change was not made.
enum Refused {
    /// Ready needs a rack.
    RackNeeded,
    /// Cancelling collected laundry needs to say how it goes back.
    ReturnNeeded,
    /// The order's life refused it.
    Life(LifeError),
}

/// What staff read when a cancellation of collected laundry does not say how it goes back.
const RETURN_NEEDED: &str =
    "The laundry was collected: choose when it goes back to the customer, or that they collect it at the shop.";

/// How the laundry of an order cancelled after pickup goes back, as the form says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ReturnStop {
    /// Not said.
    NotAsked,
    /// The customer collects it at the shop.
    Shop,
    /// A return stop in this window (its day and start).
    Window(time::Date, u16),
}

impl ReturnStop {
    /// `returnStop`: none or blank, `shop`, or a window as the slot lists send it.
    fn parse(text: Option<&str>) -> Result<ReturnStop, ApiError> {
        match text.map(str::trim).filter(|text| !text.is_empty()) {
            None => Ok(ReturnStop::NotAsked),
            Some("shop") => Ok(ReturnStop::Shop),
            Some(window) => match crate::domain::schedule::parse_slot_value(window) {
                Some((day, start)) => Ok(ReturnStop::Window(day, start)),
                None => {
                    let mut fields = FieldErrors::default();
                    fields
                        .add("returnStop", "Choose a window from the list, or \"shop\" when the customer collects it.");
                    Err(ApiError::invalid(fields))
                }
            },
        }
    }
}
