//! Orders and their status history.

use crate::db::schema::{order_status_history, orders};
use crate::db::{DbConnection, write_transaction};
use crate::domain::{OrderReference, OrderStatus, ValidOrder};
use crate::models::outbox::OutboxEmail;
use diesel::prelude::*;
use diesel::result::{DatabaseErrorKind, Error as DieselError};
use time::PrimitiveDateTime;
use uuid::Uuid;

/// A stored order.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = orders)]
pub struct Order {
    /// Assigned by us (UUID v4); the e-mails and the admin use it.
    pub id: String,
    /// The short reference customers read and track by.
    pub reference: String,
    /// Full name.
    pub customer_name: String,
    /// `+2547XXXXXXXX`.
    pub phone: String,
    /// If given.
    pub email: Option<String>,
    /// Pickup location.
    pub location: String,
    /// Catalogue id.
    pub service_type: String,
    /// Catalogue label at the time of the order.
    pub service_label: String,
    /// Whole kg.
    pub quantity: i32,
    /// `pay-now` or `pay-delivery`.
    pub payment_method: String,
    /// Possibly empty.
    pub special_instructions: String,
    /// Catalogue price at the time of the order.
    pub price_per_kg: i32,
    /// `price_per_kg * quantity`, computed by the server.
    pub total_amount: i32,
    /// See [`OrderStatus`].
    pub status: String,
    /// The client's `Idempotency-Key`, if it sent one.
    pub idempotency_key: Option<String>,
    /// Digest of the accepted values, to refuse a reused key with another order.
    pub request_fingerprint: Option<String>,
    /// UTC.
    pub created_at: PrimitiveDateTime,
    /// UTC.
    pub updated_at: PrimitiveDateTime,
    /// `unpaid` or `paid`: kept apart from the work status.
    pub payment_status: String,
    /// When paid: `mpesa` or `cash`.
    pub paid_via: Option<String>,
    /// The M-PESA transaction code staff typed in when they confirmed a till payment.
    pub mpesa_code: Option<String>,
    /// When staff recorded the payment, UTC.
    pub paid_at: Option<PrimitiveDateTime>,
    /// The staff member who recorded it.
    pub payment_recorded_by: Option<String>,
}

#[derive(Insertable)]
#[diesel(table_name = orders)]
struct NewOrderRow<'a> {
    id: &'a str,
    reference: &'a str,
    customer_name: &'a str,
    phone: &'a str,
    email: Option<&'a str>,
    location: &'a str,
    service_type: &'a str,
    service_label: &'a str,
    quantity: i32,
    payment_method: &'a str,
    special_instructions: &'a str,
    price_per_kg: i32,
    total_amount: i32,
    status: &'a str,
    idempotency_key: Option<&'a str>,
    request_fingerprint: Option<&'a str>,
    created_at: PrimitiveDateTime,
    updated_at: PrimitiveDateTime,
}

/// One change of an order's status.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = order_status_history)]
pub struct StatusChange {
    /// The new status.
    pub status: String,
    /// When, UTC.
    pub changed_at: PrimitiveDateTime,
    /// The staff member, if a person made the change.
    pub changed_by: Option<String>,
}

/// What placing an order did.
#[derive(Debug)]
pub enum Placed {
    /// A new order was stored.
    Created(Order),
    /// The key was seen before with the same order: this is that order, nothing new was stored.
    Replayed(Order),
}

/// Why an order was not placed.
#[derive(Debug, thiserror::Error)]
pub enum PlaceError {
    /// The key was used before for a different order.
    #[error("the idempotency key was already used for a different order")]
    KeyReused,
    /// It would be a new order, and new ones were not allowed (the sender is over its limit).
    #[error("no new order may be stored for this sender now")]
    NewOrdersHeld,
    /// The database failed.
    #[error(transparent)]
    Database(#[from] DieselError),
}

impl Order {
    /// Stores `order` with status pending, its first history entry and its e-mails (the outbox), in
    /// one transaction. A retry of the same order with the same `idempotency_key` returns the
    /// stored one instead; so does the same order sent again without a key within about ten
    /// minutes (see [`implicit_keys`]). Without `may_create`, only such a replay is answered.
    pub fn place(
        connection: &mut DbConnection,
        order: &ValidOrder,
        idempotency_key: Option<&str>,
        may_create: bool,
        now: PrimitiveDateTime,
    ) -> Result<Placed, PlaceError> {
        match Self::place_once(connection, order, idempotency_key, may_create, now) {
            // Two requests with one key raced past the look-up (PostgreSQL); the loser now finds
            // the winner's row.
            Err(PlaceError::Database(DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _))) => {
                Self::place_once(connection, order, idempotency_key, may_create, now)
            }
            other => other,
        }
    }

