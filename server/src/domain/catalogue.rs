//! The single catalogue: the services one can order by the kg and the 34-entry price list
//! (spec sections 3 and 9), and the M-PESA till they are paid to. Every page, the header search
//! and order totals read it from here.

use super::text_enum::text_enum;
use serde::Serialize;
use ts_rs::TS;

text_enum! {
    /// How a line is counted.
    pub enum Unit {
        /// Counted in pieces.
        Piece = "piece",
        /// Weighed in whole kilograms.
        Kg = "kg",
    }
}

/// A price for the first kilograms together: General Laundry is KSh 500 for up to 5 kg.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
pub struct Bundle {
    /// The kilograms the bundle covers.
    pub kg: u32,
    /// Whole shillings for up to `kg`.
    pub price: u32,
}

/// A service that is ordered by weight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Service {
    /// The value the order form sends (`wash-fold`, …).
    pub id: &'static str,
    /// The name customers read.
    pub label: &'static str,
    /// Whole shillings per kg (with a bundle: per kg beyond it).
    pub price_per_kg: u32,
    /// The first kilograms' price together, if the service has one.
    #[ts(optional = nullable)]
    pub bundle: Option<Bundle>,
}

impl Service {
    /// What `kg` kilograms cost, in whole shillings.
    pub fn amount(&self, kg: u32) -> u32 {
        match self.bundle {
            Some(bundle) => bundle.price + self.price_per_kg * kg.saturating_sub(bundle.kg),
            None => self.price_per_kg * kg,
        }
    }
}

/// One line of the price list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
pub struct PriceItem {
    /// The value an order sends for it (`shirt`, `graduation-gown`, …).
    pub id: &'static str,
    /// The item's label; the header search matches on it.
    pub item: &'static str,
    /// Whole shillings (per piece, or per kg for a kg item).
    pub price: u32,
    /// Pieces or kilograms.
    pub unit: Unit,
    /// The kg service ordering this entry chooses (General Laundry's two entries); `None`: the
    /// entry is ordered as a line of its own.
    #[ts(optional = nullable)]
    pub service: Option<&'static str>,
}

/// The M-PESA till of spec section 9, where customers pay (Buy Goods).
pub const MPESA_TILL: &str = "3552248";

/// The services ordered by the kg, in the order of the order form: the spec's four, then General
/// Laundry as the price list gives it (KSh 500 for up to 5 kg, KSh 100 for each additional kg).
pub const SERVICES: [Service; 5] = [
    Service { id: "wash-fold", label: "Wash & Fold", price_per_kg: 150, bundle: None },
    Service { id: "ironing", label: "Ironing", price_per_kg: 200, bundle: None },
    Service { id: "dry-cleaning", label: "Dry Cleaning", price_per_kg: 500, bundle: None },
    Service { id: "bedding", label: "Bedding", price_per_kg: 300, bundle: None },
    Service {
        id: "general-laundry",
        label: "General Laundry",
        price_per_kg: 100,
        bundle: Some(Bundle { kg: 5, price: 500 }),
    },
];

