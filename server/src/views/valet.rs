//! What the valet page receives: the day's stops of a run with everything needed at the door (how
//! to call, message and find the customer, the ETA, the bill and its forms), and what the last
//! form came to.

use super::orders::OrderLineView;
use super::payments::PromptView;
use crate::clock::nairobi_date_time;
use crate::domain::schedule::eta;
use crate::domain::{FieldErrors, LineKind, OrderStatus, PaymentMethod, Settlement, StopKind, StopState};
use crate::models::mpesa::MpesaPrompt;
use crate::models::valet_run::RunStop;
use serde::Serialize;
use std::collections::BTreeMap;
use ts_rs::TS;

/// The valet page's own props.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ValetProps {
    /// The signed-in account's e-mail.
    pub signed_in: String,
    /// The session's CSRF token, for every form.
    pub csrf: String,
    /// The day shown, `YYYY-MM-DD` (Nairobi).
    pub day: String,
    /// The day as people read it: `Wed 25 Nov`.
    pub day_label: String,
    /// Whether the day shown is today in Nairobi.
    pub today: bool,
    /// For staff and owners: whose run to show. None for a valet, who sees their own.
    pub chooser: Option<RunChooser>,
    /// The stops, in run order (for everyone's: by window, then run).
    pub stops: Vec<ValetStop>,
    /// What the last form did.
    pub notice: Option<String>,
    /// A message for the whole page (a stop that is not yours, a failure).
    pub alert: Option<String>,
    /// The form sent back with its mistakes, shown at its stop.
    pub form_error: Option<StopFormError>,
    /// The HTTP status the page answers with.
    pub status: u16,
}

/// Staff standing in for a valet choose a day and a run.
#[derive(Debug, Clone, Serialize, TS)]
pub struct RunChooser {
    /// The enabled valets.
    pub valets: Vec<ValetChoice>,
    /// The valet whose run is shown; none: everyone's stops of the day.
    pub valet: Option<String>,
    /// Everyone's stops of a day with more than 50 are shown a window at a time, without their
    /// forms (a valet's run has them): the windows with stops (empty otherwise).
    pub windows: Vec<RunWindowChoice>,
    /// The window shown (`HH:MM`, its start), when they are.
    pub window: Option<String>,
    /// A window of more than 50 stops is shown 50 at a time: which part, from 1.
    pub part: u32,
    /// How many parts the window shown has (1 when it is not cut).
    pub parts: u32,
    /// The window's stops shown: from this one (from 1) …
    pub first: u32,
    /// … to this one.
    pub last: u32,
}

/// A window of a busy day, to choose.
#[derive(Debug, Clone, Serialize, TS)]
pub struct RunWindowChoice {
    /// `HH:MM`, its start (`?window=`).
    pub start: String,
    /// `19:00-20:00`.
    pub label: String,
    /// Its stops (everyone's).
    pub stops: usize,
}

/// A valet to choose.
#[derive(Debug, Clone, Serialize, TS)]
pub struct ValetChoice {
    /// The account's id (`?valet=`).
    pub id: String,
    /// The account's e-mail.
    pub email: String,
}

/// The forms of a stop.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "kebab-case")]
pub enum ValetAction {
    /// "On my way".
    OnMyWay,
    /// "Picked up", with the weighing.
    PickedUp,
    /// "Delivered", with the payment.
    Delivered,
    /// "Send M-PESA prompt": the customer's phone asks for the bill (an unpaid delivery, when
    /// prompts are configured).
    Prompt,
    /// "Not home / not ready": the stop is missed, with a reason; the customer chooses a new window.
    NotHome,
}

/// A stop's form sent back: what was entered, a message per wrong field, and one for the form.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct StopFormError {
    /// The stop.
    pub stop_id: String,
    /// Which of its forms.
    pub action: ValetAction,
    /// A message per field.
    pub errors: FieldErrors,
    /// A message for the whole form.
    pub message: Option<String>,
    /// What was entered, by field name.
    pub values: BTreeMap<String, String>,
}

