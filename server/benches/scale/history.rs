//! A year of a shop's history, written straight into the database (batched inserts, no HTTP):
//! orders in every state with their lines, stops, status history, ledger entries and messages,
//! spread over the 365 days before `today` (Nairobi), with today and the next days still open.
//! The totals that triggers keep are kept by the same triggers as in service.

use diesel::prelude::*;
use laundry::db::DbConnection;
use laundry::db::schema::{ledger_entries, order_lines, order_status_history, orders, outbox, stops};
use laundry::domain::catalogue::{PRICE_LIST, SERVICES};
use laundry::domain::{
    Channel, Delivery, EntryKind, Line, MessageKind, Method, OrderSource, OrderStatus, OutboxStatus, PaymentMethod,
    lines_total,
};
use laundry::domain::{StopKind, StopState};
use laundry::models::outbox::OutboxMessage;
use time::{Date, Duration, PrimitiveDateTime, Time};

/// Places the orders' pickup locations are drawn from: a search for one of them finds about a
/// tenth of all orders.
pub const PLACES: [&str; 10] = [
    "Kilimani",
    "Westlands",
    "Lavington",
    "Kileleshwa",
    "South B",
    "Karen",
    "Parklands",
    "Upper Hill",
    "Ngong Road",
    "Runda",
];

const FIRST_NAMES: [&str; 12] =
    ["Amina", "Brian", "Cynthia", "David", "Esther", "Felix", "Grace", "Hassan", "Ivy", "James", "Wanjiru", "Otieno"];
const LAST_NAMES: [&str; 8] = ["Kamau", "Otieno", "Wanjiku", "Mwangi", "Achieng", "Njoroge", "Mutua", "Chebet"];

/// The windows of the shop's default schedule, minutes after midnight.
const WINDOWS: [i32; 3] = [19 * 60, 20 * 60, 21 * 60];
/// Rows per INSERT (SQLite takes at most 32,766 values in one statement).
const BATCH: usize = 500;

/// What was written, for the bench's own look-ups.
pub struct History {
    /// The busiest day's date (the one with the most stops).
    pub busiest_day: Date,
    /// How many stops it has.
    pub busiest_stops: usize,
    /// A day a week ahead with [`QUIET_DAY_ORDERS`] pickups at every size: the day pages of a
    /// day as busy at 100,000 orders as at 1,000 (the busiest day grows with the shop).
    pub quiet_day: Date,
    /// A phone number with a few orders, E.164.
    pub phone: String,
    /// Its newest order's link token (`/t/{token}`).
    pub token: String,
    /// Its newest order's order ID.
    pub reference: String,
}

/// Pickups booked on the quiet day, whatever the size.
pub const QUIET_DAY_ORDERS: usize = 5;

/// The n-th order's phone number: each number places three orders in a row.
fn phone_of(n: usize) -> String {
    format!("+2547{:08}", (n / 3 * 7919) % 100_000_000)
}

