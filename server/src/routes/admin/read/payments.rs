//! What the payments tab reads: the M-PESA payments to check, searched.

use crate::models::mpesa::MpesaReceipt;
use crate::models::order::Order;
use crate::routes::admin::payment_search::PaymentSearch;
use crate::views::payments::{MpesaPayment, PaymentsToCheck};

/// The most payments to check that are read (newest first); staff clear them as they come.
const TO_CHECK_LIMIT: i64 = 500;

/// The most shown at once.
const SHOWN: usize = 50;

/// The payments to check matching `q` (all when empty), with their orders' IDs.
pub fn load_to_check(
    connection: &mut crate::db::DbConnection,
    search: Option<&PaymentSearch>,
) -> diesel::QueryResult<PaymentsToCheck> {
    let all = MpesaReceipt::to_check(connection, TO_CHECK_LIMIT)?;
    let shown: Vec<&MpesaReceipt> =
        all.iter().filter(|receipt| search.is_none_or(|search| search.matches(receipt))).take(SHOWN).collect();
    let ids: Vec<&str> = shown.iter().filter_map(|receipt| receipt.order_id.as_deref()).collect();
    let references = Order::references(connection, &ids)?;
    Ok(PaymentsToCheck {
        items: shown.iter().map(|receipt| MpesaPayment::new(receipt, &references)).collect(),
        q: search.map(|search| search.text().to_owned()).unwrap_or_default(),
        total: all.len() as i64,
    })
}
