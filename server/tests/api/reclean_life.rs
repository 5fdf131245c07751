//! A free re-clean after it is booked, on both backends: the valet delivers it with nothing to
//! collect (no KSh 0 payment is recorded), a cancelled re-clean gives its lines back, and two
//! requests at once book one re-clean.

use crate::helpers::orders::put_in_run;
use crate::helpers::recleans::{ask_for, counts, delivered, reclean_of, set_status};
use crate::helpers::staff::valet;
use crate::helpers::{money, payments, valet_post};
use crate::on_both_backends;
use laundry::domain::{OrderStatus, Settlement, StopKind};
use laundry::models::order::Order;

on_both_backends! {
    async fn a_valet_delivers_a_re_clean_with_nothing_to_collect_and_records_no_payment(app: TestApp) {
        let order = delivered(&app).await;
        let reclean = reclean_of(&app, &ask_for(&app, &order, &["shirt"], "Still creased").await);
        let (me, session) = valet(&app, "otieno@example.com").await;
        let pickup = put_in_run(&app, &reclean.id, StopKind::Pickup, &me, 1);
        let delivery = put_in_run(&app, &reclean.id, StopKind::Delivery, &me, 2);
        let picked = valet_post(&app, &session, &format!("/valet/stops/{pickup}/picked-up"), &[("bags", "1"), ("piece.shirt", "2")]).await;
        assert_eq!(picked.status(), 303, "{}", picked.text().await.unwrap());

        let page = app.get_with("/valet", &[("cookie", &session.cookie)]).await.text().await.unwrap();
        assert!(page.contains("Nothing to pay: KSh 0."), "the delivery form asks for no payment");
        let done = valet_post(&app, &session, &format!("/valet/stops/{delivery}/delivered"), &[("paid", "none")]).await;

        assert_eq!(done.status(), 303, "{}", done.text().await.unwrap());
        let after = app.with_db(|c| Order::find(c, &reclean.id).unwrap().unwrap());
        assert_eq!((after.status, after.total_amount), (OrderStatus::Delivered, 0));
        assert_eq!(payments(&app, &reclean.reference), [], "no KSh 0 payment");
        assert_eq!(money(&app, &reclean.reference).0.settlement(), Settlement::NothingToPay);
    }

    async fn a_cash_choice_on_a_free_re_clean_records_nothing_either(app: TestApp) {
        let order = delivered(&app).await;
        let reclean = reclean_of(&app, &ask_for(&app, &order, &["graduation-gown"], "Hem came loose").await);
        let (me, session) = valet(&app, "otieno@example.com").await;
        let pickup = put_in_run(&app, &reclean.id, StopKind::Pickup, &me, 1);
        let delivery = put_in_run(&app, &reclean.id, StopKind::Delivery, &me, 2);
        valet_post(&app, &session, &format!("/valet/stops/{pickup}/picked-up"), &[("bags", "1"), ("piece.graduation-gown", "1")]).await;

        let done = valet_post(&app, &session, &format!("/valet/stops/{delivery}/delivered"), &[("paid", "cash"), ("cash", "0")]).await;

        assert_eq!(done.status(), 303);
        let after = app.with_db(|c| Order::find(c, &reclean.id).unwrap().unwrap());
        assert_eq!(after.status, OrderStatus::Delivered);
        assert_eq!(payments(&app, &reclean.reference), [], "no KSh 0 payment");
        assert_eq!(money(&app, &reclean.reference).0.settlement(), Settlement::NothingToPay);
    }

    async fn a_cancelled_re_clean_gives_its_lines_back(app: TestApp) {
        let order = delivered(&app).await;
        let first = reclean_of(&app, &ask_for(&app, &order, &["shirt"], "Collar stained").await);
        let session = app.sign_in("njeri@example.com", "Kahawa-Chai-Mandazi-22").await;
        set_status(&app, &session, &first.reference, "cancelled").await;

        let page = app.get(&format!("/t/{}", order.token)).await.text().await.unwrap();
        assert!(!page.contains(&format!("re-cleaned in order {}", first.reference)), "the line is free again");
        // The very same request again books a new re-clean, not the cancelled one.
        let again = reclean_of(&app, &ask_for(&app, &order, &["shirt"], "Collar stained").await);

        assert_ne!(again.reference, first.reference);
        assert_eq!(again.status, OrderStatus::Pending);
        let (recleans, lines, _) = counts(&app);
        assert_eq!((recleans, lines), (2, 1), "both links kept, the line held by the new one only");
    }

    async fn two_requests_at_once_book_one_re_clean(app: TestApp) {
        let order = delivered(&app).await;

        let (one, two) = tokio::join!(
            ask_for(&app, &order, &["shirt"], "Collar stained"),
            ask_for(&app, &order, &["shirt"], "Collar stained"),
        );
        assert_eq!(reclean_of(&app, &one).id, reclean_of(&app, &two).id, "the second is the first again");
        let (three, four) = tokio::join!(
            ask_for(&app, &order, &["wash-fold"], "Smells of smoke"),
            ask_for(&app, &order, &["wash-fold", "graduation-gown"], "Smells of smoke"),
        );
        let mut statuses = [three.status().as_u16(), four.status().as_u16()];
        statuses.sort_unstable();
        assert_eq!(statuses, [303, 422], "one books, the other is told the line went already");
        let (recleans, lines, _) = counts(&app);
        assert!((recleans, lines) == (2, 2) || (recleans, lines) == (2, 3), "{recleans} re-cleans, {lines} lines");
    }
}
