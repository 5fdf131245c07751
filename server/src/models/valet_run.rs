//! A valet's run: the day's stops with their orders, in run order, and what the valet records at
//! each one: on the way, picked up (the weighing, which re-prices the bill) and delivered (the
//! payment). Each change is one transaction that first locks the stop and reads it again, so the
//! same form sent twice changes nothing the second time; a valet may change only the stops of
//! their own run.

use crate::db::schema::{orders, stops};
use crate::db::{DbConnection, write_transaction};
use crate::domain::schedule::{RunPosition, eta, nairobi_day};
use crate::domain::{
    Collected, FieldErrors, MessageKind, OrderStatus, PaymentMethod, PaymentStatus, StopKind, StopState, Weighing,
};
use crate::models::mpesa::{MpesaPrompt, MpesaReceipt};
use crate::models::order::bill::BillError;
use crate::models::order::{Order, OrderLine, Payment, PaymentRecorded};
use crate::models::stop::Stop;
use crate::notify::{NotifyCustomer, once_per};
use diesel::prelude::*;
use diesel::result::{DatabaseErrorKind, Error as DieselError};
use time::{Date, PrimitiveDateTime};

/// How long a valet's "on my way" text may still go out after it is written.
const ON_MY_WAY_HOURS: i64 = 3;

/// A stop of the run with everything the valet page shows of it.
#[derive(Debug, Clone)]
pub struct RunStop {
    /// The stop.
    pub stop: Stop,
    /// Its order.
    pub order: Order,
    /// The order's lines (its bill).
    pub lines: Vec<OrderLine>,
    /// Bags of the newest weighing, once weighed.
    pub bags: Option<i32>,
    /// Where it stands in its valet's run, while it is still to be done (for the ETA).
    pub position: Option<RunPosition>,
}

/// Who records a change, and whose stops they may change.
#[derive(Debug, Clone, Copy)]
pub struct Actor<'a> {
    /// Recorded as who made the change.
    pub email: &'a str,
    /// A valet's own id: only the stops of this valet's run. `None`: staff standing in, any stop.
    pub only_run_of: Option<&'a str>,
}

/// What a change came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Recorded.
    Changed,
    /// Already so (the same form sent again): nothing was written.
    Unchanged,
}

