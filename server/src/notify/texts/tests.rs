//! Every text built from the longest parts the site accepts: plain GSM, at most two segments.
#![allow(clippy::unwrap_used)]

use super::*;
use crate::domain::schedule::Window;
use crate::domain::{OrderSource, OrderStatus, StopKind};
use crate::sms::gsm::{is_gsm, segments};
use time::macros::{date, datetime};

/// The longest parts the site accepts: a 60-character shop name (cut to 24), a long address,
/// a long location, a six-figure bill.
fn longest() -> (Texts, Order) {
    let texts = Texts {
        shop: fit(&"Usafi Express Laundry and Dry Cleaners Kilimani".repeat(2), 24),
        base_url: "https://usafi-express-laundry.co.ke".to_owned(),
        phone: "+254712345678".to_owned(),
        till: "3552248".to_owned(),
        letter: 'P',
        shortcode: Some("22384".to_owned()),
        prompts: false,
        limits: SmsLimits::default(),
    };
    let at = datetime!(2026-11-25 12:00:00);
    let order = Order {
        id: "k".to_owned(),
        reference: "AB12CD34".to_owned(),
        customer_name: "Amina Wanjiru".to_owned(),
        phone: "+254712345678".to_owned(),
        email: None,
        location: "Kilimani, Argwings Kodhek Road, Hurlingham Court block C".to_owned(),
        service_type: "wash-fold".to_owned(),
        service_label: "Wash & Fold".to_owned(),
        quantity: 3,
        payment_method: PaymentMethod::PayDelivery,
        special_instructions: String::new(),
        price_per_kg: 150,
        total_amount: 123_450,
        status: OrderStatus::Pending,
        idempotency_key: None,
        request_fingerprint: None,
        created_at: at,
        updated_at: at,
        landmark: String::new(),
        pin_lat: None,
        pin_lng: None,
        rush: false,
        link_token: Some("a".repeat(16)),
        estimate_amount: 450,
        source: OrderSource::Web,
        cancel_reason: None,
    };
    (texts, order)
}

#[test]
fn every_text_is_plain_gsm_and_at_most_two_segments_and_most_are_one() {
    let (texts, order) = longest();
    let owing = Balance { charged: 123_450, paid: 0, refunded: 0 };
    let paid = Balance { paid: 123_450, ..owing };
    let part = Balance { paid: 99_999, ..owing };
    let over = Balance { paid: 223_450, ..owing };
    let pay_now = Order { payment_method: PaymentMethod::PayNow, ..order.clone() };
    let prompting = Texts { prompts: true, ..texts.clone() };
    let slot = Slot { day: date!(2026 - 11 - 25), window: Window::parse("19:00-20:00").unwrap() };
    let eta = Eta { start: 19 * 60 + 15, end: 19 * 60 + 45 };
    let all = [
        ("picked up, pay now", texts.picked_up(&pay_now, &owing, None)),
        ("picked up, prompt coming", prompting.picked_up(&pay_now, &owing, None)),
        ("picked up, prompt for the rest", prompting.picked_up(&pay_now, &part, None)),
        ("picked up, in credit", texts.picked_up(&pay_now, &over, None)),
        ("picked up and paid at the door", prompting.picked_up(&pay_now, &paid, Some("QKH94M1Z11"))),
        ("order received", texts.order_received(&order, Some(slot), false, None)),
        ("order received, slot confirmed", texts.order_received(&order, Some(slot), true, None)),
        (
            "order received, part credit",
            texts.order_received(&order, Some(slot), true, Some(&CreditNote::Used { used: 99_999, left: 23_450 })),
        ),
        (
            "order received, credit",
            texts.order_received(&order, Some(slot), true, Some(&CreditNote::Used { used: 123_450, left: 0 })),
        ),
        (
            "order received, credit offered",
            texts.order_received(
                &order,
                Some(slot),
                false,
                Some(&CreditNote::Offered { amount: 123_450, key: "k7mx2qpd0a1b2c3d".to_owned() }),
            ),
        ),
        ("re-clean booked", texts.reclean_booked(&order, "ZX98YW76", slot)),
        ("slot confirmed", texts.slot_confirmed(&order, slot, true)),
        ("eta", texts.eta(&order, eta)),
        ("on the way", texts.on_the_way(&order, Some(eta))),
        ("picked up", texts.picked_up(&order, &owing, None)),
        ("ready", texts.ready(&order, Some(slot))),
        ("out for delivery", texts.out_for_delivery(&order, &owing, Some(eta))),
        ("out for delivery, part paid", texts.out_for_delivery(&order, &part, Some(eta))),
        ("delivered", texts.delivered(&order, &owing, None)),
        ("delivered and paid", texts.delivered(&order, &paid, Some("QKH94M1Z11"))),
        ("delivered, part paid", texts.delivered(&order, &part, None)),
        ("payment", texts.payment_received(&order, 123_450, Some("QKH94M1Z11"), &paid)),
        ("part payment", texts.payment_received(&order, 99_999, Some("QKH94M1Z11"), &part)),
        ("cancelled, refund", texts.cancelled(&order, &over, None)),
        ("cancelled, clothes back", texts.cancelled(&order, &over, Some(Some(slot)))),
        ("cancelled, clothes at the shop", texts.cancelled(&order, &over, Some(None))),
        ("returned", texts.returned(&order, &over)),
        ("refunded", texts.refunded(&order, 123_450, "by M-PESA", &paid)),
        ("corrected", texts.corrected(&order, 123_450, false, &part)),
        ("missed pickup", texts.missed(&order, StopKind::Pickup)),
        ("late pickup", texts.late(&order, StopKind::Pickup)),
        ("late delivery", texts.late(&order, StopKind::Delivery)),
        ("pickup booked", texts.pickup_booked(&order, slot)),
        ("no window", texts.no_window()),
        ("texts on", texts.texts_on()),
        ("help", texts.help()),
    ];
    for (name, text) in &all {
        assert!(is_gsm(text), "{name}: {text}");
        assert!(segments(text) <= 2, "{name} is {} characters: {text}", text.len());
    }
    // With an ordinary address and name, the step texts fit one segment (a part payment, and a
    // bill raised above what was paid, also say what is left to pay and take two: see above).
    let texts = Texts { shop: "Usafi Express Laundry".to_owned(), base_url: "https://usafi.co.ke".to_owned(), ..texts };
    for text in [
        texts.order_received(&order, Some(slot), false, None),
        texts.order_received(&order, Some(slot), true, None),
        texts.reclean_booked(&order, "ZX98YW76", slot),
        texts.slot_confirmed(&order, slot, false),
        texts.eta(&order, eta),
        texts.on_the_way(&order, Some(eta)),
        texts.picked_up(&order, &owing, None),
        texts.picked_up(&pay_now, &owing, None),
        Texts { prompts: true, ..texts.clone() }.picked_up(&pay_now, &owing, None),
        texts.ready(&order, Some(slot)),
        texts.delivered(&order, &owing, None),
        texts.delivered(&order, &paid, Some("QKH94M1Z11")),
        texts.payment_received(&order, 1050, Some("QKH94M1Z11"), &paid),
    ] {
        assert_eq!(segments(&text), 1, "{} characters: {text}", text.len());
    }
}

