//! An order as submitted (spec section 3 field names) and as accepted (spec section 5 rules, and
//! more: a Kenyan phone, a catalogue service, bounded lengths and quantity, price-list items by the
//! piece).

use super::catalogue::{self, PriceItem, Service};
use super::lines::Line;
use super::loose::Loose;
use super::payment::PaymentMethod;
use super::phone::PhoneNumber;
use super::text::{self, FieldErrors};
use super::visit::{self, Pin};
use serde::Deserialize;
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use time::Date;

/// The largest quantity one order may have; the order form holds the same limit.
pub const MAX_QUANTITY_KG: i32 = 500;

/// What a form or JSON body sent. Everything is optional here; [`OrderInput::validate`] decides.
/// A `totalAmount` or `pricePerKg` sent by the client is not even read: the server computes both.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OrderInput {
    /// Full Name.
    pub customer_name: Option<String>,
    /// Phone Number.
    pub phone: Option<String>,
    /// Email Address (optional).
    pub email: Option<String>,
    /// Location.
    pub location: Option<String>,
    /// One of the catalogue's service ids.
    pub service_type: Option<String>,
    /// Whole kilograms.
    pub quantity: Option<Loose>,
    /// `pay-now` (the default) or `pay-delivery`.
    pub payment_method: Option<String>,
    /// Optional.
    pub special_instructions: Option<String>,
    /// The pickup slot, `2026-11-25T19:00`; none: the next open window.
    pub pickup: Option<String>,
    /// Next-day rush: a JSON boolean or a form's checkbox.
    pub rush: Option<Value>,
    /// A landmark beside the location (optional).
    pub landmark: Option<String>,
    /// The map pin's latitude, degrees (optional, with `pinLng`).
    pub pin_lat: Option<Value>,
    /// The map pin's longitude, degrees.
    pub pin_lng: Option<Value>,
    /// Price-list items by their id, with how many (JSON: `"pieces": {"shirt": 2}`).
    #[serde(default)]
    pub pieces: BTreeMap<String, Loose>,
    /// Every other field: the form's `piece.<id>` fields are read from here; the rest (a client's
    /// `totalAmount`, say) is ignored.
    #[serde(flatten)]
    pub other: BTreeMap<String, Value>,
}

