//! Money M-PESA reported: one row per M-PESA receipt number, matched to the order it pays or left
//! for staff. Recording one and paying its order is `lifecycle::payment`'s.

use crate::db::schema::{ledger_entries, mpesa_receipts, orders};
use crate::db::{DbConnection, insert_or_ignore};
use crate::domain::{Method, OrderReference, OrderStatus, ReceiptProblem, ReceiptSource, till_phone};
use crate::models::ledger::Entry;
use diesel::prelude::*;
use time::PrimitiveDateTime;

/// How many of a phone number's newest orders a till payment without an order ID is matched
/// against.
const PHONE_ORDERS: i64 = 20;

/// A stored payment.
#[derive(Debug, Clone, PartialEq, Queryable, Selectable)]
#[diesel(table_name = mpesa_receipts)]
pub struct MpesaReceipt {
    /// The M-PESA receipt number (`MpesaReceiptNumber`, `TransID`).
    pub receipt: String,
    /// A prompt's callback, or a till confirmation.
    pub source: ReceiptSource,
    /// Whole shillings.
    pub amount: i32,
    /// As M-PESA gave it (possibly masked).
    pub phone: Option<String>,
    /// `FirstName` of a till payment.
    pub payer_name: Option<String>,
    /// `BillRefNumber` of a till payment.
    pub bill_ref: Option<String>,
    /// When M-PESA says it was paid, UTC.
    pub paid_at: Option<PrimitiveDateTime>,
    /// When it reached us.
    pub received_at: PrimitiveDateTime,
    /// The order it pays; `None`: waiting for staff to pick one.
    pub order_id: Option<String>,
    /// How it was matched: 'prompt', 'order-id', 'phone-and-amount', or a staff member's e-mail.
    pub matched_by: Option<String>,
    /// When.
    pub matched_at: Option<PrimitiveDateTime>,
    /// Why it did not mark its order paid, for staff to look at.
    pub problem: Option<ReceiptProblem>,
    /// Who looked at the problem.
    pub checked_by: Option<String>,
    /// When.
    pub checked_at: Option<PrimitiveDateTime>,
    /// The callback or confirmation as it came.
    pub raw: String,
}

/// A payment as M-PESA reported it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReceivedPayment {
    /// The receipt number.
    pub receipt: String,
    /// Where it came from.
    pub source: ReceiptSource,
    /// Whole shillings.
    pub amount: i32,
    /// As given.
    pub phone: Option<String>,
    /// A till payer's first name.
    pub payer_name: Option<String>,
    /// A till payment's account reference.
    pub bill_ref: Option<String>,
    /// When paid, UTC.
    pub paid_at: Option<PrimitiveDateTime>,
    /// The JSON as it came.
    pub raw: String,
}

/// What recording a payment did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Recorded {
    /// The receipt was known already: nothing changed.
    AlreadyRecorded,
    /// Matched to the order (its reference) and the order is paid.
    Paid(String),
    /// Matched to the order (its reference) but not paid by it: staff must look.
    Flagged(String, ReceiptProblem),
    /// No order found: it waits in the staff's list.
    Unmatched,
}

/// Why staff could not match a payment to an order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MatchRefusal {
    /// No such payment.
    NoSuchPayment,
    /// No order has that order ID.
    NoSuchOrder,
    /// The payment is matched to an order already.
    AlreadyMatched(String),
}

impl MatchRefusal {
    /// The words staff read.
    pub fn message(&self) -> String {
        match self {
            MatchRefusal::NoSuchPayment => "There is no such payment.".to_owned(),
            MatchRefusal::NoSuchOrder => "No order has that order ID.".to_owned(),
            MatchRefusal::AlreadyMatched(reference) => format!("This payment is matched to order {reference} already."),
        }
    }
}

