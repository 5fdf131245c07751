//! The entries each change of an order's money adds to its ledger: its lines charged when it is
//! placed, a new bill's difference, a cancellation and its undo, a staff discount, a payment, a
//! refund, store credit kept and used, a correction. Entries are only ever added: a mistake is
//! corrected by a new entry with its reason. Every function runs inside the caller's transaction
//! and takes the order's lock first. Payments that M-PESA reports are matched in [`super::payment`].

use crate::db::{DbConnection, lock_until_commit};
use crate::domain::{Balance, EntryKind, Line, MessageKind, Method, OrderStatus};
use crate::models::ledger::{Entry, NewEntry};
use crate::models::order::Order;
use crate::notify::{NotifyCustomer, once_per};
use diesel::QueryResult;
use time::PrimitiveDateTime;

/// The note of the entry that takes a cancelled order's charges back (its undo names it).
pub const CANCELLED: &str = "Cancelled";
/// The note of the entry that puts them back when a cancellation is taken back.
pub const REINSTATED: &str = "Cancellation taken back";
/// The longest reason staff may give for a discount or a correction.
pub const MAX_REASON: usize = 200;
/// The most one entry staff type may move, in KSh: far above any bill, to catch a slip.
pub const MAX_AMOUNT: i32 = 1_000_000;

/// Why a change of money was refused; nothing was written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoneyRefusal {
    /// No such order, or no such entry on it.
    #[error("There is no such order or entry.")]
    NotFound,
    /// The amount is not a whole number of shillings in range.
    #[error("Enter an amount in whole shillings, from 1 to {0}.")]
    Amount(i64),
    /// The order owes nothing, and no amount was given.
    #[error("This order has nothing to pay.")]
    NothingToPay,
    /// A reason is needed (a discount, a correction).
    #[error("Please say why, in at most {MAX_REASON} characters.")]
    Reason,
    /// A refund of more than the order owes back.
    #[error("This order owes KSh {} back; a refund cannot be more.", crate::domain::shillings(*.0))]
    MoreThanOwed(i64),
    /// A payment's M-PESA code was entered already, on this order or the one named.
    #[error("That M-PESA code is recorded already for order {0}.")]
    CodeUsed(String),
    /// The entry cannot be corrected (a charge from the bill, a correction, or corrected already).
    #[error("{0}")]
    NotCorrectable(&'static str),
    /// The method does not go with the entry (a refund "by prompt").
    #[error("That is not a way to {0}.")]
    Method(&'static str),
    /// Correcting a payment would leave more given back (or kept as credit) than received: this
    /// much was given back.
    #[error(
        "KSh {} of this order's money was given back or kept as credit already: correct that refund first, then this payment.",
        crate::domain::shillings(*.0)
    )]
    GivenBack(i64),
    /// Correcting store credit kept would take back credit the phone has spent since: it holds
    /// only this much of it.
    #[error(
        "This credit was used on another order since: the phone number holds KSh {} of it now. Correct that order's payment from store credit first.",
        crate::domain::shillings(*.0)
    )]
    CreditSpent(i64),
}

/// The order's lines, charged when it is placed: one entry per line (the kg, each item, the rush
/// surcharge, the first-order discount or a free re-clean, negative).
pub fn charge_booking(
    connection: &mut DbConnection,
    order_id: &str,
    lines: &[Line],
    now: PrimitiveDateTime,
) -> QueryResult<()> {
    for line in lines {
        let note =
            if line.quantity > 1 { format!("{} × {}", line.label, line.quantity) } else { line.label.to_owned() };
        Entry::add(connection, order_id, &NewEntry::charge(EntryKind::Charge, line.amount, &note, None), now)?;
    }
    Ok(())
}

/// A new bill (a weighing): its difference from the previous bill, if any.
pub fn rebill(
    connection: &mut DbConnection,
    order_id: &str,
    before: i32,
    after: i32,
    by: &str,
    now: PrimitiveDateTime,
) -> QueryResult<()> {
    if after != before {
        let note = format!("Bill after weighing: KSh {}", crate::domain::shillings(i64::from(after)));
        Entry::add(
            connection,
            order_id,
            &NewEntry::charge(EntryKind::Adjustment, after - before, &note, Some(by)),
            now,
        )?;
    }
    Ok(())
}

