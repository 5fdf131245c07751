//! An order's lines, priced from the catalogue: the main line by the kg (a service), a line per
//! price-list item by the piece (or by the kg for curtains and sheers), and a first-order
//! discount. The order's total is the sum of its lines; a client's figures are never read.

use super::catalogue::{PriceItem, Service, Unit};
use super::text_enum::text_enum;

/// The most pieces of one item an order may hold; the order form holds the same limit.
pub const MAX_PIECES: i32 = 50;

text_enum! {
    /// What a line is.
    pub enum LineKind {
        /// A service by the kg: the order's main line, first.
        Kg = "kg",
        /// A price-list item, by the piece or (curtains, sheers) by the kg.
        Piece = "piece",
        /// Money off the order (a negative amount).
        Discount = "discount",
        /// Money added for a service option: next-day rush.
        Surcharge = "surcharge",
    }
}

/// What the discount line is called, in the catalogue's terms.
pub const FIRST_ORDER_DISCOUNT_ITEM: &str = "first-order-discount";

/// What the line that makes a re-clean free is called (the satisfaction guarantee).
pub const RECLEAN_ITEM: &str = "free-re-clean";

/// What the rush surcharge line is called.
pub const RUSH_ITEM: &str = "next-day-rush";

/// One priced line, as it is stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// Kg, piece or discount.
    pub kind: LineKind,
    /// The catalogue id (`wash-fold`, `shirt`, [`FIRST_ORDER_DISCOUNT_ITEM`]).
    pub item: &'static str,
    /// The label customers read, as the catalogue gives it.
    pub label: &'static str,
    /// Kilograms or pieces.
    pub quantity: i32,
    /// Which of the two.
    pub unit: Unit,
    /// Whole shillings per unit (with a bundle: per kg beyond it).
    pub unit_price: i32,
    /// Whole shillings for the line; negative for a discount.
    pub amount: i32,
}

impl Line {
    /// `kg` kilograms of `service`.
    pub fn by_the_kg(service: &'static Service, kg: i32) -> Line {
        Line {
            kind: LineKind::Kg,
            item: service.id,
            label: service.label,
            quantity: kg,
            unit: Unit::Kg,
            unit_price: service.price_per_kg as i32,
            amount: service.amount(kg.max(0) as u32) as i32,
        }
    }

    /// `quantity` of a price-list entry (pieces, or kg for a kg entry).
    pub fn of_item(item: &'static PriceItem, quantity: i32) -> Line {
        Line {
            kind: LineKind::Piece,
            item: item.id,
            label: item.item,
            quantity,
            unit: item.unit,
            unit_price: item.price as i32,
            amount: item.price as i32 * quantity,
        }
    }

    /// `shillings` off a phone number's first order, never more than `subtotal`.
    pub fn first_order_discount(shillings: u32, subtotal: i32) -> Line {
        let amount = (shillings as i32).min(subtotal.max(0));
        Line {
            kind: LineKind::Discount,
            item: FIRST_ORDER_DISCOUNT_ITEM,
            label: "First-order discount",
            quantity: 1,
            unit: Unit::Piece,
            unit_price: -amount,
            amount: -amount,
        }
    }
}

impl Line {
    /// Next-day delivery for `shillings`.
    pub fn rush(shillings: u32) -> Line {
        let amount = shillings as i32;
        Line {
            kind: LineKind::Surcharge,
            item: RUSH_ITEM,
            label: "Next-day rush",
            quantity: 1,
            unit: Unit::Piece,
            unit_price: amount,
            amount,
        }
    }
}

impl Line {
    /// A re-clean under the satisfaction guarantee: the whole of `subtotal` off, so that the order
    /// costs nothing however much the valet weighs.
    pub fn free_reclean(subtotal: i32) -> Line {
        let amount = subtotal.max(0);
        Line {
            kind: LineKind::Discount,
            item: RECLEAN_ITEM,
            label: "Free re-clean (our guarantee)",
            quantity: 1,
            unit: Unit::Piece,
            unit_price: -amount,
            amount: -amount,
        }
    }
}

/// The sum of the lines' amounts.
pub fn total(lines: &[Line]) -> i32 {
    lines.iter().map(|line| line.amount).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::catalogue::{price_item, service};

    #[test]
    fn a_kg_line_a_piece_and_a_discount_add_up() {
        let wash = service("wash-fold").unwrap();
        let gown = price_item("graduation-gown").unwrap();
        let mut lines = vec![Line::by_the_kg(wash, 3), Line::of_item(gown, 2)];
        assert_eq!(total(&lines), 450 + 1400);
        lines.push(Line::first_order_discount(200, total(&lines)));
        assert_eq!(total(&lines), 1650);
    }

    #[test]
    fn general_laundry_costs_its_bundle_then_each_additional_kg() {
        let general = service("general-laundry").unwrap();
        assert_eq!(Line::by_the_kg(general, 3).amount, 500);
        assert_eq!(Line::by_the_kg(general, 7).amount, 700);
        assert_eq!(Line::by_the_kg(general, 7).unit_price, 100);
    }

    #[test]
    fn a_free_reclean_takes_the_whole_subtotal_off() {
        let wash = service("wash-fold").unwrap();
        let mut lines = vec![Line::by_the_kg(wash, 3)];
        lines.push(Line::free_reclean(total(&lines)));
        assert_eq!(total(&lines), 0);
        assert_eq!(lines[1].amount, -450);
    }

    #[test]
    fn a_discount_never_makes_a_total_negative() {
        assert_eq!(Line::first_order_discount(5000, 450).amount, -450);
    }
}
