//! An order as submitted (spec section 3 field names) and as accepted (spec section 5 rules, and
//! more: a Kenyan phone, a catalogue service, bounded lengths and quantity).

use super::payment::PaymentMethod;
use super::phone::PhoneNumber;
use super::text::{self, FieldErrors};
use crate::catalogue::{self, Service};
use serde::Deserialize;
use sha2::{Digest, Sha256};

/// The largest quantity one order may have; the order form holds the same limit.
pub const MAX_QUANTITY_KG: i32 = 500;

/// A number that may arrive as JSON number or as form text.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum Loose {
    /// A JSON integer.
    Integer(i64),
    /// A JSON number with a fraction.
    Float(f64),
    /// Form text.
    Text(String),
}

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
    /// From the catalogue.
    pub service: &'static Service,
    /// 1 to [`MAX_QUANTITY_KG`].
    pub quantity: i32,
    /// How the customer pays.
    pub payment_method: PaymentMethod,
    /// Possibly empty.
    pub special_instructions: String,
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
        let service = errors.check(
            "serviceType",
            match self.service_type.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
                Some(id) => catalogue::service(id).ok_or_else(|| "Please choose one of our services.".to_owned()),
                None => Err("Please select a service.".to_owned()),
            },
        );
        let quantity = errors.check("quantity", parse_quantity(self.quantity.as_ref()));
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

        match (customer_name, phone, email, location, service, quantity, payment_method, special_instructions) {
            (
                Some(customer_name),
                Some(phone),
                Some(email),
                Some(location),
                Some(service),
                Some(quantity),
                Some(payment_method),
                Some(special),
            ) if errors.is_empty() => Ok(ValidOrder {
                customer_name,
                phone,
                email,
                location,
                service,
                quantity,
                payment_method,
                special_instructions: special.unwrap_or_default(),
            }),
            _ => Err(errors),
        }
    }
}

fn parse_quantity(value: Option<&Loose>) -> Result<i32, String> {
    let range = || format!("Please enter a whole number of kilograms from 1 to {MAX_QUANTITY_KG}.");
    let kg = match value {
        None => return Err("Please enter the quantity in kg.".to_owned()),
        Some(Loose::Integer(kg)) => *kg,
        Some(Loose::Float(kg)) if kg.fract() == 0.0 && kg.abs() < 1e9 => *kg as i64,
        Some(Loose::Float(_)) => return Err(range()),
        Some(Loose::Text(text)) if text.trim().is_empty() => return Err("Please enter the quantity in kg.".to_owned()),
        Some(Loose::Text(text)) => text.trim().parse::<i64>().map_err(|_| range())?,
    };
    i32::try_from(kg).ok().filter(|kg| (1..=MAX_QUANTITY_KG).contains(kg)).ok_or_else(range)
}

impl ValidOrder {
    /// The total in shillings: the catalogue price times the quantity, never the client's figure.
    pub fn total_amount(&self) -> i32 {
        self.service.price_per_kg as i32 * self.quantity
    }

    /// A digest of the accepted values: the same key sent again with a different order is refused.
    pub fn fingerprint(&self) -> String {
        let canonical = serde_json::json!([
            self.customer_name,
            self.phone.as_str(),
            self.email,
            self.location,
            self.service.id,
            self.quantity,
            self.payment_method.as_str(),
            self.special_instructions,
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
        }
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