/// One stop as the valet sees it.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ValetStop {
    /// The stop's id, for its forms.
    pub id: String,
    /// Pickup or delivery.
    pub kind: StopKind,
    /// How far it has got.
    pub state: StopState,
    /// `19:00-20:00`.
    pub window: String,
    /// Its place in the run, from 1.
    pub position: Option<i32>,
    /// A cancelled order's laundry going back as it is (a delivery with nothing to collect).
    pub returning: bool,
    /// The 30-minute ETA while it is still to be done and in a run: `19:15-19:45`.
    pub eta: Option<String>,
    /// When it was done, `19:42` (Nairobi).
    pub done_at: Option<String>,
    /// Why it was missed (not home, not ready), when it was.
    pub missed_reason: Option<String>,
    /// Whose run it is in (everyone's stops, for staff); none when in no run or shown to its valet.
    pub valet: Option<String>,
    /// The order ID.
    pub order_id: String,
    /// The customer's full name.
    pub customer_name: String,
    /// `+254712345678`.
    pub phone: String,
    /// `tel:+254712345678`.
    pub call_link: String,
    /// `https://wa.me/254712345678?text=…`: a chat with the customer that starts "Hello, this is
    /// your {shop} valet about order {ID}."
    pub whatsapp_link: String,
    /// Where.
    pub location: String,
    /// A landmark beside it; possibly empty.
    pub landmark: String,
    /// The pin in a map app, or a map search of the location and landmark.
    pub map_link: String,
    /// Whether the map link is the customer's own pin.
    pub pinned: bool,
    /// The customer's special instructions; possibly empty.
    pub instructions: String,
    /// The bill's lines.
    pub lines: Vec<OrderLineView>,
    /// The bill, KSh.
    pub total: i32,
    /// The customer's estimate, KSh (it stays visible when the bill changes).
    pub estimate: i32,
    /// Bags of the newest weighing.
    pub bags: Option<i32>,
    /// Items taken in with a tag: at a delivery, the valet counts them (and the bags) before
    /// handing them over; 0 when none were recorded.
    #[ts(type = "number")]
    pub items: i64,
    /// Bags to hand over: as counted at intake, else as weighed.
    pub hand_over_bags: Option<i32>,
    /// Items counted at the door when picked up (the pickup form shows it again).
    pub door_items: Option<i32>,
    /// Where the order is.
    pub order_status: OrderStatus,
    /// How the customer chose to pay.
    pub payment_method: PaymentMethod,
    /// Where its money stands (from its ledger).
    pub settlement: Settlement,
    /// What is still to collect, KSh (0 when nothing).
    #[ts(type = "number")]
    pub to_collect: i64,
    /// What the valet reads: "Received KSh 1,100 · collect KSh 500".
    pub money_words: String,
    /// The newest M-PESA prompt sent to the customer's phone, and what became of it.
    pub prompt: Option<PromptView>,
    /// The pickup's weighing form (pickups): the order's kg line and items as they stand.
    pub weighing: Option<WeighingForm>,
    /// Which forms the stop has now.
    pub actions: Vec<ValetAction>,
}

/// What the "Picked up" form starts from.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct WeighingForm {
    /// The order's kg service (`Wash & Fold`), if it has one: then kg are required.
    pub kg_label: Option<String>,
    /// Its kg as the order holds them (the estimate, or the last weighing).
    pub kg: Option<i32>,
    /// Whether the order was weighed already (the form corrects it).
    pub weighed: bool,
    /// How a scale's reading is billed: "Billed by the whole kg, rounded up: 4.6 kg is billed as
    /// 5 kg."
    pub kg_rule: String,
    /// The order's items by the piece, with their count.
    pub pieces: Vec<PieceCount>,
    /// How many items the customer added at the door the form takes (`addItem.1` …).
    pub added_rows: u8,
}

/// An item of the order and its count.
#[derive(Debug, Clone, Serialize, TS)]
pub struct PieceCount {
    /// The catalogue id (the field is `piece.<id>`).
    pub id: String,
    /// What customers read.
    pub label: String,
    /// As the order holds it.
    pub count: i32,
}