    fn place_once(
        connection: &mut DbConnection,
        order: &ValidOrder,
        idempotency_key: Option<&str>,
        may_create: bool,
        now: PrimitiveDateTime,
    ) -> Result<Placed, PlaceError> {
        let fingerprint = order.fingerprint();
        let (key, earlier_keys) = match idempotency_key {
            Some(key) => (key.to_owned(), vec![key.to_owned()]),
            None => {
                let [current, previous] = implicit_keys(&fingerprint, now);
                (current.clone(), vec![current, previous])
            }
        };
        write_transaction(connection, |connection| {
            let existing: Option<Order> = orders::table
                .filter(orders::idempotency_key.eq_any(&earlier_keys))
                .select(Order::as_select())
                .first(connection)
                .optional()?;
            if let Some(existing) = existing {
                return if existing.request_fingerprint.as_deref() == Some(fingerprint.as_str()) {
                    Ok(Placed::Replayed(existing))
                } else {
                    Err(PlaceError::KeyReused)
                };
            }
            if !may_create {
                return Err(PlaceError::NewOrdersHeld);
            }
            let id = Uuid::new_v4().to_string();
            let reference = unused_reference(connection)?;
            let row = NewOrderRow {
                id: &id,
                reference: reference.as_str(),
                customer_name: &order.customer_name,
                phone: order.phone.as_str(),
                email: order.email.as_deref(),
                location: &order.location,
                service_type: order.service.id,
                service_label: order.service.label,
                quantity: order.quantity,
                payment_method: order.payment_method.as_str(),
                special_instructions: &order.special_instructions,
                price_per_kg: order.service.price_per_kg as i32,
                total_amount: order.total_amount(),
                status: OrderStatus::Pending.as_str(),
                idempotency_key: Some(&key),
                request_fingerprint: Some(&fingerprint),
                created_at: now,
                updated_at: now,
            };
            diesel::insert_into(orders::table).values(&row).execute(connection)?;
            diesel::insert_into(order_status_history::table)
                .values((
                    order_status_history::order_id.eq(&id),
                    order_status_history::status.eq(OrderStatus::Pending.as_str()),
                    order_status_history::changed_at.eq(now),
                ))
                .execute(connection)?;
            let stored = orders::table.find(&id).select(Order::as_select()).first(connection)?;
            OutboxEmail::enqueue(connection, &OutboxEmail::for_new_order(&stored, now))?;
            Ok(Placed::Created(stored))
        })
    }

    /// The order with this reference.
    pub fn find_by_reference(connection: &mut DbConnection, reference: &OrderReference) -> QueryResult<Option<Order>> {
        orders::table
            .filter(orders::reference.eq(reference.as_str()))
            .select(Order::as_select())
            .first(connection)
            .optional()
    }

    /// The newest orders of this phone number (stored form), at most `limit`.
    pub fn recent_for_phone(connection: &mut DbConnection, phone: &str, limit: i64) -> QueryResult<Vec<Order>> {
        orders::table
            .filter(orders::phone.eq(phone))
            .order(orders::created_at.desc())
            .limit(limit)
            .select(Order::as_select())
            .load(connection)
    }

    /// The order's status changes, oldest first.
    pub fn history(connection: &mut DbConnection, order_id: &str) -> QueryResult<Vec<StatusChange>> {
        order_status_history::table
            .filter(order_status_history::order_id.eq(order_id))
            .order((order_status_history::changed_at.asc(), order_status_history::id.asc()))
            .select(StatusChange::as_select())
            .load(connection)
    }

    /// How many orders are stored.
    pub fn count(connection: &mut DbConnection) -> QueryResult<i64> {
        orders::table.count().get_result(connection)
    }
}