impl MpesaReceipt {
    /// Stores a payment M-PESA reported, unmatched, received at `now`: false (and nothing
    /// written) when its receipt number is stored already.
    pub fn insert(
        connection: &mut DbConnection,
        payment: &ReceivedPayment,
        now: PrimitiveDateTime,
    ) -> QueryResult<bool> {
        let row = NewReceipt {
            receipt: &payment.receipt,
            source: payment.source,
            amount: payment.amount,
            phone: payment.phone.as_deref(),
            payer_name: payment.payer_name.as_deref(),
            bill_ref: payment.bill_ref.as_deref(),
            paid_at: payment.paid_at,
            received_at: now,
            raw: &payment.raw,
        };
        Ok(insert_or_ignore!(connection, mpesa_receipts::table, &row)? > 0)
    }

    /// Takes an unmatched payment for the order `id`: false when it is matched already (by
    /// another request, perhaps at this moment).
    pub fn claim(
        connection: &mut DbConnection,
        receipt: &str,
        id: &str,
        how: &str,
        now: PrimitiveDateTime,
    ) -> QueryResult<bool> {
        let claimed = diesel::update(mpesa_receipts::table.find(receipt).filter(mpesa_receipts::order_id.is_null()))
            .set((
                mpesa_receipts::order_id.eq(id),
                mpesa_receipts::matched_by.eq(how),
                mpesa_receipts::matched_at.eq(now),
            ))
            .execute(connection)?;
        Ok(claimed == 1)
    }

    /// The order a till payment is for: the one its account reference names, else the one order
    /// of its phone number, not cancelled, that owes exactly the amount, else an order of that
    /// phone paid by a prompt of that amount in the last two hours whose code M-PESA's status query
    /// did not give. None when no order, or more than one, fits.
    pub fn find_order(
        connection: &mut DbConnection,
        payment: &ReceivedPayment,
        now: PrimitiveDateTime,
    ) -> QueryResult<Option<(String, &'static str)>> {
        if let Some(reference) = payment.bill_ref.as_deref().and_then(OrderReference::parse) {
            // A cancelled order is not paid by it: the payment waits for staff.
            let id: Option<String> = orders::table
                .filter(orders::reference.eq(reference.as_str()))
                .filter(orders::status.ne(OrderStatus::Cancelled))
                .select(orders::id)
                .first(connection)
                .optional()?;
            if let Some(id) = id {
                return Ok(Some((id, "order-id")));
            }
        }
        let Some(phone) = payment.phone.as_deref().and_then(till_phone) else { return Ok(None) };
        let recent: Vec<String> = orders::table
            .filter(orders::phone.eq(&phone))
            .filter(orders::status.ne(OrderStatus::Cancelled))
            .order(orders::created_at.desc())
            .limit(PHONE_ORDERS)
            .select(orders::id)
            .load(connection)?;
        let ids: Vec<&str> = recent.iter().map(String::as_str).collect();
        let balances = Entry::balances(connection, &ids)?;
        let owing: Vec<&str> = ids
            .iter()
            .copied()
            .filter(|id| balances.get(*id).is_some_and(|balance| balance.to_pay() == i64::from(payment.amount)))
            .collect();
        if let [id] = owing.as_slice() {
            return Ok(Some(((*id).to_owned(), "phone-and-amount")));
        }
        if !owing.is_empty() {
            return Ok(None);
        }
        // Only the prompt of that moment: an order settled by a status query months ago does not
        // take today's payment of the same amount.
        let window = time::Duration::hours(2);
        let without_code: Vec<String> = ledger_entries::table
            .filter(ledger_entries::order_id.eq_any(&ids))
            .filter(ledger_entries::method.eq(Method::Prompt))
            .filter(ledger_entries::reference.is_null())
            .filter(ledger_entries::amount.eq(payment.amount))
            .filter(ledger_entries::recorded_at.between(now - window, now))
            .select(ledger_entries::order_id)
            .limit(2)
            .load(connection)?;
        Ok(if let [id] = without_code.as_slice() { Some((id.clone(), "prompt")) } else { None })
    }

    /// Matches the payment `receipt` to the order `id` (`how`: 'prompt', 'order-id',
    /// 'phone-and-amount' or a staff member's e-mail), with the reason it did not pay it, if any.
    pub fn set_match(
        connection: &mut DbConnection,
        receipt: &str,
        id: &str,
        how: &str,
        problem: Option<ReceiptProblem>,
        now: PrimitiveDateTime,
    ) -> QueryResult<()> {
        diesel::update(mpesa_receipts::table.find(receipt))
            .set((
                mpesa_receipts::order_id.eq(id),
                mpesa_receipts::matched_by.eq(how),
                mpesa_receipts::matched_at.eq(now),
                mpesa_receipts::problem.eq(problem),
            ))
            .execute(connection)?;
        Ok(())
    }