/// An order that passed every rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidOrder {
    /// Trimmed name.
    pub customer_name: String,
    /// Normal form.
    pub phone: PhoneNumber,
    /// Lower-cased domain, if given.
    pub email: Option<String>,
    /// Where to pick up.
    pub location: String,
    /// The main line: a catalogue service and 1 to [`MAX_QUANTITY_KG`] kg. `None` only when the
    /// order is of pieces alone.
    pub by_the_kg: Option<(&'static Service, i32)>,
    /// How the customer pays.
    pub payment_method: PaymentMethod,
    /// Possibly empty.
    pub special_instructions: String,
    /// Price-list items with their quantity, in the price list's order.
    pub pieces: Vec<(&'static PriceItem, i32)>,
    /// The pickup slot asked for (a day and a window start), not yet checked against the
    /// schedule; none: the next open window.
    pub pickup: Option<(Date, u16)>,
    /// Next-day delivery, for the rush surcharge.
    pub rush: bool,
    /// Possibly empty.
    pub landmark: String,
    /// Where the customer's phone said it was, if they shared it.
    pub pin: Option<Pin>,
}

impl OrderInput {
    /// Checks every field, collecting a message per wrong field.
    pub fn validate(&self) -> Result<ValidOrder, FieldErrors> {
        let mut errors = FieldErrors::default();
        let customer_name =
            errors.check("customerName", text::required(self.customer_name.as_deref(), "full name", 100, false));
        let phone = errors.check(
            "phone",
            match self.phone.as_deref().map(str::trim).filter(|p| !p.is_empty()) {
                Some(phone) => PhoneNumber::parse(phone),
                None => Err("Please enter your phone number.".to_owned()),
            },
        );
        let email = errors.check(
            "email",
            text::optional(self.email.as_deref(), "email address", 254, false)
                .and_then(|e| e.map(|e| text::email(&e)).transpose()),
        );
        let location = errors.check("location", text::required(self.location.as_deref(), "location", 200, false));
        let pieces = self.validate_pieces(&mut errors);
        // The spec's Service Type and Quantity are required, unless the order is of pieces alone
        // (both left empty): every price of the price list can be ordered at that price.
        let service_type = self.service_type.as_deref().map(str::trim).filter(|s| !s.is_empty());
        let kg_typed = self.quantity.as_ref().is_some_and(|kg| !kg.is_blank());
        let pieces_alone = service_type.is_none() && !kg_typed && pieces.any_given;
        let by_the_kg = if pieces_alone {
            Some(None)
        } else {
            let service = errors.check(
                "serviceType",
                match service_type {
                    Some(id) => catalogue::service(id).ok_or_else(|| "Please choose one of our services.".to_owned()),
                    None => Err("Please select a service.".to_owned()),
                },
            );
            let quantity = errors.check("quantity", parse_quantity(self.quantity.as_ref()));
            service.zip(quantity).map(Some)
        };
        let payment_method = errors.check(
            "paymentMethod",
            match self.payment_method.as_deref().map(str::trim) {
                None | Some("") | Some("pay-now") => Ok(PaymentMethod::PayNow),
                Some("pay-delivery") => Ok(PaymentMethod::PayDelivery),
                Some(_) => Err("Please choose Pay Now (M-PESA) or Pay on Delivery.".to_owned()),
            },
        );
        let special_instructions = errors.check(
            "specialInstructions",
            text::optional(self.special_instructions.as_deref(), "special instructions", 1000, true),
        );
        let pickup = errors.check("pickup", visit::parse_pickup(self.pickup.as_deref()));
        let rush = errors.check("rush", visit::parse_rush(self.rush.as_ref()));
        let landmark = errors.check("landmark", visit::parse_landmark(self.landmark.as_deref()));
        let pin = errors.check("pin", visit::parse_pin(self.pin_lat.as_ref(), self.pin_lng.as_ref()));
        let (Some(pickup), Some(rush), Some(landmark), Some(pin)) = (pickup, rush, landmark, pin) else {
            return Err(errors);
        };

        match (customer_name, phone, email, location, by_the_kg, payment_method, special_instructions) {
            (
                Some(customer_name),
                Some(phone),
                Some(email),
                Some(location),
                Some(by_the_kg),
                Some(payment_method),
                Some(special),
            ) if errors.is_empty() => Ok(ValidOrder {
                customer_name,
                phone,
                email,
                location,
                by_the_kg,
                payment_method,
                special_instructions: special.unwrap_or_default(),
                pieces: pieces.valid,
                pickup,
                rush,
                landmark,
                pin,
            }),
            _ => Err(errors),
        }
    }
}

fn parse_quantity(value: Option<&Loose>) -> Result<i32, String> {
    let range = || format!("Please enter a whole number of kilograms from 1 to {MAX_QUANTITY_KG}.");
    let kg = value
        .map(Loose::whole_number)
        .transpose()
        .map_err(|_| range())?
        .flatten()
        .ok_or_else(|| "Please enter the quantity in kg.".to_owned())?;
    i32::try_from(kg).ok().filter(|kg| (1..=MAX_QUANTITY_KG).contains(kg)).ok_or_else(range)
}

impl ValidOrder {
    /// The order's lines, priced from the catalogue: the service by the kg first (if any), then
    /// the pieces. Never empty.
    pub fn lines(&self) -> Vec<Line> {
        let main = self.by_the_kg.map(|(service, kg)| Line::by_the_kg(service, kg));
        let pieces = self.pieces.iter().map(|(item, count)| Line::of_item(item, *count));
        main.into_iter().chain(pieces).collect()
    }

    /// The total in shillings of [`Self::lines`], never the client's figure (before any discount).
    pub fn total_amount(&self) -> i32 {
        super::lines::total(&self.lines())
    }

    /// A digest of the accepted values: the same key sent again with a different order is refused.
    pub fn fingerprint(&self) -> String {
        let canonical = serde_json::json!([
            self.customer_name,
            self.phone.as_str(),
            self.email,
            self.location,
            self.by_the_kg.map(|(service, kg)| (service.id, kg)),
            self.payment_method.as_str(),
            self.special_instructions,
            self.pieces.iter().map(|(item, count)| (item.id, count)).collect::<Vec<_>>(),
            self.pickup.map(|(day, start)| (day.to_string(), start)),
            self.rush,
            self.landmark,
            self.pin.map(|pin| (pin.lat_e6, pin.lng_e6)),
        ]);
        let digest = Sha256::digest(canonical.to_string().as_bytes());
        digest.iter().map(|b| format!("{b:02x}")).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input() -> OrderInput {
        OrderInput {
            customer_name: Some("Amina Wanjiru".into()),
            phone: Some("0712 345 678".into()),
            email: Some("".into()),
            location: Some("Kilimani, Argwings Kodhek Rd".into()),
            service_type: Some("dry-cleaning".into()),
            quantity: Some(Loose::Text("3".into())),
            payment_method: None,
            special_instructions: None,
            ..OrderInput::default()
        }
    }

    fn with_fields(fields: &[(&str, &str)]) -> OrderInput {
        let other = fields.iter().map(|(name, value)| (name.to_string(), Value::from(*value))).collect();
        OrderInput { other, ..input() }
    }

    #[test]
    fn pieces_from_the_form_and_from_json_become_lines_after_the_kg_line_in_price_list_order() {
        let mut order = with_fields(&[("piece.graduation-gown", "1"), ("piece.shirt", " 2 "), ("piece.vest", "")]);
        order.pieces.insert("towel".into(), Loose::Integer(3));
        let order = order.validate().unwrap_or_else(|e| panic!("{e:?}"));
        let lines: Vec<_> = order.lines().iter().map(|line| (line.item, line.quantity, line.amount)).collect();
        assert_eq!(
            lines,
            [("dry-cleaning", 3, 1500), ("shirt", 2, 400), ("towel", 3, 600), ("graduation-gown", 1, 700)]
        );
        assert_eq!(order.total_amount(), 3200);
    }

    #[test]
    fn a_wrong_piece_is_refused_by_its_field_name_and_nothing_else_is_read_from_the_client() {
        for (field, value) in [
            ("piece.shirt", "51"),
            ("piece.shirt", "1.5"),
            ("piece.shirt", "-1"),
            ("piece.spaceship", "1"),
            ("piece.general-laundry", "2"),
        ] {
            let errors = with_fields(&[(field, value)]).validate().unwrap_err();
            assert!(errors.get(field).is_some(), "{field}={value}: {errors:?}");
        }
        let priced = with_fields(&[("totalAmount", "1"), ("pricePerKg", "1")]).validate().unwrap();
        assert_eq!(priced.total_amount(), 1500);
    }

    #[test]
    fn curtains_are_counted_in_kg_up_to_the_kg_limit() {
        let order = with_fields(&[("piece.curtains-per-kg", "60")]).validate().unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(order.lines()[1].amount, 18_000);
    }

    #[test]
    fn pieces_alone_need_no_service_but_kg_without_a_service_do() {
        let alone = OrderInput { service_type: Some(" ".into()), quantity: Some(Loose::Text("".into())), ..input() };
        let gown = OrderInput { other: [("piece.graduation-gown".into(), Value::from("1"))].into(), ..alone.clone() };
        let order = gown.validate().unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(order.by_the_kg, None);
        assert_eq!(order.total_amount(), 700);

        let kg_typed = OrderInput { quantity: Some(Loose::Integer(2)), ..gown };
        assert!(kg_typed.validate().unwrap_err().get("serviceType").is_some());
        let nothing = alone.validate().unwrap_err();
        assert!(nothing.get("serviceType").is_some() && nothing.get("quantity").is_some());
    }

    #[test]
    fn an_item_sent_twice_is_refused() {
        let mut order = with_fields(&[("piece.shirt", "1")]);
        order.pieces.insert("shirt".into(), Loose::Integer(2));
        assert!(order.validate().unwrap_err().get("piece.shirt").is_some());
    }

    #[test]
    fn a_complete_order_is_accepted_with_the_server_total() {
        let order = input().validate().unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(order.total_amount(), 1500);
        assert_eq!(order.phone.as_str(), "+254712345678");
        assert_eq!(order.payment_method, PaymentMethod::PayNow);
        assert_eq!(order.email, None);
    }

    #[test]
    fn each_missing_required_field_gets_its_own_message() {
        let errors = OrderInput::default().validate().unwrap_err();
        for field in ["customerName", "phone", "location", "serviceType", "quantity"] {
            assert!(errors.get(field).is_some(), "no message for {field}");
        }
        assert_eq!(errors.get("email"), None);
    }

    #[test]
    fn quantities_must_be_whole_kilograms_in_range() {
        for bad in
            [Loose::Integer(0), Loose::Integer(501), Loose::Float(1.5), Loose::Text("two".into()), Loose::Integer(-3)]
        {
            let errors = OrderInput { quantity: Some(bad.clone()), ..input() }.validate().unwrap_err();
            assert!(errors.get("quantity").is_some(), "{bad:?}");
        }
        assert!(OrderInput { quantity: Some(Loose::Float(4.0)), ..input() }.validate().is_ok());
    }

    #[test]
    fn an_unknown_service_or_payment_method_is_refused() {
        assert!(
            OrderInput { service_type: Some("washing".into()), ..input() }
                .validate()
                .unwrap_err()
                .get("serviceType")
                .is_some()
        );
        assert!(
            OrderInput { payment_method: Some("card".into()), ..input() }
                .validate()
                .unwrap_err()
                .get("paymentMethod")
                .is_some()
        );
    }

    #[test]
    fn the_same_order_has_the_same_fingerprint_and_a_changed_one_does_not() {
        let one = input().validate().unwrap_or_else(|e| panic!("{e:?}"));
        let same = OrderInput { phone: Some("+254712345678".into()), ..input() }
            .validate()
            .unwrap_or_else(|e| panic!("{e:?}"));
        let other =
            OrderInput { quantity: Some(Loose::Integer(4)), ..input() }.validate().unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(one.fingerprint(), same.fingerprint());
        assert_ne!(one.fingerprint(), other.fingerprint());
    }
}
