//! The demo's shop: an owner, a staff member and a valet, and a week of orders made through the
//! lifecycle functions the pages call, at the moments they would have happened, so that every row
//! is one the product itself writes: orders in every state, payments in cash, at the till and in
//! part, a cancellation, a missed pickup, a re-clean, today's deliveries on the valet's run.
//!
//! The texts and e-mails of past days are marked sent when they were written (they went out on
//! their day, before this server started). Today's orders are placed as the server starts, so their
//! texts go through the outbox to the stand-ins (`/dev/texts`) and a Pay Now order's prompt waits
//! on `/dev/mpesa`.

use crate::db::DbConnection;
use crate::db::schema::outbox;
use crate::domain::catalogue::price_item;
use crate::domain::schedule::Schedule;
use crate::domain::{
    Collected, MpesaCode, OrderInput, OrderReference, OrderSource, OrderStatus, OutboxStatus, RecleanRequest, StopKind,
    Weighing,
};
use crate::lifecycle::place::{PlacingTerms, StaffBooking};
use crate::lifecycle::slots::SlotAction;
use crate::lifecycle::valet::Actor;
use crate::lifecycle::{Context, payment::StaffPayment};
use crate::models::day_board::{RunAssignment, save_run};
use crate::models::order::Order;
use crate::models::stop::Stop;
use crate::notify::NotifyCustomer;
use crate::notify::texts::Texts;
use anyhow::{Context as _, anyhow};
use diesel::prelude::*;
use serde_json::json;
use time::{Date, Duration, PrimitiveDateTime};

mod accounts;
mod week;

pub use accounts::{Account, accounts};
use accounts::{DESK, VALET};
use week::{CUSTOMERS, Paid, Planned, Story, WEEK, at};

/// What the week is written with.
pub struct Shop<'a> {
    /// The windows and capacities.
    pub schedule: &'a Schedule,
    /// The texts' words.
    pub texts: &'a Texts,
    /// Nairobi's today.
    pub today: Date,
    /// Days after delivery a re-clean may be asked for.
    pub reclean_days: u32,
}