/// Writes `count` orders over the year before `today` (and a few days after it), `now` being
/// the database's clock; `valets` take the runs of past days. Returns what the bench looks up.
pub fn write(
    connection: &mut DbConnection,
    count: usize,
    today: Date,
    now: PrimitiveDateTime,
    valets: &[String],
) -> QueryResult<History> {
    let first_day = today - Duration::days(365);
    let mut batch = Batch::default();
    let mut stops_per_day: std::collections::HashMap<Date, usize> = Default::default();
    let mut newest = None;
    let quiet_day = today + Duration::days(7);
    for n in 0..count + QUIET_DAY_ORDERS {
        // Spread evenly over the year, the last ones today; then the quiet day's, placed today.
        let quiet = n >= count;
        let day = match quiet {
            true => today,
            false => first_day + Duration::days((n * 366 / count.max(1)) as i64),
        };
        let placed = PrimitiveDateTime::new(day, Time::from_hms(6 + (n % 12) as u8, (n % 60) as u8, 0).unwrap())
            - Duration::hours(3);
        let age = (today - day).whole_days();
        let status = match (age, n % 100) {
            _ if quiet => OrderStatus::Pending,
            (_, 0..=5) => OrderStatus::Cancelled,
            (0, _) => OrderStatus::Pending,
            (1, 6..=50) => OrderStatus::PickedUp,
            (1, _) => OrderStatus::InProgress,
            (2, 6..=60) => OrderStatus::Ready,
            _ => OrderStatus::Delivered,
        };
        let order = generated_order(n, placed, status);
        let pickup_day = if quiet { quiet_day } else { day + Duration::days(1) };
        let delivery_day = pickup_day + Duration::days(2);
        let window = WINDOWS[n % WINDOWS.len()];
        for (kind, stop_day) in [(StopKind::Pickup, pickup_day), (StopKind::Delivery, delivery_day)] {
            let done = stop_day < today && status != OrderStatus::Cancelled;
            let state = match status {
                OrderStatus::Cancelled => StopState::Cancelled,
                _ if done => StopState::Done,
                _ => StopState::Planned,
            };
            // The valets of past days, in their run's order.
            let (valet, position) = match done {
                true => (Some(valets[n % valets.len()].clone()), Some((n / valets.len() % 200 + 1) as i32)),
                false => (None, None),
            };
            let at = PrimitiveDateTime::new(stop_day, Time::MIDNIGHT) + Duration::minutes(i64::from(window) - 180);
            batch.stops.push((
                stops::id.eq(uuid::Uuid::new_v4().to_string()),
                stops::order_id.eq(order.id.clone()),
                stops::kind.eq(kind),
                stops::day.eq(stop_day),
                stops::window_start.eq(window),
                stops::window_end.eq(window + 60),
                stops::state.eq(state),
                stops::valet_id.eq(valet),
                stops::run_position.eq(position),
                stops::confirmed_at.eq(Some(placed + Duration::minutes(12))),
                stops::done_at.eq(done.then_some(at + Duration::minutes(25))),
                stops::created_at.eq(placed),
            ));
            if status != OrderStatus::Cancelled && !quiet {
                *stops_per_day.entry(stop_day).or_default() += 1;
            }
        }
        for (position, line) in order.lines.iter().enumerate() {
            batch.lines.push((
                order_lines::order_id.eq(order.id.clone()),
                order_lines::position.eq(position as i32),
                order_lines::kind.eq(line.kind),
                order_lines::item.eq(line.item),
                order_lines::label.eq(line.label),
                order_lines::quantity.eq(line.quantity),
                order_lines::unit.eq(line.unit),
                order_lines::unit_price.eq(line.unit_price),
                order_lines::amount.eq(line.amount),
            ));
            batch.entries.push(entry(&order.id, EntryKind::Charge, None, line.amount, None, placed));
        }
        let total = lines_total(&order.lines);
        // A cancellation takes the charges back, as the lifecycle does.
        if status == OrderStatus::Cancelled {
            batch.entries.push(entry(
                &order.id,
                EntryKind::Adjustment,
                None,
                -total,
                None,
                placed + Duration::hours(1),
            ));
        }
        if status == OrderStatus::Delivered {
            let method = [Method::Cash, Method::Prompt, Method::Till][n % 3];
            let code = (method != Method::Cash).then(|| format!("SCL{n:07}"));
            let paid_at = PrimitiveDateTime::new(delivery_day, Time::from_hms(17, 30, 0).unwrap());
            batch.entries.push(entry(&order.id, EntryKind::Payment, Some(method), total, code, paid_at));
        }
        for (step, changed) in statuses_until(status).iter().enumerate() {
            batch.history.push((
                order_status_history::order_id.eq(order.id.clone()),
                order_status_history::status.eq(*changed),
                order_status_history::changed_at.eq(placed + Duration::hours(step as i64 * 20)),
                order_status_history::changed_by.eq(None::<String>),
            ));
        }
        batch.messages.extend(messages_of(&order, status, placed, now));
        if order.phone == phone_of(count - 1) {
            newest = Some((order.token.clone(), order.reference.clone()));
        }
        batch.orders.push(order);
        if batch.orders.len() == BATCH {
            batch.flush(connection)?;
        }
    }
    batch.flush(connection)?;
    let (busiest_day, busiest_stops) = stops_per_day
        .into_iter()
        .filter(|(day, _)| *day >= today)
        .max_by_key(|(day, stops)| (*stops, std::cmp::Reverse(*day)))
        .unwrap_or((today, 0));
    let (token, reference) = newest.unwrap_or_default();
    Ok(History { busiest_day, busiest_stops, quiet_day, phone: phone_of(count - 1), token, reference })
}

