//! How an order is handled in the shop (`order_handling`, one row per order once anything is
//! recorded): the bags counted at intake, the rack it hangs on once ready (and whether a rack audit
//! did not find it there), and the valet's count at delivery.

use crate::db::DbConnection;
use crate::db::schema::{order_handling, orders};
use crate::domain::OrderStatus;
use diesel::prelude::*;
use time::PrimitiveDateTime;

/// An order's handling.
#[derive(Debug, Clone, Default, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = order_handling)]
pub struct Handling {
    /// Its order's key.
    pub order_id: String,
    /// Items the valet counted at the door when picking up (a quick count, before the tags).
    pub door_items: Option<i32>,
    /// Bags counted at intake (the valet's weighing counts them too).
    pub bags: Option<i32>,
    /// The rack it hangs on.
    pub rack: Option<String>,
    /// Who hung it there.
    pub racked_by: Option<String>,
    /// When, UTC.
    pub racked_at: Option<PrimitiveDateTime>,
    /// When a rack audit did not find it on its rack (cleared when it is hung again).
    pub missing_since: Option<PrimitiveDateTime>,
    /// Items the valet counted at delivery.
    pub counted_items: Option<i32>,
    /// Bags the valet counted at delivery.
    pub counted_bags: Option<i32>,
    /// Who counted.
    pub counted_by: Option<String>,
    /// When, UTC.
    pub counted_at: Option<PrimitiveDateTime>,
}

/// A count per order key.
pub type Counts = std::collections::HashMap<String, i32>;

/// An order on a rack, as the audit lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Racked {
    /// The order's handling.
    pub handling: Handling,
    /// Its order ID.
    pub reference: String,
    /// The customer's name.
    pub customer_name: String,
}

impl Handling {
    /// The order's handling; none recorded yet is all empty.
    pub fn of_order(connection: &mut DbConnection, order_id: &str) -> QueryResult<Handling> {
        let found = order_handling::table.find(order_id).select(Handling::as_select()).first(connection).optional()?;
        Ok(found.unwrap_or_else(|| Handling { order_id: order_id.to_owned(), ..Handling::default() }))
    }

    /// Makes sure the order has a row, to update.
    fn ensure(connection: &mut DbConnection, order_id: &str) -> QueryResult<()> {
        let exists: i64 =
            order_handling::table.filter(order_handling::order_id.eq(order_id)).count().get_result(connection)?;
        if exists == 0 {
            diesel::insert_into(order_handling::table)
                .values(order_handling::order_id.eq(order_id))
                .execute(connection)?;
        }
        Ok(())
    }

    /// Of those of `order_ids` that were counted: the bags counted at intake, and the items
    /// counted at the door.
    pub fn counts_of(connection: &mut DbConnection, order_ids: &[&str]) -> QueryResult<(Counts, Counts)> {
        let rows: Vec<(String, Option<i32>, Option<i32>)> = order_handling::table
            .filter(order_handling::order_id.eq_any(order_ids))
            .select((order_handling::order_id, order_handling::bags, order_handling::door_items))
            .load(connection)?;
        let (mut bags, mut items) = (Counts::new(), Counts::new());
        for (order, counted_bags, counted_items) in rows {
            if let Some(counted) = counted_bags {
                bags.insert(order.clone(), counted);
            }
            if let Some(counted) = counted_items {
                items.insert(order, counted);
            }
        }
        Ok((bags, items))
    }

    /// Records the items the valet counted at the door.
    pub fn set_door_items(connection: &mut DbConnection, order_id: &str, items: i32) -> QueryResult<()> {
        Self::ensure(connection, order_id)?;
        diesel::update(order_handling::table.find(order_id))
            .set(order_handling::door_items.eq(items))
            .execute(connection)?;
        Ok(())
    }

    /// Records the bags counted at intake.
    pub fn set_bags(connection: &mut DbConnection, order_id: &str, bags: i32) -> QueryResult<()> {
        Self::ensure(connection, order_id)?;
        diesel::update(order_handling::table.find(order_id)).set(order_handling::bags.eq(bags)).execute(connection)?;
        Ok(())
    }

    /// Hangs the order on `rack` (found again, if an audit had missed it).
    pub fn set_rack(
        connection: &mut DbConnection,
        order_id: &str,
        rack: &str,
        by: &str,
        now: PrimitiveDateTime,
    ) -> QueryResult<()> {
        Self::ensure(connection, order_id)?;
        diesel::update(order_handling::table.find(order_id))
            .set((
                order_handling::rack.eq(rack),
                order_handling::racked_by.eq(by),
                order_handling::racked_at.eq(now),
                order_handling::missing_since.eq(None::<PrimitiveDateTime>),
            ))
            .execute(connection)?;
        Ok(())
    }

    /// Records the valet's count at delivery.
    pub fn set_count(
        connection: &mut DbConnection,
        order_id: &str,
        (items, bags): (i32, i32),
        by: &str,
        now: PrimitiveDateTime,
    ) -> QueryResult<()> {
        Self::ensure(connection, order_id)?;
        diesel::update(order_handling::table.find(order_id))
            .set((
                order_handling::counted_items.eq(items),
                order_handling::counted_bags.eq(bags),
                order_handling::counted_by.eq(by),
                order_handling::counted_at.eq(now),
            ))
            .execute(connection)?;
        Ok(())
    }

    /// Marks the orders `order_ids` as not found on their racks since `now` (those already
    /// marked keep their first time), and the others on racks as found.
    pub fn mark_missing(
        connection: &mut DbConnection,
        order_ids: &[String],
        now: PrimitiveDateTime,
    ) -> QueryResult<()> {
        diesel::update(order_handling::table.filter(order_handling::order_id.eq_any(order_ids)))
            .filter(order_handling::missing_since.is_null())
            .set(order_handling::missing_since.eq(now))
            .execute(connection)?;
        Ok(())
    }

    /// Clears the missing mark of `order_ids`: the audit found them.
    pub fn mark_found(connection: &mut DbConnection, order_ids: &[String]) -> QueryResult<()> {
        diesel::update(order_handling::table.filter(order_handling::order_id.eq_any(order_ids)))
            .set(order_handling::missing_since.eq(None::<PrimitiveDateTime>))
            .execute(connection)?;
        Ok(())
    }

    /// The orders that should hang on a rack: ready (not yet out for delivery) and hung on one;
    /// by rack, then when they were hung.
    pub fn on_racks(connection: &mut DbConnection) -> QueryResult<Vec<Racked>> {
        let rows: Vec<(Handling, String, String)> = order_handling::table
            .inner_join(orders::table)
            .filter(order_handling::rack.is_not_null())
            .filter(orders::status.eq(OrderStatus::Ready))
            .order((order_handling::rack.asc(), order_handling::racked_at.asc()))
            .select((Handling::as_select(), orders::reference, orders::customer_name))
            .load(connection)?;
        Ok(rows
            .into_iter()
            .map(|(handling, reference, customer_name)| Racked { handling, reference, customer_name })
            .collect())
    }
}