impl Shop<'_> {
    fn context<'c>(&'c self, by: &'c str, notify: &'c NotifyCustomer, now: PrimitiveDateTime) -> Context<'c> {
        Context { by, notify, schedule: self.schedule, now }
    }

    fn place(
        &self,
        connection: &mut DbConnection,
        plan: &Planned,
        pickup: Option<Date>,
        staff: Option<&str>,
        mpesa_prompt: bool,
        now: PrimitiveDateTime,
    ) -> anyhow::Result<Order> {
        let (name, phone, location, landmark) = CUSTOMERS[plan.customer];
        let pieces: serde_json::Map<String, serde_json::Value> =
            plan.pieces.iter().map(|(item, count)| ((*item).to_owned(), json!(count))).collect();
        let input: OrderInput = serde_json::from_value(json!({
            "customerName": name, "phone": phone, "location": location, "landmark": landmark,
            "serviceType": plan.service, "quantity": plan.kg, "pieces": pieces,
            "paymentMethod": if plan.pay_now { "pay-now" } else { "pay-delivery" },
            "pickup": pickup.map(|day| format!("{day}T{:02}:00", plan.window)),
        }))?;
        let order = input.validate().map_err(|errors| anyhow!("a demo order is invalid: {errors:?}"))?;
        let source = if staff.is_some() { OrderSource::Phone } else { OrderSource::Web };
        let mut terms = PlacingTerms::new(None, self.schedule, self.texts, source, mpesa_prompt);
        terms.staff = staff.map(|by| StaffBooking { by, confirm_slot: true });
        let placed = crate::lifecycle::place::place(connection, &order, None, &terms, now)?;
        Ok(placed.order().clone())
    }

    fn stop(connection: &mut DbConnection, order: &Order, kind: StopKind) -> anyhow::Result<Stop> {
        Stop::of_order(connection, &order.id, kind)?
            .with_context(|| format!("{} has no {kind:?} stop", order.reference))
    }

    /// The past week, with nobody's phone prompted and every message marked sent on its day.
    /// The valet's account is `valet_id`. Returns the orders made.
    pub fn past_week(&self, connection: &mut DbConnection, valet_id: &str) -> anyhow::Result<usize> {
        let told = NotifyCustomer::customer(self.texts, true);
        let valet = Actor { email: VALET, only_run_of: None };
        for plan in &WEEK {
            let day = self.today - Duration::days(plan.days_ago);
            let order =
                self.place(connection, plan, Some(day), None, false, at(day, 8 * 60 + 15 * plan.customer as i64))?;
            let reference = OrderReference::parse(&order.reference).context("an order ID")?;
            crate::lifecycle::slots::change_slot(
                connection,
                &reference,
                SlotAction::Confirm,
                self.schedule,
                DESK,
                &told,
                at(day, 10 * 60).assume_utc(),
            )
            .map_err(|error| anyhow!("confirming {}: {error}", order.reference))?;
            let pickup = Self::stop(connection, &order, StopKind::Pickup)?;
            let window = i64::from(plan.window) * 60;
            if plan.story == Story::Cancelled {
                let context = self.context(DESK, &told, at(day, 12 * 60));
                crate::lifecycle::status::set_by_staff(
                    connection,
                    &order.id,
                    OrderStatus::Cancelled,
                    Some("The customer is travelling"),
                    true,
                    &context,
                )?;
                continue;
            }
            assign(connection, day, &pickup.id, valet_id)?;
            crate::lifecycle::valet::set_off(
                connection,
                &pickup.id,
                valet,
                &self.context(VALET, &told, at(day, window)),
            )?;
            let picked_up = at(day, window + 20);
            if plan.story == Story::Missed {
                crate::lifecycle::valet::miss(
                    connection,
                    &pickup.id,
                    valet,
                    "Not home: the gate was locked and the phone off",
                    &self.context(VALET, &told, picked_up),
                )?;
                continue;
            }
            let weighing = Weighing {
                bags: 1 + i32::from(plan.kg > 5),
                kg: Some(plan.kg + i32::from(plan.days_ago % 2 == 0)),
                pieces: plan.pieces.iter().filter_map(|(item, count)| Some((price_item(item)?, *count))).collect(),
            };
            crate::lifecycle::valet::pick_up(
                connection,
                &pickup.id,
                valet,
                (&weighing, None),
                &self.context(VALET, &told, picked_up),
            )?;
            if plan.story == Story::PickedUp {
                continue;
            }
            self.set(connection, &order, OrderStatus::InProgress, &told, at(day + Duration::days(1), 9 * 60))?;
            let items = take_in(connection, &order, at(day + Duration::days(1), 9 * 60 + 10))?;
            if plan.story == Story::InProgress {
                continue;
            }
            let paid = match plan.story {
                Story::Delivered(paid) | Story::Ready(paid) => paid,
                _ => Paid::Unpaid,
            };
            if paid == Paid::Before {
                let code = MpesaCode::parse(&code_of(plan)).map_err(|error| anyhow!("{error}"))?;
                let recorded = crate::lifecycle::payment::record_payment(
                    connection,
                    &order.id,
                    &StaffPayment::Mpesa(code, None),
                    DESK,
                    true,
                    &told,
                    at(day + Duration::days(1), 11 * 60),
                )?;
                recorded.map_err(|refused| anyhow!("paying {}: {refused}", order.reference))?;
            }
            self.set(connection, &order, OrderStatus::Ready, &told, at(day + Duration::days(2), 15 * 60))?;
            let rack = RACKS[usize::from(order.reference.as_bytes().get(1).copied().unwrap_or(0)) % RACKS.len()];
            crate::models::garments::handling::Handling::set_rack(
                connection,
                &order.id,
                rack,
                DESK,
                at(day + Duration::days(2), 15 * 60),
            )?;
            let delivery = Self::stop(connection, &order, StopKind::Delivery)?;
            assign(connection, delivery.day, &delivery.id, valet_id)?;
            if matches!(plan.story, Story::Ready(_)) {
                continue;
            }
            let delivered_at = at(delivery.day, i64::from(delivery.window_start) + 25);
            let context = self.context(VALET, &told, delivered_at - Duration::minutes(25));
            crate::lifecycle::valet::set_off(connection, &delivery.id, valet, &context)?;
            let bill = Order::find(connection, &order.id)?.map_or(0, |order| order.total_amount);
            let collected = match paid {
                Paid::Cash => Collected::Cash(bill),
                Paid::Part => Collected::Cash(300.min(bill)),
                Paid::CodeAtDoor => {
                    Collected::Mpesa(MpesaCode::parse(&code_of(plan)).map_err(|error| anyhow!("{error}"))?)
                }
                Paid::Before => Collected::AlreadyPaid,
                Paid::Unpaid => Collected::NothingToPay,
            };
            crate::lifecycle::valet::deliver(
                connection,
                &delivery.id,
                valet,
                (&collected, Some((items, weighing.bags))),
                &self.context(VALET, &told, delivered_at),
            )?;
        }
        // Those texts and e-mails went out on their day.
        diesel::update(outbox::table.filter(outbox::status.eq(OutboxStatus::Pending)))
            .set((
                outbox::status.eq(OutboxStatus::Sent),
                outbox::attempts.eq(1),
                outbox::sent_at.eq(outbox::created_at.nullable()),
                outbox::last_attempt_at.eq(outbox::created_at.nullable()),
            ))
            .execute(connection)?;
        Ok(WEEK.len())
    }

    fn set(
        &self,
        connection: &mut DbConnection,
        order: &Order,
        to: OrderStatus,
        notify: &NotifyCustomer,
        now: PrimitiveDateTime,
    ) -> anyhow::Result<()> {
        crate::lifecycle::status::set_by_staff(
            connection,
            &order.id,
            to,
            None,
            true,
            &self.context(DESK, notify, now),
        )?;
        Ok(())
    }

    /// Today, as the server starts: two customers order on the site (one pays now: a prompt goes
    /// to "the phone" of `/dev/mpesa`), one books by phone with staff, and a customer asks for a
    /// re-clean of last week's shirts. Their texts go out through the outbox. `notify` is the
    /// server's own (prompts on).
    pub fn today(
        &self,
        connection: &mut DbConnection,
        notify: &NotifyCustomer,
        valet_id: &str,
        now: PrimitiveDateTime,
    ) -> anyhow::Result<()> {
        let orders = [
            Planned {
                days_ago: 0,
                customer: 2,
                service: "wash-fold",
                kg: 4,
                pieces: &[],
                pay_now: false,
                window: 0,
                story: Story::PickedUp,
            },
            Planned {
                days_ago: 0,
                customer: 4,
                service: "wash-fold",
                kg: 3,
                pieces: &[("sweater", 2)],
                pay_now: true,
                window: 0,
                story: Story::PickedUp,
            },
        ];
        let by_phone = Planned {
            days_ago: 0,
            customer: 7,
            service: "dry-cleaning",
            kg: 2,
            pieces: &[],
            pay_now: false,
            window: 0,
            story: Story::PickedUp,
        };
        let placed = [
            self.place(connection, &orders[0], None, None, notify.mpesa_prompts, now)?,
            self.place(connection, &orders[1], None, None, notify.mpesa_prompts, now)?,
            self.place(connection, &by_phone, None, Some(DESK), false, now)?,
        ];
        // The one booked by phone was confirmed on the call: on the valet's run already.
        let pickup = Self::stop(connection, &placed[2], StopKind::Pickup)?;
        assign(connection, pickup.day, &pickup.id, valet_id)?;
        // Brian's shirts (line 2 of his order of six days ago) came back with a stain.
        let (_, phone, _, _) = CUSTOMERS[1];
        let original = crate::db::schema::orders::table
            .filter(crate::db::schema::orders::phone.eq(format!("+254{}", &phone[1..])))
            .filter(crate::db::schema::orders::status.eq(OrderStatus::Delivered))
            .select(crate::db::schema::orders::id)
            .first::<String>(connection)?;
        let request = RecleanRequest {
            positions: [1].into_iter().collect(),
            problem: "A tea stain is still on the collar of one shirt.".to_owned(),
            pickup: None,
        };
        let terms = PlacingTerms::new(None, self.schedule, self.texts, OrderSource::Web, false);
        crate::lifecycle::reclean::ask(connection, &original, &request, &terms, self.reclean_days, now, now)
            .map_err(|error| anyhow!("asking for a re-clean: {error}"))?;
        // Another customer reports an item missing from a delivered order: it waits on the shop floor.
        let (_, phone, _, _) = CUSTOMERS[0];
        let delivered = crate::db::schema::orders::table
            .filter(crate::db::schema::orders::phone.eq(format!("+254{}", &phone[1..])))
            .filter(crate::db::schema::orders::status.eq(OrderStatus::Delivered))
            .select(crate::db::schema::orders::id)
            .first::<String>(connection)
            .optional()?;
        if let Some(delivered) = delivered {
            let report = crate::domain::garment::ClaimRequest {
                kind: crate::domain::ClaimKind::Missing,
                tags: [2].into_iter().collect(),
                story: "The navy trousers did not come back with the rest.".to_owned(),
            };
            crate::lifecycle::garments::open_claim(connection, &delivered, &report, None, now)?
                .map_err(|refused| anyhow!("reporting a missing item: {refused}"))?;
        }
        Ok(())
    }
}

