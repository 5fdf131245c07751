//! Payments entered on orders' ledgers, and the customer told: staff or a valet record one by
//! hand ([`record_payment`]); M-PESA reports one, by the till's confirmation ([`record_receipt`])
//! or a prompt's callback or status query ([`resolve_prompt`]); staff match a payment M-PESA
//! reported to an order ([`match_to_order`]). Money received always counts against its order,
//! whatever the amount: more than owed becomes credit. The rows are the models': the ledger's
//! entries (`models::ledger`), the payments M-PESA reported (`MpesaReceipt`), the prompts
//! (`MpesaPrompt`).

use super::money::{self, MoneyRefusal, Pay};
use crate::db::{DbConnection, write_transaction};
use crate::domain::{
    Balance, Method, MpesaCode, OrderReference, PromptState, ReceiptProblem, ReceiptSource, is_known_result,
    prompt_result,
};
use crate::models::ledger::Entry;
use crate::models::mpesa::{
    CODE_ELSEWHERE_WORDS, MatchRefusal, Money, MpesaPrompt, MpesaReceipt, PaidDetails, PromptEnd, ReceivedPayment,
    Recorded, Resolved, UNPROVEN_WORDS,
};
use crate::models::order::Order;
use crate::notify::NotifyCustomer;
use diesel::QueryResult;
use diesel::result::{DatabaseErrorKind, Error as DieselError};
use time::PrimitiveDateTime;

/// A payment staff (or a valet) record by hand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StaffPayment {
    /// Cash, KSh (none: what the order owes).
    Cash(Option<i32>),
    /// Paid to the till; the M-PESA code from the customer's message, and the amount (none: the
    /// amount M-PESA reported for that code, else what the order owes).
    Mpesa(MpesaCode, Option<i32>),
}

/// Records a payment staff or a valet took, in its own transaction. Cash is entered under `by`
/// (a valet's cash-up counts it). A code M-PESA reported already (a till payment waiting for
/// staff) is matched with its own amount; a code entered already is refused, naming its order.
/// The customer is texted as `tell` says.
pub fn record_payment(
    connection: &mut DbConnection,
    id: &str,
    payment: &StaffPayment,
    by: &str,
    tell: bool,
    notify: &NotifyCustomer,
    now: PrimitiveDateTime,
) -> QueryResult<Result<Balance, MoneyRefusal>> {
    let attempt = |connection: &mut DbConnection| {
        write_transaction(connection, |connection| {
            record_payment_within(connection, id, payment, by, tell, notify, now)
        })
    };
    match attempt(connection) {
        // Another order took the code between the check and the write; the check now sees it.
        Err(DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _)) => attempt(connection),
        outcome => outcome,
    }
}

/// [`record_payment`] inside the caller's transaction.
pub fn record_payment_within(
    connection: &mut DbConnection,
    id: &str,
    payment: &StaffPayment,
    by: &str,
    tell: bool,
    notify: &NotifyCustomer,
    now: PrimitiveDateTime,
) -> QueryResult<Result<Balance, MoneyRefusal>> {
    enter_payment(connection, id, payment, (by, None), tell, notify, now)
}

/// [`record_payment_within`] for cash that `taker` took and `typist` (another staff member)
/// types in: the cash counts in the taker's cash-up, and the entry says who entered it.
pub fn record_cash_taken_by(
    connection: &mut DbConnection,
    id: &str,
    amount: Option<i32>,
    (taker, typist): (&str, &str),
    notify: &NotifyCustomer,
    now: PrimitiveDateTime,
) -> QueryResult<Result<Balance, MoneyRefusal>> {
    let typist = Some(typist).filter(|typist| *typist != taker);
    enter_payment(connection, id, &StaffPayment::Cash(amount), (taker, typist), true, notify, now)
}

