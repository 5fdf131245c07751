//! The dashboard's Messages tab: the contact messages, filtered and paged, and the answer of a
//! change to one.

use super::orders::AdminMessage;
use crate::domain::MessageStatus;
use crate::models::Page;
use crate::models::contact_message::ContactMessage;
use crate::models::stats::Stats;
use serde::Serialize;
use ts_rs::TS;

/// What the messages list is filtered by; a null status means all.
#[derive(Debug, Clone, Serialize, TS)]
pub struct MessagesFilter {
    /// Only this status.
    pub status: Option<MessageStatus>,
}

/// One page of messages, newest first, and the filter that made it.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct MessagesPage {
    /// This page's messages.
    pub items: Vec<AdminMessage>,
    /// Messages matching the filter, on all pages.
    pub total: i64,
    /// From 1.
    pub page: i64,
    /// Messages per page.
    pub page_size: i64,
    /// The filter.
    pub filter: MessagesFilter,
}

impl MessagesPage {
    /// Page `number` of `page_size` messages of `status` (all when `None`).
    pub fn new(page: &Page<ContactMessage>, status: Option<MessageStatus>, number: i64, page_size: i64) -> Self {
        MessagesPage {
            items: page.items.iter().map(AdminMessage::from).collect(),
            total: page.total,
            page: number,
            page_size,
            filter: MessagesFilter { status },
        }
    }
}

/// The answer to a change of a message's status.
#[derive(Debug, Clone, Serialize, TS)]
pub struct MessageChanged {
    /// The message as it now is.
    pub message: AdminMessage,
    /// The stat cards after the change.
    pub stats: Stats,
}