/// The stop goes on the valet's run of `day`, which stays in window order: the earliest window
/// first, stops of one window in the order they were put on the run.
fn assign(connection: &mut DbConnection, day: Date, stop_id: &str, valet_id: &str) -> anyhow::Result<()> {
    use crate::db::schema::stops;
    let mut run: Vec<(String, i32, Option<i32>)> = stops::table
        .filter(stops::day.eq(day))
        .filter(stops::valet_id.eq(valet_id))
        .filter(stops::state.ne(crate::domain::StopState::Cancelled))
        .select((stops::id, stops::window_start, stops::run_position))
        .load(connection)?;
    if !run.iter().any(|(id, _, _)| id == stop_id) {
        let window: i32 = stops::table.find(stop_id).select(stops::window_start).first(connection)?;
        run.push((stop_id.to_owned(), window, None));
    }
    run.sort_by_key(|&(_, window, position)| (window, position.unwrap_or(i32::MAX)));
    let items: Vec<RunAssignment> = run
        .into_iter()
        .zip(1..)
        .map(|((stop_id, _, _), position)| RunAssignment {
            stop_id,
            valet_id: Some(valet_id.to_owned()),
            position: Some(position),
        })
        .collect();
    save_run(connection, day, &items).map_err(|error| anyhow!("planning the run of {day}: {error}"))?;
    Ok(())
}

