//! Every garment traced (issue 36), as forms send it: an item taken in (what it is, its colour,
//! brand or note, stains and damage seen), the bags, the rack a ready order hangs on, the valet's
//! count at delivery, a claim of a missing or damaged item, and how staff resolve it. Tags are
//! `AB12CD34-3`: the order ID and the item's number in the order.

use super::reference::OrderReference;
use super::text::{self, FieldErrors};
use super::text_enum::text_enum;
use std::collections::BTreeSet;

/// The longest item name ("Shirt", "Duvet (double)").
pub const MAX_ITEM: usize = 60;
/// The longest colour.
pub const MAX_COLOUR: usize = 30;
/// The longest brand or note ("M&S, missing a button").
pub const MAX_NOTE: usize = 80;
/// The longest note of stains and damage seen at intake.
pub const MAX_DAMAGE: usize = 300;
/// The most items one order may have tags for.
pub const MAX_ITEMS: i32 = 300;
/// The most bags one order may have.
pub const MAX_BAGS: i32 = 30;
/// The longest account of what happened, in a claim or its resolution.
pub const MAX_STORY: usize = 500;
/// The longest rack name.
pub const MAX_RACK: usize = 20;

/// A tag's text: `AB12CD34-3`.
pub fn tag_label(reference: &str, tag: i32) -> String {
    format!("{reference}-{tag}")
}

/// A tag as typed or scanned: `AB12CD34-3`, `#ab12 cd34-3`, a scanned address ending in
/// `?tag=AB12CD34-3`, or the order ID alone (no item number).
pub fn parse_tag(input: &str) -> Option<(OrderReference, Option<i32>)> {
    let text = input.trim();
    let text = text.rsplit_once("tag=").map_or(text, |(_, tag)| tag).split('&').next().unwrap_or_default();
    let text = text.replace("%23", "#").replace("%20", " ");
    let (order, number) = match text.rsplit_once('-') {
        Some((order, number)) if !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()) => {
            (order.to_owned(), Some(number.parse::<i32>().ok().filter(|n| (1..=MAX_ITEMS).contains(n))?))
        }
        _ => (text.clone(), None),
    };
    Some((OrderReference::parse(&order)?, number))
}

/// An item as the intake form sends it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GarmentInput {
    /// What it is.
    pub item: Option<String>,
    /// Its colour.
    pub colour: Option<String>,
    /// Its brand, or a note.
    pub note: Option<String>,
    /// Stains and damage seen.
    pub damage: Option<String>,
}

/// An item that passed the form's rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GarmentFields {
    /// What it is, trimmed.
    pub item: String,
    /// Its colour ("" when not given).
    pub colour: String,
    /// Brand or note ("" when not given).
    pub note: String,
    /// Stains and damage seen ("" when none).
    pub damage: String,
}

impl GarmentInput {
    /// Reads the intake form's text fields.
    pub fn from_fields(fields: &[(String, String)]) -> Self {
        let field = |name: &str| fields.iter().find(|(n, _)| n == name).map(|(_, value)| value.clone());
        GarmentInput { item: field("item"), colour: field("colour"), note: field("note"), damage: field("damage") }
    }

    /// Checks every field, a message per wrong one.
    pub fn validate(&self) -> Result<GarmentFields, FieldErrors> {
        let mut errors = FieldErrors::default();
        let item = errors.check(
            "item",
            text::optional(self.item.as_deref(), "item", MAX_ITEM, false)
                .and_then(|item| item.ok_or_else(|| "Say what the item is (Shirt, Duvet, …).".to_owned())),
        );
        let colour = errors.check("colour", text::optional(self.colour.as_deref(), "colour", MAX_COLOUR, false));
        let note = errors.check("note", text::optional(self.note.as_deref(), "brand or note", MAX_NOTE, false));
        let damage = errors.check("damage", text::optional(self.damage.as_deref(), "note of stains", MAX_DAMAGE, true));
        match (item, colour, note, damage) {
            (Some(item), Some(colour), Some(note), Some(damage)) if errors.is_empty() => Ok(GarmentFields {
                item,
                colour: colour.unwrap_or_default(),
                note: note.unwrap_or_default(),
                damage: damage.unwrap_or_default(),
            }),
            _ => Err(errors),
        }
    }
}

