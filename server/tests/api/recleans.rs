//! The free re-clean (issue 19), on both backends: a delivered order's page asks for some of its
//! lines to be cleaned again within the configured days; it becomes one linked KSh 0 order with its
//! own pickup and text, each line once; every refusal (the same lines again, after the window, not
//! delivered, cancelled, mistyped, another site's form) says why and stores nothing.

use crate::helpers::mpesa::PHONE;
use crate::helpers::orders::stored;
use crate::helpers::recleans::*;
use crate::helpers::staff::{OWNER, OWNER_PASSWORD, owner};
use crate::helpers::{Backend, TestApp, quick_retries, sms_env};
use crate::{on_both_backends, on_each_backend};
use diesel::prelude::*;
use laundry::db::schema::recleans;
use laundry::domain::schedule::nairobi_day;
use laundry::domain::{LineKind, OrderStatus, PaymentMethod, RECLEAN_ITEM, StopKind};
use laundry::fakes::FakeAt;
use laundry::models::order::{Order, OrderLine};
use laundry::models::stop::Stop;
use time::{Duration, OffsetDateTime};

/// The page answered 422 with `message` in it; nothing more stored than `before`.
async fn refused(app: &TestApp, response: reqwest::Response, message: &str, before: (i64, i64, i64)) -> String {
    assert_eq!(response.status(), 422);
    let html = response.text().await.unwrap();
    assert!(html.contains(message), "{message} not in the page");
    assert_eq!(counts(app), before, "nothing stored");
    html
}

fn summary(lines: &[OrderLine]) -> Vec<(LineKind, String, i32, i32)> {
    lines.iter().map(|line| (line.kind, line.item.clone(), line.quantity, line.amount)).collect()
}

async fn a_re_clean_within_the_window_is_one_linked_free_order_texted_to_the_customer(backend: Backend) {
    let mock = FakeAt::start().await;
    let app = TestApp::builder().on(backend).env(&sms_env(&mock.url)).retries(quick_retries()).start().await;
    let order = delivered(&app).await;
    mock.wait_for(2, std::time::Duration::from_secs(15)).await;

    let response = ask_for(&app, &order, &["wash-fold", "shirt"], "The collar is still stained").await;

    let reclean = reclean_of(&app, &response);
    assert_eq!(counts(&app), (1, 2, 2));
    let (original_id, problem): (String, String) = app.with_db(|c| {
        recleans::table.find(&reclean.id).select((recleans::original_order_id, recleans::problem)).first(c).unwrap()
    });
    assert_eq!((original_id.as_str(), problem.as_str()), (order.key.as_str(), "The collar is still stained"));
    let lines = app.with_db(|c| Order::lines(c, &reclean.id).unwrap());
    assert_eq!(
        summary(&lines),
        [
            (LineKind::Kg, "wash-fold".to_owned(), 3, 450),
            (LineKind::Piece, "shirt".to_owned(), 2, 400),
            (LineKind::Discount, RECLEAN_ITEM.to_owned(), 1, -850)
        ]
    );
    assert_eq!((reclean.total_amount, reclean.payment_method), (0, PaymentMethod::PayDelivery));
    assert_eq!(
        reclean.special_instructions,
        format!("Free re-clean of order {}: The collar is still stained", order.reference)
    );
    let pickup = app.with_db(|c| Stop::of_order(c, &reclean.id, StopKind::Pickup).unwrap().unwrap());
    assert_eq!(pickup.slot().value(), window());
    let texted = format!(
        "free re-clean of order {} booked, order {}. Pickup {}. Track: ",
        order.reference,
        reclean.reference,
        pickup.slot().label()
    );
    mock.wait_for(3, std::time::Duration::from_secs(15)).await;
    assert!(mock.texts_to(PHONE).last().unwrap().contains(&texted), "{:?}", mock.texts_to(PHONE));

    let page = app.get(response.headers()["location"].to_str().unwrap()).await.text().await.unwrap();
    assert!(page.contains(&format!("Free re-clean of order {}", order.reference)));
    assert!(page.contains("The collar is still stained"));
    assert!(page.contains("Nothing to pay") && page.contains("KSh 0"));
    assert!(!page.contains("Till Number") && !page.contains("You pay the valet"), "never asked to pay");
    assert!(!page.contains("Ask for a free re-clean"), "a re-clean is not re-cleaned again");
    let original = app.get(&format!("/t/{}", order.token)).await.text().await.unwrap();
    assert!(original.contains(&format!("re-cleaned in order {}", reclean.reference)));
}