/// The price list. General Laundry (1-5kg) is KSh 500, the pricing page's reading (DESIGN.md).
pub const PRICE_LIST: [PriceItem; 34] = [
    PriceItem {
        id: "general-laundry",
        item: "General Laundry (1-5kg)",
        price: 500,
        unit: Unit::Kg,
        service: Some("general-laundry"),
    },
    PriceItem {
        id: "additional-kg",
        item: "Each Additional Kg",
        price: 100,
        unit: Unit::Kg,
        service: Some("general-laundry"),
    },
    PriceItem { id: "shirt", item: "Shirt", price: 200, unit: Unit::Piece, service: None },
    PriceItem { id: "dress", item: "Dress", price: 200, unit: Unit::Piece, service: None },
    PriceItem { id: "trouser", item: "Trouser", price: 200, unit: Unit::Piece, service: None },
    PriceItem { id: "skirt-plain", item: "Skirt (Plain)", price: 200, unit: Unit::Piece, service: None },
    PriceItem { id: "skirt-pleated", item: "Skirt (Pleated)", price: 200, unit: Unit::Piece, service: None },
    PriceItem { id: "baby-jacket", item: "Baby Jacket", price: 150, unit: Unit::Piece, service: None },
    PriceItem { id: "baby-dress", item: "Baby Dress", price: 150, unit: Unit::Piece, service: None },
    PriceItem { id: "jacket", item: "Jacket", price: 300, unit: Unit::Piece, service: None },
    PriceItem { id: "coat", item: "Coat", price: 300, unit: Unit::Piece, service: None },
    PriceItem { id: "white-cream-coat", item: "White/Cream Coat", price: 300, unit: Unit::Piece, service: None },
    PriceItem { id: "sweater", item: "Sweater", price: 200, unit: Unit::Piece, service: None },
    PriceItem { id: "t-shirt", item: "T-shirt", price: 150, unit: Unit::Piece, service: None },
    PriceItem { id: "bedsheet-single", item: "Bedsheet (Single)", price: 150, unit: Unit::Piece, service: None },
    PriceItem { id: "bedsheet-double", item: "Bedsheet (Double)", price: 200, unit: Unit::Piece, service: None },
    PriceItem { id: "bedsheet-5x6", item: "Bedsheet (5x6)", price: 150, unit: Unit::Piece, service: None },
    PriceItem { id: "bed-cover-small", item: "Bed Cover (Small)", price: 350, unit: Unit::Piece, service: None },
    PriceItem { id: "bed-cover-queen", item: "Bed Cover (Queen)", price: 450, unit: Unit::Piece, service: None },
    PriceItem { id: "bed-cover-king", item: "Bed Cover (King)", price: 500, unit: Unit::Piece, service: None },
    PriceItem { id: "pillow", item: "Pillow", price: 400, unit: Unit::Piece, service: None },
    PriceItem { id: "towel", item: "Towel", price: 200, unit: Unit::Piece, service: None },
    PriceItem { id: "hand-towel", item: "Hand Towel", price: 100, unit: Unit::Piece, service: None },
    PriceItem { id: "face-towel", item: "Face Towel", price: 60, unit: Unit::Piece, service: None },
    PriceItem { id: "table-cloth", item: "Table Cloth", price: 200, unit: Unit::Piece, service: None },
    PriceItem { id: "table-napkin", item: "Table Napkin", price: 150, unit: Unit::Piece, service: None },
    PriceItem { id: "curtains-per-kg", item: "Curtains (per kg)", price: 300, unit: Unit::Kg, service: None },
    PriceItem { id: "sheers-per-kg", item: "Sheers (per kg)", price: 300, unit: Unit::Kg, service: None },
    PriceItem { id: "masai-shawl", item: "Masai Shawl", price: 200, unit: Unit::Piece, service: None },
    PriceItem { id: "buibui", item: "Buibui", price: 400, unit: Unit::Piece, service: None },
    PriceItem { id: "graduation-gown", item: "Graduation Gown", price: 700, unit: Unit::Piece, service: None },
    PriceItem { id: "teddy-bear-medium", item: "Teddy Bear (Medium)", price: 300, unit: Unit::Piece, service: None },
    PriceItem { id: "teddy-bear-large", item: "Teddy Bear (Large)", price: 500, unit: Unit::Piece, service: None },
    PriceItem { id: "vest", item: "Vest", price: 100, unit: Unit::Piece, service: None },
];

/// The service with this form value, if there is one.
pub fn service(id: &str) -> Option<&'static Service> {
    SERVICES.iter().find(|service| service.id == id)
}

/// The price-list entry with this id, if there is one.
pub fn price_item(id: &str) -> Option<&'static PriceItem> {
    PRICE_LIST.iter().find(|item| item.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_price_list_has_34_distinct_items_with_distinct_ids() {
        let mut labels: Vec<_> = PRICE_LIST.iter().map(|p| p.item).collect();
        labels.sort_unstable();
        labels.dedup();
        assert_eq!(labels.len(), 34);
        let mut ids: Vec<_> = PRICE_LIST.iter().map(|p| p.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), 34);
    }

    #[test]
    fn general_laundry_is_500_for_up_to_5_kg_then_100_per_kg_as_on_the_pricing_page() {
        assert_eq!((PRICE_LIST[0].item, PRICE_LIST[0].price), ("General Laundry (1-5kg)", 500));
        assert_eq!((PRICE_LIST[1].item, PRICE_LIST[1].price), ("Each Additional Kg", 100));
        let general = service("general-laundry").expect("general laundry is a service");
        assert_eq!([1, 5, 6, 8].map(|kg| general.amount(kg)), [500, 500, 600, 800]);
        assert_eq!(general.price_per_kg, PRICE_LIST[1].price);
        assert_eq!(general.bundle.map(|b| b.price), Some(PRICE_LIST[0].price));
    }

    #[test]
    fn every_entry_that_chooses_a_service_names_one_that_exists() {
        for entry in PRICE_LIST.iter().filter_map(|entry| entry.service) {
            assert!(service(entry).is_some(), "{entry}");
        }
    }

    #[test]
    fn services_and_entries_are_found_by_their_form_value() {
        assert_eq!(service("dry-cleaning").map(|s| s.amount(3)), Some(1500));
        assert_eq!(service("washing"), None);
        assert_eq!(price_item("graduation-gown").map(|p| (p.price, p.unit)), Some((700, Unit::Piece)));
        assert_eq!(price_item("curtains-per-kg").map(|p| p.unit), Some(Unit::Kg));
        assert_eq!(price_item("teddy-bear-large").map(|p| p.price), Some(500));
    }
}
