//! The e-mails built from orders and contact messages, as outbox rows: the order e-mails (to staff
//! and to the customer), the contact e-mail to staff, and the customer's e-mails about a status
//! change and a confirmed pickup. Call them inside the transaction that stores what they are about,
//! and store the rows with [`OutboxMessage::enqueue`].
//!
//! The template parameters of each e-mail are exactly as spec section 7 names them. They are
//! computed when the order or message is stored and kept in the outbox row; `to_email` of a staff
//! e-mail is added when it is sent (from `ADMIN_NOTIFY_EMAIL`, which may be configured later).
//!
//! `order_id` is the order ID customers read and track by (DESIGN.md: one order ID everywhere);
//! `service_type` and `quantity` are the main (kg) line's, `total_amount` the order's total, and
//! the order e-mails add `order_lines`, every line as text, for a template that shows pieces. The
//! staff e-mail also says when and where the valet goes: `pickup_window`, `delivery_window`,
//! `landmark` and `rush`.

use crate::clock;
use crate::domain::catalogue::Unit;
use crate::domain::schedule::Slot;
use crate::domain::{Line, LineKind, MessageKind, OrderStatus};
use crate::models::contact_message::ContactMessage;
use crate::models::order::Order;
use crate::models::outbox::OutboxMessage;
use serde_json::{Value, json};
use time::PrimitiveDateTime;

/// The e-mails of a new order (spec section 7) booked for `visit` (its pickup and delivery): to
/// staff, and to the customer if they gave an e-mail, with the link to the order's page on the
/// site at `base_url`.
pub fn new_order(
    order: &Order,
    lines: &[Line],
    visit: (Slot, Slot),
    base_url: &str,
    till: &str,
    now: PrimitiveDateTime,
) -> Vec<OutboxMessage> {
    let staff = order_admin(order, lines, visit);
    let mut emails = vec![OutboxMessage::new(MessageKind::OrderAdmin, Some(&order.id), None, None, &staff, now)];
    if let Some(customer) = order_customer(order, lines, base_url, till) {
        emails.push(OutboxMessage::new(
            MessageKind::OrderCustomer,
            Some(&order.id),
            None,
            order.email.as_deref(),
            &customer,
            now,
        ));
    }
    emails
}

/// The e-mail to staff about a new contact message (spec section 7).
pub fn contact(message: &ContactMessage, now: PrimitiveDateTime) -> OutboxMessage {
    OutboxMessage::new(MessageKind::Contact, None, Some(&message.id), None, &contact_params(message), now)
}

/// The customer's e-mail about a status change, if they gave an e-mail.
pub fn status(order: &Order, status: OrderStatus, now: PrimitiveDateTime) -> Option<OutboxMessage> {
    let body = order_status(order, status, now)?;
    Some(OutboxMessage::new(MessageKind::OrderStatus, Some(&order.id), None, order.email.as_deref(), &body, now))
}

/// The customer's e-mail that staff confirmed the pickup in `pickup` (after moving it there when
/// `moved`), with the delivery that follows; `None` when they gave no e-mail.
pub fn slot_confirmed(
    order: &Order,
    pickup: Slot,
    delivery: Slot,
    moved: bool,
    now: PrimitiveDateTime,
) -> Option<OutboxMessage> {
    let body = slot_params(order, pickup, delivery, moved, now)?;
    Some(OutboxMessage::new(MessageKind::SlotConfirmed, Some(&order.id), None, order.email.as_deref(), &body, now))
}

/// The order e-mail to staff: the thirteen parameters but `to_email`, `order_lines`, and the visit:
/// `pickup_window` and `delivery_window` ("Thu 26 Nov, 19:00-20:00 (Nairobi time)"), `landmark`
/// ("None" when not given) and `rush` ("Yes" or "No").
fn order_admin(order: &Order, lines: &[Line], (pickup, delivery): (Slot, Slot)) -> Value {
    let (date, time) = clock::nairobi_date_time(order.created_at);
    let nairobi = |slot: Slot| format!("{} (Nairobi time)", slot.label());
    json!({
        "order_id": order.reference,
        "customer_name": order.customer_name,
        "customer_phone": order.phone,
        "customer_email": order.email.clone().unwrap_or_default(),
        "location": order.location,
        "service_type": order.service_label,
        "quantity": order.quantity,
        "total_amount": order.total_amount,
        "payment_method": order.payment_method.label(),
        "special_instructions": if order.special_instructions.trim().is_empty() { "None" } else { order.special_instructions.as_str() },
        "order_date": date,
        "order_time": time,
        "order_lines": lines_text(lines),
        "pickup_window": nairobi(pickup),
        "delivery_window": nairobi(delivery),
        "landmark": if order.landmark.trim().is_empty() { "None" } else { order.landmark.as_str() },
        "rush": if order.rush { "Yes" } else { "No" },
    })
}

