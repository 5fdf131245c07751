//! Price-list items by the piece on an order: read from the JSON `pieces` object and the form's
//! `piece.<id>` fields, checked against the catalogue (an item at most once, a whole count within its
//! unit's limit), in the price list's order.

use super::catalogue::{self, PRICE_LIST, PriceItem, Unit};
use super::lines::MAX_PIECES;
use super::loose::Loose;
use super::order::{MAX_QUANTITY_KG, OrderInput};
use super::text::FieldErrors;

/// The prefix of the form fields that hold pieces: `piece.shirt=2`.
pub const PIECE_FIELD: &str = "piece.";

impl OrderInput {
    /// The pieces sent, as (field name, quantity): the `pieces` object and the `piece.<id>` fields.
    pub fn piece_fields(&self) -> Vec<(String, Loose)> {
        let object = self.pieces.iter().map(|(id, quantity)| (format!("{PIECE_FIELD}{id}"), quantity.clone()));
        let fields = self
            .other
            .iter()
            .filter(|(name, _)| name.starts_with(PIECE_FIELD))
            .map(|(name, value)| (name.clone(), Loose::from_json(value)));
        object.chain(fields).collect()
    }

    /// The pieces that name a price-list item with a quantity, in the price list's order; a
    /// message per wrong one. A blank or zero quantity is no piece.
    pub(super) fn validate_pieces(&self, errors: &mut FieldErrors) -> Pieces {
        let fields = self.piece_fields();
        if fields.len() > PRICE_LIST.len() {
            errors.add("pieces", "Please send each item of the price list at most once.".to_owned());
            return Pieces { valid: Vec::new(), any_given: true };
        }
        let mut pieces = Vec::new();
        let mut any_given = false;
        for (field, quantity) in &fields {
            let id = &field[PIECE_FIELD.len()..];
            let item = match catalogue::price_item(id) {
                None => {
                    // The name comes back to the client: an unknown one is not echoed at any length.
                    let name = if field.len() <= 60 { field.clone() } else { "pieces".to_owned() };
                    errors.add(name, "This item is not on our price list.");
                    any_given = true;
                    continue;
                }
                Some(item) => item,
            };
            let count = parse_count(quantity, item);
            any_given |= count != Ok(0);
            match count {
                Ok(0) => {}
                Ok(_) if item.service.is_some() => errors.add(
                    field.clone(),
                    format!("{} is ordered by the kg: choose General Laundry as the service type.", item.item),
                ),
                Ok(_) if pieces.iter().any(|(known, _): &(&PriceItem, i32)| known.id == item.id) => {
                    errors.add(field.clone(), format!("{} was sent twice. Please send it once.", item.item))
                }
                Ok(count) => pieces.push((item, count)),
                Err(message) => errors.add(field.clone(), message),
            }
        }
        pieces.sort_by_key(|(item, _)| PRICE_LIST.iter().position(|entry| entry.id == item.id));
        Pieces { valid: pieces, any_given }
    }
}

/// The pieces of an order as checked.
pub(super) struct Pieces {
    /// The right ones, in the price list's order.
    pub(super) valid: Vec<(&'static PriceItem, i32)>,
    /// Whether any piece field held something but blank or 0, right or wrong.
    pub(super) any_given: bool,
}

/// A piece count (or kg for a kg entry): blank and 0 are none, otherwise 1 to the unit's limit.
pub(super) fn parse_count(value: &Loose, item: &PriceItem) -> Result<i32, String> {
    let (limit, unit) = match item.unit {
        Unit::Piece => (MAX_PIECES, "pieces"),
        Unit::Kg => (MAX_QUANTITY_KG, "kilograms"),
    };
    let range = || format!("Please enter a whole number of {unit} of {} from 0 to {limit}.", item.item);
    let count = value.whole_number().map_err(|_| range())?.unwrap_or(0);
    i32::try_from(count).ok().filter(|count| (0..=limit).contains(count)).ok_or_else(range)
}
