//! Recording how an order was paid, apart from its work status.

use super::Order;
use crate::db::DbConnection;
use crate::db::schema::orders;
use crate::domain::{MpesaCode, PaidVia, PaymentStatus};
use diesel::prelude::*;
use time::PrimitiveDateTime;

/// How staff record a payment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Payment {
    /// Not paid (also to undo a mistake).
    Unpaid,
    /// Paid to the till; the M-PESA transaction code from the customer's SMS.
    Mpesa(MpesaCode),
    /// Paid to the till as M-PESA's status query of a prompt says; the code is not known yet (a
    /// till confirmation may bring it).
    MpesaWithoutCode,
    /// Paid in cash, at delivery.
    Cash,
}

impl Order {
    /// Records a payment (or its absence), apart from the work status, inside the caller's
    /// transaction; telling the customer is `lifecycle::payment`'s. An M-PESA code pays for one
    /// order only: a code already recorded for another order is refused (a typo, or one payment
    /// message shown for two orders). A code taken by another order at the same moment fails with
    /// a unique violation: the caller retries its transaction, whose check then sees it.
    pub fn record_payment_within(
        connection: &mut DbConnection,
        id: &str,
        payment: &Payment,
        by: &str,
        now: PrimitiveDateTime,
    ) -> QueryResult<PaymentRecorded> {
        // Two staff recording one payment at once: the second waits, then sees it paid.
        Order::lock(connection, id)?;
        if Order::find(connection, id)?.is_none() {
            return Ok(PaymentRecorded::NoSuchOrder);
        }
        let (status, via, code, paid_at, recorded_by) = match payment {
            Payment::Unpaid => (PaymentStatus::Unpaid, None, None, None, None),
            Payment::Mpesa(code) => {
                (PaymentStatus::Paid, Some(PaidVia::Mpesa), Some(code.as_str()), Some(now), Some(by))
            }
            Payment::MpesaWithoutCode => (PaymentStatus::Paid, Some(PaidVia::Mpesa), None, Some(now), Some(by)),
            Payment::Cash => (PaymentStatus::Paid, Some(PaidVia::Cash), None, Some(now), Some(by)),
        };
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
        let Some(order) = Order::find(connection, id)?.filter(|_| changed > 0) else {
            return Ok(PaymentRecorded::NoSuchOrder);
        };
        Ok(PaymentRecorded::Recorded(Box::new(order)))
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
