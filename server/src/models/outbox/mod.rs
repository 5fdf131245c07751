//! The e-mail outbox: rows written with the order or message they belong to, claimed by the mail
//! worker under a lease ([`queue`]), and what staff see of it ([`report`]).

mod params;
mod queue;
mod report;

pub use queue::{Finish, Pace};
pub use report::OutboxSummary;

use crate::db::DbConnection;
use crate::db::schema::email_outbox;
use crate::domain::schedule::Slot;
use crate::domain::{EmailKind, Line, OrderStatus, OutboxStatus};
use crate::models::contact_message::ContactMessage;
use crate::models::order::Order;
use diesel::prelude::*;
use serde_json::Value;
use time::PrimitiveDateTime;
use uuid::Uuid;

/// One e-mail to send.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = email_outbox)]
pub struct OutboxEmail {
    /// UUID v4.
    pub id: String,
    /// What it is.
    pub kind: EmailKind,
    /// The order it is about.
    pub order_id: Option<String>,
    /// The contact message it is about.
    pub contact_message_id: Option<String>,
    /// The recipient; `None` for staff e-mails (`ADMIN_NOTIFY_EMAIL` when sent).
    pub to_email: Option<String>,
    /// The template parameters, JSON (without `to_email` for staff e-mails).
    pub params: String,
    /// Where it stands.
    pub status: OutboxStatus,
    /// Claims so far.
    pub attempts: i32,
    /// Not to be sent before this, UTC.
    pub next_attempt_at: PrimitiveDateTime,
    /// The worker that holds the row.
    pub lease_owner: Option<String>,
    /// Until when it holds it, UTC; after that another worker may take the row.
    pub lease_until: Option<PrimitiveDateTime>,
    /// The last answer or error that was not a success.
    pub last_error: Option<String>,
    /// When the last attempt ended, UTC.
    pub last_attempt_at: Option<PrimitiveDateTime>,
    /// UTC.
    pub created_at: PrimitiveDateTime,
    /// UTC.
    pub sent_at: Option<PrimitiveDateTime>,
}

impl OutboxEmail {
    /// A new pending row, due now.
    pub fn new(
        kind: EmailKind,
        order_id: Option<&str>,
        contact_message_id: Option<&str>,
        to_email: Option<&str>,
        params: &Value,
        now: PrimitiveDateTime,
    ) -> Self {
        OutboxEmail {
            id: Uuid::new_v4().to_string(),
            kind,
            order_id: order_id.map(str::to_owned),
            contact_message_id: contact_message_id.map(str::to_owned),
            to_email: to_email.map(str::to_owned),
            params: params.to_string(),
            status: OutboxStatus::Pending,
            attempts: 0,
            next_attempt_at: now,
            lease_owner: None,
            lease_until: None,
            last_error: None,
            last_attempt_at: None,
            created_at: now,
            sent_at: None,
        }
    }

    /// The e-mails of a new order (spec section 7): to staff, and to the customer if they gave an
    /// e-mail, with the link to the order's page on the site at `base_url`.
    pub fn for_new_order(order: &Order, lines: &[Line], base_url: &str, now: PrimitiveDateTime) -> Vec<OutboxEmail> {
        let mut emails = vec![Self::new(
            EmailKind::OrderAdmin,
            Some(&order.id),
            None,
            None,
            &params::order_admin(order, lines),
            now,
        )];
        if let Some(customer) = params::order_customer(order, lines, base_url) {
            emails.push(Self::new(
                EmailKind::OrderCustomer,
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
    pub fn for_contact(message: &ContactMessage, now: PrimitiveDateTime) -> OutboxEmail {
        Self::new(EmailKind::Contact, None, Some(&message.id), None, &params::contact(message), now)
    }

    /// The customer's e-mail about a status change, if they gave an e-mail.
    pub fn for_status(order: &Order, status: OrderStatus, now: PrimitiveDateTime) -> Option<OutboxEmail> {
        let body = params::order_status(order, status, now)?;
        Some(Self::new(EmailKind::OrderStatus, Some(&order.id), None, order.email.as_deref(), &body, now))
    }

    /// The customer's e-mail that staff confirmed the pickup in `pickup` (after moving it there when
    /// `moved`), with the delivery that follows; `None` when they gave no e-mail.
    pub fn for_slot(
        order: &Order,
        pickup: Slot,
        delivery: Slot,
        moved: bool,
        now: PrimitiveDateTime,
    ) -> Option<OutboxEmail> {
        let body = params::slot_confirmed(order, pickup, delivery, moved, now)?;
        Some(Self::new(EmailKind::SlotConfirmed, Some(&order.id), None, order.email.as_deref(), &body, now))
    }

    /// Stores rows; call it inside the transaction that stores what they are about.
    pub fn enqueue(connection: &mut DbConnection, rows: &[OutboxEmail]) -> QueryResult<()> {
        for row in rows {
            diesel::insert_into(email_outbox::table).values(row).execute(connection)?;
        }
        Ok(())
    }
}
