//! Props of the pages that need data, filled with sample data for the benches (`server/benches/`):
//! the real view structs, so that a change of a view breaks the benches' build, never their output
//! (hand-written JSON went stale with every new field). Public pages need no samples: the benches
//! render them as the cache does (`routes::PublicPage::page`).

use super::admin::{AdminTab, DashboardProps, OrdersFilter, OrdersPage, StaffView};
use super::awaiting::{AwaitingList, AwaitingPickup, SlotOption, WaitingItem, WaitingKind};
use super::backups::BackupStatus;
use super::messages::{MessagesFilter, MessagesPage};
use super::orders::{AdminMessage, AdminOrder, OrderLineView, OrderView, StopWhen};
use super::outbox::{ChannelReport, OutboxMessageView, OutboxReport};
use super::pages::LoginProps;
use super::payments::{MpesaPayment, PaymentsToCheck, PromptView};
use crate::domain::catalogue::Unit;
use crate::domain::{
    Balance, Channel, Delivery, EntryKind, LineKind, MessageKind, MessageStatus, Method, OrderSource, OrderStatus,
    OutboxStatus, PaymentMethod, PromptState, ReceiptProblem, ReceiptSource, Settlement, StaffRole, StopState, Takings,
};
use crate::models::stats::{DayTakings, MonthCount, Stats, Tally};

/// Orders and messages per page of the dashboard's lists (`routes::admin::PAGE_SIZE`).
const PAGE_SIZE: i64 = 20;

/// When the sample orders and messages were written.
const PLACED_AT: &str = "2026-11-22T08:30:00.123456Z";

/// The server's time in the samples.
const NOW: &str = "2026-11-22T09:30:00.000000Z";

/// The sign-in page as a first visit sees it.
pub fn login() -> LoginProps {
    LoginProps {
        csrf: "0".repeat(64),
        next: "/admin".to_owned(),
        email: String::new(),
        error: None,
        notice: None,
        status: 200,
    }
}

/// The dashboard's first page as staff see it on a busy day: a full page of orders (20) and of
/// messages, pickups awaiting confirmation, payments to check, and both channels of the outbox
/// with a problem each.
pub fn dashboard() -> DashboardProps {
    DashboardProps {
        staff: StaffView { email: "wanjiku@example.com".to_owned(), role: StaffRole::Staff },
        csrf: "0".repeat(64),
        tab: AdminTab::Orders,
        stats: stats(),
        orders: OrdersPage {
            items: (0..PAGE_SIZE).map(order).collect(),
            total: 812,
            more: false,
            page: 1,
            page_size: PAGE_SIZE,
            filter: OrdersFilter { status: None, payment: None, q: String::new() },
            now: NOW.to_owned(),
        },
        messages: MessagesPage {
            items: (0..PAGE_SIZE).map(message).collect(),
            total: 120,
            page: 1,
            page_size: PAGE_SIZE,
            filter: MessagesFilter { status: None },
        },
        statuses: DashboardProps::statuses(),
        racks: crate::domain::garment::parse_racks(crate::domain::garment::DEFAULT_RACKS).unwrap_or_default(),
        outbox: outbox(),
        unconfirmed: AwaitingList {
            items: (0..3).map(awaiting).collect(),
            waiting: vec![WaitingItem {
                order_id: "MX7K2P9Q".to_owned(),
                name: "Amina Wanjiru".to_owned(),
                phone: "+254712345678".to_owned(),
                kind: WaitingKind::MissedPickup,
                what: "Pickup missed, Sun 22 Nov, 19:00-20:00: Not home".to_owned(),
                slot: Some("2026-11-22T19:00".to_owned()),
            }],
            slots: vec![SlotOption {
                value: "2026-11-22T20:00".to_owned(),
                label: "Sun 22 Nov, 20:00-21:00".to_owned(),
                remaining: 5,
            }],
            now: NOW.to_owned(),
        },
        run: None,
        inbox: None,
        payments: PaymentsToCheck { items: (0..3).map(payment).collect(), q: String::new(), total: 3 },
        cash_up: None,
        balances: None,
        sends_prompts: true,
        backups: Some(BackupStatus::new(None, None, time::macros::datetime!(2026-11-24 16:40 UTC))),
        reports: None,
        reports_tab: true,
    }
}

