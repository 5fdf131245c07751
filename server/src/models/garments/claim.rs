//! Claims of a missing or damaged item (`claims`): opened by the customer from the order's page
//! or by a short count at delivery, resolved once by staff.

use crate::db::DbConnection;
use crate::db::schema::{claims, orders};
use crate::domain::{ClaimKind, ClaimOutcome};
use diesel::prelude::*;
use std::collections::BTreeSet;
use time::PrimitiveDateTime;

/// Who opens a claim from the order's page.
pub const BY_CUSTOMER: &str = "customer";

/// A claim.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = claims)]
pub struct Claim {
    /// Its random id.
    pub id: String,
    /// Its order's key.
    pub order_id: String,
    /// Missing or damaged.
    pub kind: ClaimKind,
    /// The tags named, joined by commas ("" when none was named).
    pub tags: String,
    /// What happened.
    pub story: String,
    /// "customer", or the e-mail of the valet whose count opened it.
    pub opened_by: String,
    /// When, UTC.
    pub opened_at: PrimitiveDateTime,
    /// How staff resolved it; `None` while open.
    pub outcome: Option<ClaimOutcome>,
    /// What staff told the customer.
    pub outcome_note: Option<String>,
    /// The money off the order, KSh, for a refund or credit.
    pub amount: Option<i64>,
    /// Of it, what was given back (or kept as credit): what the order then owed back, KSh.
    pub given_back: Option<i64>,
    /// Who resolved it.
    pub resolved_by: Option<String>,
    /// When, UTC.
    pub resolved_at: Option<PrimitiveDateTime>,
}

impl Claim {
    /// A new open claim.
    pub fn open(
        order_id: &str,
        kind: ClaimKind,
        tags: &BTreeSet<i32>,
        story: &str,
        by: &str,
        now: PrimitiveDateTime,
    ) -> Claim {
        Claim {
            id: uuid::Uuid::new_v4().simple().to_string(),
            order_id: order_id.to_owned(),
            kind,
            tags: tags.iter().map(i32::to_string).collect::<Vec<_>>().join(","),
            story: story.to_owned(),
            opened_by: by.to_owned(),
            opened_at: now,
            outcome: None,
            outcome_note: None,
            amount: None,
            given_back: None,
            resolved_by: None,
            resolved_at: None,
        }
    }

    /// The tag numbers it names.
    pub fn tag_numbers(&self) -> Vec<i32> {
        self.tags.split(',').filter_map(|tag| tag.parse().ok()).collect()
    }

    /// Writes it.
    pub fn insert(&self, connection: &mut DbConnection) -> QueryResult<()> {
        diesel::insert_into(claims::table).values(self).execute(connection).map(|_| ())
    }

    /// The claim `id`.
    pub fn find(connection: &mut DbConnection, id: &str) -> QueryResult<Option<Claim>> {
        claims::table.find(id).select(Claim::as_select()).first(connection).optional()
    }

    /// The order's claims, oldest first.
    pub fn of_order(connection: &mut DbConnection, order_id: &str) -> QueryResult<Vec<Claim>> {
        claims::table
            .filter(claims::order_id.eq(order_id))
            .order(claims::opened_at.asc())
            .select(Claim::as_select())
            .load(connection)
    }

    /// The open claims, oldest first, with their order IDs and customers' names.
    pub fn open_ones(connection: &mut DbConnection) -> QueryResult<Vec<(Claim, String, String)>> {
        claims::table
            .inner_join(orders::table)
            .filter(claims::resolved_at.is_null())
            .order(claims::opened_at.asc())
            .select((Claim::as_select(), orders::reference, orders::customer_name))
            .limit(200)
            .load(connection)
    }

    /// Records what a refund or credit gave back.
    pub fn set_given_back(connection: &mut DbConnection, id: &str, amount: i64) -> QueryResult<()> {
        diesel::update(claims::table.find(id)).set(claims::given_back.eq(amount)).execute(connection).map(|_| ())
    }

    /// Whether a short count at delivery opened it (not the customer).
    pub fn from_the_count(&self) -> bool {
        self.opened_by != BY_CUSTOMER
    }

    /// Resolves it; false when it was resolved already (by someone else meanwhile).
    pub fn resolve(
        connection: &mut DbConnection,
        id: &str,
        (outcome, note, amount): (ClaimOutcome, &str, Option<i64>),
        by: &str,
        now: PrimitiveDateTime,
    ) -> QueryResult<bool> {
        diesel::update(claims::table.find(id))
            .filter(claims::resolved_at.is_null())
            .set((
                claims::outcome.eq(outcome),
                claims::outcome_note.eq(note),
                claims::amount.eq(amount),
                claims::resolved_by.eq(by),
                claims::resolved_at.eq(now),
            ))
            .execute(connection)
            .map(|changed| changed == 1)
    }
}
