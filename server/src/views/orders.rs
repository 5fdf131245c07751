//! Orders and messages as the API answers them.

use super::payments::PromptView;
use super::time;
use crate::domain::catalogue::Unit;
use crate::domain::{
    Balance, LineKind, MessageStatus, OrderSource, OrderStatus, PaymentMethod, Settlement, StopKind, StopState,
};
use crate::models::contact_message::ContactMessage;
use crate::models::order::{Order, OrderLine};
use crate::models::order_list::{ListedOrder, MoneyFacts};
use crate::models::stop::Stop;
use serde::Serialize;
use ts_rs::TS;

/// The order as the API returns it: spec section 3's fields, plus its lines. Times are RFC 3339,
/// UTC.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "Order")]
pub struct OrderView {
    /// The order ID: the 8 characters the confirmation, tracking, the e-mails and staff (after '#',
    /// spec: the last 8 characters of the id) all show.
    pub id: String,
    /// Full name.
    pub customer_name: String,
    /// `+2547XXXXXXXX`.
    pub phone: String,
    /// If given.
    pub email: Option<String>,
    /// Pickup location.
    pub location: String,
    /// The main (kg) line's catalogue id.
    pub service_type: String,
    /// The main line's label at the time of the order.
    pub service_label: String,
    /// The main line's whole kg.
    pub quantity: i32,
    /// How the customer pays.
    pub payment_method: PaymentMethod,
    /// Possibly empty.
    pub special_instructions: String,
    /// The main line's KSh per kg.
    pub price_per_kg: i32,
    /// KSh: the sum of the lines.
    pub total_amount: i32,
    /// Every line, the main (kg) line first.
    pub lines: Vec<OrderLineView>,
    /// Where the order is.
    pub status: OrderStatus,
    /// When it was placed.
    pub created_at: String,
    /// When it last changed.
    pub updated_at: String,
}

impl OrderView {
    /// The view of `order` with its `lines`.
    pub fn new(order: &Order, lines: &[OrderLine]) -> Self {
        OrderView {
            id: order.reference.clone(),
            customer_name: order.customer_name.clone(),
            phone: order.phone.clone(),
            email: order.email.clone(),
            location: order.location.clone(),
            service_type: order.service_type.clone(),
            service_label: order.service_label.clone(),
            quantity: order.quantity,
            payment_method: order.payment_method,
            special_instructions: order.special_instructions.clone(),
            price_per_kg: order.price_per_kg,
            total_amount: order.total_amount,
            lines: lines.iter().map(OrderLineView::from).collect(),
            status: order.status,
            created_at: time(order.created_at),
            updated_at: time(order.updated_at),
        }
    }
}

/// One line of an order.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "OrderLine")]
pub struct OrderLineView {
    /// Kg, piece or discount.
    pub kind: LineKind,
    /// The catalogue id (`wash-fold`, `shirt`, `first-order-discount`).
    pub item: String,
    /// What customers read.
    pub label: String,
    /// Kilograms or pieces.
    pub quantity: i32,
    /// Which of the two.
    pub unit: Unit,
    /// KSh per unit (with a bundle, per kg beyond it).
    pub unit_price: i32,
    /// KSh; negative for a discount.
    pub amount: i32,
}

impl From<&OrderLine> for OrderLineView {
    fn from(line: &OrderLine) -> Self {
        OrderLineView {
            kind: line.kind,
            item: line.item.clone(),
            label: line.label.clone(),
            quantity: line.quantity,
            unit: line.unit,
            unit_price: line.unit_price,
            amount: line.amount,
        }
    }
}

/// An order as staff see it: the API's order plus its payment.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AdminOrder {
    /// The order.
    #[serde(flatten)]
    pub order: OrderView,
    /// Its ledger's sums (what it costs, what was paid, what was given back).
    pub balance: Balance,
    /// Where its money stands, from the ledger: unpaid, part-paid, paid, in credit, or nothing
    /// to pay.
    pub settlement: Settlement,
    /// What is still to pay, KSh (0 when nothing).
    #[ts(type = "number")]
    pub to_pay: i64,
    /// What is owed back to the customer, KSh (0 when nothing).
    #[ts(type = "number")]
    pub owed_back: i64,
    /// What staff read: "Paid KSh 1,200 · KSh 300 to pay".
    pub money_words: String,
    /// The newest M-PESA prompt sent to the customer's phone.
    pub prompt: Option<PromptView>,
    /// M-PESA payments matched to the order but flagged (not an M-PESA code, or entered on another
    /// order), not yet checked by staff.
    pub payments_to_check: i64,
    /// How it came in: online, by text, or taken by staff on the phone or WhatsApp.
    pub source: OrderSource,
    /// For a free re-clean: the order ID of the order it cleans again.
    pub reclean_of: Option<String>,
    /// What helps the valet find the place ("Opposite Yaya Centre, blue gate"); empty when none.
    pub landmark: String,
    /// Next-day rush: delivered the day after pickup.
    pub rush: bool,
    /// When the valet collects it.
    pub pickup: Option<StopWhen>,
    /// When the valet brings it back.
    pub delivery: Option<StopWhen>,
}

