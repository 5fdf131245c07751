//! The owner's reports on both backends, from a known history on a clock the test moves: two
//! orders placed and one cancelled and refunded, payments in cash and by code, a part payment, and a
//! payment at 01:00 in Nairobi (the day before in UTC) counted on its Nairobi day. The money by
//! day, the orders and kilos, what is owed after delivery by age, the Reports tab and the ledger's
//! CSV export all give the exact figures.

use crate::helpers::{Backend, quick_retries, set_status, spawn_app_at, stopped_clock};
use laundry::domain::{Method, OrderStatus, StaffRole};
use laundry::lifecycle::payment::{StaffPayment, record_payment};
use laundry::models::reports::{DayMoney, DayOrders, money_by_day, orders_by_day, owing_after_delivery};
use laundry::notify::NotifyCustomer;
use time::macros::{date, datetime};
use time::{OffsetDateTime, PrimitiveDateTime};

const OWNER: &str = "owner@example.com";

fn utc(at: OffsetDateTime) -> PrimitiveDateTime {
    laundry::clock::stored(at)
}

async fn the_reports_give_the_exact_figures_of_a_known_history(backend: Backend) {
    let clock = stopped_clock();
    let Some(app) = spawn_app_at(backend, &[], quick_retries(), clock.clone()).await else { return };
    let place = |kg: u32| {
        let app = &app;
        async move {
            let body = serde_json::json!({
                "customerName": "Amina Wanjiru", "phone": "0712345678", "location": "Kilimani",
                "serviceType": "wash-fold", "quantity": kg, "paymentMethod": "pay-delivery",
            });
            let key = uuid::Uuid::new_v4().to_string();
            let response = app.post_json("/api/orders", &body, &[("Idempotency-Key", &key)]).await;
            assert_eq!(response.status(), 201);
            let reference = response.json::<serde_json::Value>().await.unwrap()["id"].as_str().unwrap().to_owned();
            crate::mpesa::order(app, &reference).id
        }
    };
    let nobody = NotifyCustomer::nobody();
    let pay = |id: &str, payment: StaffPayment, at: OffsetDateTime| {
        app.with_db(|c| record_payment(c, id, &payment, OWNER, false, &nobody, utc(at)).unwrap().unwrap());
    };

    clock.set(datetime!(2026-11-02 10:00 +3));
    let (a, b) = (place(3).await, place(4).await); // KSh 450 and 600
    pay(&a, StaffPayment::Cash(Some(450)), datetime!(2026-11-02 12:00 +3));
    clock.set(datetime!(2026-11-03 09:00 +3));
    let c = place(5).await; // KSh 750
    pay(&c, StaffPayment::Cash(Some(750)), datetime!(2026-11-03 10:00 +3));
    let code = laundry::domain::MpesaCode::parse("QKH94M1Z12").unwrap();
    pay(&b, StaffPayment::Mpesa(code, Some(300)), datetime!(2026-11-03 23:59 +3));
    // 01:00 in Nairobi on the 4th is 22:00 UTC on the 3rd: the 4th's money.
    pay(&b, StaffPayment::Cash(Some(100)), datetime!(2026-11-04 01:00 +3));
    app.with_db(|connection| {
        let at = utc(datetime!(2026-11-05 09:00 +3));
        set_status(connection, &c, OrderStatus::Cancelled, OWNER, &nobody, at).unwrap();
        laundry::lifecycle::money::refund(connection, &c, Method::Cash, 750, None, "Cancelled", OWNER, at)
            .unwrap()
            .unwrap();
        let delivered = utc(datetime!(2026-11-06 19:30 +3));
        set_status(connection, &a, OrderStatus::Delivered, OWNER, &nobody, delivered).unwrap();
        set_status(connection, &b, OrderStatus::Delivered, OWNER, &nobody, delivered).unwrap();
    });
    clock.set(datetime!(2026-11-20 10:00 +3));

    let (money, orders, owing) = app.with_db(|connection| {
        (
            money_by_day(connection, date!(2026 - 11 - 01), date!(2026 - 11 - 30)).unwrap(),
            orders_by_day(connection, date!(2026 - 11 - 01), date!(2026 - 11 - 30)).unwrap(),
            owing_after_delivery(connection, date!(2026 - 11 - 20)).unwrap(),
        )
    });

    let day = |day, received: Vec<(Method, i64)>, refunded: Vec<(Method, i64)>| DayMoney { day, received, refunded };
    assert_eq!(
        money,
        [
            day(date!(2026 - 11 - 02), vec![(Method::Cash, 450)], vec![]),
            day(date!(2026 - 11 - 03), vec![(Method::Code, 300), (Method::Cash, 750)], vec![]),
            day(date!(2026 - 11 - 04), vec![(Method::Cash, 100)], vec![]),
            day(date!(2026 - 11 - 05), vec![], vec![(Method::Cash, 750)]),
        ]
    );
    assert_eq!(money.iter().map(DayMoney::total).sum::<i64>(), 850);
    assert_eq!(
        orders,
        [DayOrders { day: date!(2026 - 11 - 02), orders: 2, kilos: 7, amount: 1050 }],
        "the cancelled one is not counted"
    );
    assert_eq!(owing.len(), 1);
    assert_eq!((owing[0].due, owing[0].delivered, owing[0].days), (200, date!(2026 - 11 - 06), 14));

    // The tab says the same, for the owner.
    let owner = app.sign_in_as(OWNER, "Reports-Test-Pass-2026", StaffRole::Owner).await;
    let path = "/admin?tab=reports&period=custom&from=2026-11-01&to=2026-11-30";
    let page = app.staff_request(reqwest::Method::GET, path, &owner, false).send().await.unwrap();
    assert_eq!(page.status(), 200);
    let html = page.text().await.unwrap();
    for text in ["Money in: KSh 850", "Orders: 2, 7 kg", "8-30 days: KSh 200", "Sun 1 Nov to Mon 30 Nov"] {
        assert!(html.contains(text), "the Reports tab shows {text:?}");
    }
    let wrong = "/admin?tab=reports&period=custom&from=2026-11-30&to=2026-11-01";
    let html =
        app.staff_request(reqwest::Method::GET, wrong, &owner, false).send().await.unwrap().text().await.unwrap();
    assert!(html.contains("The first day comes after the last: swap them."));

    // The ledger of the 3rd and 4th, as CSV: one header, the four entries of those Nairobi days.
    let csv = app
        .staff_request(reqwest::Method::GET, "/admin/exports/ledger.csv?from=2026-11-03&to=2026-11-04", &owner, false)
        .send()
        .await
        .unwrap();
    assert_eq!(csv.status(), 200);
    assert_eq!(csv.headers()["content-type"], "text/csv; charset=utf-8");
    let text = csv.text().await.unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "entry,recorded_at,order_id,customer,kind,method,amount_kes,mpesa_code,note,recorded_by,corrects"
    );
    let kinds: Vec<(&str, &str, &str)> = lines[1..]
        .iter()
        .map(|line| {
            let fields: Vec<&str> = line.split(',').collect();
            (fields[1], fields[4], fields[6])
        })
        .collect();
    assert_eq!(
        kinds,
        [
            ("2026-11-03T09:00:00+03:00", "charge", "750"),
            ("2026-11-03T10:00:00+03:00", "payment", "750"),
            ("2026-11-03T23:59:00+03:00", "payment", "300"),
            ("2026-11-04T01:00:00+03:00", "payment", "100"),
        ]
    );
    let refused = app
        .staff_request(reqwest::Method::GET, "/admin/exports/ledger.csv?from=2026-11-04&to=2026-11-03", &owner, false)
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 400);
    let staff = app.sign_in_as("desk@example.com", "Reports-Test-Pass-2026", StaffRole::Staff).await;
    let forbidden = app
        .staff_request(reqwest::Method::GET, "/admin/exports/ledger.csv?from=2026-11-03&to=2026-11-04", &staff, false)
        .send()
        .await
        .unwrap();
    assert_eq!(forbidden.status(), 303, "staff are sent back to the dashboard: exports are the owner's");
}

crate::on_each_backend!(the_reports_give_the_exact_figures_of_a_known_history);