/// Why a change was refused; nothing was written.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// No stop has that id.
    #[error("This stop could not be found. It may have been moved.")]
    NoSuchStop,
    /// The stop is in another valet's run (or in none).
    #[error("This stop is not in your run.")]
    NotYourStop,
    /// The order was cancelled.
    #[error("This order was cancelled.")]
    Cancelled,
    /// The action does not fit the stop (a pickup's form on a delivery, a delivery before the
    /// pickup): the message says why.
    #[error("{0}")]
    Refused(&'static str),
    /// A prompt to pay was refused by the limits on prompts per phone: the message says when
    /// another may be sent.
    #[error("{0}")]
    PromptsHeld(String),
    /// A field of the form does not fit the order: a message per field.
    #[error("the form does not fit the order")]
    Invalid(FieldErrors),
    /// The M-PESA code is already recorded for the order with this reference.
    #[error("the M-PESA code is recorded for order {0}")]
    CodeUsedBy(String),
    /// The database failed.
    #[error(transparent)]
    Database(#[from] DieselError),
}

impl From<BillError> for RunError {
    fn from(error: BillError) -> Self {
        match error {
            BillError::Invalid(fields) => RunError::Invalid(fields),
            BillError::Database(error) => RunError::Database(error),
        }
    }
}

impl RunStop {
    /// The stops of `day` that are not cancelled, with their orders: of one valet's run in run
    /// order, or (`valet` none) everyone's, by window and then run.
    pub fn of_day(connection: &mut DbConnection, day: Date, valet: Option<&str>) -> QueryResult<Vec<RunStop>> {
        let mut query = stops::table
            .inner_join(orders::table)
            .filter(stops::day.eq(day))
            .filter(stops::state.ne(StopState::Cancelled))
            .select((Stop::as_select(), Order::as_select()))
            .into_boxed();
        if let Some(valet) = valet {
            query = query.filter(stops::valet_id.eq(valet.to_owned()));
        }
        let mut found: Vec<(Stop, Order)> = query.load(connection)?;
        found.sort_by(|(a, _), (b, _)| {
            // Unplaced stops after the placed ones, whatever the backend does with NULLs.
            let run = |stop: &Stop| (stop.run_position.is_none(), stop.run_position, stop.window_start);
            let window = |stop: &Stop| (stop.window_start, stop.valet_id.is_none(), stop.valet_id.clone());
            let kind = |stop: &Stop| (stop.kind != StopKind::Pickup, stop.id.clone());
            match valet {
                Some(_) => (run(a), kind(a)).cmp(&(run(b), kind(b))),
                None => (window(a), run(a), kind(a)).cmp(&(window(b), run(b), kind(b))),
            }
        });
        let orders: Vec<Order> = found.iter().map(|(_, order)| order.clone()).collect();
        let mut lines = Order::lines_of(connection, &orders)?;
        let ids: Vec<&str> = orders.iter().map(|order| order.id.as_str()).collect();
        let bags = Order::bags_of(connection, &ids)?;
        let mut run = Vec::with_capacity(found.len());
        for (stop, order) in found {
            let position = if stop.state.is_open() { stop.run_position(connection)? } else { None };
            run.push(RunStop {
                lines: lines.remove(&order.id).unwrap_or_default(),
                bags: bags.get(&order.id).copied(),
                stop,
                order,
                position,
            });
        }
        Ok(run)
    }
}

impl Stop {
    /// "On my way": the valet set off for this stop, which moves the ETA of the stops after it.
    /// The customer is texted as `notify` says: the valet is on the way (a pickup) or the order is
    /// out for delivery, with the stop's ETA as its order page now shows it (`minutes_per_stop`).
    /// Unchanged, and nobody texted, when they already had set off (or the stop is done).
    pub fn set_off(
        connection: &mut DbConnection,
        id: &str,
        actor: Actor<'_>,
        notify: &NotifyCustomer,
        minutes_per_stop: u16,
        now: PrimitiveDateTime,
    ) -> Result<Outcome, RunError> {
        write_transaction(connection, |connection| {
            let (stop, order) = locked(connection, id, actor, now)?;
            if stop.state != StopState::Planned {
                return Ok(Outcome::Unchanged);
            }
            diesel::update(stops::table.find(id))
                .set((stops::state.eq(StopState::OnTheWay), stops::on_the_way_at.eq(now)))
                .execute(connection)?;
            let stop = Stop { state: StopState::OnTheWay, on_the_way_at: Some(now), ..stop };
            let eta = stop.run_position(connection)?.map(|position| eta(position, minutes_per_stop));
            let kind = match stop.kind {
                StopKind::Pickup => MessageKind::SmsOnTheWay,
                StopKind::Delivery => MessageKind::SmsOutForDelivery,
            };
            // "On my way" is news for the next few hours, not after.
            let send_before = Some(now + time::Duration::hours(ON_MY_WAY_HOURS));
            notify.text_until(
                connection,
                kind,
                &order,
                Some(once_per(kind, &stop.id)),
                send_before,
                |texts| match stop.kind {
                    StopKind::Pickup => texts.on_the_way(&order, eta),
                    StopKind::Delivery => texts.out_for_delivery(&order, eta),
                },
                now,
            )?;
            Ok(Outcome::Changed)
        })
    }

    /// "Picked up": the bill priced again from `weighing` and kept with its history, the stop
    /// done and the order picked up (the customer told as `notify` says, with the bill as it now
    /// stands). Once done, the same
    /// weighing again changes nothing, and another one corrects the bill while the order is still
    /// picked up and unpaid.
    pub fn pick_up(
        connection: &mut DbConnection,
        id: &str,
        actor: Actor<'_>,
        weighing: &Weighing,
        notify: &NotifyCustomer,
        now: PrimitiveDateTime,
    ) -> Result<Outcome, RunError> {
        write_transaction(connection, |connection| {
            let (stop, order) = locked(connection, id, actor, now)?;
            if stop.kind != StopKind::Pickup {
                return Err(RunError::Refused("This is a delivery: record it with Delivered."));
            }
            let priced = order.price_weighing(connection, weighing)?;
            let already_done = stop.state == StopState::Done;
            if already_done && priced.unchanged {
                return Ok(Outcome::Unchanged);
            }
            if !already_done && order.status != OrderStatus::Pending {
                return Err(RunError::Refused(
                    "This order is already past pickup on the dashboard. Ask staff to change the bill.",
                ));
            }
            let correctable = order.status == OrderStatus::PickedUp && order.payment_status == PaymentStatus::Unpaid;
            if already_done && !correctable {
                return Err(RunError::Refused(
                    "This pickup was recorded and the order has moved on. Ask staff to change the bill.",
                ));
            }
            let billed = order.record_weighing(connection, &priced, actor.email, now)?;
            if order.payment_status == PaymentStatus::Paid && billed.total_amount != order.total_amount {
                // The estimate was paid and the bill is now another: never silently "paid".
                let flagged = MpesaReceipt::flag_bill_changed(connection, &order.id)?;
                tracing::warn!(order = %order.reference, paid = order.total_amount, bill = billed.total_amount, flagged, "a paid order's bill changed at pickup");
            }
            if !already_done {
                finish(connection, id, now)?;
                Order::set_status_within(connection, &order.id, OrderStatus::PickedUp, actor.email, notify, now)?;
            }
            if already_done && notify.mpesa_prompts && billed.payment_method == PaymentMethod::PayNow {
                // A corrected bill: the phone asks for the new amount (the first weighing's prompt
                // goes with "picked up", in `set_status_within`).
                MpesaPrompt::ask_for_bill(connection, &billed, "bill", notify.prompt_limits, now)?;
            }
            Ok(Outcome::Changed)
        })
    }

    /// "Delivered": the payment recorded as `collected` says (cash must be the bill; an M-PESA
    /// code pays one order only), the stop done and the order delivered (the customer told when
    /// `notify` says: one text, delivered, which names the payment just taken). Once done, the same
    /// form again changes nothing.
    pub fn deliver(
        connection: &mut DbConnection,
        id: &str,
        actor: Actor<'_>,
        collected: &Collected,
        notify: &NotifyCustomer,
        now: PrimitiveDateTime,
    ) -> Result<Outcome, RunError> {
        let attempt = |connection: &mut DbConnection| {
            write_transaction(connection, |connection| {
                let (stop, order) = locked(connection, id, actor, now)?;
                if stop.kind != StopKind::Delivery {
                    return Err(RunError::Refused("This is a pickup: record it with Picked up."));
                }
                if stop.state == StopState::Done {
                    return Ok(Outcome::Unchanged);
                }
                if order.status == OrderStatus::Pending {
                    return Err(RunError::Refused("This order has not been picked up yet."));
                }
                if let Some(payment) = payment_to_record(&order, collected)? {
                    // The delivered text names the payment: one text, not two at the door.
                    let recorded = Order::record_payment_within(
                        connection,
                        &order.id,
                        &payment,
                        actor.email,
                        &NotifyCustomer::nobody(),
                        now,
                    )?;
                    if let PaymentRecorded::CodeUsedBy(reference) = recorded {
                        return Err(RunError::CodeUsedBy(reference));
                    }
                }
                finish(connection, id, now)?;
                Order::set_status_within(connection, &order.id, OrderStatus::Delivered, actor.email, notify, now)?;
                Ok(Outcome::Changed)
            })
        };
        match attempt(connection) {
            // Another order took the code between the check and the write; the check now sees it.
            Err(RunError::Database(DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _))) => {
                attempt(connection)
            }
            outcome => outcome,
        }
    }
}

