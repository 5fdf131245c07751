//! The ledger's balances and settlements, example by example and over random sequences of entries.

use super::*;
use proptest::prelude::*;

fn balance(entries: &[(EntryKind, i64)]) -> Balance {
    Balance::of(entries.iter().copied())
}

#[test]
fn a_bill_raised_after_an_estimate_was_paid_leaves_the_difference_to_pay() {
    use EntryKind::*;
    let after = balance(&[(Charge, 1200), (Payment, 1200), (Adjustment, 300)]);
    assert_eq!(after.settlement(), Settlement::PartPaid);
    assert_eq!(after.customer_words(), "Paid KSh 1,200 · KSh 300 to pay");
    assert_eq!(after.to_pay(), 300);
}

#[test]
fn the_valet_collects_only_the_rest_of_a_part_payment() {
    use EntryKind::*;
    let part = balance(&[(Charge, 1600), (Payment, 1100)]);
    assert_eq!(part.valet_words(), "Received KSh 1,100 · collect KSh 500");
    assert_eq!(balance(&[(Charge, 1600)]).valet_words(), "Collect KSh 1,600");
    assert_eq!(balance(&[(Charge, 1600), (Payment, 1600)]).valet_words(), "Paid KSh 1,600 · nothing to collect");
}

#[test]
fn a_free_order_says_nothing_to_pay_and_an_overpaid_one_what_comes_back() {
    use EntryKind::*;
    let free = balance(&[(Charge, 450), (Charge, -450)]);
    assert_eq!(free.customer_words(), "Nothing to pay");
    assert_eq!(balance(&[]).settlement(), Settlement::NothingToPay);
    let over = balance(&[(Charge, 1600), (Payment, 2700)]);
    assert_eq!(over.settlement(), Settlement::InCredit);
    assert_eq!(over.customer_words(), "Paid KSh 2,700 · KSh 1,100 to come back to you");
    assert_eq!(over.staff_words(), "Paid KSh 2,700 · KSh 1,100 owed back to the customer");
    assert_eq!(balance(&[(Charge, 1600)]).staff_words(), "KSh 1,600 to pay");
    let settled = balance(&[(Charge, 1600), (Payment, 2700), (Refund, 1100)]);
    assert_eq!(settled.settlement(), Settlement::Paid);
    assert_eq!(settled.customer_words(), "Paid KSh 1,600");
}

#[test]
fn a_cancelled_paid_order_owes_its_money_back() {
    use EntryKind::*;
    let cancelled = balance(&[(Charge, 1200), (Payment, 1200), (Adjustment, -1200)]);
    assert_eq!(cancelled.owed_back(), 1200);
    assert_eq!(cancelled.settlement(), Settlement::InCredit);
}

#[test]
fn takings_count_money_in_less_money_out_and_leave_store_credit_out() {
    use EntryKind::*;
    let takings = Takings::of([
        (Payment, Method::Prompt, 1200),
        (Payment, Method::Cash, 500),
        (Payment, Method::Credit, 300),
        (Refund, Method::Credit, 300),
        (Refund, Method::Cash, 200),
        (Charge, Method::Cash, 9999),
    ]);
    assert_eq!(takings.total, 1200 + 500 - 200);
    assert_eq!(takings.received.len(), 2);
    assert_eq!(takings.refunded, vec![MethodSum { method: Method::Cash, label: "Cash", amount: 200 }]);
}

#[test]
fn store_credit_kept_and_used_is_not_money() {
    use EntryKind::*;
    // A KSh 600 order paid 1,000 at the till, 400 kept as credit, 150 of it used later.
    let entries = [
        (Charge, Method::Till, 600),
        (Payment, Method::Till, 1000),
        (Refund, Method::Credit, 400),
        (Payment, Method::Credit, 150),
    ];
    assert_eq!(Takings::of(entries).total, 1000);
    let credit = StoreCredit::of(entries);
    assert_eq!((credit.kept, credit.used, credit.owed()), (400, 150, 250));
}

#[test]
fn shillings_are_grouped_by_thousands() {
    assert_eq!(shillings(0), "0");
    assert_eq!(shillings(1600), "1,600");
    assert_eq!(shillings(-1_234_567), "1,234,567");
}

fn kind() -> impl Strategy<Value = EntryKind> {
    prop::sample::select(EntryKind::ALL)
}

fn method() -> impl Strategy<Value = Method> {
    prop::sample::select(Method::ALL)
}

proptest! {
    /// Whatever the entries, the balance is their sum: due is charges − payments + refunds,
    /// the words name what is due, and the settlement agrees with the sign of the due.
    #[test]
    fn the_balance_is_the_sum_of_the_entries(entries in prop::collection::vec((kind(), -5_000_i64..50_000), 0..40)) {
        let balance = balance(&entries);
        let signed: i64 = entries.iter().map(|(kind, amount)| match kind {
            EntryKind::Payment => -amount,
            _ => *amount,
        }).sum();
        prop_assert_eq!(balance.due(), signed);
        prop_assert_eq!(balance.to_pay() - balance.owed_back(), signed);
        let words = balance.customer_words();
        match balance.settlement() {
            Settlement::Unpaid | Settlement::PartPaid => {
                let expected = format!("KSh {} to pay", shillings(signed));
                prop_assert!(words.ends_with(&expected), "{}", words);
            }
            Settlement::InCredit => prop_assert!(signed < 0 && words.contains(&shillings(-signed))),
            Settlement::Paid | Settlement::NothingToPay => prop_assert_eq!(signed, 0),
        }
    }

    /// Takings over any period are the payments less the refunds in it (store credit apart),
    /// and splitting the period anywhere splits the takings.
    #[test]
    fn takings_are_payments_less_refunds(
        entries in prop::collection::vec((kind(), method(), -5_000_i64..50_000), 0..40),
        cut in 0_usize..40,
    ) {
        let takings = Takings::of(entries.iter().copied());
        let expected: i64 = entries.iter().map(|(kind, method, amount)| match (kind, method.is_money()) {
            (EntryKind::Payment, true) => *amount,
            (EntryKind::Refund, true) => -amount,
            _ => 0,
        }).sum();
        prop_assert_eq!(takings.total, expected);
        let cut = cut.min(entries.len());
        let (before, after) = entries.split_at(cut);
        prop_assert_eq!(
            Takings::of(before.iter().copied()).total + Takings::of(after.iter().copied()).total,
            takings.total
        );
        let by_method: i64 = takings.received.iter().map(|sum| sum.amount).sum::<i64>()
            - takings.refunded.iter().map(|sum| sum.amount).sum::<i64>();
        prop_assert_eq!(by_method, takings.total);
    }
}
