//! Orders in the tests: placed through the API as the order form places them, found again by their
//! order ID, and put in a valet's run.

use super::{SignedIn, TestApp};
use diesel::prelude::*;
use laundry::db::schema::stops;
use laundry::domain::schedule::nairobi_day;
use laundry::domain::{OrderInput, OrderSource};
use laundry::domain::{OrderReference, StopKind};
use laundry::lifecycle::place::PlacingTerms;
use laundry::models::order::Order;
use laundry::models::stop::Stop;
use serde_json::{Value, json};
use time::{Date, PrimitiveDateTime};

/// Places an order with `details` (the form's fields) over [`an_order`], in Kilimani and paid
/// now unless `details` say otherwise; the API's answer.
pub async fn order_with(app: &TestApp, details: Value) -> Value {
    let order = an_order().location("Kilimani").pay_now();
    let order =
        details.as_object().unwrap().iter().fold(order, |order, (field, value)| order.with(field, value.clone()));
    order.place(app).await.answer
}

/// The order ID of a placed order, as the API answered it.
pub fn order_id(placed: &Value) -> &str {
    placed["id"].as_str().unwrap()
}

/// The stored order with this order ID.
pub fn stored(app: &TestApp, order_id: &str) -> Order {
    let reference = OrderReference::parse(order_id).expect("an order ID");
    app.with_db(|c| Order::find_by_reference(c, &reference).unwrap().unwrap())
}

/// Nairobi's date `days` from today.
pub fn day_after(days: i64) -> Date {
    nairobi_day(time::OffsetDateTime::now_utc()) + time::Duration::days(days)
}

/// `2026-11-25T19:00` for `day` at `hour`:00.
pub fn slot_value(day: Date, hour: u16) -> String {
    format!("{day}T{hour:02}:00")
}

/// Places an order for `name` (e-mailed at their first name @example.com) with a pickup at `pickup`
/// (a slot value) and `extra` fields over [`an_order`]; its order ID.
pub async fn place_with_pickup(app: &TestApp, name: &str, phone: &str, pickup: &str, extra: Value) -> String {
    let email = format!("{}@example.com", name.split(' ').next().unwrap().to_lowercase());
    let order = an_order().name(name).phone(phone).email(&email).with("pickup", pickup);
    let order = extra.as_object().unwrap().iter().fold(order, |order, (field, value)| order.with(field, value.clone()));
    order.place(app).await.reference
}

/// The stored order with this order ID, and its pickup.
pub fn stored_with_pickup(app: &TestApp, id: &str) -> (Order, Stop) {
    let reference = OrderReference::parse(id).unwrap();
    app.with_db(|c| {
        let order = Order::find_by_reference(c, &reference).unwrap().unwrap();
        let pickup = Stop::of_order(c, &order.id, StopKind::Pickup).unwrap().unwrap();
        (order, pickup)
    })
}

/// Puts the stop of `kind` of the order with key `order_key` into `valet`'s run today at
/// `position`, in the window it has; the stop's id.
pub fn put_in_run(app: &TestApp, order_key: &str, kind: StopKind, valet: &str, position: i32) -> String {
    in_run(app, order_key, kind, valet, position, None)
}

/// [`put_in_run`], in the hour from `window_start` (minutes after midnight, Nairobi).
pub fn put_in_run_at(
    app: &TestApp,
    order_key: &str,
    kind: StopKind,
    valet: &str,
    position: i32,
    window_start: i32,
) -> String {
    in_run(app, order_key, kind, valet, position, Some(window_start))
}

fn in_run(app: &TestApp, order_key: &str, kind: StopKind, valet: &str, position: i32, start: Option<i32>) -> String {
    let today = app.today();
    app.with_db(|c| {
        let stop = stops::table.filter(stops::order_id.eq(order_key)).filter(stops::kind.eq(kind));
        diesel::update(stop)
            .set((stops::day.eq(today), stops::valet_id.eq(valet), stops::run_position.eq(position)))
            .execute(c)
            .unwrap();
        if let Some(start) = start {
            diesel::update(stop)
                .set((stops::window_start.eq(start), stops::window_end.eq(start + 60)))
                .execute(c)
                .unwrap();
        }
        Stop::of_order(c, order_key, kind).unwrap().unwrap().id
    })
}

/// An order as the order form sends it to `POST /api/orders`: unless told otherwise, 3 kg of wash
/// & fold (KSh 450) for Amina Wanjiru, 0712 345 678, in Kilimani, paid on delivery, no e-mail and
/// no pickup window (the first with room). Start one with [`an_order`].
#[derive(Debug, Clone)]
pub struct OrderBuilder {
    body: Value,
    idempotency_key: Option<String>,
}

/// A new order's builder: `an_order().phone("0712 000 111").pickup(day, 19).pay_now().place(&app)`.
pub fn an_order() -> OrderBuilder {
    OrderBuilder {
        body: json!({
            "customerName": "Amina Wanjiru", "phone": "0712 345 678", "location": "Kilimani, Argwings Kodhek Rd",
            "serviceType": "wash-fold", "quantity": 3, "paymentMethod": "pay-delivery",
        }),
        idempotency_key: None,
    }
}

impl OrderBuilder {
    /// Any field as the form sends it (`landmark`, `specialInstructions`, `piece.shirt`, or a
    /// wrong value to see it refused).
    pub fn with(mut self, field: &str, value: impl Into<Value>) -> Self {
        self.body[field] = value.into();
        self
    }