/// The statuses an order passed through to reach `status`, in order.
fn statuses_until(status: OrderStatus) -> Vec<OrderStatus> {
    use OrderStatus::*;
    match status {
        Cancelled => vec![Pending, Cancelled],
        _ => [Pending, PickedUp, InProgress, Ready, Delivered]
            .into_iter()
            .take_while(|s| *s != status)
            .chain([status])
            .collect(),
    }
}

/// One generated order with its lines.
struct GeneratedOrder {
    id: String,
    reference: String,
    token: String,
    name: String,
    phone: String,
    location: String,
    lines: Vec<Line>,
    status: OrderStatus,
    placed: PrimitiveDateTime,
    payment: PaymentMethod,
}

fn generated_order(n: usize, placed: PrimitiveDateTime, status: OrderStatus) -> GeneratedOrder {
    let service = &SERVICES[n % 4];
    let mut lines = vec![Line::by_the_kg(service, 1 + (n % 9) as i32)];
    if n.is_multiple_of(3) {
        lines.push(Line::of_item(&PRICE_LIST[4 + n % 20], 1 + (n % 4) as i32));
    }
    GeneratedOrder {
        id: uuid::Uuid::new_v4().to_string(),
        reference: reference_of(n),
        token: format!("scale{n:08}{}", &uuid::Uuid::new_v4().simple().to_string()[..8]),
        name: format!("{} {}", FIRST_NAMES[n % FIRST_NAMES.len()], LAST_NAMES[n / 7 % LAST_NAMES.len()]),
        phone: phone_of(n),
        location: format!("{}, house {}", PLACES[n / 3 % PLACES.len()], n % 97 + 1),
        lines,
        status,
        placed,
        payment: if n.is_multiple_of(3) { PaymentMethod::PayNow } else { PaymentMethod::PayDelivery },
    }
}

/// An order ID of the shop's alphabet, unique for each `n`.
fn reference_of(mut n: usize) -> String {
    const ALPHABET: &[u8] = b"23456789ABCDEFGHJKMNPQRSTVWXYZ";
    let mut reference = vec![b'Z'; 8];
    for slot in reference.iter_mut().rev().take(6) {
        *slot = ALPHABET[n % ALPHABET.len()];
        n /= ALPHABET.len();
    }
    reference[0] = b'S';
    String::from_utf8(reference).unwrap_or_default()
}

type EntryRow = (
    diesel::dsl::Eq<ledger_entries::order_id, String>,
    diesel::dsl::Eq<ledger_entries::kind, EntryKind>,
    diesel::dsl::Eq<ledger_entries::method, Option<Method>>,
    diesel::dsl::Eq<ledger_entries::amount, i32>,
    diesel::dsl::Eq<ledger_entries::reference, Option<String>>,
    diesel::dsl::Eq<ledger_entries::note, &'static str>,
    diesel::dsl::Eq<ledger_entries::recorded_at, PrimitiveDateTime>,
);