/// The `n`th order of the list: every status, paid and unpaid, prompts waiting and failed, every
/// source, now and then a re-clean.
fn order(n: i64) -> AdminOrder {
    let statuses = [
        OrderStatus::Pending,
        OrderStatus::PickedUp,
        OrderStatus::InProgress,
        OrderStatus::Ready,
        OrderStatus::Delivered,
    ];
    let sources = [OrderSource::Web, OrderSource::Web, OrderSource::Phone, OrderSource::Whatsapp, OrderSource::Sms];
    let index = usize::try_from(n).unwrap_or_default();
    let paid = n % 2 == 0;
    let line = |kind, item: &str, label: &str, quantity, unit, unit_price| OrderLineView {
        kind,
        item: item.to_owned(),
        label: label.to_owned(),
        quantity,
        unit,
        unit_price,
        amount: quantity * unit_price,
    };
    AdminOrder {
        order: OrderView {
            id: format!("K7MX{n:04}"),
            customer_name: format!("Customer Number {n}"),
            phone: "+254712345678".to_owned(),
            email: Some("c@example.com".to_owned()),
            location: "Kilimani, Argwings Kodhek Rd".to_owned(),
            service_type: "dry-cleaning".to_owned(),
            service_label: "Dry Cleaning".to_owned(),
            quantity: 3,
            payment_method: PaymentMethod::PayNow,
            special_instructions: String::new(),
            price_per_kg: 500,
            total_amount: 2200,
            lines: vec![
                line(LineKind::Kg, "dry-cleaning", "Dry Cleaning", 3, Unit::Kg, 500),
                line(LineKind::Piece, "graduation-gown", "Graduation Gown", 1, Unit::Piece, 700),
            ],
            status: statuses[index % statuses.len()],
            created_at: PLACED_AT.to_owned(),
            updated_at: PLACED_AT.to_owned(),
        },
        balance: Balance { charged: 2200, paid: if paid { 2200 } else { 0 }, refunded: 0 },
        settlement: if paid { Settlement::Paid } else { Settlement::Unpaid },
        to_pay: if paid { 0 } else { 2200 },
        owed_back: 0,
        money_words: if paid { "Paid KSh 2,200" } else { "KSh 2,200 to pay" }.to_owned(),
        prompt: (!paid).then(|| {
            let waiting = n % 4 == 1;
            PromptView {
                state: if waiting { PromptState::Waiting } else { PromptState::Failed },
                detail: (!waiting).then(|| "Not enough money in the M-PESA account.".to_owned()),
                amount: 2200,
                phone: "+254712345678".to_owned(),
                asked_by: "order".to_owned(),
                created_at: PLACED_AT.to_owned(),
                resolved_at: None,
                receipt: None,
            }
        }),
        payments_to_check: i64::from(n == 3),
        source: sources[index % sources.len()],
        reclean_of: (n % 7 == 6).then(|| "K7MX0001".to_owned()),
        landmark: if n % 3 == 0 { "Opposite Yaya Centre, blue gate".to_owned() } else { String::new() },
        rush: n % 5 == 4,
        pickup: Some(StopWhen {
            window: "Thu 26 Nov, 19:00-20:00".to_owned(),
            state: if index % statuses.len() == 0 { StopState::Planned } else { StopState::Done },
            confirmed: n % 2 == 1,
        }),
        delivery: Some(StopWhen {
            window: "Sun 29 Nov, 19:00-20:00".to_owned(),
            state: if statuses[index % statuses.len()] == OrderStatus::Delivered {
                StopState::Done
            } else {
                StopState::Planned
            },
            confirmed: false,
        }),
    }
}

/// The `n`th contact message: a new one.
fn message(n: i64) -> AdminMessage {
    AdminMessage {
        id: format!("m-{n}"),
        name: "Njeri Kamau".to_owned(),
        email: "njeri@example.com".to_owned(),
        phone: None,
        subject: "Duvet cleaning".to_owned(),
        message: "Do you clean king-size duvets?\nThanks".to_owned(),
        status: MessageStatus::New,
        created_at: PLACED_AT.to_owned(),
        handled_at: None,
        handled_by: None,
    }
}

/// The `n`th pickup awaiting confirmation: the first is overdue.
fn awaiting(n: i64) -> AwaitingPickup {
    AwaitingPickup {
        order_id: format!("K7MX{n:04}"),
        name: "Amina Wanjiru".to_owned(),
        phone: "+254712345678".to_owned(),
        pickup: "2026-11-22T19:00".to_owned(),
        pickup_label: "Sun 22 Nov, 19:00-20:00".to_owned(),
        booked_at: PLACED_AT.to_owned(),
        minutes_waiting: 40 - n * 20,
        overdue: n == 0,
    }
}

/// The `n`th till payment to check: the first two unmatched, the third matched but flagged.
fn payment(n: i32) -> MpesaPayment {
    let flagged = n == 2;
    MpesaPayment {
        receipt: format!("QKH94M1Z{n:02}"),
        source: ReceiptSource::Till,
        amount: 900 + n * 100,
        phone: Some("2547 ***** 678".to_owned()),
        payer_name: Some("AMINA".to_owned()),
        bill_ref: None,
        paid_at: Some("2026-11-22T08:10:00.000000Z".to_owned()),
        received_at: "2026-11-22T08:10:02.000000Z".to_owned(),
        order_id: flagged.then(|| "K7MX0003".to_owned()),
        matched_by: flagged.then(|| "phone-and-amount".to_owned()),
        problem: flagged.then_some(ReceiptProblem::Amount),
        problem_text: flagged.then(|| "The amount is not the order's bill: the order is not marked paid.".to_owned()),
        checked_by: None,
        checked_at: None,
    }
}