/// An order's pickup or delivery as staff read it in the list and the order's detail.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct StopWhen {
    /// The day and window, Nairobi time: `Thu 26 Nov, 19:00-20:00`.
    pub window: String,
    /// How far it has got.
    pub state: StopState,
    /// A pickup whose slot staff confirmed with the customer (a delivery: false).
    pub confirmed: bool,
}

impl StopWhen {
    /// The stop of `kind` among `stops`, if the order has one.
    fn of(stops: &[Stop], kind: StopKind) -> Option<Self> {
        let stop = stops.iter().find(|stop| stop.kind == kind)?;
        Some(StopWhen { window: stop.slot().label(), state: stop.state, confirmed: stop.confirmed_at.is_some() })
    }
}

impl AdminOrder {
    /// The staff's view of `order` with its `lines`, its `stops` and its M-PESA `facts` (none: no
    /// prompt, nothing to check).
    pub fn new(order: &Order, lines: &[OrderLine], stops: &[Stop], facts: Option<&MoneyFacts>) -> Self {
        let balance = facts.map(|facts| facts.balance).unwrap_or_default();
        AdminOrder {
            order: OrderView::new(order, lines),
            balance,
            settlement: balance.settlement(),
            to_pay: balance.to_pay(),
            owed_back: balance.owed_back(),
            money_words: balance.staff_words(),
            prompt: facts.and_then(|facts| facts.prompt.as_ref()).map(PromptView::from),
            payments_to_check: facts.map_or(0, |facts| facts.to_check),
            source: order.source,
            reclean_of: None,
            landmark: order.landmark.trim().to_owned(),
            rush: order.rush,
            pickup: StopWhen::of(stops, StopKind::Pickup),
            delivery: StopWhen::of(stops, StopKind::Delivery),
        }
    }

    /// The order of the staff's list.
    pub fn listed(listed: &ListedOrder) -> Self {
        AdminOrder::new(&listed.order, &listed.lines, &listed.stops, Some(&listed.mpesa))
            .with_reclean_of(listed.reclean_of.clone())
    }

    /// The same, as the re-clean of the order with order ID `original` (none: not a re-clean).
    pub fn with_reclean_of(self, original: Option<String>) -> Self {
        AdminOrder { reclean_of: original, ..self }
    }
}

/// A contact message as staff see it.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AdminMessage {
    /// UUID.
    pub id: String,
    /// Full name.
    pub name: String,
    /// E-mail address.
    pub email: String,
    /// If given.
    pub phone: Option<String>,
    /// Subject.
    pub subject: String,
    /// The message.
    pub message: String,
    /// New or handled.
    pub status: MessageStatus,
    /// When it was sent.
    pub created_at: String,
    /// When staff marked it handled.
    pub handled_at: Option<String>,
    /// Who did.
    pub handled_by: Option<String>,
}

impl From<&ContactMessage> for AdminMessage {
    fn from(message: &ContactMessage) -> Self {
        AdminMessage {
            id: message.id.clone(),
            name: message.name.clone(),
            email: message.email.clone(),
            phone: message.phone.clone(),
            subject: message.subject.clone(),
            message: message.message.clone(),
            status: message.status,
            created_at: time(message.created_at),
            handled_at: message.handled_at.map(time),
            handled_by: message.handled_by.clone(),
        }
    }
}

/// The answer to a stored contact message (`POST /api/contacts`).
#[derive(Debug, Clone, Serialize, TS)]
pub struct ContactCreated {
    /// UUID.
    pub id: String,
    /// 'new'.
    pub status: MessageStatus,
    /// Spec section 8: the success text.
    pub message: String,
}