impl Stop {
    /// The order whose M-PESA prompt `actor` may send at the door of this stop: a delivery (a valet
    /// only at a stop of their own run today), of an order not cancelled and not paid. Nothing is
    /// written; the caller asks for the prompt next ([`MpesaPrompt::ask_again`], which checks the
    /// order again under its lock).
    pub fn order_to_prompt(
        connection: &mut DbConnection,
        id: &str,
        actor: Actor<'_>,
        now: PrimitiveDateTime,
    ) -> Result<Order, RunError> {
        write_transaction(connection, |connection| {
            let (stop, order) = locked(connection, id, actor, now)?;
            if stop.kind != StopKind::Delivery {
                return Err(RunError::Refused("A prompt to pay is sent at the delivery."));
            }
            if order.payment_status == PaymentStatus::Paid {
                return Err(RunError::Refused("This order is paid already."));
            }
            Ok(order)
        })
    }
}

/// The stop and its order, both locked for the rest of the transaction (PostgreSQL: the order's
/// row first, as every path that changes an order and its stops takes it, then the stop; a second
/// form for it waits, then reads what the first wrote; SQLite writes one transaction at a time),
/// once `actor` may change it: a valet only stops of their own run of today; neither cancelled.
fn locked(
    connection: &mut DbConnection,
    id: &str,
    actor: Actor<'_>,
    now: PrimitiveDateTime,
) -> Result<(Stop, Order), RunError> {
    let order_id: Option<String> = stops::table.find(id).select(stops::order_id).first(connection).optional()?;
    let Some(order_id) = order_id else {
        return Err(RunError::NoSuchStop);
    };
    Order::lock(connection, &order_id)?;
    let locked = diesel::update(stops::table.find(id)).set(stops::state.eq(stops::state)).execute(connection)?;
    if locked == 0 {
        return Err(RunError::NoSuchStop);
    }
    let (stop, order): (Stop, Order) = stops::table
        .inner_join(orders::table)
        .filter(stops::id.eq(id))
        .select((Stop::as_select(), Order::as_select()))
        .first(connection)?;
    if let Some(valet) = actor.only_run_of {
        if stop.valet_id.as_deref() != Some(valet) {
            return Err(RunError::NotYourStop);
        }
        if stop.day != nairobi_day(now.assume_utc()) {
            return Err(RunError::Refused("This stop is not on today's run."));
        }
    }
    if stop.state == StopState::Cancelled || order.status == OrderStatus::Cancelled {
        return Err(RunError::Cancelled);
    }
    Ok((stop, order))
}

