//! An order's money as a ledger: charges, payments and refunds are entries that are only ever
//! added, and everything about money (what is due, "paid / part-paid / unpaid / in credit", the
//! words every page and text prints, a day's takings) is derived from them here, by one set of
//! functions. A mistake is corrected by a new entry, never by changing one.
//!
//! Due = charges − payments + refunds. Charges are the order's lines at booking, the bill's
//! difference at each weighing, a cancellation (taking the charges back) and its undo, and staff
//! discounts. Payments come by an M-PESA prompt, to the till, as a code typed by staff or a valet,
//! in cash, or from store credit; refunds go back by an M-PESA reversal, in cash, or as store
//! credit. Store credit moves money between a customer's orders: it is never takings.

use super::text_enum::{TextEnum, text_enum};
use serde::Serialize;
use ts_rs::TS;

text_enum! {
    /// What an entry is.
    pub enum EntryKind {
        /// One of the order's lines when it was placed (a discount line is negative).
        Charge = "charge",
        /// A change of the charges: a new bill's difference, a cancellation, its undo.
        Adjustment = "adjustment",
        /// A discount staff gave, with its reason (negative).
        Discount = "discount",
        /// Money received for the order (a correction is negative).
        Payment = "payment",
        /// Money given back (a correction is negative).
        Refund = "refund",
    }
}

impl EntryKind {
    /// Whether it changes what the order costs (rather than what was paid or given back).
    pub fn is_charge(self) -> bool {
        matches!(self, EntryKind::Charge | EntryKind::Adjustment | EntryKind::Discount)
    }
}

text_enum! {
    /// How money came in or went back.
    pub enum Method {
        /// The M-PESA prompt sent to the customer's phone.
        Prompt = "prompt",
        /// Paid to the till by hand, matched from M-PESA's confirmation.
        Till = "till",
        /// An M-PESA code typed in by staff or a valet.
        Code = "code",
        /// Cash, to a valet or at the shop.
        Cash = "cash",
        /// Store credit: the customer's money from another order.
        Credit = "credit",
        /// Sent back by M-PESA, by hand from the till's app.
        Reversal = "mpesa-reversal",
    }
}

impl Method {
    /// What staff read.
    pub fn label(self) -> &'static str {
        match self {
            Method::Prompt => "M-PESA prompt",
            Method::Till => "M-PESA till",
            Method::Code => "M-PESA code",
            Method::Cash => "Cash",
            Method::Credit => "Store credit",
            Method::Reversal => "M-PESA reversal",
        }
    }

    /// Whether money really moved in or out of the shop (store credit only moves between orders).
    pub fn is_money(self) -> bool {
        self != Method::Credit
    }

    /// Whether a payment can come this way.
    pub fn pays(self) -> bool {
        self != Method::Reversal
    }

    /// Whether a refund can go this way.
    pub fn refunds(self) -> bool {
        matches!(self, Method::Reversal | Method::Cash | Method::Credit)
    }
}

text_enum! {
    /// Where an order's money stands, derived from its entries.
    pub enum Settlement {
        /// Nothing charged and nothing received (a free re-clean).
        NothingToPay = "nothing-to-pay",
        /// Something to pay and nothing received.
        Unpaid = "unpaid",
        /// Something received and something still to pay.
        PartPaid = "part-paid",
        /// Received what it costs.
        Paid = "paid",
        /// Received more than it costs: the difference is the customer's.
        InCredit = "in-credit",
    }
}

/// The sums of an order's entries (or of any set of them), in whole shillings.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Balance {
    /// What the order costs: its charges, adjustments and discounts.
    #[ts(type = "number")]
    pub charged: i64,
    /// Money received (corrections taken off).
    #[ts(type = "number")]
    pub paid: i64,
    /// Money given back, or kept as store credit.
    #[ts(type = "number")]
    pub refunded: i64,
}

impl Balance {
    /// The balance of `entries`, each a kind and an amount.
    pub fn of(entries: impl IntoIterator<Item = (EntryKind, i64)>) -> Balance {
        let mut balance = Balance::default();
        for (kind, amount) in entries {
            balance.add(kind, amount);
        }
        balance
    }

    /// Counts one more entry.
    pub fn add(&mut self, kind: EntryKind, amount: i64) {
        match kind {
            EntryKind::Charge | EntryKind::Adjustment | EntryKind::Discount => self.charged += amount,
            EntryKind::Payment => self.paid += amount,
            EntryKind::Refund => self.refunded += amount,
        }
    }

    /// Charges − payments + refunds: positive when the customer owes, negative when we do.
    pub fn due(&self) -> i64 {
        self.charged - self.paid + self.refunded
    }

    /// Money received and kept: payments less refunds.
    pub fn received(&self) -> i64 {
        self.paid - self.refunded
    }

    /// What the customer still has to pay (0 when nothing).
    pub fn to_pay(&self) -> i64 {
        self.due().max(0)
    }

    /// What we owe the customer back (0 when nothing).
    pub fn owed_back(&self) -> i64 {
        (-self.due()).max(0)
    }

    /// Where the order's money stands.
    pub fn settlement(&self) -> Settlement {
        let due = self.due();
        if due < 0 {
            Settlement::InCredit
        } else if due == 0 && self.charged == 0 && self.paid == 0 && self.refunded == 0 {
            Settlement::NothingToPay
        } else if due == 0 {
            Settlement::Paid
        } else if self.received() > 0 {
            Settlement::PartPaid
        } else {
            Settlement::Unpaid
        }
    }

    /// What the customer reads on the order's page and its receipt: "Paid KSh 1,200 · KSh 300 to
    /// pay", "KSh 1,600 to pay", "Paid KSh 1,600", "Nothing to pay", or what comes back.
    pub fn customer_words(&self) -> String {
        self.words_with(" · ")
    }

