//! A stop's forms, read: the weighing and pieces of a pickup, the payment of a delivery, the reason
//! of a missed stop, and the words of a refused prompt.

use crate::domain::{Collected, FieldErrors, Weighing};
use crate::lifecycle::valet::MAX_MISSED_REASON;
use crate::models::mpesa::AskRefusal;

/// A stop's form, read.
pub(super) enum StopForm {
    OnMyWay,
    PickedUp(Weighing, Option<i32>),
    Delivered(Collected, Option<(i32, i32)>),
    Prompt,
    NotHome(String),
}

/// The pickup form: the weighing, and the items counted at the door (`doorItems`, optional: a
/// quick count the shop's intake checks its tags against).
pub(super) fn picked_up_form(fields: &[(String, String)]) -> Result<StopForm, FieldErrors> {
    use crate::domain::garment::{MAX_ITEMS, parse_count};
    let value = fields.iter().find(|(name, _)| name == "doorItems").map(|(_, value)| value.as_str());
    let counted =
        value.filter(|value| !value.trim().is_empty()).map(|value| parse_count(Some(value), "items", 1, MAX_ITEMS));
    match (Weighing::from_form(fields), counted) {
        (Ok(weighing), None) => Ok(StopForm::PickedUp(weighing, None)),
        (Ok(weighing), Some(Ok(items))) => Ok(StopForm::PickedUp(weighing, Some(items))),
        (weighed, counted) => {
            let mut errors = weighed.err().unwrap_or_default();
            if let Some(Err(message)) = counted {
                errors.add("doorItems", message);
            }
            Err(errors)
        }
    }
}

/// The delivery form: how the customer paid, and the count handed over (`countItems` and
/// `countBags`, asked when the order's items were taken in with tags).
pub(super) fn delivered_form(fields: &[(String, String)]) -> Result<StopForm, FieldErrors> {
    use crate::domain::garment::{MAX_BAGS, MAX_ITEMS, parse_count};
    let field = |name: &str| fields.iter().find(|(field, _)| field == name).map(|(_, value)| value.as_str());
    let given = |name: &str| field(name).is_some_and(|value| !value.trim().is_empty());
    let mut errors = FieldErrors::default();
    let collected = Collected::from_form(fields).map_err(|sent| {
        for name in sent.names() {
            errors.add(name.to_owned(), sent.get(name).unwrap_or_default().to_owned());
        }
    });
    let count = if given("countItems") || given("countBags") {
        let items = errors.check("countItems", parse_count(field("countItems"), "items", 0, MAX_ITEMS));
        let bags = errors.check("countBags", parse_count(field("countBags"), "bags", 0, MAX_BAGS));
        items.zip(bags)
    } else {
        None
    };
    match collected {
        Ok(collected) if errors.is_empty() => Ok(StopForm::Delivered(collected, count)),
        _ => Err(errors),
    }
}

/// The reason of a "Not home / not ready" form: one line, at most [`MAX_MISSED_REASON`] characters.
pub(super) fn missed_reason(value: Option<&str>) -> Result<String, FieldErrors> {
    let mut errors = FieldErrors::default();
    match crate::domain::optional_text(value, "reason", MAX_MISSED_REASON, false) {
        Ok(Some(reason)) => return Ok(reason),
        Ok(None) => errors.add("reason", "Say why: not home, not ready, or what happened.".to_owned()),
        Err(message) => errors.add("reason", message),
    }
    Err(errors)
}

/// What a valet reads when the prompt is refused.
pub(super) fn prompt_refusal(refusal: &AskRefusal) -> &'static str {
    match refusal {
        AskRefusal::TooSoon => "A prompt went to the customer's phone less than a minute ago: ask them to check it.",
        AskRefusal::TooMany => {
            "Five prompts went to this order in the last hour: take cash, or ask the customer to pay to the till."
        }
        other => other.message(),
    }
}