/// A cancellation: the order costs nothing any more, so money received is owed back.
pub fn void_charges(
    connection: &mut DbConnection,
    order_id: &str,
    reason: Option<&str>,
    by: &str,
    now: PrimitiveDateTime,
) -> QueryResult<()> {
    let charged = Entry::balance(connection, order_id)?.charged;
    if charged != 0 {
        let note = match reason {
            Some(reason) => format!("{CANCELLED}: {reason}"),
            None => CANCELLED.to_owned(),
        };
        let amount = i32::try_from(-charged).unwrap_or(i32::MIN);
        Entry::add(connection, order_id, &NewEntry::charge(EntryKind::Adjustment, amount, &note, Some(by)), now)?;
    }
    Ok(())
}

/// A cancellation taken back: the charges its cancellation took back come back (none when it
/// took none back: an order that cost nothing then).
pub fn restore_charges(
    connection: &mut DbConnection,
    order_id: &str,
    by: &str,
    now: PrimitiveDateTime,
) -> QueryResult<()> {
    let newest = Entry::of_order(connection, order_id)?.into_iter().rev().find(|entry| {
        entry.kind == EntryKind::Adjustment && (entry.note.starts_with(CANCELLED) || entry.note == REINSTATED)
    });
    if let Some(voided) = newest.filter(|entry| entry.note.starts_with(CANCELLED)) {
        let entry = NewEntry::charge(EntryKind::Adjustment, -voided.amount, REINSTATED, Some(by));
        Entry::add(connection, order_id, &entry, now)?;
    }
    Ok(())
}

/// Whether the status change from `before` to `after` takes the charges back or restores them,
/// and does so.
pub fn follow_status(
    connection: &mut DbConnection,
    order_id: &str,
    before: OrderStatus,
    after: OrderStatus,
    reason: Option<&str>,
    by: &str,
    now: PrimitiveDateTime,
) -> QueryResult<()> {
    match (before == OrderStatus::Cancelled, after == OrderStatus::Cancelled) {
        (false, true) => void_charges(connection, order_id, reason, by, now),
        (true, false) => restore_charges(connection, order_id, by, now),
        _ => Ok(()),
    }
}

/// A payment to enter.
#[derive(Debug, Clone, Copy)]
pub struct Pay<'a> {
    /// How it came.
    pub method: Method,
    /// KSh received.
    pub amount: i32,
    /// Its M-PESA code, if it has one.
    pub code: Option<&'a str>,
    /// The prompt it answered, if it did.
    pub prompt_id: Option<&'a str>,
    /// Who recorded it ("M-PESA" for M-PESA's own reports); for cash, who took it (their cash-up
    /// counts it).
    pub by: &'a str,
    /// Who typed it, when not `by` (staff entering the cash a valet took): kept in the entry's
    /// note, "Entered by …".
    pub entered_by: Option<&'a str>,
    /// Whether the customer is texted "received" (not when another text says it: the delivered
    /// text names the money taken at the door).
    pub tell: bool,
}