fn entry(
    order_id: &str,
    kind: EntryKind,
    method: Option<Method>,
    amount: i32,
    reference: Option<String>,
    at: PrimitiveDateTime,
) -> EntryRow {
    (
        ledger_entries::order_id.eq(order_id.to_owned()),
        ledger_entries::kind.eq(kind),
        ledger_entries::method.eq(method),
        ledger_entries::amount.eq(amount),
        ledger_entries::reference.eq(reference),
        ledger_entries::note.eq("history"),
        ledger_entries::recorded_at.eq(at),
    )
}

/// The e-mails and texts an order in `status` had: sent and delivered, but for today's.
fn messages_of(
    order: &GeneratedOrder,
    status: OrderStatus,
    placed: PrimitiveDateTime,
    now: PrimitiveDateTime,
) -> Vec<OutboxMessage> {
    let mut kinds = vec![MessageKind::OrderAdmin, MessageKind::OrderCustomer, MessageKind::SmsOrderReceived];
    let steps = statuses_until(status);
    if steps.contains(&OrderStatus::PickedUp) {
        kinds.push(MessageKind::SmsPickedUp);
    }
    if steps.contains(&OrderStatus::Ready) {
        kinds.push(MessageKind::SmsReady);
    }
    if steps.contains(&OrderStatus::Delivered) {
        kinds.push(MessageKind::SmsDelivered);
    }
    let recent = now - placed < Duration::hours(2);
    kinds
        .into_iter()
        .enumerate()
        .map(|(step, kind)| {
            let at = placed + Duration::hours(step as i64 * 20);
            let sms = kind.channel() == Channel::Sms;
            let (status, sent) = if recent { (OutboxStatus::Pending, None) } else { (OutboxStatus::Sent, Some(at)) };
            OutboxMessage {
                id: uuid::Uuid::new_v4().to_string(),
                channel: kind.channel(),
                kind,
                order_id: Some(order.id.clone()),
                contact_message_id: None,
                to_email: (!sms && kind != MessageKind::OrderAdmin).then(|| "customer@example.com".to_owned()),
                to_phone: sms.then(|| order.phone.clone()),
                params: format!(r#"{{"message":"Order {} update"}}"#, order.reference),
                status,
                attempts: i32::from(sent.is_some()),
                next_attempt_at: at,
                lease_owner: None,
                lease_until: None,
                last_error: None,
                last_attempt_at: sent,
                created_at: at,
                sent_at: sent,
                provider_id: (sms && sent.is_some()).then(|| format!("ATXid_{}", uuid::Uuid::new_v4().simple())),
                delivery: (sms && sent.is_some()).then_some(Delivery::Delivered),
                delivery_detail: None,
                delivery_at: (sms && sent.is_some()).then(|| at + Duration::minutes(1)),
                dedupe_key: None,
                send_before: None,
            }
        })
        .collect()
}

type StopRow = (
    diesel::dsl::Eq<stops::id, String>,
    diesel::dsl::Eq<stops::order_id, String>,
    diesel::dsl::Eq<stops::kind, StopKind>,
    diesel::dsl::Eq<stops::day, Date>,
    diesel::dsl::Eq<stops::window_start, i32>,
    diesel::dsl::Eq<stops::window_end, i32>,
    diesel::dsl::Eq<stops::state, StopState>,
    diesel::dsl::Eq<stops::valet_id, Option<String>>,
    diesel::dsl::Eq<stops::run_position, Option<i32>>,
    diesel::dsl::Eq<stops::confirmed_at, Option<PrimitiveDateTime>>,
    diesel::dsl::Eq<stops::done_at, Option<PrimitiveDateTime>>,
    diesel::dsl::Eq<stops::created_at, PrimitiveDateTime>,
);

type LineRow = (
    diesel::dsl::Eq<order_lines::order_id, String>,
    diesel::dsl::Eq<order_lines::position, i32>,
    diesel::dsl::Eq<order_lines::kind, laundry::domain::LineKind>,
    diesel::dsl::Eq<order_lines::item, &'static str>,
    diesel::dsl::Eq<order_lines::label, &'static str>,
    diesel::dsl::Eq<order_lines::quantity, i32>,
    diesel::dsl::Eq<order_lines::unit, laundry::domain::catalogue::Unit>,
    diesel::dsl::Eq<order_lines::unit_price, i32>,
    diesel::dsl::Eq<order_lines::amount, i32>,
);

type HistoryRow = (
    diesel::dsl::Eq<order_status_history::order_id, String>,
    diesel::dsl::Eq<order_status_history::status, OrderStatus>,
    diesel::dsl::Eq<order_status_history::changed_at, PrimitiveDateTime>,
    diesel::dsl::Eq<order_status_history::changed_by, Option<String>>,
);

/// One multi-row INSERT, on the backend's own connection (diesel writes multi-row inserts for
/// each backend, not for the connection over both).
macro_rules! insert_rows {
    ($connection:expr, $table:expr, $rows:expr) => {
        match $connection {
            DbConnection::Sqlite(connection) => diesel::insert_into($table).values($rows).execute(connection),
            DbConnection::Postgres(connection) => diesel::insert_into($table).values($rows).execute(connection),
        }
    };
}

/// Rows waiting to be written, a batch of orders at a time.
#[derive(Default)]
struct Batch {
    orders: Vec<GeneratedOrder>,
    lines: Vec<LineRow>,
    stops: Vec<StopRow>,
    history: Vec<HistoryRow>,
    entries: Vec<EntryRow>,
    messages: Vec<OutboxMessage>,
}

impl Batch {
    fn flush(&mut self, connection: &mut DbConnection) -> QueryResult<()> {
        if self.orders.is_empty() {
            return Ok(());
        }
        connection.transaction(|connection| {
            let rows: Vec<_> = self
                .orders
                .iter()
                .map(|order| {
                    let total = lines_total(&order.lines);
                    let (service, kg) = (order.lines[0].item, order.lines[0].quantity);
                    (
                        (
                            orders::id.eq(order.id.as_str()),
                            orders::reference.eq(order.reference.as_str()),
                            orders::customer_name.eq(order.name.as_str()),
                            orders::phone.eq(order.phone.as_str()),
                            orders::location.eq(order.location.as_str()),
                            orders::service_type.eq(service),
                            orders::service_label.eq(order.lines[0].label),
                            orders::quantity.eq(kg),
                            orders::payment_method.eq(order.payment),
                            orders::special_instructions.eq(""),
                            orders::price_per_kg.eq(order.lines[0].unit_price),
                        ),
                        (
                            orders::total_amount.eq(total),
                            orders::status.eq(order.status),
                            orders::created_at.eq(order.placed),
                            orders::updated_at.eq(order.placed),
                            orders::landmark.eq(""),
                            orders::rush.eq(false),
                            orders::link_token.eq(order.token.as_str()),
                            orders::estimate_amount.eq(total),
                            orders::source.eq(OrderSource::Web),
                        ),
                    )
                })
                .collect();
            insert_rows!(connection, orders::table, &rows)?;
            for chunk in self.lines.chunks(BATCH) {
                insert_rows!(connection, order_lines::table, chunk)?;
            }
            for chunk in self.stops.chunks(BATCH) {
                insert_rows!(connection, stops::table, chunk)?;
            }
            for chunk in self.history.chunks(BATCH) {
                insert_rows!(connection, order_status_history::table, chunk)?;
            }
            for chunk in self.entries.chunks(BATCH) {
                insert_rows!(connection, ledger_entries::table, chunk)?;
            }
            for chunk in self.messages.chunks(BATCH) {
                insert_rows!(connection, outbox::table, chunk)?;
            }
            QueryResult::Ok(())
        })?;
        *self = Batch::default();
        Ok(())
    }
}
