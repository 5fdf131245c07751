//! Contact messages (spec section 3: collection 'contacts').

use crate::db::DbConnection;
use crate::db::schema::contact_messages;
use crate::domain::ValidContact;
use diesel::prelude::*;
use time::PrimitiveDateTime;
use uuid::Uuid;

/// A stored message.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = contact_messages)]
pub struct ContactMessage {
    /// UUID v4.
    pub id: String,
    /// Full name.
    pub name: String,
    /// E-mail address.
    pub email: String,
    /// `+2547XXXXXXXX`, if given.
    pub phone: Option<String>,
    /// Subject.
    pub subject: String,
    /// Message.
    pub message: String,
    /// 'new' on creation.
    pub status: String,
    /// UTC.
    pub created_at: PrimitiveDateTime,
}

impl ContactMessage {
    /// Stores `contact` with status 'new'.
    pub fn create(connection: &mut DbConnection, contact: &ValidContact, now: PrimitiveDateTime) -> QueryResult<Self> {
        let row = ContactMessage {
            id: Uuid::new_v4().to_string(),
            name: contact.name.clone(),
            email: contact.email.clone(),
            phone: contact.phone.as_ref().map(|p| p.as_str().to_owned()),
            subject: contact.subject.clone(),
            message: contact.message.clone(),
            status: "new".to_owned(),
            created_at: now,
        };
        diesel::insert_into(contact_messages::table).values(&row).execute(connection)?;
        Ok(row)
    }

    /// How many messages are stored.
    pub fn count(connection: &mut DbConnection) -> QueryResult<i64> {
        contact_messages::table.count().get_result(connection)
    }
}