async fn the_valet_weighing_keeps_a_re_clean_free_and_its_delivered_text_says_nothing_to_pay(backend: Backend) {
    let mock = FakeAt::start().await;
    let app = TestApp::builder().on(backend).env(&sms_env(&mock.url)).retries(quick_retries()).start().await;
    let order = delivered(&app).await;
    let reclean = reclean_of(&app, &ask_for(&app, &order, &["wash-fold"], "Smells of smoke").await);

    let weighing = laundry::domain::Weighing { bags: 2, kg: Some(5), pieces: Vec::new() };
    let weighed = app.with_db(|c| {
        let priced = reclean.price_weighing(c, &weighing).unwrap();
        reclean.record_weighing(c, &priced, "otieno@example.com", app.now()).unwrap()
    });

    assert_eq!(weighed.total_amount, 0);
    let lines = app.with_db(|c| Order::lines(c, &reclean.id).unwrap());
    assert_eq!(
        summary(&lines),
        [(LineKind::Kg, "wash-fold".to_owned(), 5, 750), (LineKind::Discount, RECLEAN_ITEM.to_owned(), 1, -750)]
    );
    let session = app.sign_in(OWNER, OWNER_PASSWORD).await;
    set_status(&app, &session, &reclean.reference, "delivered").await;
    let texted = format!("order {} delivered. Nothing to pay. Thank you! Receipt: ", reclean.reference);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(15);
    while !mock.texts_to(PHONE).iter().any(|text| text.contains(&texted)) {
        assert!(std::time::Instant::now() < deadline, "{:?}", mock.texts_to(PHONE));
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let receipt = app.get(&format!("/t/{}/receipt", reclean.link_token.unwrap())).await.text().await.unwrap();
    assert!(receipt.contains("Nothing to pay") && !receipt.contains("Amount due"));
}

async fn after_one_configured_day_a_re_clean_is_refused_with_the_reason(backend: Backend) {
    let app = TestApp::builder().on(backend).set("LAUNDRY_RECLEAN_DAYS", "1").retries(quick_retries()).start().await;
    let order = delivered(&app).await;
    let page = app.get(&format!("/t/{}", order.token)).await.text().await.unwrap();
    assert!(page.contains("We re-clean it free within 1 day of delivery: until "));
    app.clock.set(app.clock.now() + Duration::days(2));
    let before = counts(&app);

    let response = ask_for(&app, &order, &["shirt"], "Torn sleeve").await;

    let reason = format!("A free re-clean can be asked for within 1 day of delivery, and order {}", order.reference);
    refused(&app, response, &reason, before).await;
}

async fn bad_input_is_answered_next_to_its_field_and_stores_nothing(backend: Backend) {
    let app = TestApp::builder()
        .on(backend)
        .set("LAUNDRY_FIRST_ORDER_DISCOUNT_KES", "200")
        .retries(quick_retries())
        .start()
        .await;
    let order = delivered(&app).await;
    let (shirt, discount) =
        (position(&app, &order, "shirt"), position(&app, &order, laundry::domain::FIRST_ORDER_DISCOUNT_ITEM));
    let before = counts(&app);
    let pickup = window();

    let nothing = ask(&app, &order.token, &[("problem", " "), ("pickup", &pickup)]).await;
    let html = refused(&app, nothing, "Please choose what should be cleaned again.", before).await;
    assert!(html.contains("Please tell us in a few words what is wrong."));
    let not_on_order = ask(&app, &order.token, &[("line", "77"), ("problem", "Torn"), ("pickup", &pickup)]).await;
    refused(&app, not_on_order, "Some items could not be found on this order.", before).await;
    let the_discount = ask(&app, &order.token, &[("line", &discount), ("problem", "Torn"), ("pickup", &pickup)]).await;
    refused(&app, the_discount, "Some items could not be found on this order.", before).await;
    let bad_pickup = ask(&app, &order.token, &[("line", &shirt), ("problem", "Torn sleeve"), ("pickup", "soon")]).await;
    let html = refused(&app, bad_pickup, r#"id="order-pickup-error""#, before).await;
    assert!(html.contains("Torn sleeve"), "what was typed is kept");
    let chosen = html
        .split("<input")
        .find(|tag| tag.contains(r#"name="line" "#) && tag.contains(&format!(r#"value="{shirt}""#)));
    assert!(chosen.unwrap().split('>').next().unwrap().contains("checked"), "the line chosen is kept");
    let past = format!("{}T07:00", nairobi_day(OffsetDateTime::now_utc()) - Duration::days(1));
    let closed = ask(&app, &order.token, &[("line", &shirt), ("problem", "Torn"), ("pickup", &past)]).await;
    refused(&app, closed, r#"id="order-pickup-error""#, before).await;
}

on_each_backend!(
    a_re_clean_within_the_window_is_one_linked_free_order_texted_to_the_customer,
    the_valet_weighing_keeps_a_re_clean_free_and_its_delivered_text_says_nothing_to_pay,
    after_one_configured_day_a_re_clean_is_refused_with_the_reason,
    bad_input_is_answered_next_to_its_field_and_stores_nothing,
);

mod refusals {
    use super::*;

    on_both_backends! {
        async fn the_same_lines_again_are_refused_naming_them_and_another_line_is_accepted(app: TestApp) {
            let order = delivered(&app).await;
            let first = reclean_of(&app, &ask_for(&app, &order, &["wash-fold", "shirt"], "Still stained").await);
            let before = counts(&app);

            let again = ask_for(&app, &order, &["shirt"], "The shirts are still creased").await;
            let reason = format!("Shirt already went for a free re-clean (order {})", first.reference);
            refused(&app, again, &reason, before).await;
            let overlapping = ask_for(&app, &order, &["shirt", "graduation-gown"], "Creased").await;
            refused(&app, overlapping, &reason, before).await;

            let other = reclean_of(&app, &ask_for(&app, &order, &["graduation-gown"], "Creased").await);
            assert_ne!(other.id, first.id);
            assert_eq!(counts(&app), (2, 3, 3));
            let page = app.get(&format!("/t/{}", order.token)).await.text().await.unwrap();
            assert!(page.contains("Every item of this order went for a free re-clean already."));
        }

        async fn the_same_form_sent_twice_is_the_same_re_clean(app: TestApp) {
            let order = delivered(&app).await;

            let first = ask_for(&app, &order, &["shirt"], "Torn").await;
            let second = ask_for(&app, &order, &["shirt"], "Torn").await;

            assert_eq!(first.headers()["location"], second.headers()["location"]);
            assert_eq!(reclean_of(&app, &first).id, reclean_of(&app, &second).id);
            assert_eq!(counts(&app), (1, 1, 2));
        }

        async fn after_the_window_a_re_clean_is_refused_and_the_page_says_until_when(app: TestApp) {
            let order = delivered(&app).await;
            let receipt = app.get(&format!("/t/{}/receipt", order.token)).await.text().await.unwrap();
            assert!(receipt.contains("Not satisfied? Ask for a free re-clean until "));
            app.clock.set(app.clock.now() + Duration::days(8));
            let before = counts(&app);

            let response = ask_for(&app, &order, &["shirt"], "Torn sleeve").await;

            let reason = format!("A free re-clean can be asked for within 7 days of delivery, and order {}", order.reference);
            refused(&app, response, &reason, before).await;
            let page = app.get(&format!("/t/{}", order.token)).await.text().await.unwrap();
            assert!(page.contains("Free re-cleans could be asked for until "));
            assert!(!page.contains("Ask for a free re-clean"));
            let receipt = app.get(&format!("/t/{}/receipt", order.token)).await.text().await.unwrap();
            assert!(!receipt.contains("Not satisfied?"));
        }

        async fn an_undelivered_or_cancelled_order_is_refused_with_the_reason(app: TestApp) {
            let order = place(&app).await;
            let page = app.get(&format!("/t/{}", order.token)).await.text().await.unwrap();
            assert!(!page.contains(r#"id="reclean""#), "no re-clean before delivery");
            let before = counts(&app);

            let undelivered = ask_for(&app, &order, &["shirt"], "Torn").await;
            let reason = format!("Order {} has not been delivered yet", order.reference);
            refused(&app, undelivered, &reason, before).await;
            let (session, _) = owner(&app).await;
            set_status(&app, &session, &order.reference, "cancelled").await;
            let cancelled = ask_for(&app, &order, &["shirt"], "Torn").await;
            refused(&app, cancelled, &format!("Order {} was cancelled", order.reference), before).await;
            assert_eq!(stored(&app, &order.reference).status, OrderStatus::Cancelled);
        }

        async fn another_sites_form_and_an_unknown_token_book_nothing(app: TestApp) {
            let order = delivered(&app).await;
            let (shirt, pickup) = (position(&app, &order, "shirt"), window());
            let fields = [("line", shirt.as_str()), ("problem", "Torn"), ("pickup", pickup.as_str())];

            let cross = ask_from(&app, &order.token, &fields, "cross-site").await;
            let unknown = ask(&app, "zzzzzzzzzzzzzzzz", &fields).await;

            assert_eq!(cross.status(), 403);
            assert_eq!(unknown.status(), 404);
            assert_eq!(counts(&app), (0, 0, 1));
        }
    }
}
