//! The single catalogue: the services one can order by the kg and the 34-entry price list
//! (spec sections 3 and 9), and the M-PESA till they are paid to. Every page, the header search
//! and order totals read it from here.

use serde::Serialize;
use ts_rs::TS;

/// A service that is ordered by weight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Service {
    /// The value the order form sends (`wash-fold`, …).
    pub id: &'static str,
    /// The name customers read.
    pub label: &'static str,
    /// Whole shillings per kg.
    pub price_per_kg: u32,
}

/// One line of the price list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
pub struct PriceItem {
    /// The item's label; the header search matches on it.
    pub item: &'static str,
    /// Whole shillings.
    pub price: u32,
}

/// The M-PESA till of spec section 9, where customers pay (Buy Goods).
pub const MPESA_TILL: &str = "3552248";

/// The four services, in the order of the order form.
pub const SERVICES: [Service; 4] = [
    Service { id: "wash-fold", label: "Wash & Fold", price_per_kg: 150 },
    Service { id: "ironing", label: "Ironing", price_per_kg: 200 },
    Service { id: "dry-cleaning", label: "Dry Cleaning", price_per_kg: 500 },
    Service { id: "bedding", label: "Bedding", price_per_kg: 300 },
];

/// The price list. General Laundry (1-5kg) is KSh 500, the pricing page's reading (DESIGN.md).
pub const PRICE_LIST: [PriceItem; 34] = [
    PriceItem { item: "General Laundry (1-5kg)", price: 500 },
    PriceItem { item: "Each Additional Kg", price: 100 },
    PriceItem { item: "Shirt", price: 200 },
    PriceItem { item: "Dress", price: 200 },
    PriceItem { item: "Trouser", price: 200 },
    PriceItem { item: "Skirt (Plain)", price: 200 },
    PriceItem { item: "Skirt (Pleated)", price: 200 },
    PriceItem { item: "Baby Jacket", price: 150 },
    PriceItem { item: "Baby Dress", price: 150 },
    PriceItem { item: "Jacket", price: 300 },
    PriceItem { item: "Coat", price: 300 },
    PriceItem { item: "White/Cream Coat", price: 300 },
    PriceItem { item: "Sweater", price: 200 },
    PriceItem { item: "T-shirt", price: 150 },
    PriceItem { item: "Bedsheet (Single)", price: 150 },
    PriceItem { item: "Bedsheet (Double)", price: 200 },
    PriceItem { item: "Bedsheet (5x6)", price: 150 },
    PriceItem { item: "Bed Cover (Small)", price: 350 },
    PriceItem { item: "Bed Cover (Queen)", price: 450 },
    PriceItem { item: "Bed Cover (King)", price: 500 },
    PriceItem { item: "Pillow", price: 400 },
    PriceItem { item: "Towel", price: 200 },
    PriceItem { item: "Hand Towel", price: 100 },
    PriceItem { item: "Face Towel", price: 60 },
    PriceItem { item: "Table Cloth", price: 200 },
    PriceItem { item: "Table Napkin", price: 150 },
    PriceItem { item: "Curtains (per kg)", price: 300 },
    PriceItem { item: "Sheers (per kg)", price: 300 },
    PriceItem { item: "Masai Shawl", price: 200 },
    PriceItem { item: "Buibui", price: 400 },
    PriceItem { item: "Graduation Gown", price: 700 },
    PriceItem { item: "Teddy Bear (Medium)", price: 300 },
    PriceItem { item: "Teddy Bear (Large)", price: 500 },
    PriceItem { item: "Vest", price: 100 },
];

/// The service with this form value, if there is one.
pub fn service(id: &str) -> Option<&'static Service> {
    SERVICES.iter().find(|service| service.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_price_list_has_34_distinct_items() {
        let mut labels: Vec<_> = PRICE_LIST.iter().map(|p| p.item).collect();
        labels.sort_unstable();
        labels.dedup();
        assert_eq!(labels.len(), 34);
    }

    #[test]
    fn general_laundry_is_500_as_on_the_pricing_page() {
        assert_eq!(PRICE_LIST[0], PriceItem { item: "General Laundry (1-5kg)", price: 500 });
    }

    #[test]
    fn services_are_found_by_their_form_value() {
        assert_eq!(service("dry-cleaning").map(|s| s.price_per_kg), Some(500));
        assert_eq!(service("washing"), None);
    }
}