    /// [`Balance::customer_words`] for a text: "Paid KSh 1,200, KSh 300 to pay" (the middle dot is
    /// not in the GSM alphabet, and one would make the whole text UCS-2, at half the length).
    pub fn text_words(&self) -> String {
        self.words_with(", ")
    }

    /// What staff read of it on the dashboard: the customer's words, but money we owe back is
    /// "KSh 1,100 owed back to the customer" (staff are not the "you" it comes back to).
    pub fn staff_words(&self) -> String {
        match self.settlement() {
            Settlement::InCredit => format!(
                "Paid KSh {} · KSh {} owed back to the customer",
                shillings(self.received()),
                shillings(self.owed_back())
            ),
            _ => self.customer_words(),
        }
    }

    fn words_with(&self, and: &str) -> String {
        let received = shillings(self.received());
        match self.settlement() {
            Settlement::NothingToPay => "Nothing to pay".to_owned(),
            Settlement::Unpaid => format!("KSh {} to pay", shillings(self.to_pay())),
            Settlement::PartPaid => format!("Paid KSh {received}{and}KSh {} to pay", shillings(self.to_pay())),
            Settlement::Paid if self.charged == 0 => "Nothing to pay".to_owned(),
            Settlement::Paid => format!("Paid KSh {received}"),
            Settlement::InCredit => {
                format!("Paid KSh {received}{and}KSh {} to come back to you", shillings(self.owed_back()))
            }
        }
    }

    /// What the valet reads at the door: "Received KSh 1,100 · collect KSh 500", "Collect KSh
    /// 1,600", "Paid · nothing to collect", "Nothing to pay".
    pub fn valet_words(&self) -> String {
        match self.settlement() {
            Settlement::NothingToPay => "Nothing to pay".to_owned(),
            Settlement::Unpaid => format!("Collect KSh {}", shillings(self.to_pay())),
            Settlement::PartPaid => {
                format!("Received KSh {} · collect KSh {}", shillings(self.received()), shillings(self.to_pay()))
            }
            Settlement::Paid if self.charged == 0 => "Nothing to pay".to_owned(),
            Settlement::Paid => format!("Paid KSh {} · nothing to collect", shillings(self.received())),
            Settlement::InCredit => {
                format!("Paid · nothing to collect (KSh {} goes back to the customer)", shillings(self.owed_back()))
            }
        }
    }
}

/// Money in and out over a period, by method: what "takings" means everywhere. Store credit is
/// left out (it is money received before, moved from one order to another).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Takings {
    /// Received by each method (corrections taken off), in the order of [`Method::ALL`].
    pub received: Vec<MethodSum>,
    /// Given back by each method.
    pub refunded: Vec<MethodSum>,
    /// Received less given back.
    #[ts(type = "number")]
    pub total: i64,
}

/// Money by one method.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct MethodSum {
    /// How.
    pub method: Method,
    /// What staff read.
    pub label: &'static str,
    /// KSh.
    #[ts(type = "number")]
    pub amount: i64,
}

impl Takings {
    /// The takings of `entries` (kind, method, amount); entries that are not money are left out.
    pub fn of(entries: impl IntoIterator<Item = (EntryKind, Method, i64)>) -> Takings {
        let mut received = [0_i64; Method::ALL.len()];
        let mut refunded = [0_i64; Method::ALL.len()];
        for (kind, method, amount) in entries {
            let Some(at) = Method::ALL.iter().position(|known| *known == method) else { continue };
            match kind {
                EntryKind::Payment if method.is_money() => received[at] += amount,
                EntryKind::Refund if method.is_money() => refunded[at] += amount,
                _ => {}
            }
        }
        let sums = |amounts: [i64; Method::ALL.len()]| -> Vec<MethodSum> {
            Method::ALL
                .iter()
                .zip(amounts)
                .filter(|(_, amount)| *amount != 0)
                .map(|(method, amount)| MethodSum { method: *method, label: method.label(), amount })
                .collect()
        };
        let total = received.iter().sum::<i64>() - refunded.iter().sum::<i64>();
        Takings { received: sums(received), refunded: sums(refunded), total }
    }
}

/// Store credit moved by some entries: kept (refunds kept as credit) and used (payments made from
/// it). It is a debt to the customer, not money: the owner's books show it on lines of its own.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct StoreCredit {
    /// Kept as credit, KSh (corrections taken off).
    #[ts(type = "number")]
    pub kept: i64,
    /// Used to pay orders, KSh (corrections taken off).
    #[ts(type = "number")]
    pub used: i64,
}

impl StoreCredit {
    /// The store credit of `entries` (kind, method, amount); entries that are not credit are left
    /// out.
    pub fn of(entries: impl IntoIterator<Item = (EntryKind, Method, i64)>) -> StoreCredit {
        let mut credit = StoreCredit::default();
        for (kind, method, amount) in entries {
            match (kind, method) {
                (EntryKind::Refund, Method::Credit) => credit.kept += amount,
                (EntryKind::Payment, Method::Credit) => credit.used += amount,
                _ => {}
            }
        }
        credit
    }

    /// Kept less used: what the shop owes its customers in credit (over all history), or how much
    /// that debt grew in a period.
    pub fn owed(&self) -> i64 {
        self.kept - self.used
    }
}

/// `1,050` (negative amounts read as their size: the words say which way the money goes).
pub fn shillings(amount: i64) -> String {
    let digits = amount.unsigned_abs().to_string();
    let mut grouped = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(c);
    }
    grouped
}

#[cfg(test)]
mod tests;