impl ValetStop {
    /// The view of `run_stop`; `valet` names whose run it is in, where that helps. The ETA comes from
    /// the one ETA function, with `minutes_per_stop`. `prompt` is the order's newest M-PESA prompt;
    /// `prompts_on` whether one can be sent. `shop` is the business's name, for the WhatsApp chat's
    /// first words.
    pub fn new(
        shop: &str,
        run_stop: &RunStop,
        minutes_per_stop: u16,
        valet: Option<String>,
        prompt: Option<&MpesaPrompt>,
        prompts_on: bool,
    ) -> Self {
        let RunStop { stop, order, lines, bags, intake_bags, door_items, items, position, balance } = run_stop;
        let digits = order.phone.trim_start_matches('+');
        let (map_link, pinned) = match order.pin() {
            Some(pin) => (pin.map_link(), true),
            None => (map_search(&order.location, &order.landmark), false),
        };
        let weighed = bags.is_some();
        let weighing = (stop.kind == StopKind::Pickup).then(|| WeighingForm {
            kg_label: lines.iter().find(|line| line.kind == LineKind::Kg).map(|line| line.label.clone()),
            kg: lines.iter().find(|line| line.kind == LineKind::Kg).map(|line| line.quantity),
            weighed,
            kg_rule: crate::domain::KG_RULE.to_owned(),
            added_rows: crate::domain::MAX_ADDED,
            pieces: lines
                .iter()
                .filter(|line| line.kind == LineKind::Piece)
                .map(|line| PieceCount { id: line.item.clone(), label: line.label.clone(), count: line.quantity })
                .collect(),
        });
        let open = stop.state.is_open();
        let correctable = order.status == OrderStatus::PickedUp;
        let actions = [
            (stop.state == StopState::Planned, ValetAction::OnMyWay),
            (stop.kind == StopKind::Pickup && (open || correctable), ValetAction::PickedUp),
            (stop.kind == StopKind::Delivery && open, ValetAction::Delivered),
            (
                prompts_on
                    && stop.kind == StopKind::Delivery
                    && open
                    && balance.to_pay() > 0
                    && order.status != OrderStatus::Cancelled,
                ValetAction::Prompt,
            ),
            (open && (stop.kind == StopKind::Pickup || order.status != OrderStatus::Pending), ValetAction::NotHome),
        ];
        ValetStop {
            id: stop.id.clone(),
            kind: stop.kind,
            state: stop.state,
            window: stop.slot().window.to_string(),
            position: stop.run_position,
            returning: stop.kind == StopKind::Delivery && order.status == OrderStatus::Cancelled,
            eta: position.clone().map(|position| eta(position, minutes_per_stop).to_string()),
            done_at: stop.done_at.map(|at| nairobi_date_time(at).1),
            missed_reason: stop.missed_reason.clone().filter(|_| stop.state == StopState::Missed),
            valet,
            order_id: order.reference.clone(),
            customer_name: order.customer_name.clone(),
            phone: order.phone.clone(),
            call_link: format!("tel:{}", order.phone),
            whatsapp_link: whatsapp_link(
                digits,
                &format!("Hello, this is your {shop} valet about order {}.", order.reference),
            ),
            location: order.location.clone(),
            landmark: order.landmark.clone(),
            map_link,
            pinned,
            instructions: order.special_instructions.clone(),
            lines: lines.iter().map(OrderLineView::from).collect(),
            total: order.total_amount,
            estimate: order.estimate_amount,
            bags: *bags,
            items: *items,
            hand_over_bags: intake_bags.or(*bags),
            door_items: *door_items,
            order_status: order.status,
            payment_method: order.payment_method,
            settlement: balance.settlement(),
            to_collect: balance.to_pay(),
            money_words: balance.valet_words(),
            prompt: prompt.map(PromptView::from),
            weighing,
            actions: actions.into_iter().filter_map(|(shown, action)| shown.then_some(action)).collect(),
        }
    }
}

impl ValetAction {
    /// Every form a stop may have.
    pub const ALL: [ValetAction; 5] = [
        ValetAction::OnMyWay,
        ValetAction::PickedUp,
        ValetAction::Delivered,
        ValetAction::Prompt,
        ValetAction::NotHome,
    ];

    /// The action whose form posts to `/valet/stops/{id}/{segment}`, if any.
    pub fn from_segment(segment: &str) -> Option<ValetAction> {
        ValetAction::ALL.into_iter().find(|action| action.segment() == segment)
    }

    /// The path segment of its form: `/valet/stops/{id}/{segment}`.
    pub fn segment(self) -> &'static str {
        match self {
            ValetAction::OnMyWay => "on-my-way",
            ValetAction::PickedUp => "picked-up",
            ValetAction::Delivered => "delivered",
            ValetAction::Prompt => "prompt",
            ValetAction::NotHome => "not-home",
        }
    }
}

/// The chat with `digits` (international, no '+') that starts with `message`: `wa.me`'s `text`,
/// percent-encoded as JavaScript's `encodeURIComponent` does (a space is `%20`, not `+`).
pub fn whatsapp_link(digits: &str, message: &str) -> String {
    let mut text = String::with_capacity(message.len() * 3);
    for byte in message.bytes() {
        if byte.is_ascii_alphanumeric() || b"-_.!~*'()".contains(&byte) {
            text.push(char::from(byte));
        } else {
            text.push_str(&format!("%{byte:02X}"));
        }
    }
    format!("https://wa.me/{digits}?text={text}")
}

/// A map search for a place without a pin: the location and its landmark, in Nairobi.
fn map_search(location: &str, landmark: &str) -> String {
    let place: Vec<&str> = [location, landmark, "Nairobi"].into_iter().filter(|part| !part.trim().is_empty()).collect();
    let query = place.join(", ");
    let encoded = serde_urlencoded::to_string([("api", "1"), ("query", query.as_str())]).unwrap_or_default();
    format!("https://www.google.com/maps/search/?{encoded}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_place_without_a_pin_is_searched_by_its_location_and_landmark() {
        assert_eq!(
            map_search("Kilimani, Argwings Kodhek Rd", "Opposite Yaya Centre"),
            "https://www.google.com/maps/search/?api=1&query=Kilimani%2C+Argwings+Kodhek+Rd%2C+Opposite+Yaya+Centre%2C+Nairobi"
        );
        assert_eq!(
            map_search("Westlands", " "),
            "https://www.google.com/maps/search/?api=1&query=Westlands%2C+Nairobi"
        );
    }

    #[test]
    fn the_chat_with_the_customer_starts_with_the_valets_words_encoded_as_in_a_browser() {
        assert_eq!(
            whatsapp_link("254712345678", "Hello, this is your Usafi & Co valet about order AB12CD34. #1 ü"),
            "https://wa.me/254712345678?text=Hello%2C%20this%20is%20your%20Usafi%20%26%20Co%20valet%20about%20order%20AB12CD34.%20%231%20%C3%BC"
        );
    }
}
