//! One order as staff open it from the dashboard: found by its order ID (never by the internal
//! id, which does not leave the server), with its status history, the e-mails and texts written about it,
//! and its re-clean links (the order it cleans again, the re-cleans asked of it). A read model: it
//! joins the order with its messages and re-cleans, and writes nothing; no other model imports it.

use crate::db::DbConnection;
use crate::db::schema::outbox;
use crate::domain::OrderReference;
use crate::models::ledger::Entry;
use crate::models::order::{Order, OrderLine, StatusChange};
use crate::models::outbox::{ArchivedMessage, OutboxMessage};
use crate::models::reclean::{Reclean, RecleanLinks};
use crate::models::stop::Stop;
use diesel::prelude::*;

/// An order and what happened to it.
#[derive(Debug, Clone, PartialEq)]
pub struct OrderRecord {
    /// The order as it is now.
    pub order: Order,
    /// Its lines, the main (kg) line first.
    pub lines: Vec<OrderLine>,
    /// Its status changes, oldest first (the first is 'pending', when it was placed).
    pub history: Vec<StatusChange>,
    /// The e-mails and texts about it (to staff and to the customer), oldest first; those older than
    /// the outbox keeps as their summaries.
    pub messages: Vec<OutboxMessage>,
    /// The order it re-cleans, and the re-cleans asked of it.
    pub links: RecleanLinks,
    /// Its ledger, oldest entry first.
    pub entries: Vec<Entry>,
    /// Its pickup and delivery.
    pub stops: Vec<Stop>,
}

impl OrderRecord {
    /// The order with this order ID, with its history, e-mails, texts and re-clean links; `None`
    /// when there is none.
    pub fn load(connection: &mut DbConnection, order_id: &OrderReference) -> QueryResult<Option<OrderRecord>> {
        let Some(order) = Order::find_by_reference(connection, order_id)? else {
            return Ok(None);
        };
        let lines = Order::lines(connection, &order.id)?;
        let history = Order::history(connection, &order.id)?;
        let mut messages: Vec<OutboxMessage> = outbox::table
            .filter(outbox::order_id.eq(&order.id))
            .order((outbox::created_at.asc(), outbox::id.asc()))
            .select(OutboxMessage::as_select())
            .load(connection)?;
        // Those the retention job deleted, as it summarised them (no recipient, no words).
        let summarised = ArchivedMessage::of_order(connection, &order.id)?;
        messages.extend(summarised.iter().map(ArchivedMessage::as_message));
        messages.sort_by_key(|message| message.created_at);
        let links = Reclean::links(connection, &order.id)?;
        let entries = Entry::of_order(connection, &order.id)?;
        let stops = Stop::for_order(connection, &order.id)?;
        Ok(Some(OrderRecord { order, lines, history, messages, links, entries, stops }))
    }
}