fn enter_payment(
    connection: &mut DbConnection,
    id: &str,
    payment: &StaffPayment,
    (by, entered_by): (&str, Option<&str>),
    tell: bool,
    notify: &NotifyCustomer,
    now: PrimitiveDateTime,
) -> QueryResult<Result<Balance, MoneyRefusal>> {
    Order::lock(connection, id)?;
    let owed = Entry::balance(connection, id)?.to_pay();
    let owed = i32::try_from(owed).unwrap_or(i32::MAX);
    let (method, amount, code) = match payment {
        StaffPayment::Cash(amount) => (Method::Cash, amount.unwrap_or(owed), None),
        StaffPayment::Mpesa(code, amount) => {
            let reported = MpesaReceipt::find(connection, code.as_str())?;
            match reported {
                // M-PESA told us of it: its amount, and it is matched to this order.
                Some(receipt) if receipt.order_id.as_deref() == Some(id) => {
                    (Method::Till, receipt.amount, Some(code.as_str()))
                }
                Some(receipt) if receipt.order_id.is_none() => {
                    // Checked before the claim, which a refusal must not leave behind.
                    if let Some(holder) = money::code_holder(connection, code.as_str())? {
                        return Ok(Err(MoneyRefusal::CodeUsed(holder)));
                    }
                    if !MpesaReceipt::claim(connection, code.as_str(), id, by, now)? {
                        return Ok(Err(MoneyRefusal::CodeUsed(String::new())));
                    }
                    (Method::Till, receipt.amount, Some(code.as_str()))
                }
                _ => (Method::Code, amount.unwrap_or(owed), Some(code.as_str())),
            }
        }
    };
    if amount < 1 && owed < 1 {
        return Ok(Err(MoneyRefusal::NothingToPay));
    }
    let pay = Pay { method, amount, code, prompt_id: None, by, entered_by, tell };
    Ok(money::pay(connection, id, &pay, notify, now)?.map(|(_, balance)| balance))
}

/// Records a payment M-PESA reported (a till payment), in its own transaction; see
/// [`record_receipt_within`].
pub fn record_receipt(
    connection: &mut DbConnection,
    payment: &ReceivedPayment,
    notify: &NotifyCustomer,
    now: PrimitiveDateTime,
) -> QueryResult<Recorded> {
    write_transaction(connection, |connection| record_receipt_within(connection, payment, None, notify, now))
}

/// Records a payment once (by its receipt number: a second report of it changes nothing) and
/// matches it: to the prompt's order when it is a prompt's (`prompt`: the order and the prompt);
/// otherwise to the order whose order ID it names (`BillRefNumber`), or to the one order of its
/// phone number that owes that amount. A matched payment is entered on its order whatever the
/// amount; an unmatched one waits in the staff's list. A prompt's report of a payment the till
/// reported first, unmatched, matches it to the prompt's order.
///
/// The order is locked before the receipt is written (the order every payment takes its locks
/// in), so a prompt's callback and the till's confirmation of one payment, arriving together,
/// wait for each other rather than deadlock.
fn record_receipt_within(
    connection: &mut DbConnection,
    payment: &ReceivedPayment,
    prompt: Option<(&str, &str)>,
    notify: &NotifyCustomer,
    now: PrimitiveDateTime,
) -> QueryResult<Recorded> {
    let order_id = prompt.map(|(order_id, _)| order_id);
    let prompt_id = prompt.map(|(_, prompt_id)| prompt_id);
    let found = match order_id {
        Some(id) => Some((id.to_owned(), "prompt")),
        None if MpesaReceipt::find(connection, &payment.receipt)?.is_some() => {
            return Ok(Recorded::AlreadyRecorded);
        }
        None => MpesaReceipt::find_order(connection, payment, now)?,
    };
    if let Some((id, _)) = &found {
        Order::lock(connection, id)?;
    }
    if !MpesaReceipt::insert(connection, payment, now)? {
        if let Some(id) = order_id
            && MpesaReceipt::claim(connection, &payment.receipt, id, "prompt", now)?
        {
            return apply(connection, &payment.receipt, id, "prompt", prompt_id, notify, now);
        }
        return Ok(Recorded::AlreadyRecorded);
    }
    match found {
        Some((id, how)) => apply(connection, &payment.receipt, &id, how, prompt_id, notify, now),
        None => Ok(Recorded::Unmatched),
    }
}