/// How long an order sent again without a key counts as the same submission.
const IMPLICIT_KEY_WINDOW_SECONDS: i64 = 600;

/// The keys of an order sent without an `Idempotency-Key` (a form posted before or without
/// JavaScript, an API client that sends none): derived from the order itself and the ten-minute
/// window it came in, and the previous window's for a double click across the boundary. So the
/// same order sent twice in a row is stored once, and the same order placed later is a new one.
/// They hold spaces, which a client's key cannot, so that no client can pick one.
fn implicit_keys(fingerprint: &str, now: PrimitiveDateTime) -> [String; 2] {
    let window = now.assume_utc().unix_timestamp().div_euclid(IMPLICIT_KEY_WINDOW_SECONDS);
    [format!("implicit {fingerprint} {window}"), format!("implicit {fingerprint} {}", window - 1)]
}

fn unused_reference(connection: &mut DbConnection) -> QueryResult<OrderReference> {
    loop {
        let candidate = OrderReference::generate();
        let taken: i64 =
            orders::table.filter(orders::reference.eq(candidate.as_str())).count().get_result(connection)?;
        if taken == 0 {
            return Ok(candidate);
        }
    }
}

/// What the staff's order list shows: optionally one status, optionally a search.
#[derive(Debug, Clone, Default)]
pub struct OrderFilter {
    /// Only this status.
    pub status: Option<OrderStatus>,
    /// A name (part of it, any case), a phone number (any usual form, or its last digits) or an
    /// order reference.
    pub search: Option<String>,
}

/// One page of a list, and how many items there are in all.
#[derive(Debug, Clone)]
pub struct Page<T> {
    /// The items of this page.
    pub items: Vec<T>,
    /// Items matching the filter, on all pages.
    pub total: i64,
}

/// How staff record a payment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Payment {
    /// Not paid (also to undo a mistake).
    Unpaid,
    /// Paid to the till; the M-PESA transaction code from the customer's SMS.
    Mpesa(String),
    /// Paid in cash, at delivery.
    Cash,
}

diesel::define_sql_function! {
    /// SQL `lower`, the same on both backends.
    fn lower(text: diesel::sql_types::Text) -> diesel::sql_types::Text;
}

