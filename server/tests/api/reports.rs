//! The owner's reports on both backends, from a known history on a clock the test moves: two
//! orders placed and one cancelled and refunded, payments in cash and by code, a part payment, and a
//! payment at 01:00 in Nairobi (the day before in UTC) counted on its Nairobi day. The money by
//! day, the orders and kilos, what is owed after delivery by age, the Reports tab and the ledger's
//! CSV export all give the exact figures.

use crate::helpers::orders::an_order;
use crate::helpers::{Backend, TestApp, book_stop, quick_retries, set_status, stopped_clock, use_texted_credit};
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
    let app = TestApp::builder().on(backend).retries(quick_retries()).clock(clock.clone()).start().await;
    let place = |kg: i32| {
        let order = an_order().location("Kilimani").service("wash-fold", kg);
        async { order.place(&app).await.key }
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

/// An amount as the pages write it: "KSh 1,050".
fn ksh(amount: i64) -> String {
    let digits = amount.to_string();
    let mut grouped = String::new();
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    format!("KSh {grouped}")
}

/// GET `path` as `session`: the status and the body.
async fn get(app: &crate::helpers::TestApp, session: &crate::helpers::SignedIn, path: String) -> (u16, String) {
    let response = app.staff_request(reqwest::Method::GET, &path, session, false).send().await.unwrap();
    (response.status().as_u16(), response.text().await.unwrap())
}

/// Posts the Reports tab's sharing form as `session`, with its CSRF token and `form`.
async fn share(app: &crate::helpers::TestApp, session: &crate::helpers::SignedIn, form: &str) -> reqwest::Response {
    app.staff_request(reqwest::Method::POST, "/admin/reports/sharing", session, false)
        .header("content-type", "application/x-www-form-urlencoded")
        .body(format!("csrf={}&{form}", session.csrf))
        .send()
        .await
        .unwrap()
}

/// The key of the `kind` stop of order `id`.
fn stop_of(app: &crate::helpers::TestApp, id: &str, kind: &str) -> String {
    use diesel::prelude::*;
    use laundry::db::schema::stops;
    app.with_db(|c| {
        stops::table.filter(stops::order_id.eq(id)).filter(stops::kind.eq(kind)).select(stops::id).first(c).unwrap()
    })
}

async fn the_service_customer_and_cash_reports_give_the_exact_figures(backend: Backend) {
    use laundry::domain::{OrderSource, RecleanRequest, StopKind};
    use laundry::lifecycle::valet::{Actor, miss};
    use laundry::models::reports::{
        DayCash, DayStops, DayTurnaround, ItemPieces, Spender, WeekCustomers, cash_by_day, period_figures_recounted,
        recleans_by_day, stops_by_day, turnaround_by_day,
    };

    let clock = stopped_clock();
    let app = TestApp::builder().on(backend).retries(quick_retries()).clock(clock.clone()).start().await;
    let place = |name: &str, phone: &str, kg: i32, pieces: serde_json::Value| {
        let order = an_order().name(name).phone(phone).location("Kilimani").pieces(pieces);
        // No kilograms: pieces only.
        let order =
            if kg == 0 { order.with("serviceType", "").with("quantity", "") } else { order.service("wash-fold", kg) };
        async {
            let placed = order.place(&app).await;
            (placed.key, placed.reference)
        }
    };
    let nobody = NotifyCustomer::nobody();
    let staff_actor = Actor { email: OWNER, only_run_of: None };
    let at = |moment: OffsetDateTime| {
        clock.set(moment);
        utc(moment)
    };

    // Week 1 (Monday 2 November): Amina and Brian order; pieces of shirts and a gown.
    at(datetime!(2026-11-02 09:00 +3));
    let (a, a_ref) = place("Amina Wanjiru", "0712345678", 3, serde_json::json!({ "shirt": 2 })).await;
    let (b, _) = place("Brian Otieno", "0722000111", 0, serde_json::json!({ "shirt": 1, "graduation-gown": 1 })).await;
    book_stop(&app, &a, StopKind::Pickup, date!(2026 - 11 - 02), (840, 960)); // 14:00-16:00
    book_stop(&app, &b, StopKind::Pickup, date!(2026 - 11 - 02), (840, 960));
    // Amina's is picked up in her window; Brian's an hour after his closed.
    let now = at(datetime!(2026-11-02 15:00 +3));
    app.with_db(|c| set_status(c, &a, OrderStatus::PickedUp, OWNER, &nobody, now).unwrap());
    let now = at(datetime!(2026-11-02 17:00 +3));
    app.with_db(|c| set_status(c, &b, OrderStatus::PickedUp, OWNER, &nobody, now).unwrap());
    for id in [&a, &b] {
        app.with_db(|c| set_status(c, id, OrderStatus::Ready, OWNER, &nobody, now).unwrap());
    }
    book_stop(&app, &a, StopKind::Delivery, date!(2026 - 11 - 04), (1080, 1200)); // 18:00-20:00
    book_stop(&app, &b, StopKind::Delivery, date!(2026 - 11 - 04), (1080, 1200));
    // Brian's comes back on the 4th, in its window, and he pays by code; nobody is at Amina's door.
    let now = at(datetime!(2026-11-04 19:00 +3));
    app.with_db(|c| set_status(c, &b, OrderStatus::Delivered, OWNER, &nobody, now).unwrap());
    let code = laundry::domain::MpesaCode::parse("QKH94M1Z12").unwrap();
    app.with_db(|c| record_payment(c, &b, &StaffPayment::Mpesa(code, Some(300)), OWNER, false, &nobody, now))
        .unwrap()
        .unwrap();
    let schedule = app.state.settings().schedule.clone();
    let context = laundry::lifecycle::Context { by: OWNER, notify: &nobody, schedule: &schedule, now };
    let missed = app.with_db(|c| miss(c, &stop_of(&app, &a, "delivery"), staff_actor, "Not home", &context));
    assert!(missed.is_ok(), "the delivery is missed: {missed:?}");
    // Moved to the 5th (the miss is cleared from the stop, not from the report), delivered in it;
    // she pays her bill in cash, and the next day KSh 100 of it is taken off for a stain and given
    // back.
    book_stop(&app, &a, StopKind::Delivery, date!(2026 - 11 - 05), (1080, 1200));
    let now = at(datetime!(2026-11-05 19:30 +3));
    app.with_db(|c| set_status(c, &a, OrderStatus::Delivered, OWNER, &nobody, now).unwrap());
    let bill = crate::helpers::money(&app, &a_ref).0.charged;
    let cash = i32::try_from(bill).unwrap();
    app.with_db(|c| record_payment(c, &a, &StaffPayment::Cash(Some(cash)), OWNER, false, &nobody, now))
        .unwrap()
        .unwrap();
    let handover = laundry::models::ledger::NewHandover {
        holder: OWNER,
        day: date!(2026 - 11 - 05),
        amount: cash,
        note: "",
        by: OWNER,
        key: None,
    };
    app.with_db(|c| laundry::models::ledger::Handover::add(c, &handover, now)).unwrap();
    let now = at(datetime!(2026-11-06 10:00 +3));
    app.with_db(|c| laundry::lifecycle::money::discount(c, &a, 100, "A stain stayed", OWNER, now)).unwrap().unwrap();
    app.with_db(|c| laundry::lifecycle::money::refund(c, &a, Method::Cash, 100, None, "Stain", OWNER, now))
        .unwrap()
        .unwrap();
    // Amina asks for her shirts again.
    let request = RecleanRequest { positions: [1].into_iter().collect(), problem: "A stain".to_owned(), pickup: None };
    let texts = app.state.texts().clone();
    let terms = laundry::lifecycle::place::PlacingTerms::new(None, &schedule, &texts, OrderSource::Web, false);
    app.with_db(|c| laundry::lifecycle::reclean::ask(c, &a, &request, &terms, 7, now, now)).unwrap();

    // Week 2: Amina again (returning); Carol's first order is cancelled (not a customer).
    at(datetime!(2026-11-10 09:00 +3));
    place("Amina Wanjiru", "0712345678", 2, serde_json::json!({})).await;
    let (d, _) = place("Carol Njeri", "0733000222", 0, serde_json::json!({ "shirt": 5 })).await;
    let now = at(datetime!(2026-11-10 10:00 +3));
    app.with_db(|c| set_status(c, &d, OrderStatus::Cancelled, OWNER, &nobody, now).unwrap());
    at(datetime!(2026-11-20 10:00 +3));

    let (first, last) = (date!(2026 - 11 - 02), date!(2026 - 11 - 15));
    let read = app.with_db(|c| {
        (
            stops_by_day(c, first, last).unwrap(),
            turnaround_by_day(c, first, last).unwrap(),
            period_figures_recounted(c, first, last).unwrap(),
            recleans_by_day(c, first, last).unwrap(),
            cash_by_day(c, first, last).unwrap(),
        )
    });
    let (stops, turnaround, period, recleans, cash) = read;
    let (items, weeks, repeat, spenders) = (period.items, period.customer_weeks, period.repeat, period.top);
    let stop = |day, kind, done, kept, missed| DayStops { day, kind, done, kept, missed };
    assert_eq!(
        stops,
        [
            stop(date!(2026 - 11 - 02), StopKind::Pickup, 2, 1, 0),
            stop(date!(2026 - 11 - 04), StopKind::Delivery, 1, 1, 1),
            stop(date!(2026 - 11 - 05), StopKind::Delivery, 1, 1, 0),
        ],
        "Brian's pickup was late; Amina's delivery was missed on the 4th, kept on the 5th"
    );
    // Brian: 17:00 on the 2nd to 19:00 on the 4th, 50 hours; Amina: 15:00 to 19:30 on the 5th, 76.5.
    assert_eq!(
        turnaround,
        [
            DayTurnaround { day: date!(2026 - 11 - 04), hours: 50, orders: 1 },
            DayTurnaround { day: date!(2026 - 11 - 05), hours: 76, orders: 1 },
        ]
    );
    let item = |item: &str, pieces| (item.to_owned(), pieces);
    assert_eq!(
        items.iter().map(|i: &ItemPieces| (i.item.clone(), i.pieces)).collect::<Vec<_>>(),
        [item("shirt", 5), item("graduation-gown", 1)],
        "Amina's two and Brian's one, and Amina's two again in her re-clean; not the cancelled order's five"
    );
    assert_eq!(
        weeks,
        [
            WeekCustomers { week: date!(2026 - 11 - 02), customers: 2, new: 2 },
            WeekCustomers { week: date!(2026 - 11 - 09), customers: 1, new: 0 },
        ]
    );
    assert_eq!(repeat, (2, 1), "Amina ordered more than once; Brian once");
    assert_eq!(
        spenders,
        [
            // Her three orders of the period: the first, the re-clean and the one of the 10th.
            Spender {
                phone: "+254712345678".to_owned(),
                name: "Amina Wanjiru".to_owned(),
                orders: 3,
                spend: bill - 100
            },
            Spender { phone: "+254722000111".to_owned(), name: "Brian Otieno".to_owned(), orders: 1, spend: 300 },
        ]
    );
    assert_eq!(recleans, [(date!(2026 - 11 - 06), 1)]);
    assert_eq!(
        cash,
        [
            DayCash { day: date!(2026 - 11 - 05), holder: OWNER.to_owned(), collected: bill, handed_in: bill },
            DayCash { day: date!(2026 - 11 - 06), holder: OWNER.to_owned(), collected: -100, handed_in: 0 },
        ]
    );

    // The owner's tab shows every section, and the form to share them.
    let owner = app.sign_in_as(OWNER, "Reports-Test-Pass-2026", StaffRole::Owner).await;
    let period = "period=custom&from=2026-11-02&to=2026-11-15";
    let (status, html) = get(&app, &owner, format!("/admin?tab=reports&{period}")).await;
    assert_eq!(status, 200);
    for text in [
        "Turnaround: 2 d 2 h median, windows kept 60%, 1 missed",
        "Customers: 2, 50% ordered more than once",
        "+254712345678",
        "Cash-up by day: KSh -100 still held",
        "50.0%",
        "What staff see",
        "/admin/exports/orders.csv?from=2026-11-02&amp;to=2026-11-15",
    ] {
        assert!(html.contains(text), "the owner's Reports tab shows {text:?}");
    }

    // Staff see nothing of it until the owner shares; then only what is shared, phones masked.
    let desk = app.sign_in_as("desk@example.com", "Reports-Test-Pass-2026", StaffRole::Staff).await;
    let (_, html) = get(&app, &desk, format!("/admin?tab=reports&{period}")).await;
    assert!(!html.contains("Turnaround:") && !html.contains("Money in:"), "nothing is shared yet");
    let refused = share(&app, &desk, "money=on").await;
    assert_eq!(refused.status(), 303, "staff cannot share");
    assert_eq!(refused.headers()["location"], "/admin");
    // The period to come back to is written again from the days read, not copied (a space is dropped).
    let shared = share(&app, &owner, "period=custom&from=%202026-11-02&to=2026-11-15&service=on&customers=on").await;
    assert_eq!(shared.status(), 303);
    let back = shared.headers()["location"].to_str().unwrap().to_owned();
    assert!(back.starts_with("/admin?tab=reports") && back.contains("from=2026-11-02"), "{back}");
    assert_eq!(share(&app, &owner, "everything=on").await.status(), 400, "an unknown section is refused");
    let (_, html) = get(&app, &desk, format!("/admin?tab=reports&{period}")).await;
    assert!(html.contains("Turnaround: 2 d 2 h median") && html.contains("+254 7** *** 678"));
    let customers = &html[html.find("reports-customers").unwrap()..];
    let customers = &customers[..customers.find("</section>").unwrap()];
    assert!(!customers.contains("+254712345678"), "staff read the top customers' phone numbers masked");
    assert!(!html.contains("Money in:") && !html.contains("Cash-up by day") && !html.contains("What staff see"));
    assert!(!html.contains("Download as CSV"), "downloads are the owner's");

    // The CSV downloads of the period, and the month's summary; all the owner's.
    let (status, orders) =
        get(&app, &owner, "/admin/exports/orders.csv?from=2026-11-02&to=2026-11-15".to_owned()).await;
    assert_eq!(status, 200);
    let lines: Vec<&str> = orders.lines().collect();
    assert_eq!(
        lines[0],
        "order_id,placed_at,customer,phone,location,service,source,status,payment_method,billed_kes,paid_kes,\
         given_back_kes,credit_used_kes,credit_kept_kes,due_kes"
    );
    assert_eq!(lines.len(), 6, "five orders (the re-clean's too) under the header: {orders}");
    let amina = lines.iter().find(|line| line.starts_with(&a_ref)).unwrap();
    assert!(amina.contains(",2026-11-02T09:00:00+03:00,Amina Wanjiru,+254712345678,Kilimani,"), "{amina}");
    assert!(amina.contains(",delivered,pay-delivery,"), "{amina}");
    let money = format!(",{},{bill},100,0,0,0", bill - 100);
    assert!(amina.ends_with(&money), "billed less 100, paid, 100 given back, no credit, nothing due: {amina}");
    let (status, payments) =
        get(&app, &owner, "/admin/exports/payments.csv?from=2026-11-04&to=2026-11-06".to_owned()).await;
    assert_eq!(status, 200);
    let amounts: Vec<(String, String)> = payments
        .lines()
        .skip(1)
        .map(|line| {
            let fields: Vec<&str> = line.split(',').collect();
            (fields[4].to_owned(), fields[6].to_owned())
        })
        .collect();
    let pair = |kind: &str, amount: &str| (kind.to_owned(), amount.to_owned());
    assert_eq!(amounts, [pair("payment", "300"), pair("payment", &bill.to_string()), pair("refund", "-100")]);
    let (status, summary) = get(&app, &owner, "/admin/exports/summary?month=2026-11".to_owned()).await;
    assert_eq!(status, 200);
    let net = ksh(300 + bill - 100);
    for text in ["Summary of November 2026", "Net received", net.as_str(), "Cash handed in", "Discounts"] {
        assert!(summary.contains(text), "the summary shows {text:?}: {summary}");
    }
    assert_eq!(get(&app, &owner, "/admin/exports/summary?month=2026-13".to_owned()).await.0, 400);
    assert_eq!(get(&app, &owner, "/admin/exports/summary?month=2027-01".to_owned()).await.0, 400, "not begun");
    assert_eq!(get(&app, &desk, "/admin/exports/summary?month=2026-11".to_owned()).await.0, 303);
    assert_eq!(get(&app, &desk, "/admin/exports/orders.csv?from=2026-11-02&to=2026-11-15".to_owned()).await.0, 303);
}

/// Issue 49: a KSh 600 order paid KSh 1,000 in cash, the customer keeping KSh 400 as credit; a
/// KSh 450 order paid by code, cancelled and sent back by M-PESA reversal. The Reports tab, the
/// month's summary and the payments export count the money that moved (1,450 in, 450 back, 1,000
/// net), each way back in its own column, and the store credit on lines of its own; the orders
/// export splits an order's money the same way. The credit used by the customer's next order is
/// not money received.
async fn store_credit_is_reported_apart_from_the_money_that_moved(backend: Backend) {
    let clock = stopped_clock();
    let app = TestApp::builder().on(backend).retries(quick_retries()).clock(clock.clone()).start().await;
    let place = |phone: &str, kg: i32| {
        let order = an_order().phone(phone).location("Kilimani").service("wash-fold", kg);
        async {
            let placed = order.place(&app).await;
            (placed.key, placed.reference)
        }
    };
    let nobody = NotifyCustomer::nobody();
    clock.set(datetime!(2026-11-02 10:00 +3));
    let ((a, a_ref), (b, _)) = (place("0712345678", 4).await, place("0722000111", 3).await); // 600 and 450
    let now = utc(datetime!(2026-11-02 12:00 +3));
    app.with_db(|c| {
        record_payment(c, &a, &StaffPayment::Cash(Some(1000)), OWNER, false, &nobody, now).unwrap().unwrap();
        laundry::lifecycle::money::keep_as_credit(c, &a, OWNER, now).unwrap().unwrap();
        let code = laundry::domain::MpesaCode::parse("QKH94M1Z12").unwrap();
        record_payment(c, &b, &StaffPayment::Mpesa(code, Some(450)), OWNER, false, &nobody, now).unwrap().unwrap();
        set_status(c, &b, OrderStatus::Cancelled, OWNER, &nobody, now).unwrap();
        laundry::lifecycle::money::refund(c, &b, Method::Reversal, 450, Some("RX1"), "Cancelled", OWNER, now)
            .unwrap()
            .unwrap();
    });
    clock.set(datetime!(2026-11-03 10:00 +3));
    let owner = app.sign_in_as(OWNER, "Reports-Test-Pass-2026", StaffRole::Owner).await;

    let (status, html) =
        get(&app, &owner, "/admin?tab=reports&period=custom&from=2026-11-02&to=2026-11-02".into()).await;
    assert_eq!(status, 200);
    for text in [
        "Money in: KSh 1,000",
        "<dt>Received</dt><dd>KSh 1,450</dd>",
        "<dt>Given back</dt><dd>KSh 450</dd>",
        "<dt>Net received</dt><dd>KSh 1,000</dd>",
        "<dt>Kept as credit</dt><dd>KSh 400</dd>",
        "<dt>Used on orders</dt><dd>KSh 0</dd>",
        "<dt>Owed to customers at the end</dt><dd>KSh 400</dd>",
        "Given back: M-PESA reversal",
    ] {
        assert!(html.contains(text), "the Reports tab shows {text:?}");
    }
    assert!(!html.contains(">Store credit</th>"), "store credit is not a column of money");

    let (status, html) = get(&app, &owner, "/admin/exports/summary?month=2026-11".into()).await;
    assert_eq!(status, 200);
    for text in [
        "<th scope=\"row\">Received in all</th><td>KSh 1,450</td>",
        "<th scope=\"row\">M-PESA reversal</th><td>KSh 450</td>",
        "<th scope=\"row\">Net received</th><td>KSh 1,000</td>",
        "<th scope=\"row\">Kept as credit</th><td>KSh 400</td>",
        "<th scope=\"row\">Owed to customers now</th><td>KSh 400</td>",
    ] {
        assert!(html.contains(text), "the summary shows {text:?}");
    }

    let (_, csv) = get(&app, &owner, "/admin/exports/payments.csv?from=2026-11-02&to=2026-11-02".into()).await;
    let amounts: Vec<i64> = csv.lines().skip(1).map(|line| line.split(',').nth(6).unwrap().parse().unwrap()).collect();
    assert_eq!((amounts.iter().sum::<i64>(), amounts.len()), (1000, 3), "cash, code and reversal; no credit: {csv}");
    let (_, csv) = get(&app, &owner, "/admin/exports/orders.csv?from=2026-11-02&to=2026-11-02".into()).await;
    let lines: Vec<&str> = csv.lines().collect();
    assert!(lines[0].ends_with(",billed_kes,paid_kes,given_back_kes,credit_used_kes,credit_kept_kes,due_kes"));
    let row = lines.iter().find(|line| line.starts_with(&a_ref)).unwrap();
    assert!(row.ends_with(",600,1000,0,0,400,0"), "billed, paid, given back, credit used and kept, due: {row}");

    // The Money tab's credit list names the customer for the owner; staff read a masked number.
    let balances = app.staff_request(reqwest::Method::GET, "/api/admin/balances", &owner, false).send().await.unwrap();
    let credit = balances.json::<serde_json::Value>().await.unwrap()["credit"].clone();
    assert_eq!(credit, serde_json::json!([{ "phone": "+254712345678", "name": "Amina Wanjiru", "amount": 400 }]));
    let desk = app.sign_in_as("desk@example.com", "Reports-Test-Pass-2026", StaffRole::Staff).await;
    let balances = app.staff_request(reqwest::Method::GET, "/api/admin/balances", &desk, false).send().await.unwrap();
    let credit = balances.json::<serde_json::Value>().await.unwrap()["credit"].clone();
    assert_eq!(credit, serde_json::json!([{ "phone": "+254 7** *** 678", "name": null, "amount": 400 }]));

    // The customer's next order is paid from the credit: not money received.
    clock.set(datetime!(2026-11-03 11:00 +3));
    let (next, next_ref) = place("0712345678", 3).await; // 450, 400 of it from the credit
    let received: Vec<String> = app
        .with_db(|c| laundry::models::outbox::OutboxMessage::all(c).unwrap())
        .into_iter()
        .filter(|m| m.kind == laundry::domain::MessageKind::SmsOrderReceived && m.order_id.as_deref() == Some(&next))
        .filter_map(|m| m.sms_text())
        .collect();
    assert!(received[0].contains("Your credit can pay KSh 400 of it: open the link to use it."), "{received:?}");
    assert_eq!(use_texted_credit(&app, &next_ref).await.status(), 303);
    let (_, html) = get(&app, &owner, "/admin?tab=reports&period=custom&from=2026-11-03&to=2026-11-03".into()).await;
    for text in [
        "Money in: KSh 0",
        "<dt>Used on orders</dt><dd>KSh 400</dd>",
        "<dt>Owed to customers at the end</dt><dd>KSh 0</dd>",
    ] {
        assert!(html.contains(text), "the next day's Reports tab shows {text:?}");
    }
    let stats = app.with_db(|c| laundry::models::stats::Stats::load(c, date!(2026 - 11 - 03)).unwrap());
    assert_eq!(stats.total_revenue, 600 + 450, "the bills of the orders not cancelled");
    assert_eq!(stats.paid_revenue, 1000, "the money that moved, ever");
}

crate::on_each_backend!(
    the_reports_give_the_exact_figures_of_a_known_history,
    the_service_customer_and_cash_reports_give_the_exact_figures,
    store_credit_is_reported_apart_from_the_money_that_moved
);
