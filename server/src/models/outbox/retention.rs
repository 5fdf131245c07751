//! Keeping the outbox to what is recent: a message older than the owner's limit is summarised for
//! its order (what was sent and when, by which channel; no recipient, no words) and deleted. A
//! message still waiting to be sent is kept whatever its age.

use super::OutboxMessage;
use crate::db::schema::{outbox, outbox_archive};
use crate::db::{DbConnection, write_transaction};
use crate::domain::{Channel, Delivery, MessageKind, OutboxStatus};
use diesel::prelude::*;
use time::PrimitiveDateTime;

/// What an order keeps of a message the retention job deleted.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = outbox_archive)]
pub struct ArchivedMessage {
    /// Increasing.
    pub id: i64,
    /// The order it was about.
    pub order_id: Option<String>,
    /// E-mail or SMS.
    pub channel: Channel,
    /// What it was.
    pub kind: MessageKind,
    /// Where it stood when it was summarised.
    pub status: OutboxStatus,
    /// A text: the network's last delivery report.
    pub delivery: Option<Delivery>,
    /// When it was written, UTC.
    pub created_at: PrimitiveDateTime,
    /// When it was sent, UTC.
    pub sent_at: Option<PrimitiveDateTime>,
}

impl ArchivedMessage {
    /// The summaries of order `order_id`'s deleted messages, oldest first.
    pub fn of_order(connection: &mut DbConnection, order_id: &str) -> QueryResult<Vec<ArchivedMessage>> {
        outbox_archive::table
            .filter(outbox_archive::order_id.eq(order_id))
            .order((outbox_archive::created_at.asc(), outbox_archive::id.asc()))
            .select(ArchivedMessage::as_select())
            .load(connection)
    }

    /// As the order's detail lists it beside the messages kept: an outbox row without recipient
    /// or words.
    pub fn as_message(&self) -> OutboxMessage {
        OutboxMessage {
            id: format!("summary-{}", self.id),
            channel: self.channel,
            kind: self.kind,
            order_id: self.order_id.clone(),
            contact_message_id: None,
            to_email: None,
            to_phone: None,
            params: "{}".to_owned(),
            status: self.status,
            attempts: i32::from(self.sent_at.is_some()),
            next_attempt_at: self.created_at,
            lease_owner: None,
            lease_until: None,
            last_error: None,
            last_attempt_at: None,
            created_at: self.created_at,
            sent_at: self.sent_at,
            provider_id: None,
            delivery: self.delivery,
            delivery_detail: None,
            delivery_at: None,
            dedupe_key: None,
            send_before: None,
        }
    }
}

impl OutboxMessage {
    /// Summarises and deletes at most `batch` messages written before `before` that are not waiting
    /// to be sent (sent, failed, blocked, skipped), oldest first, in one transaction; how many.
    /// Messages about no order (contact messages to staff) leave no summary.
    pub fn summarise_before(
        connection: &mut DbConnection,
        before: PrimitiveDateTime,
        batch: i64,
    ) -> QueryResult<usize> {
        write_transaction(connection, |connection| {
            let old: Vec<OutboxMessage> = outbox::table
                .filter(outbox::created_at.lt(before))
                .filter(outbox::status.ne(OutboxStatus::Pending))
                .order(outbox::created_at.asc())
                .limit(batch)
                .select(OutboxMessage::as_select())
                .load(connection)?;
            let summaries: Vec<_> = old
                .iter()
                .filter(|message| message.order_id.is_some())
                .map(|message| {
                    (
                        outbox_archive::order_id.eq(message.order_id.clone()),
                        outbox_archive::channel.eq(message.channel),
                        outbox_archive::kind.eq(message.kind),
                        outbox_archive::status.eq(message.status),
                        outbox_archive::delivery.eq(message.delivery),
                        outbox_archive::created_at.eq(message.created_at),
                        outbox_archive::sent_at.eq(message.sent_at),
                    )
                })
                .collect();
            for summary in summaries {
                diesel::insert_into(outbox_archive::table).values(summary).execute(connection)?;
            }
            let ids: Vec<&str> = old.iter().map(|message| message.id.as_str()).collect();
            diesel::delete(outbox::table.filter(outbox::id.eq_any(&ids))).execute(connection)
        })
    }
}