/// Matches the stored payment `receipt` to the order `id` and enters it on its ledger, whatever
/// its amount; flagged for staff only when its receipt is not an M-PESA code (a success callback
/// without one) or its code is entered on another order. A prompt's payment that a status query
/// entered already without its code (`prompt_id`, or a prompt payment of that amount found by
/// the phone number) is named by it rather than entered twice.
fn apply(
    connection: &mut DbConnection,
    receipt: &str,
    id: &str,
    how: &str,
    prompt_id: Option<&str>,
    notify: &NotifyCustomer,
    now: PrimitiveDateTime,
) -> QueryResult<Recorded> {
    Order::lock(connection, id)?;
    let Some(order) = Order::find(connection, id)? else { return Ok(Recorded::Unmatched) };
    let amount = MpesaReceipt::find(connection, receipt)?.ok_or(DieselError::NotFound)?.amount;
    let entered_without_code = match prompt_id {
        Some(prompt_id) => Entry::payment_of_prompt(connection, prompt_id)?,
        None if how == "prompt" => Entry::of_order(connection, id)?
            .into_iter()
            .rev()
            .find(|entry| entry.method == Some(Method::Prompt) && entry.reference.is_none() && entry.amount == amount),
        None => None,
    };
    let problem = match MpesaCode::parse(receipt) {
        Err(_) => Some(ReceiptProblem::Code),
        Ok(code) => match entered_without_code {
            Some(entry) if entry.reference.is_none() => {
                Entry::name_code(connection, entry.id, code.as_str())?;
                None
            }
            Some(entry) if entry.reference.as_deref() == Some(code.as_str()) => None,
            _ => {
                let method = if how == "prompt" { Method::Prompt } else { Method::Till };
                let pay = Pay {
                    method,
                    amount,
                    code: Some(code.as_str()),
                    prompt_id,
                    by: "M-PESA",
                    entered_by: None,
                    tell: true,
                };
                match money::pay(connection, id, &pay, notify, now)? {
                    Ok(_) => None,
                    Err(MoneyRefusal::CodeUsed(holder)) if holder == order.reference => None,
                    Err(_) => Some(ReceiptProblem::Code),
                }
            }
        },
    };
    MpesaReceipt::set_match(connection, receipt, id, how, problem, now)?;
    Ok(match problem {
        None => Recorded::Paid(order.reference),
        Some(problem) => Recorded::Flagged(order.reference, problem),
    })
}

/// Staff match an unmatched payment to the order with the order ID `reference`: entered on its
/// ledger whatever the amount. Two staff matching one payment at once: the first
/// wins, the second is told which order has it.
pub fn match_to_order(
    connection: &mut DbConnection,
    receipt: &str,
    reference: &str,
    staff: &str,
    notify: &NotifyCustomer,
    now: PrimitiveDateTime,
) -> QueryResult<Result<Recorded, MatchRefusal>> {
    let Some(reference) = OrderReference::parse(reference) else { return Ok(Err(MatchRefusal::NoSuchOrder)) };
    let receipt = receipt.trim().to_ascii_uppercase();
    write_transaction(connection, |connection| {
        let Some(order_id) = Order::find_by_reference(connection, &reference)?.map(|order| order.id) else {
            return Ok(Err(MatchRefusal::NoSuchOrder));
        };
        Order::lock(connection, &order_id)?;
        if MpesaReceipt::find(connection, &receipt)?.is_none() {
            return Ok(Err(MatchRefusal::NoSuchPayment));
        }
        if !MpesaReceipt::claim(connection, &receipt, &order_id, staff, now)? {
            let matched = MpesaReceipt::matched_reference(connection, &receipt)?;
            return Ok(Err(MatchRefusal::AlreadyMatched(matched.unwrap_or_default())));
        }
        Ok(Ok(apply(connection, &receipt, &order_id, staff, None, notify, now)?))
    })
}