/// The customer's confirmation: `None` when they gave no e-mail (spec section 7: then skipped).
/// Beyond the spec, `tracking_link`: the order's own page, `{base_url}/t/{token}`. `mpesa_till` is
/// the configured till (`MPESA_TILL`), as the pages and texts show it.
fn order_customer(order: &Order, lines: &[Line], base_url: &str, till: &str) -> Option<Value> {
    let email = order.email.as_deref()?;
    let (date, _) = clock::nairobi_date_time(order.created_at);
    let tracking_link = order.link_token.as_deref().map(|token| format!("{base_url}/t/{token}")).unwrap_or_default();
    Some(json!({
        "to_email": email,
        "customer_name": order.customer_name,
        "order_id": order.reference,
        "service_type": order.service_label,
        "quantity": order.quantity,
        "total_amount": order.total_amount,
        "location": order.location,
        "mpesa_till": till,
        "phone_number": order.phone,
        "order_date": date,
        "order_lines": lines_text(lines),
        "tracking_link": tracking_link,
    }))
}

/// The lines as an e-mail shows them, one a line: `Shirt × 2: KSh 400`.
fn lines_text(lines: &[Line]) -> String {
    let line = |line: &Line| {
        let quantity = match (line.kind, line.unit) {
            (LineKind::Discount | LineKind::Surcharge, _) => String::new(),
            (_, Unit::Kg) => format!(", {} kg", line.quantity),
            (_, Unit::Piece) => format!(" × {}", line.quantity),
        };
        let sign = if line.amount < 0 { "-" } else { "" };
        format!("{}{quantity}: {sign}KSh {}", line.label, line.amount.abs())
    };
    lines.iter().map(line).collect::<Vec<_>>().join("\n")
}

/// The contact e-mail to staff: the eight parameters but `to_email`.
fn contact_params(message: &ContactMessage) -> Value {
    let (date, time) = clock::nairobi_date_time(message.created_at);
    json!({
        "customer_name": message.name,
        "customer_email": message.email,
        "customer_phone": message.phone.clone().unwrap_or_else(|| "Not provided".to_owned()),
        "subject": message.subject,
        "message": message.message,
        "contact_date": date,
        "contact_time": time,
    })
}

/// Beyond the spec: the customer's e-mail when staff change the status; `None` without an e-mail.
fn order_status(order: &Order, status: OrderStatus, at: PrimitiveDateTime) -> Option<Value> {
    let email = order.email.as_deref()?;
    let (date, time) = clock::nairobi_date_time(at);
    Some(json!({
        "to_email": email,
        "customer_name": order.customer_name,
        "order_id": order.reference,
        "status": status.as_str(),
        "status_label": status.label(),
        "service_type": order.service_label,
        "total_amount": order.total_amount,
        "status_date": date,
        "status_time": time,
    }))
}

/// Beyond the spec: the customer's e-mail when staff confirm the pickup slot, or move it and
/// confirm the new one; `None` without an e-mail. It is sent with the status template, so it
/// carries that template's parameters (its `status_label` names the window) and the windows besides.
fn slot_params(order: &Order, pickup: Slot, delivery: Slot, moved: bool, at: PrimitiveDateTime) -> Option<Value> {
    let email = order.email.as_deref()?;
    let (date, time) = clock::nairobi_date_time(at);
    let status_label = if moved {
        format!("Pickup moved to {} (confirmed)", pickup.label())
    } else {
        format!("Pickup confirmed for {}", pickup.label())
    };
    Some(json!({
        "to_email": email,
        "customer_name": order.customer_name,
        "order_id": order.reference,
        "status": "slot-confirmed",
        "status_label": status_label,
        "pickup_window": pickup.label(),
        "delivery_window": delivery.label(),
        "service_type": order.service_label,
        "total_amount": order.total_amount,
        "status_date": date,
        "status_time": time,
    }))
}