/// A count typed into a form: a whole number from `min` to `max`, or what is wrong.
pub fn parse_count(value: Option<&str>, what: &str, min: i32, max: i32) -> Result<i32, String> {
    let text = value.unwrap_or_default().trim();
    if text.is_empty() {
        return Err(format!("Enter the number of {what}."));
    }
    match text.parse::<i32>() {
        Ok(count) if (min..=max).contains(&count) => Ok(count),
        _ => Err(format!("The number of {what} is a whole number from {min} to {max}.")),
    }
}

/// The racks of `LAUNDRY_RACKS` (`A1,A2,B1`): names of 1 to [`MAX_RACK`] letters, digits, spaces
/// or dashes, each once.
pub fn parse_racks(text: &str) -> Result<Vec<String>, &'static str> {
    let mut racks: Vec<String> = Vec::new();
    for name in text.split(',').map(str::trim).filter(|name| !name.is_empty()) {
        let fine =
            name.chars().count() <= MAX_RACK && name.chars().all(|c| c.is_ascii_alphanumeric() || c == ' ' || c == '-');
        if !fine {
            return Err("rack names are 1 to 20 letters, digits, spaces or dashes, separated by commas");
        }
        if racks.iter().any(|known| known.eq_ignore_ascii_case(name)) {
            return Err("a rack is named twice");
        }
        racks.push(name.to_owned());
    }
    if racks.is_empty() {
        return Err("name at least one rack");
    }
    Ok(racks)
}

/// The racks a shop has unless configured.
pub const DEFAULT_RACKS: &str = "A1,A2,A3,A4,B1,B2,B3,B4";

text_enum! {
    /// What a claim is about.
    pub enum ClaimKind {
        /// An item did not come back.
        Missing = "missing",
        /// An item came back damaged or stained.
        Damaged = "damaged",
    }
}

text_enum! {
    /// How staff resolved a claim.
    pub enum ClaimOutcome {
        /// A note to the customer: found, explained, nothing owed.
        Note = "note",
        /// The item is cleaned again (the customer books its pickup from the order's page).
        Reclean = "reclean",
        /// Money off the order, given back by M-PESA or cash.
        Refund = "refund",
        /// Money off the order, kept as credit for the customer's next order.
        Credit = "credit",
    }
}

/// A claim as the customer's form sends it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClaimInput {
    /// `missing` or `damaged`.
    pub kind: Option<String>,
    /// The tag numbers of the items chosen (`tag`, repeated).
    pub tags: Vec<String>,
    /// What happened.
    pub story: Option<String>,
}

/// A claim that passed the form's rules; whether its tags are the order's is the model's to say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaimRequest {
    /// What it is about.
    pub kind: ClaimKind,
    /// The items' tag numbers (may be empty: "I don't know which").
    pub tags: BTreeSet<i32>,
    /// What happened, trimmed.
    pub story: String,
}

impl ClaimInput {
    /// Reads the claim form's text fields.
    pub fn from_fields(fields: &[(String, String)]) -> Self {
        let mut input = ClaimInput::default();
        for (name, value) in fields {
            match name.as_str() {
                "kind" => input.kind = Some(value.clone()),
                "tag" => input.tags.push(value.clone()),
                "story" => input.story = Some(value.clone()),
                _ => {}
            }
        }
        input
    }

    /// Checks every field, a message per wrong one.
    pub fn validate(&self) -> Result<ClaimRequest, FieldErrors> {
        let mut errors = FieldErrors::default();
        let kind = errors.check(
            "kind",
            self.kind
                .as_deref()
                .and_then(|kind| ClaimKind::parse(kind.trim()))
                .ok_or_else(|| "Say whether an item is missing or damaged.".to_owned()),
        );
        let tags: Option<BTreeSet<i32>> = self
            .tags
            .iter()
            .map(|tag| tag.trim().parse::<i32>().ok().filter(|n| (1..=MAX_ITEMS).contains(n)))
            .collect();
        let tags = errors
            .check("tags", tags.ok_or_else(|| "Some items could not be read. Please choose them again.".to_owned()));
        let story = errors.check(
            "story",
            text::optional(self.story.as_deref(), "account", MAX_STORY, true)
                .and_then(|story| story.ok_or_else(|| "Tell us in a few words what happened.".to_owned())),
        );
        match (kind, tags, story) {
            (Some(kind), Some(tags), Some(story)) if errors.is_empty() => Ok(ClaimRequest { kind, tags, story }),
            _ => Err(errors),
        }
    }
}