/// Enters a payment on the order `order_id` whatever its amount (money received always counts:
/// more than the bill becomes credit). An M-PESA code is entered on one order: a code entered
/// already (and not corrected) is refused, naming its order; the check is made under the code's
/// lock (PostgreSQL; SQLite writes one transaction at a time). Returns the entry and the balance after it.
pub fn pay(
    connection: &mut DbConnection,
    order_id: &str,
    pay: &Pay<'_>,
    notify: &NotifyCustomer,
    now: PrimitiveDateTime,
) -> QueryResult<Result<(Entry, Balance), MoneyRefusal>> {
    Order::lock(connection, order_id)?;
    let Some(order) = Order::find(connection, order_id)? else { return Ok(Err(MoneyRefusal::NotFound)) };
    if !(1..=MAX_AMOUNT).contains(&pay.amount) || !pay.method.pays() {
        return Ok(Err(MoneyRefusal::Amount(i64::from(MAX_AMOUNT))));
    }
    if let Some(code) = pay.code
        && let Some(holder) = code_holder(connection, code)?
    {
        return Ok(Err(MoneyRefusal::CodeUsed(holder)));
    }
    let note = pay.entered_by.map(|typist| format!("Entered by {typist}")).unwrap_or_default();
    let entry = NewEntry {
        prompt_id: pay.prompt_id,
        note: &note,
        ..NewEntry::payment(pay.method, pay.amount, pay.code, Some(pay.by))
    };
    let entry = Entry::add(connection, order_id, &entry, now)?;
    let balance = Entry::balance(connection, order_id)?;
    // Paid after it was cancelled (a prompt answered as staff cancelled): its cancellation's text,
    // if it has not gone yet, is written again from the money as it is now, so that it says what
    // goes back whichever came first.
    if order.status == OrderStatus::Cancelled
        && let Some(cancelled) = super::OrderNow::load(connection, order_id)?
    {
        notify.fold_into_waiting(
            connection,
            MessageKind::SmsCancelled,
            &order,
            |texts| cancelled.cancelled_words(texts),
            now,
        )?;
    }
    // Paid in full while the picked-up text waits for the prompt's answer: that text says so
    // (with the M-PESA code), and no second text follows it.
    let folded = pay.tell
        && balance.to_pay() == 0
        && notify.fold_into_waiting(
            connection,
            MessageKind::SmsPickedUp,
            &order,
            |texts| texts.picked_up(&order, &balance, pay.code),
            now,
        )?;
    if pay.tell && !folded {
        let kind = MessageKind::SmsPaymentReceived;
        notify.text(
            connection,
            kind,
            &order,
            Some(once_per(kind, &format!("{}:{}", order.id, entry.id))),
            |texts| texts.payment_received(&order, pay.amount, pay.code, &balance),
            now,
        )?;
    }
    Ok(Ok((entry, balance)))
}

/// The order ID of the order the M-PESA code `code` is entered on (and not corrected), if any;
/// asked under the code's lock, held to the end of the transaction, so that two orders given one
/// code at the same moment do not both take it: the second waits, then sees it.
pub fn code_holder(connection: &mut DbConnection, code: &str) -> QueryResult<Option<String>> {
    lock_until_commit(connection, &format!("mpesa-code:{code}"))?;
    let Some(entered) = Entry::payment_with_code(connection, code)? else { return Ok(None) };
    let references = Order::references(connection, &[entered.order_id.as_str()])?;
    Ok(Some(references.get(&entered.order_id).cloned().unwrap_or_default()))
}

/// Gives money back (`method` an M-PESA reversal done by hand, cash, or store credit kept for the
/// phone number's next order): at most what the order owes back.
#[allow(clippy::too_many_arguments)]
pub fn refund(
    connection: &mut DbConnection,
    order_id: &str,
    method: Method,
    amount: i32,
    reference: Option<&str>,
    note: &str,
    by: &str,
    now: PrimitiveDateTime,
) -> QueryResult<Result<Balance, MoneyRefusal>> {
    if !locked(connection, order_id)? {
        return Ok(Err(MoneyRefusal::NotFound));
    }
    if !method.refunds() {
        return Ok(Err(MoneyRefusal::Method("refund")));
    }
    let owed = Entry::balance(connection, order_id)?.owed_back();
    if owed < 1 {
        return Ok(Err(MoneyRefusal::MoreThanOwed(0)));
    }
    if !(1..=owed).contains(&i64::from(amount)) {
        return Ok(Err(MoneyRefusal::MoreThanOwed(owed)));
    }
    let note = if note.is_empty() && method == Method::Credit { "Kept as store credit" } else { note };
    Entry::add(connection, order_id, &NewEntry::refund(method, amount, reference, note, Some(by)), now)?;
    Ok(Ok(Entry::balance(connection, order_id)?))
}

/// What the order owes back, kept as store credit for its phone number (the customer's choice on
/// the order's page, or staff's for them).
pub fn keep_as_credit(
    connection: &mut DbConnection,
    order_id: &str,
    by: &str,
    now: PrimitiveDateTime,
) -> QueryResult<Result<Balance, MoneyRefusal>> {
    Order::lock(connection, order_id)?;
    let owed = Entry::balance(connection, order_id)?.owed_back();
    let amount = i32::try_from(owed).unwrap_or(i32::MAX);
    refund(connection, order_id, Method::Credit, amount, None, "", by, now)
}