    /// The order ID of the order the payment `receipt` is matched to, if it is.
    pub fn matched_reference(connection: &mut DbConnection, receipt: &str) -> QueryResult<Option<String>> {
        mpesa_receipts::table
            .inner_join(orders::table)
            .filter(mpesa_receipts::receipt.eq(receipt))
            .select(orders::reference)
            .first(connection)
            .optional()
    }

    /// A prompt of the order `order_id` reported the payment `receipt`, which is matched to
    /// another order: it is flagged for staff (unless flagged already), and that order's ID is
    /// returned; `None` when it is this order's (or nobody's).
    pub fn flag_if_elsewhere(
        connection: &mut DbConnection,
        receipt: &str,
        order_id: &str,
    ) -> QueryResult<Option<String>> {
        let other: Option<(String, String)> = mpesa_receipts::table
            .inner_join(orders::table)
            .filter(mpesa_receipts::receipt.eq(receipt))
            .filter(mpesa_receipts::order_id.ne(order_id))
            .select((orders::id, orders::reference))
            .first(connection)
            .optional()?;
        let Some((_, reference)) = other else { return Ok(None) };
        diesel::update(mpesa_receipts::table.find(receipt).filter(mpesa_receipts::problem.is_null()))
            .set((
                mpesa_receipts::problem.eq(ReceiptProblem::Code),
                mpesa_receipts::checked_by.eq(None::<String>),
                mpesa_receipts::checked_at.eq(None::<PrimitiveDateTime>),
            ))
            .execute(connection)?;
        Ok(Some(reference))
    }

    /// Staff looked at a flagged payment (refunded it, or recorded the order's payment by hand).
    pub fn mark_checked(
        connection: &mut DbConnection,
        receipt: &str,
        staff: &str,
        now: PrimitiveDateTime,
    ) -> QueryResult<bool> {
        let changed = diesel::update(mpesa_receipts::table.find(receipt).filter(mpesa_receipts::problem.is_not_null()))
            .set((mpesa_receipts::checked_by.eq(staff), mpesa_receipts::checked_at.eq(now)))
            .execute(connection)?;
        Ok(changed == 1)
    }

    /// One payment.
    pub fn find(connection: &mut DbConnection, receipt: &str) -> QueryResult<Option<MpesaReceipt>> {
        mpesa_receipts::table.find(receipt).select(MpesaReceipt::as_select()).first(connection).optional()
    }

    /// The payments staff must look at, newest first: unmatched ones, and flagged ones nobody
    /// checked.
    pub fn to_check(connection: &mut DbConnection, limit: i64) -> QueryResult<Vec<MpesaReceipt>> {
        mpesa_receipts::table
            .filter(
                mpesa_receipts::order_id
                    .is_null()
                    .or(mpesa_receipts::problem.is_not_null().and(mpesa_receipts::checked_at.is_null())),
            )
            .order(mpesa_receipts::received_at.desc())
            .limit(limit)
            .select(MpesaReceipt::as_select())
            .load(connection)
    }

    /// The payments of an order, oldest first.
    pub fn for_order(connection: &mut DbConnection, order_id: &str) -> QueryResult<Vec<MpesaReceipt>> {
        mpesa_receipts::table
            .filter(mpesa_receipts::order_id.eq(order_id))
            .order(mpesa_receipts::received_at.asc())
            .select(MpesaReceipt::as_select())
            .load(connection)
    }
}

#[derive(Insertable)]
#[diesel(table_name = mpesa_receipts)]
struct NewReceipt<'a> {
    receipt: &'a str,
    source: ReceiptSource,
    amount: i32,
    phone: Option<&'a str>,
    payer_name: Option<&'a str>,
    bill_ref: Option<&'a str>,
    paid_at: Option<PrimitiveDateTime>,
    received_at: PrimitiveDateTime,
    raw: &'a str,
}