/// The stat cards of a shop some months old, with today's takings.
fn stats() -> Stats {
    let tally = |count, amount| Tally { count, amount };
    Stats {
        total_revenue: 1_250_000,
        paid_revenue: 900_000,
        cancelled_revenue: 12_000,
        total_orders: 812,
        pending_orders: 37,
        messages: 120,
        new_messages: 4,
        unread_texts: 2,
        takings: DayTakings {
            day: "2026-11-22".to_owned(),
            takings: Takings::of([
                (EntryKind::Payment, Method::Prompt, 30_800),
                (EntryKind::Payment, Method::Till, 9_400),
                (EntryKind::Payment, Method::Cash, 4_100),
                (EntryKind::Refund, Method::Reversal, 500),
            ]),
            unmatched: tally(2, 1_800),
        },
        recleans_per_month: ["2026-06", "2026-07", "2026-08", "2026-09", "2026-10", "2026-11"]
            .iter()
            .zip(0..)
            .map(|(month, n)| MonthCount { month: (*month).to_owned(), count: n % 3 })
            .collect(),
    }
}

/// Both channels configured, each with its newest problem: an e-mail given up, a text not
/// delivered.
fn outbox() -> OutboxReport {
    let channel = |channel, waiting, failed, sent, skipped, undelivered, error: &str, at: &str| ChannelReport {
        channel,
        configured: true,
        missing: Vec::new(),
        waiting,
        failed,
        blocked: 0,
        sent,
        skipped,
        undelivered,
        last_error: Some(error.to_owned()),
        last_error_at: Some(at.to_owned()),
    };
    let problem = |id: &str, channel, kind: MessageKind, to: &str, order_id: &str, status| OutboxMessageView {
        id: id.to_owned(),
        channel,
        kind,
        label: kind.label().to_owned(),
        to: to.to_owned(),
        order_id: Some(order_id.to_owned()),
        status,
        attempts: 1,
        last_error: None,
        created_at: String::new(),
        last_attempt_at: None,
        next_attempt_at: String::new(),
        sent_at: None,
        delivery: None,
        delivery_detail: None,
        delivery_at: None,
    };
    let email_failed = OutboxMessageView {
        attempts: 12,
        last_error: Some("gave up after 12 attempts; last: 500 Internal Server Error".to_owned()),
        created_at: "2026-11-22T02:00:00.000000Z".to_owned(),
        last_attempt_at: Some("2026-11-22T08:31:00.000000Z".to_owned()),
        next_attempt_at: "2026-11-22T08:31:00.000000Z".to_owned(),
        ..problem("e-1", Channel::Email, MessageKind::OrderCustomer, "c@example.com", "K7MX0001", OutboxStatus::Failed)
    };
    let text_undelivered = OutboxMessageView {
        created_at: "2026-11-22T08:39:00.000000Z".to_owned(),
        last_attempt_at: Some("2026-11-22T08:39:00.000000Z".to_owned()),
        next_attempt_at: "2026-11-22T08:39:00.000000Z".to_owned(),
        sent_at: Some("2026-11-22T08:39:00.000000Z".to_owned()),
        delivery: Some(Delivery::Failed),
        delivery_detail: Some("Failed (network 63902): DeliveryFailure".to_owned()),
        delivery_at: Some("2026-11-22T08:40:00.000000Z".to_owned()),
        ..problem("s-1", Channel::Sms, MessageKind::SmsPickedUp, "+254712345678", "K7MX0002", OutboxStatus::Sent)
    };
    OutboxReport {
        email: channel(Channel::Email, 2, 1, 1_620, 0, 0, "500 Internal Server Error", "2026-11-22T08:31:00.000000Z"),
        sms: channel(
            Channel::Sms,
            3,
            0,
            4_210,
            2,
            1,
            "Not delivered: Failed (network 63902): DeliveryFailure",
            "2026-11-22T08:40:00.000000Z",
        ),
        problems: vec![email_failed, text_undelivered],
        text_budget: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sample_dashboard_has_a_full_page_of_orders_and_messages() {
        let props = dashboard();
        assert_eq!(props.orders.items.len(), 20);
        assert_eq!(props.messages.items.len(), 20);
        assert_eq!(props.orders.items.iter().filter(|order| order.reclean_of.is_some()).count(), 2);
    }
}