/// What a short count at delivery says is missing, in words for the claim: `None` when nothing
/// is short. More than expected is not a claim.
pub fn shortfall(expected: (i32, i32), counted: (i32, i32)) -> Option<String> {
    let (items, bags) = expected;
    let (counted_items, counted_bags) = counted;
    let mut short = Vec::new();
    if counted_items < items {
        short.push(format!("{counted_items} of {items} items"));
    }
    if counted_bags < bags {
        short.push(format!("{counted_bags} of {bags} bags"));
    }
    (!short.is_empty()).then(|| format!("Counted at delivery: {}.", short.join(" and ")))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_tag_is_read_as_typed_or_scanned() {
        let (order, tag) = parse_tag("K7MX2QPD-3").unwrap();
        assert_eq!((order.as_str(), tag), ("K7MX2QPD", Some(3)));
        let (order, tag) = parse_tag(" #k7mx 2qpd-12 ").unwrap();
        assert_eq!((order.as_str(), tag), ("K7MX2QPD", Some(12)));
        let (order, tag) = parse_tag("https://shop.example/admin/scan?tag=K7MX2QPD-2").unwrap();
        assert_eq!((order.as_str(), tag), ("K7MX2QPD", Some(2)));
        assert_eq!(parse_tag("K7MX2QPD").unwrap().1, None);
        assert!(parse_tag("K7MX2QPD-0").is_none());
        assert!(parse_tag("K7MX2QPD-99999").is_none());
        assert!(parse_tag("hello").is_none());
        assert_eq!(tag_label("K7MX2QPD", 3), "K7MX2QPD-3");
    }

    #[test]
    fn an_item_needs_a_name_and_fits_its_fields() {
        let fields =
            |pairs: &[(&str, &str)]| pairs.iter().map(|(n, v)| ((*n).to_owned(), (*v).to_owned())).collect::<Vec<_>>();
        let item = GarmentInput::from_fields(&fields(&[("item", " Shirt "), ("colour", "blue"), ("note", "M&S")]))
            .validate()
            .unwrap();
        assert_eq!(
            (item.item.as_str(), item.colour.as_str(), item.note.as_str(), item.damage.as_str()),
            ("Shirt", "blue", "M&S", "")
        );
        let errors =
            GarmentInput::from_fields(&fields(&[("item", " "), ("colour", &"x".repeat(31))])).validate().unwrap_err();
        assert!(errors.get("item").is_some() && errors.get("colour").is_some());
    }

    #[test]
    fn racks_are_named_once_each() {
        assert_eq!(parse_racks(" A1, A2 ,B 1").unwrap(), ["A1", "A2", "B 1"]);
        assert!(parse_racks("A1,a1").is_err());
        assert!(parse_racks("A1,<script>").is_err());
        assert!(parse_racks(" , ").is_err());
        assert!(parse_racks(DEFAULT_RACKS).is_ok());
    }

    #[test]
    fn a_claim_names_its_kind_and_what_happened() {
        let fields = vec![
            ("kind".to_owned(), "missing".to_owned()),
            ("tag".to_owned(), "2".to_owned()),
            ("tag".to_owned(), "2".to_owned()),
            ("story".to_owned(), "The blue shirt did not come back".to_owned()),
        ];
        let claim = ClaimInput::from_fields(&fields).validate().unwrap();
        assert_eq!((claim.kind, claim.tags.into_iter().collect::<Vec<_>>()), (ClaimKind::Missing, vec![2]));
        let errors = ClaimInput::from_fields(&[("kind".to_owned(), "lost".to_owned())]).validate().unwrap_err();
        assert!(errors.get("kind").is_some() && errors.get("story").is_some());
        let errors = ClaimInput::from_fields(&[("tag".to_owned(), "x".to_owned())]).validate().unwrap_err();
        assert!(errors.get("tags").is_some());
    }

    #[test]
    fn only_a_short_count_is_a_shortfall() {
        assert_eq!(shortfall((3, 1), (3, 1)), None);
        assert_eq!(shortfall((3, 1), (4, 2)), None);
        assert_eq!(shortfall((3, 2), (2, 2)).unwrap(), "Counted at delivery: 2 of 3 items.");
        assert_eq!(shortfall((3, 2), (2, 1)).unwrap(), "Counted at delivery: 2 of 3 items and 1 of 2 bags.");
    }
}