impl Order {
    /// A page of orders matching `filter`, newest first. `page` counts from 1.
    pub fn page(
        connection: &mut DbConnection,
        filter: &OrderFilter,
        page: i64,
        page_size: i64,
    ) -> QueryResult<Page<Order>> {
        let query = || {
            let mut query = orders::table.into_boxed();
            if let Some(status) = filter.status {
                query = query.filter(orders::status.eq(status.as_str()));
            }
            if let Some(search) = filter.search.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
                let pattern = format!("%{}%", escape_like(&search.to_lowercase()));
                let mut matches: Box<dyn BoxableExpression<orders::table, _, SqlType = diesel::sql_types::Bool>> =
                    Box::new(lower(orders::customer_name).like(pattern).escape('\\'));
                // The dashboard shows orders as '#' and the id's last 8 characters: either finds it.
                let bare = search.trim_start_matches('#').to_lowercase();
                if let Some(reference) = OrderReference::parse(&bare) {
                    matches = Box::new(matches.or(orders::reference.eq(reference.as_str().to_owned())));
                }
                if (4..=36).contains(&bare.len()) && bare.chars().all(|c| c.is_ascii_hexdigit() || c == '-') {
                    matches = Box::new(matches.or(orders::id.like(format!("%{bare}"))));
                }
                if let Ok(phone) = crate::domain::PhoneNumber::parse(search) {
                    matches = Box::new(matches.or(orders::phone.eq(phone.as_str().to_owned())));
                } else {
                    let digits: String = search.chars().filter(char::is_ascii_digit).collect();
                    if digits.len() >= 4 && search.chars().all(|c| c.is_ascii_digit() || " +-".contains(c)) {
                        matches = Box::new(matches.or(orders::phone.like(format!("%{digits}"))));
                    }
                }
                query = query.filter(matches);
            }
            query
        };
        let total = query().count().get_result(connection)?;
        let items = query()
            .order((orders::created_at.desc(), orders::id.desc()))
            .limit(page_size)
            .offset((page.max(1) - 1) * page_size)
            .select(Order::as_select())
            .load(connection)?;
        Ok(Page { items, total })
    }

    /// The order with this id.
    pub fn find(connection: &mut DbConnection, id: &str) -> QueryResult<Option<Order>> {
        orders::table.find(id).select(Order::as_select()).first(connection).optional()
    }

    /// Sets the order's status (any to any, spec section 4) and records the change with its time
    /// and who made it; with `notify_customer`, the customer's e-mail about it goes into the outbox
    /// in the same transaction. Setting the status it already has changes nothing. `None`: no
    /// such order.
    pub fn set_status(
        connection: &mut DbConnection,
        id: &str,
        status: OrderStatus,
        by: &str,
        notify_customer: bool,
        now: PrimitiveDateTime,
    ) -> QueryResult<Option<Order>> {
        write_transaction(connection, |connection| {
            let Some(order) = Order::find(connection, id)? else {
                return Ok(None);
            };
            if order.status == status.as_str() {
                return Ok(Some(order));
            }
            diesel::update(orders::table.find(id))
                .set((orders::status.eq(status.as_str()), orders::updated_at.eq(now)))
                .execute(connection)?;
            diesel::insert_into(order_status_history::table)
                .values((
                    order_status_history::order_id.eq(id),
                    order_status_history::status.eq(status.as_str()),
                    order_status_history::changed_at.eq(now),
                    order_status_history::changed_by.eq(by),
                ))
                .execute(connection)?;
            let changed = Order::find(connection, id)?;
            if let Some(email) =
                changed.as_ref().filter(|_| notify_customer).and_then(|o| OutboxEmail::for_status(o, status, now))
            {
                OutboxEmail::enqueue(connection, &[email])?;
            }
            Ok(changed)
        })
    }

    /// Records a payment (or its absence), apart from the work status. An M-PESA code pays for
    /// one order only: a code already recorded for another order is refused (a typo, or one
    /// payment message shown for two orders).
    pub fn record_payment(
        connection: &mut DbConnection,
        id: &str,
        payment: &Payment,
        by: &str,
        now: PrimitiveDateTime,
    ) -> QueryResult<PaymentRecorded> {
        let (status, via, code, paid_at, recorded_by) = match payment {
            Payment::Unpaid => ("unpaid", None, None, None, None),
            Payment::Mpesa(code) => ("paid", Some("mpesa"), Some(code.as_str()), Some(now), Some(by)),
            Payment::Cash => ("paid", Some("cash"), None, Some(now), Some(by)),
        };
        let attempt = |connection: &mut DbConnection| {
            write_transaction(connection, |connection| {
                if let Some(code) = code {
                    let holder: Option<String> = orders::table
                        .filter(orders::mpesa_code.eq(code).and(orders::id.ne(id)))
                        .select(orders::reference)
                        .first(connection)
                        .optional()?;
                    if let Some(reference) = holder {
                        return Ok(PaymentRecorded::CodeUsedBy(reference));
                    }
                }
                let changed = diesel::update(orders::table.find(id))
                    .set((
                        orders::payment_status.eq(status),
                        orders::paid_via.eq(via),
                        orders::mpesa_code.eq(code),
                        orders::paid_at.eq(paid_at),
                        orders::payment_recorded_by.eq(recorded_by),
                        orders::updated_at.eq(now),
                    ))
                    .execute(connection)?;
                match Order::find(connection, id)? {
                    Some(order) if changed > 0 => Ok(PaymentRecorded::Recorded(Box::new(order))),
                    _ => Ok(PaymentRecorded::NoSuchOrder),
                }
            })
        };
        match attempt(connection) {
            // Another order took the code between the check and the write; the check now sees it.
            Err(DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _)) => attempt(connection),
            outcome => outcome,
        }
    }
}

/// What recording a payment came to.
#[derive(Debug)]
pub enum PaymentRecorded {
    /// Stored; the order as it now is.
    Recorded(Box<Order>),
    /// No order has that id.
    NoSuchOrder,
    /// The M-PESA code is already recorded for the order with this reference.
    CodeUsedBy(String),
}

/// `text` with LIKE's wildcards escaped by `\`.
fn escape_like(text: &str) -> String {
    text.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_")
}