/// Ends the prompt `checkout_request_id` as its callback or status query says (`code`, `desc`),
/// once: a repeated or late answer changes nothing, except that money reported (`money`, from
/// a callback) is always recorded, even for a prompt a query had called failed. A payment is
/// entered on the prompt's order, whatever its amount. A status query's success carries no
/// receipt: the prompt's amount is entered without its code, and the callback (or the till's
/// confirmation) that brings it later names it. The order is
/// locked first, so a callback and a status query of one prompt, or two copies of a callback,
/// arriving together are handled one after the other.
///
/// A success callback is not taken at its word when it proves nothing: without a receipt
/// number or an amount ([`Money::Unproven`]), or with a receipt number recorded for another
/// order, the order stays unpaid, the prompt ends "failed" with words saying it is being
/// checked (never "paid" on the customer's page), and a payment to check waits in the staff's
/// list.
#[allow(clippy::too_many_arguments)]
pub fn resolve_prompt(
    connection: &mut DbConnection,
    checkout_request_id: &str,
    code: i64,
    desc: &str,
    money: &Money,
    raw: &str,
    notify: &NotifyCustomer,
    now: PrimitiveDateTime,
) -> QueryResult<Resolved> {
    write_transaction(connection, |connection| {
        let order_id = MpesaPrompt::find_by_checkout(connection, checkout_request_id)?.map(|prompt| prompt.order_id);
        // The order first, then the prompt: the order of locks every payment takes.
        if let Some(order_id) = order_id.as_deref() {
            Order::lock(connection, order_id)?;
        }
        let prompt = MpesaPrompt::find_by_checkout(connection, checkout_request_id)?;
        let received = |paid: &PaidDetails| ReceivedPayment {
            receipt: paid.receipt.clone(),
            source: ReceiptSource::Prompt,
            amount: paid.amount,
            phone: paid.phone.clone(),
            payer_name: None,
            bill_ref: None,
            paid_at: paid.paid_at,
            raw: raw.to_owned(),
        };
        let paid = match money {
            Money::Paid(paid) => Some(paid),
            Money::NotSaid | Money::Unproven => None,
        };
        let Some(prompt) = prompt else {
            let recorded = match paid {
                Some(paid) => Some(record_receipt_within(connection, &received(paid), None, notify, now)?),
                None => None,
            };
            return Ok(Resolved::Unknown(recorded));
        };
        let (state, words) = prompt_result(code);
        let money_now = state == PromptState::Paid && paid.is_some();
        // A status query found it paid, without the receipt number; here it is.
        let receipt_late = prompt.state == PromptState::Paid && prompt.receipt.is_none() && money_now;
        // The same receipt again (a repeated callback, one flagged too) changes nothing more.
        let known = paid.is_some_and(|paid| prompt.receipt.as_deref() == Some(paid.receipt.as_str()));
        // Another receipt for a prompt paid with one already (M-PESA reporting a second payment
        // under one CheckoutRequestID): that money is not this prompt's, so it goes on no order by
        // it; it waits for staff with the unmatched payments, never dropped.
        if let Some(paid) = paid
            && prompt.state == PromptState::Paid
            && prompt.receipt.as_deref().is_some_and(|receipt| receipt != paid.receipt)
        {
            if MpesaReceipt::insert(connection, &received(paid), now)? {
                tracing::warn!(prompt = %prompt.id, receipt = %paid.receipt, "a second receipt for a paid prompt waits for staff");
            }
            return Ok(Resolved::AlreadyEnded);
        }
        if known || (!receipt_late && (prompt.state == PromptState::Paid || (prompt.state.is_final() && !money_now))) {
            return Ok(Resolved::AlreadyEnded);
        }
        let recorded = match (state, money) {
            (PromptState::Paid, Money::Paid(paid)) => {
                let recorded = record_receipt_within(
                    connection,
                    &received(paid),
                    Some((&prompt.order_id, &prompt.id)),
                    notify,
                    now,
                )?;
                Some(match recorded {
                    // Known already: on this order (nothing to do) or on another one, which
                    // staff must look at.
                    Recorded::AlreadyRecorded => {
                        match MpesaReceipt::flag_if_elsewhere(connection, &paid.receipt, &prompt.order_id)? {
                            Some(reference) => Recorded::Flagged(reference, ReceiptProblem::Code),
                            None => Recorded::AlreadyRecorded,
                        }
                    }
                    other => other,
                })
            }
            (PromptState::Paid, Money::Unproven) => {
                // No receipt number to store it by: a payment to check under the prompt's own
                // name (not an M-PESA code, so it never pays an order), matched to its order.
                let unproven = ReceivedPayment {
                    receipt: unproven_receipt(&prompt.id),
                    source: ReceiptSource::Prompt,
                    amount: prompt.amount,
                    phone: None,
                    payer_name: None,
                    bill_ref: None,
                    paid_at: None,
                    raw: raw.to_owned(),
                };
                Some(record_receipt_within(connection, &unproven, Some((&prompt.order_id, &prompt.id)), notify, now)?)
            }
            (PromptState::Paid, Money::NotSaid) => {
                // A status query's "paid": the amount asked, entered without its code until the
                // callback or the till's confirmation names it.
                if Entry::payment_of_prompt(connection, &prompt.id)?.is_none() {
                    let pay = Pay {
                        method: Method::Prompt,
                        amount: prompt.amount,
                        code: None,
                        prompt_id: Some(&prompt.id),
                        by: "M-PESA",
                        entered_by: None,
                        tell: true,
                    };
                    if let Err(refused) = money::pay(connection, &prompt.order_id, &pay, notify, now)? {
                        tracing::warn!(prompt = %prompt.id, %refused, "a prompt M-PESA's status query called paid could not be entered");
                    }
                }
                None
            }
            _ => None,
        };
        // Not shown "paid" to the customer when nothing proves this order was paid by it.
        let (state, detail) = match (money, &recorded) {
            (Money::Unproven, _) if state == PromptState::Paid => (PromptState::Failed, UNPROVEN_WORDS.to_owned()),
            (_, Some(Recorded::Flagged(_, ReceiptProblem::Code))) => {
                (PromptState::Failed, CODE_ELSEWHERE_WORDS.to_owned())
            }
            _ => match desc.trim() {
                desc if !desc.is_empty() && !is_known_result(code) => (state, format!("{words} ({desc})")),
                _ => (state, words.to_owned()),
            },
        };
        let end = PromptEnd {
            state,
            result_code: i32::try_from(code).ok(),
            detail: &detail,
            receipt: paid.map(|paid| paid.receipt.as_str()),
            raw,
        };
        MpesaPrompt::end(connection, &prompt.id, &end, now)?;
        if state == PromptState::Failed && code == 0 {
            tracing::warn!(prompt = %prompt.id, outcome = ?recorded, "an M-PESA success callback proved no payment of its order; flagged for staff");
        }
        Ok(Resolved::Ended(state, recorded))
    })
}

/// The name a success callback without a receipt number is stored under among the payments to
/// check: letters and digits (as the staff's paths take them), never an M-PESA code.
fn unproven_receipt(prompt_id: &str) -> String {
    let digits: String = prompt_id.chars().filter(char::is_ascii_alphanumeric).collect();
    format!("NOCODE{}", digits.to_ascii_uppercase())
}