/// What the store credit of the order's phone number would pay of it now: none on a cancelled
/// order.
pub fn credit_usable(connection: &mut DbConnection, order: &Order) -> QueryResult<i64> {
    if order.status == OrderStatus::Cancelled {
        return Ok(0);
    }
    let held = Entry::credit_of(connection, &order.phone)?;
    let owed = Entry::balance(connection, &order.id)?.to_pay();
    Ok(held.min(owed).max(0))
}

/// Pays what the order owes from the store credit its phone number holds, as far as it goes,
/// inside the caller's transaction, which holds the phone number's lock (two orders never spend
/// it twice). Only where the phone's owner asks for it (a staff member's phone booking, a text
/// from the phone, the link texted to the phone: [`use_credit_from_link`]); never because a
/// number was typed. Returns what was used.
pub fn use_credit(connection: &mut DbConnection, order: &Order, now: PrimitiveDateTime) -> QueryResult<i64> {
    let used = credit_usable(connection, order)?;
    if used > 0 {
        let amount = i32::try_from(used).unwrap_or(i32::MAX);
        let entry = NewEntry {
            note: "Store credit from an earlier order",
            ..NewEntry::payment(Method::Credit, amount, None, None)
        };
        Entry::add(connection, &order.id, &entry, now)?;
    }
    Ok(used)
}

/// Why store credit was not used from the link texted to the order's phone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CreditRefusal {
    /// The key is not the one texted to the phone (or the order has none).
    NotTheTextedLink,
    /// The phone holds no credit now, or the order has nothing left to pay.
    NothingToUse,
}

/// Pays the order from its phone's store credit because the customer opened the link texted to
/// that phone (its `key`), under the phone number's lock, then the order's. Returns what was used.
pub fn use_credit_from_link(
    connection: &mut DbConnection,
    order_id: &str,
    key: &str,
    now: PrimitiveDateTime,
) -> QueryResult<Result<i64, CreditRefusal>> {
    let Some(order) = Order::find(connection, order_id)? else { return Ok(Err(CreditRefusal::NotTheTextedLink)) };
    if !Order::credit_key_matches(connection, &order.id, key)? {
        return Ok(Err(CreditRefusal::NotTheTextedLink));
    }
    crate::models::lock_phone(connection, &order.phone)?;
    Order::lock(connection, &order.id)?;
    let Some(order) = Order::find(connection, order_id)? else { return Ok(Err(CreditRefusal::NotTheTextedLink)) };
    match use_credit(connection, &order, now)? {
        0 => Ok(Err(CreditRefusal::NothingToUse)),
        used => Ok(Ok(used)),
    }
}

/// A discount staff give (owner or staff), with its reason: at most what the order costs now.
pub fn discount(
    connection: &mut DbConnection,
    order_id: &str,
    amount: i32,
    reason: &str,
    by: &str,
    now: PrimitiveDateTime,
) -> QueryResult<Result<Balance, MoneyRefusal>> {
    if !locked(connection, order_id)? {
        return Ok(Err(MoneyRefusal::NotFound));
    }
    let Some(reason) = valid_reason(reason) else { return Ok(Err(MoneyRefusal::Reason)) };
    let charged = Entry::balance(connection, order_id)?.charged;
    if !(1..=charged).contains(&i64::from(amount)) {
        return Ok(Err(MoneyRefusal::Amount(charged.max(0))));
    }
    Entry::add(connection, order_id, &NewEntry::charge(EntryKind::Discount, -amount, &reason, Some(by)), now)?;
    Ok(Ok(Entry::balance(connection, order_id)?))
}