/// Marks the stop done now.
fn finish(connection: &mut DbConnection, id: &str, now: PrimitiveDateTime) -> QueryResult<()> {
    diesel::update(stops::table.find(id))
        .set((stops::state.eq(StopState::Done), stops::done_at.eq(now)))
        .execute(connection)?;
    Ok(())
}

/// The payment a delivery records: none when the order was paid before (and the valet says so,
/// or gives the code it was paid with) or costs nothing; cash only for the whole bill.
fn payment_to_record(order: &Order, collected: &Collected) -> Result<Option<Payment>, RunError> {
    let refuse = |field: &'static str, message: String| {
        let mut fields = FieldErrors::default();
        fields.add(field, message);
        Err(RunError::Invalid(fields))
    };
    let paid = order.payment_status == PaymentStatus::Paid;
    match collected {
        // A free re-clean (KSh 0): nothing is recorded, whatever the form says.
        _ if !paid && order.total_amount <= 0 => Ok(None),
        Collected::AlreadyPaid | Collected::NothingToPay if paid => Ok(None),
        Collected::NothingToPay => {
            refuse("paid", format!("The bill is KSh {}: choose how the customer paid.", order.total_amount))
        }
        Collected::Mpesa(code) if paid && order.mpesa_code.as_deref() == Some(code.as_str()) => Ok(None),
        _ if paid => refuse("paid", "This order is already paid. Choose Already paid.".to_owned()),
        Collected::AlreadyPaid => refuse(
            "paid",
            format!("This order is not paid yet: collect KSh {} in cash or by M-PESA.", order.total_amount),
        ),
        Collected::Cash(cash) if *cash != order.total_amount => refuse(
            "cash",
            format!(
                "The bill is KSh {}: collect exactly that, or ask staff if the customer disputes it.",
                order.total_amount
            ),
        ),
        Collected::Cash(_) => Ok(Some(Payment::Cash)),
        Collected::Mpesa(code) => Ok(Some(Payment::Mpesa(code.clone()))),
    }
}