#[test]
fn a_free_order_is_never_asked_to_pay() {
    let (texts, order) = longest();
    let free = Order { total_amount: 0, payment_method: PaymentMethod::PayNow, ..order };
    let nothing = Balance::default();
    let prompting = Texts { prompts: true, ..texts.clone() };
    for text in [texts.picked_up(&free, &nothing, None), prompting.picked_up(&free, &nothing, None)] {
        assert!(text.contains("Bill KSh 0. Nothing to pay."), "{text}");
    }
    assert!(!texts.out_for_delivery(&free, &nothing, None).contains("To pay"));
    let delivered = texts.delivered(&free, &nothing, None);
    assert!(delivered.contains("delivered. Nothing to pay. Thank you!") && !delivered.contains("till"), "{delivered}");
}

#[test]
fn a_slot_taken_with_the_caller_is_confirmed_in_the_first_text() {
    let (texts, order) = longest();
    let slot = Slot { day: date!(2026 - 11 - 25), window: Window::parse("19:00-20:00").unwrap() };
    assert!(texts.order_received(&order, Some(slot), true, None).contains(", confirmed. Track it"));
    assert!(texts.order_received(&order, Some(slot), false, None).contains(", to be confirmed soon."));
    let reclean = texts.reclean_booked(&order, "ZX98YW76", slot);
    assert!(reclean.contains("free re-clean of order ZX98YW76 booked, order AB12CD34."), "{reclean}");
}

#[test]
fn the_eta_text_names_the_window_the_order_and_its_link() {
    let (texts, order) = longest();
    let text = texts.eta(&order, Eta { start: 19 * 60 + 15, end: 19 * 60 + 45 });
    assert!(text.contains("19:15-19:45"), "{text}");
    assert!(text.contains("AB12CD34") && text.ends_with("/t/aaaaaaaaaaaaaaaa"), "{text}");
    assert_eq!(shillings(1_234_567), "1,234,567");
    assert_eq!(shillings(950), "950");
}

#[test]
fn the_delivered_text_links_the_receipt_and_the_picked_up_text_announces_the_prompt() {
    let (texts, order) = longest();
    let order = Order { total_amount: 1500, ..order };
    let owing = Balance { charged: 1500, paid: 0, refunded: 0 };
    let delivered = texts.delivered(&order, &owing, None);
    assert!(
        delivered.ends_with("Receipt: https://usafi-express-laundry.co.ke/t/aaaaaaaaaaaaaaaa/receipt"),
        "{delivered}"
    );
    let old = Order { link_token: None, ..order.clone() };
    assert!(texts.delivered(&old, &owing, None).ends_with("/tracking"));

    let pay_now = Order { payment_method: PaymentMethod::PayNow, total_amount: 1500, ..order };
    let till = texts.picked_up(&pay_now, &owing, None);
    assert!(till.contains("Pay to M-PESA till 3552248.") && !till.contains("prompt"), "{till}");
    let prompting = Texts { prompts: true, ..texts };
    let prompted = prompting.picked_up(&pay_now, &owing, None);
    assert!(prompted.contains("M-PESA prompt coming to your phone."), "{prompted}");
    assert!(!prompted.contains("till"), "{prompted}");
    // Paid 1,200 for an estimate, billed 1,500 at pickup: the prompt asks for the difference.
    let topped = prompting.picked_up(&pay_now, &Balance { paid: 1200, ..owing }, None);
    assert!(
        topped.contains("Bill KSh 1,500. Paid KSh 1,200, KSh 300 to pay: M-PESA prompt for KSh 300 coming."),
        "{topped}"
    );
    assert!(!topped.contains("Paid, thank you"), "{topped}");
}