/// The M-PESA code a planned order was paid with: ten capitals and digits, one per order.
/// The racks the demo's ready orders hang on (the default `LAUNDRY_RACKS` has them).
const RACKS: [&str; 2] = ["A1", "B2"];

/// What the shop takes in for a demo order: a few items with tags (the first noted with a stain);
/// how many.
fn take_in(connection: &mut DbConnection, order: &Order, now: PrimitiveDateTime) -> anyhow::Result<i32> {
    const GARMENTS: [(&str, &str); 6] = [
        ("Shirt", "White"),
        ("Trousers", "Navy"),
        ("T-shirt", "Grey"),
        ("Dress", "Red"),
        ("Bedsheet", "Cream"),
        ("Towel", "Blue"),
    ];
    let count = 2 + order.reference.bytes().next().map_or(0, |byte| usize::from(byte % 4));
    for (at, (item, colour)) in GARMENTS.iter().cycle().take(count).enumerate() {
        let fields = crate::domain::garment::GarmentFields {
            item: (*item).to_owned(),
            colour: (*colour).to_owned(),
            note: String::new(),
            damage: if at == 0 { "Small ink mark on the left cuff".to_owned() } else { String::new() },
        };
        crate::lifecycle::garments::record_item(connection, &order.id, &fields, None, DESK, now)?
            .map_err(|refused| anyhow!("taking in {}: {refused}", order.reference))?;
    }
    Ok(i32::try_from(count).unwrap_or(i32::MAX))
}

fn code_of(plan: &Planned) -> String {
    format!("TK{}{}Q7M2X9", plan.days_ago, plan.customer)
}
