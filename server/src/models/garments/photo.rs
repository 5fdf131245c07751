//! The record of each photo kept in the photo store (`garment_photos`): whose order it belongs
//! to, which item or claim, its size, who took it and when.

use crate::db::DbConnection;
use crate::db::schema::garment_photos;
use crate::photos::KeptPhoto;
use diesel::prelude::*;
use time::PrimitiveDateTime;

/// A photo's record.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = garment_photos)]
pub struct GarmentPhoto {
    /// Its random id, the key of its files in the store.
    pub id: String,
    /// Its order's key.
    pub order_id: String,
    /// The item it shows, when taken at intake.
    pub tag: Option<i32>,
    /// The claim it was sent with.
    pub claim_id: Option<String>,
    /// Width of the photo kept.
    pub width: i32,
    /// Height of the photo kept.
    pub height: i32,
    /// Size of the photo kept, bytes.
    pub bytes: i32,
    /// A staff e-mail, or "customer".
    pub taken_by: String,
    /// When, UTC.
    pub taken_at: PrimitiveDateTime,
}

impl GarmentPhoto {
    /// The record of `kept`, a photo of the order `order_id`.
    pub fn of(kept: &KeptPhoto, order_id: &str, taken_by: &str, now: PrimitiveDateTime) -> Self {
        GarmentPhoto {
            id: kept.id.clone(),
            order_id: order_id.to_owned(),
            tag: None,
            claim_id: None,
            width: i32::try_from(kept.width).unwrap_or(i32::MAX),
            height: i32::try_from(kept.height).unwrap_or(i32::MAX),
            bytes: i32::try_from(kept.bytes).unwrap_or(i32::MAX),
            taken_by: taken_by.to_owned(),
            taken_at: now,
        }
    }

    /// Writes the record.
    pub fn insert(&self, connection: &mut DbConnection) -> QueryResult<()> {
        diesel::insert_into(garment_photos::table).values(self).execute(connection).map(|_| ())
    }

    /// The order's photos, oldest first.
    pub fn of_order(connection: &mut DbConnection, order_id: &str) -> QueryResult<Vec<GarmentPhoto>> {
        garment_photos::table
            .filter(garment_photos::order_id.eq(order_id))
            .order((garment_photos::taken_at.asc(), garment_photos::id.asc()))
            .select(GarmentPhoto::as_select())
            .load(connection)
    }

    /// The photo `id`, if it is recorded.
    pub fn find(connection: &mut DbConnection, id: &str) -> QueryResult<Option<GarmentPhoto>> {
        garment_photos::table.find(id).select(GarmentPhoto::as_select()).first(connection).optional()
    }
}
