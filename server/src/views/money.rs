//! The ledger across orders, as staff read it: a day's cash-up (takings by method, and the cash
//! each person took with what they handed in and still hold) and the balances (who owes what,
//! oldest first; refunds due; store credit held).

use crate::domain::{PhoneNumber, Takings};
use crate::models::ledger::{Entry, Handover};
use crate::models::order::Order;
use serde::Serialize;
use std::collections::HashMap;
use time::Date;
use ts_rs::TS;

/// `GET /api/admin/cash-up?day=`: one day's money.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CashUp {
    /// `YYYY-MM-DD` (Nairobi).
    pub day: String,
    /// Payments less refunds that day, by method.
    pub takings: Takings,
    /// Everyone who took or gave back cash that day, in the order they first did.
    pub holders: Vec<CashHolder>,
}

/// The cash one person (a valet, or staff at the counter) took on a day.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CashHolder {
    /// The e-mail the cash was entered under.
    pub holder: String,
    /// The cash entries: what, for which order, when.
    pub entries: Vec<CashEntry>,
    /// Cash taken less cash given back, KSh: what they should hand in.
    pub collected: i64,
    /// What staff counted as handed in, KSh.
    pub handed_in: i64,
    /// What they still hold: collected less handed in (negative: handed in more).
    pub still_held: i64,
    /// The handovers staff recorded, oldest first.
    pub handovers: Vec<HandoverView>,
}

/// One cash payment or refund.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CashEntry {
    /// The order ID.
    pub order_id: String,
    /// KSh: positive taken, negative given back (or a correction).
    pub amount: i32,
    /// When, RFC 3339.
    pub at: String,
}

/// Cash handed in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct HandoverView {
    /// KSh counted.
    pub amount: i32,
    /// Staff's words.
    pub note: String,
    /// Who counted it.
    pub by: String,
    /// When, RFC 3339.
    pub at: String,
}

impl CashUp {
    /// The cash-up of `day` from its takings, its `cash` entries (with their order IDs) and the
    /// `handovers` recorded for it. Each entry is the cash of whoever entered it, and a correction
    /// the cash of whoever entered the entry it corrects (`taken_by`, by the corrected entry's id):
    /// the owner correcting a valet's slip takes the valet's cash back, not their own.
    pub fn new(
        day: Date,
        takings: Takings,
        cash: &[(Entry, String)],
        taken_by: &HashMap<i64, Option<String>>,
        handovers: &[Handover],
    ) -> Self {
        let mut holders: Vec<CashHolder> = Vec::new();
        let mut at: HashMap<String, usize> = HashMap::new();
        let mut holder_of = |name: &str, holders: &mut Vec<CashHolder>| -> usize {
            *at.entry(name.to_owned()).or_insert_with(|| {
                holders.push(CashHolder {
                    holder: name.to_owned(),
                    entries: Vec::new(),
                    collected: 0,
                    handed_in: 0,
                    still_held: 0,
                    handovers: Vec::new(),
                });
                holders.len() - 1
            })
        };
        for (entry, reference) in cash {
            let taker = match entry.corrects {
                Some(corrected) => taken_by.get(&corrected).cloned().unwrap_or_else(|| entry.recorded_by.clone()),
                None => entry.recorded_by.clone(),
            };
            let name = taker.as_deref().unwrap_or("the site");
            let index = holder_of(name, &mut holders);
            let signed = if entry.kind == crate::domain::EntryKind::Refund { -entry.amount } else { entry.amount };
            holders[index].collected += i64::from(signed);
            holders[index].entries.push(CashEntry {
                order_id: reference.clone(),
                amount: signed,
                at: super::time(entry.recorded_at),
            });
        }
        for handover in handovers {
            let index = holder_of(&handover.holder, &mut holders);
            holders[index].handed_in += i64::from(handover.amount);
            holders[index].handovers.push(HandoverView {
                amount: handover.amount,
                note: handover.note.clone(),
                by: handover.recorded_by.clone(),
                at: super::time(handover.recorded_at),
            });
        }
        for holder in &mut holders {
            holder.still_held = holder.collected - holder.handed_in;
        }
        CashUp { day: day.to_string(), takings, holders }
    }
}

/// `GET /api/admin/balances`: the money not settled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Balances {
    /// Orders with something still to pay, oldest first (cancelled ones left out): the oldest
    /// [`Balances::LIMIT`].
    pub owing: Vec<OrderBalance>,
    /// How many orders owe, in all (the orders tab's "Unpaid" lists every one).
    pub owing_count: i64,
    /// What they owe, in all, KSh.
    pub owing_total: i64,
    /// Orders that owe money back (paid more than the bill, or cancelled after paying): refunds
    /// due, oldest first.
    pub owed_back: Vec<OrderBalance>,
    /// Store credit held, by phone number, most first.
    pub credit: Vec<CreditHeld>,
}

/// One order's balance.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct OrderBalance {
    /// The order ID.
    pub order_id: String,
    /// The customer's name.
    pub customer_name: String,
    /// Their phone number.
    pub phone: String,
    /// Where the order is.
    pub status: crate::domain::OrderStatus,
    /// When it was placed, RFC 3339.
    pub created_at: String,
    /// KSh: to pay (owing) or to give back (owed back).
    pub amount: i64,
}

/// Store credit a phone number holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CreditHeld {
    /// The phone number: whole for the owner, masked but its last digits for staff.
    pub phone: String,
    /// The name on its newest order (the owner's list only).
    pub name: Option<String>,
    /// KSh.
    pub amount: i64,
}

impl Balances {
    /// How many orders each list shows: the oldest, which are the ones to chase. (A busy shop
    /// has hundreds owing at once, orders not yet delivered; the money tab drew 200 of them.)
    pub const LIMIT: i64 = 50;

    /// The lists from the ledger's sums (`owing` and `owed_back`: order keys with their due), the
    /// `orders` they name, how many orders owe how much in all (`owing_in_all`), and the store
    /// credit held (phone, name, amount), which names the customer for the `owner` only.
    pub fn new(
        owing: &[(String, i64)],
        owing_in_all: (i64, i64),
        owed_back: &[(String, i64)],
        (credit, owner): (&[(String, String, i64)], bool),
        orders: &HashMap<String, Order>,
    ) -> Self {
        let view = |(id, due): &(String, i64)| {
            orders.get(id).map(|order| OrderBalance {
                order_id: order.reference.clone(),
                customer_name: order.customer_name.clone(),
                phone: order.phone.clone(),
                status: order.status,
                created_at: super::time(order.created_at),
                amount: due.abs(),
            })
        };
        let owing: Vec<OrderBalance> = owing.iter().filter_map(view).collect();
        Balances {
            owing_count: owing_in_all.0,
            owing_total: owing_in_all.1,
            owing,
            owed_back: owed_back.iter().filter_map(view).collect(),
            credit: credit
                .iter()
                .map(|(phone, name, amount)| match owner {
                    true => CreditHeld { phone: phone.clone(), name: Some(name.clone()), amount: *amount },
                    false => CreditHeld { phone: PhoneNumber::masked(phone), name: None, amount: *amount },
                })
                .collect(),
        }
    }
}