/// Corrects a mistake: a payment, a refund or a discount entered by error is undone by a new
/// entry of the opposite amount that names it and says why. Each entry is corrected at most once;
/// the bill's charges change by weighing again, never here. A payment is not corrected while more
/// of the order's money was given back than would be left received. Store credit is the phone number's:
/// its corrections are made under the phone's lock (the lock orders take to use credit), and one
/// that would take back credit spent since is refused with what the phone still holds.
pub fn correct(
    connection: &mut DbConnection,
    order_id: &str,
    entry_id: i64,
    reason: &str,
    by: &str,
    now: PrimitiveDateTime,
) -> QueryResult<Result<Balance, MoneyRefusal>> {
    // The phone's lock before the order's, as placing an order takes them.
    let Some(phone) = Order::find(connection, order_id)?.map(|order| order.phone) else {
        return Ok(Err(MoneyRefusal::NotFound));
    };
    crate::models::lock_phone(connection, &phone)?;
    Order::lock(connection, order_id)?;
    let Some(entry) = Entry::find(connection, order_id, entry_id)? else { return Ok(Err(MoneyRefusal::NotFound)) };
    let Some(reason) = valid_reason(reason) else { return Ok(Err(MoneyRefusal::Reason)) };
    let correctable = matches!(entry.kind, EntryKind::Payment | EntryKind::Refund | EntryKind::Discount);
    if !correctable || entry.corrects.is_some() {
        return Ok(Err(MoneyRefusal::NotCorrectable("Only a payment, a refund or a discount can be corrected.")));
    }
    if Entry::correction_of(connection, entry_id)?.is_some() {
        return Ok(Err(MoneyRefusal::NotCorrectable("This entry was corrected already.")));
    }
    if entry.kind == EntryKind::Payment {
        let balance = Entry::balance(connection, order_id)?;
        if balance.paid - i64::from(entry.amount) < balance.refunded {
            return Ok(Err(MoneyRefusal::GivenBack(balance.refunded)));
        }
    }
    if entry.kind == EntryKind::Refund && entry.method == Some(Method::Credit) {
        let held = Entry::credit_of(connection, &phone)?;
        if held < i64::from(entry.amount) {
            return Ok(Err(MoneyRefusal::CreditSpent(held.max(0))));
        }
    }
    let correction = NewEntry {
        kind: entry.kind,
        method: entry.method,
        amount: -entry.amount,
        reference: entry.reference.as_deref(),
        prompt_id: None,
        note: &reason,
        corrects: Some(entry.id),
        by: Some(by),
    };
    Entry::add(connection, order_id, &correction, now)?;
    Ok(Ok(Entry::balance(connection, order_id)?))
}

/// A change of what the customer paid that they are told of: money given back (M-PESA or cash),
/// or a payment or a refund corrected. Store credit and discounts are not told here (the order's
/// page shows them; a claim's answer has its own text).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Told {
    /// Given back: how much, how.
    Refunded(i64, Method),
    /// The entry `0` corrected (undone).
    Corrected(i64),
}

/// Texts the customer of `order_id` about `told`, in the caller's transaction, once it is done;
/// nothing for store credit, a discount, or an order without a phone's texts.
pub fn tell(
    connection: &mut DbConnection,
    order_id: &str,
    told: Told,
    notify: &NotifyCustomer,
    now: PrimitiveDateTime,
) -> QueryResult<()> {
    let Some(order) = Order::find(connection, order_id)? else { return Ok(()) };
    let balance = Entry::balance(connection, order_id)?;
    let kind = MessageKind::SmsPaymentReceived;
    match told {
        Told::Refunded(amount, method) if method.is_money() => {
            let how = if method == Method::Cash { "in cash" } else { "by M-PESA" };
            notify.text(connection, kind, &order, None, |texts| texts.refunded(&order, amount, how, &balance), now)?;
            Ok(())
        }
        Told::Corrected(entry_id) => {
            let Some(entry) = Entry::find(connection, order_id, entry_id)? else { return Ok(()) };
            let money = entry.method.is_some_and(Method::is_money);
            let back = match entry.kind {
                EntryKind::Payment if money => false,
                EntryKind::Refund if money => true,
                _ => return Ok(()),
            };
            let amount = i64::from(entry.amount);
            notify.text(
                connection,
                kind,
                &order,
                None,
                |texts| texts.corrected(&order, amount, back, &balance),
                now,
            )?;
            Ok(())
        }
        Told::Refunded(..) => Ok(()),
    }
}

/// Whether the order exists, locked to the end of the transaction once it does.
fn locked(connection: &mut DbConnection, order_id: &str) -> QueryResult<bool> {
    Order::lock(connection, order_id)?;
    Ok(Order::find(connection, order_id)?.is_some())
}

fn valid_reason(reason: &str) -> Option<String> {
    let reason = reason.split_whitespace().collect::<Vec<_>>().join(" ");
    (!reason.is_empty() && reason.chars().count() <= MAX_REASON).then_some(reason)
}