    /// The customer's name.
    pub fn name(self, name: &str) -> Self {
        self.with("customerName", name)
    }

    /// The phone, as typed (`0712 345 678`, `+254…`).
    pub fn phone(self, phone: &str) -> Self {
        self.with("phone", phone)
    }

    /// The phone of the `n`th of many customers (`0712 000 NNN`, `n` below 1000): orders that must
    /// not share a phone's limits.
    pub fn customer_number(self, n: u32) -> Self {
        assert!(n < 1000, "customer numbers go to 999");
        self.phone(&format!("0712 000 {n:03}"))
    }

    /// The customer's e-mail (the order's e-mails go to it).
    pub fn email(self, email: &str) -> Self {
        self.with("email", email)
    }

    /// Where to pick up.
    pub fn location(self, location: &str) -> Self {
        self.with("location", location)
    }

    /// The service and its kilograms (`dry-cleaning`, 2).
    pub fn service(self, service: &str, kg: i32) -> Self {
        self.with("serviceType", service).with("quantity", kg)
    }

    /// The landmark the valet looks for.
    pub fn landmark(self, landmark: &str) -> Self {
        self.with("landmark", landmark)
    }

    /// The customer's instructions.
    pub fn instructions(self, instructions: &str) -> Self {
        self.with("specialInstructions", instructions)
    }

    /// Pieces by item (`{"shirt": 2}`).
    pub fn pieces(self, pieces: Value) -> Self {
        self.with("pieces", pieces)
    }

    /// The pickup window of `day` at `hour`:00.
    pub fn pickup(self, day: Date, hour: u16) -> Self {
        self.with("pickup", slot_value(day, hour))
    }

    /// Pay now: an M-PESA prompt to the phone (where M-PESA is configured).
    pub fn pay_now(self) -> Self {
        self.with("paymentMethod", "pay-now")
    }

    /// Sent with this `Idempotency-Key` (a fresh one unless given: each order its own).
    pub fn idempotency_key(mut self, key: &str) -> Self {
        self.idempotency_key = Some(key.to_owned());
        self
    }

    /// The JSON, for a test that sends it itself (at once with others, or refused).
    pub fn body(&self) -> Value {
        self.body.clone()
    }

    /// Places it through the lifecycle as if it were `now` (UTC), not through the API: a pickup
    /// whose cut-off has passed by the time the test looks, or orders of a day gone by.
    pub fn place_as_if_at(self, app: &TestApp, now: PrimitiveDateTime) -> Order {
        let order = serde_json::from_value::<OrderInput>(self.body).unwrap().validate().unwrap();
        let (schedule, texts) = (app.state.settings().schedule.clone(), app.state.texts().clone());
        let terms = PlacingTerms::new(None, &schedule, &texts, OrderSource::Web, false);
        app.with_db(|c| laundry::lifecycle::place::place(c, &order, None, &terms, now)).unwrap().order().clone()
    }

    /// How a booking staff take came in (`phone`, `whatsapp`).
    pub fn source(self, source: &str) -> Self {
        self.with("source", source)
    }

    /// Whether the staff member taking the booking confirms its window with the caller.
    pub fn confirm_slot(self, confirmed: bool) -> Self {
        self.with("confirmSlot", confirmed)
    }

    /// Books it as staff (`POST /api/admin/orders`, `session`'s CSRF token, a fresh key),
    /// expecting 201; the answer.
    pub async fn book(self, app: &TestApp, session: &SignedIn) -> Value {
        let key = self.idempotency_key.unwrap_or_else(|| uuid::Uuid::new_v4().to_string());
        let request = app.staff_request(reqwest::Method::POST, "/api/admin/orders", session, true);
        let response = request.header("Idempotency-Key", key).json(&self.body).send().await.unwrap();
        let status = response.status();
        let answer: Value = response.json().await.unwrap();
        assert_eq!(status, 201, "{answer}");
        answer
    }

    /// Places it through the API, expecting 201.
    pub async fn place(self, app: &TestApp) -> Placed {
        let key = self.idempotency_key.unwrap_or_else(|| uuid::Uuid::new_v4().to_string());
        let response = app.post_json("/api/orders", &self.body, &[("Idempotency-Key", &key)]).await;
        let status = response.status();
        let answer: Value = response.json().await.unwrap();
        assert_eq!(status, 201, "{answer}");
        let reference = order_id(&answer).to_owned();
        let order = stored(app, &reference);
        Placed { reference, key: order.id.clone(), token: order.link_token.clone().unwrap(), order, answer }
    }
}

/// The caller's order of the phone-booking tests: 4 kg of wash & fold and two shirts, rush, for
/// Amina Wanjiru in Kilimani (a landmark, instructions, her e-mail), for the window `pickup` (a
/// slot value, `2026-11-25T19:00`).
pub fn a_callers_order(phone: &str, pickup: &str) -> OrderBuilder {
    an_order()
        .phone(phone)
        .email("amina@example.com")
        .landmark("Opposite Yaya Centre")
        .service("wash-fold", 4)
        .pieces(json!({"shirt": 2}))
        .with("rush", true)
        .instructions("Gate code 4411")
        .with("pickup", pickup)
}

/// An order placed through the API.
#[derive(Debug, Clone)]
pub struct Placed {
    /// Its order ID (`K7M2Q9XA`).
    pub reference: String,
    /// Its database key.
    pub key: String,
    /// The token of its own page (`/t/{token}`).
    pub token: String,
    /// The row as stored when it was placed.
    pub order: Order,
    /// What the API answered.
    pub answer: Value,
}
