//! Every garment traced (issue 36): the items of an order with their tags (`garments`), their
//! photos ([`photo`]), how the order is handled in the shop ([`handling`]: bags, rack, the count
//! at delivery) and claims ([`claim`]). One table each with its queries; the changes that go
//! together are made by `lifecycle::garments`.

pub mod claim;
pub mod handling;
pub mod photo;

use crate::db::DbConnection;
use crate::db::schema::garments;
use crate::domain::garment::{GarmentFields, MAX_ITEMS};
use claim::Claim;
use diesel::prelude::*;
use handling::Handling;
use photo::GarmentPhoto;
use time::PrimitiveDateTime;

/// An item taken in.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = garments)]
pub struct Garment {
    /// Its order's key.
    pub order_id: String,
    /// Its number in the order, from 1; never given again, even once it is removed.
    pub tag: i32,
    /// What it is.
    pub item: String,
    /// Its colour ("" when not noted).
    pub colour: String,
    /// Brand or note ("" when none).
    pub note: String,
    /// Stains and damage seen at intake ("" when none).
    pub damage: String,
    /// Who recorded it.
    pub recorded_by: String,
    /// When, UTC.
    pub recorded_at: PrimitiveDateTime,
    /// Who removed it (a mistake undone).
    pub removed_by: Option<String>,
    /// When, UTC.
    pub removed_at: Option<PrimitiveDateTime>,
}

impl Garment {
    /// The order's items (not removed), by tag.
    pub fn of_order(connection: &mut DbConnection, order_id: &str) -> QueryResult<Vec<Garment>> {
        garments::table
            .filter(garments::order_id.eq(order_id))
            .filter(garments::removed_at.is_null())
            .order(garments::tag.asc())
            .select(Garment::as_select())
            .load(connection)
    }

    /// Records an item with the next tag of the order, or `None` when the order has
    /// [`MAX_ITEMS`] tags already. The caller holds the order's lock (`Order::lock`), so two
    /// items recorded at once get two tags; the key (order, tag) refuses a second anyway.
    pub fn add(
        connection: &mut DbConnection,
        order_id: &str,
        fields: &GarmentFields,
        by: &str,
        now: PrimitiveDateTime,
    ) -> QueryResult<Option<Garment>> {
        let last: Option<i32> = garments::table
            .filter(garments::order_id.eq(order_id))
            .select(diesel::dsl::max(garments::tag))
            .first(connection)?;
        let tag = last.unwrap_or(0) + 1;
        if tag > MAX_ITEMS {
            return Ok(None);
        }
        let garment = Garment {
            order_id: order_id.to_owned(),
            tag,
            item: fields.item.clone(),
            colour: fields.colour.clone(),
            note: fields.note.clone(),
            damage: fields.damage.clone(),
            recorded_by: by.to_owned(),
            recorded_at: now,
            removed_by: None,
            removed_at: None,
        };
        diesel::insert_into(garments::table)
            .values((
                garments::order_id.eq(&garment.order_id),
                garments::tag.eq(garment.tag),
                garments::item.eq(&garment.item),
                garments::colour.eq(&garment.colour),
                garments::note.eq(&garment.note),
                garments::damage.eq(&garment.damage),
                garments::recorded_by.eq(&garment.recorded_by),
                garments::recorded_at.eq(garment.recorded_at),
            ))
            .execute(connection)?;
        Ok(Some(garment))
    }

    /// Removes the item `tag` (recorded by mistake); false when there is no such item left.
    pub fn remove(
        connection: &mut DbConnection,
        order_id: &str,
        tag: i32,
        by: &str,
        now: PrimitiveDateTime,
    ) -> QueryResult<bool> {
        diesel::update(garments::table.find((order_id, tag)))
            .filter(garments::removed_at.is_null())
            .set((garments::removed_by.eq(by), garments::removed_at.eq(now)))
            .execute(connection)
            .map(|changed| changed == 1)
    }

    /// How many items each of `order_ids` has (orders without items are left out).
    pub fn counts(
        connection: &mut DbConnection,
        order_ids: &[String],
    ) -> QueryResult<std::collections::HashMap<String, i64>> {
        let rows: Vec<(String, i64)> = garments::table
            .filter(garments::order_id.eq_any(order_ids))
            .filter(garments::removed_at.is_null())
            .group_by(garments::order_id)
            .select((garments::order_id, diesel::dsl::count_star()))
            .load(connection)?;
        Ok(rows.into_iter().collect())
    }
}

/// An order with everything traced of its garments: what the intake page, the tags and the
/// customer's page are built from.
#[derive(Debug, Clone)]
pub struct IntakeRecord {
    /// The order.
    pub order: crate::models::order::Order,
    /// Its items, by tag.
    pub garments: Vec<Garment>,
    /// Its photos, oldest first.
    pub photos: Vec<GarmentPhoto>,
    /// Its handling.
    pub handling: Handling,
    /// The bags of the valet's newest weighing.
    pub weighed_bags: Option<i32>,
    /// Its claims, oldest first.
    pub claims: Vec<Claim>,
}

impl IntakeRecord {
    /// The record of the order `order`.
    pub fn load(connection: &mut DbConnection, order: crate::models::order::Order) -> QueryResult<IntakeRecord> {
        let id = order.id.clone();
        Ok(IntakeRecord {
            garments: Garment::of_order(connection, &id)?,
            photos: GarmentPhoto::of_order(connection, &id)?,
            handling: Handling::of_order(connection, &id)?,
            weighed_bags: crate::models::order::Order::bags_of(connection, &[id.as_str()])?.get(&id).copied(),
            claims: Claim::of_order(connection, &id)?,
            order,
        })
    }
}
