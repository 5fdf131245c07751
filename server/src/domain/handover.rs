//! What a valet records at the customer's door, read from the valet page's plain form posts: the
//! weighing at pickup (bags, weighed kg, counted pieces, items the customer added) and the
//! payment at delivery (cash, an M-PESA code, or already paid). The bill itself is priced from the
//! catalogue in `models::order::bill`.

use super::catalogue::{self, PRICE_LIST, PriceItem};
use super::loose::Loose;
use super::order::MAX_QUANTITY_KG;
use super::payment::MpesaCode;
use super::pieces::{PIECE_FIELD, parse_count};
use super::text::FieldErrors;

/// The most bags one pickup may fill.
pub const MAX_BAGS: i32 = 20;

/// The most cash one delivery may record, in KSh: far above any bill, to catch a slip of the thumb.
const MAX_CASH: i64 = 1_000_000;

/// A weighing that passed every rule; whether the order needs its kg is the bill's to say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Weighing {
    /// Bags collected, 1 to [`MAX_BAGS`].
    pub bags: i32,
    /// The weighed kg of the order's kg service, if entered: 1 to [`MAX_QUANTITY_KG`].
    pub kg: Option<i32>,
    /// The price-list items counted (none counted as 0), in the price list's order.
    pub pieces: Vec<(&'static PriceItem, i32)>,
}

impl Weighing {
    /// Reads the pickup form's fields: `bags`, `kg`, a `piece.<id>` per item of the order, and one
    /// item the customer added (`addItem`, `addCount`). Other fields (the CSRF token, where to go
    /// back to) are not looked at. A message per wrong field.
    pub fn from_form(fields: &[(String, String)]) -> Result<Weighing, FieldErrors> {
        let mut errors = FieldErrors::default();
        let bags = errors.check("bags", parse_bags(field(fields, "bags")));
        let kg = errors.check("kg", parse_kg(field(fields, "kg")));
        let mut pieces: Vec<(&'static PriceItem, i32)> = Vec::new();
        for (name, value) in fields.iter().filter(|(name, _)| name.starts_with(PIECE_FIELD)) {
            let shown = if name.len() <= 60 { name.clone() } else { "pieces".to_owned() };
            let Some(item) = catalogue::price_item(&name[PIECE_FIELD.len()..]) else {
                errors.add(shown, "This item is not on our price list.");
                continue;
            };
            match piece_count(value, item) {
                Err(message) => errors.add(shown, message),
                Ok(_) if pieces.iter().any(|(known, _)| known.id == item.id) => {
                    errors.add(shown, format!("{} was sent twice. Please send it once.", item.item))
                }
                Ok(count) => pieces.push((item, count)),
            }
        }
        if let Some(added) = errors.check("addItem", added_item(fields)).flatten() {
            if pieces.iter().any(|(known, _)| known.id == added.0.id) {
                errors.add("addItem", format!("{} is already listed above: change its count there.", added.0.item));
            } else {
                pieces.push(added);
            }
        }
        pieces.retain(|(_, count)| *count > 0);
        pieces.sort_by_key(|(item, _)| PRICE_LIST.iter().position(|entry| entry.id == item.id));
        match (bags, kg) {
            (Some(bags), Some(kg)) if errors.is_empty() => Ok(Weighing { bags, kg, pieces }),
            _ => Err(errors),
        }
    }
}

/// How the customer paid at delivery.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Collected {
    /// Cash handed to the valet, in KSh (it must be the bill).
    Cash(i32),
    /// Paid to the till at the door; the code from the customer's M-PESA message.
    Mpesa(MpesaCode),
    /// Paid before (staff recorded it).
    AlreadyPaid,
    /// A KSh 0 order (a free re-clean): nothing was collected.
    NothingToPay,
}

impl Collected {
    /// Reads the delivery form's fields: `paid` (`cash`, `mpesa` or `already`), with `cash` (KSh)
    /// or `mpesaCode`. A message per wrong field.
    pub fn from_form(fields: &[(String, String)]) -> Result<Collected, FieldErrors> {
        let mut errors = FieldErrors::default();
        let collected = match field(fields, "paid").map(str::trim) {
            Some("cash") => errors.check("cash", parse_cash(field(fields, "cash"))).map(Collected::Cash),
            Some("mpesa") => errors.check(
                "mpesaCode",
                MpesaCode::parse(field(fields, "mpesaCode").unwrap_or_default())
                    .map(Collected::Mpesa)
                    .map_err(str::to_owned),
            ),
            Some("already") => Some(Collected::AlreadyPaid),
            Some("none") => Some(Collected::NothingToPay),
            _ => {
                errors.add("paid", "Choose how the customer paid: cash, M-PESA or already paid.");
                None
            }
        };
        collected.ok_or(errors)
    }
}

/// The first value of field `name`, if the form has it.
fn field<'a>(fields: &'a [(String, String)], name: &str) -> Option<&'a str> {
    fields.iter().find(|(field, _)| field == name).map(|(_, value)| value.as_str())
}

fn whole(value: Option<&str>) -> Result<Option<i64>, ()> {
    Loose::Text(value.unwrap_or_default().to_owned()).whole_number().map_err(|_| ())
}

fn parse_bags(value: Option<&str>) -> Result<i32, String> {
    let message = || format!("Please enter how many bags you collected, from 1 to {MAX_BAGS}.");
    match whole(value) {
        Ok(Some(bags)) if (1..=i64::from(MAX_BAGS)).contains(&bags) => Ok(bags as i32),
        _ => Err(message()),
    }
}

fn parse_kg(value: Option<&str>) -> Result<Option<i32>, String> {
    let message = || format!("Please enter the weighed kg as a whole number from 1 to {MAX_QUANTITY_KG}.");
    match whole(value) {
        Ok(None) => Ok(None),
        Ok(Some(kg)) if (1..=i64::from(MAX_QUANTITY_KG)).contains(&kg) => Ok(Some(kg as i32)),
        _ => Err(message()),
    }
}

fn parse_cash(value: Option<&str>) -> Result<i32, String> {
    let message = || "Enter the cash collected in whole shillings, like 750.".to_owned();
    match whole(value) {
        Ok(Some(cash)) if (0..=MAX_CASH).contains(&cash) => Ok(cash as i32),
        _ => Err(message()),
    }
}

/// A counted item: blank is 0; General Laundry's entries are weighed as the order's kg instead.
fn piece_count(value: &str, item: &'static PriceItem) -> Result<i32, String> {
    if item.service.is_some() {
        return Err(format!("{} is weighed as the order's kg, not counted.", item.item));
    }
    parse_count(&Loose::Text(value.to_owned()), item)
}

/// The item the customer added at the door, if one was chosen.
fn added_item(fields: &[(String, String)]) -> Result<Option<(&'static PriceItem, i32)>, String> {
    let chosen = field(fields, "addItem").map(str::trim).filter(|id| !id.is_empty());
    let count = field(fields, "addCount").map(str::trim).filter(|count| !count.is_empty());
    let Some(id) = chosen else {
        return match count {
            Some(_) => Err("Choose the item the customer added.".to_owned()),
            None => Ok(None),
        };
    };
    let item = catalogue::price_item(id).ok_or_else(|| "This item is not on our price list.".to_owned())?;
    match piece_count(count.unwrap_or_default(), item)? {
        0 => Err(format!("Enter the number of {} the customer added.", item.item)),
        count => Ok(Some((item, count))),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn form(fields: &[(&str, &str)]) -> Vec<(String, String)> {
        fields.iter().map(|(name, value)| ((*name).to_owned(), (*value).to_owned())).collect()
    }

    #[test]
    fn a_weighing_reads_bags_kg_counted_pieces_and_an_added_item() {
        let weighing = Weighing::from_form(&form(&[
            ("csrf", "x"),
            ("bags", "2"),
            ("kg", " 5 "),
            ("piece.graduation-gown", "1"),
            ("piece.shirt", "0"),
            ("addItem", "buibui"),
            ("addCount", "2"),
        ]))
        .unwrap();
        assert_eq!(weighing.bags, 2);
        assert_eq!(weighing.kg, Some(5));
        let pieces: Vec<_> = weighing.pieces.iter().map(|(item, count)| (item.id, *count)).collect();
        assert_eq!(pieces, [("buibui", 2), ("graduation-gown", 1)]);
    }

    #[test]
    fn bags_and_kg_out_of_range_are_refused_with_their_messages() {
        let errors = Weighing::from_form(&form(&[("bags", "0"), ("kg", "2.5")])).unwrap_err();
        assert_eq!(errors.get("bags"), Some("Please enter how many bags you collected, from 1 to 20."));
        assert_eq!(errors.get("kg"), Some("Please enter the weighed kg as a whole number from 1 to 500."));
        let errors = Weighing::from_form(&form(&[("bags", "21"), ("kg", "501")])).unwrap_err();
        assert!(errors.get("bags").is_some() && errors.get("kg").is_some());
        assert!(Weighing::from_form(&form(&[("kg", "3")])).unwrap_err().get("bags").is_some());
    }

    #[test]
    fn unknown_twice_sent_and_weighed_items_are_refused() {
        let errors = Weighing::from_form(&form(&[
            ("bags", "1"),
            ("piece.spaceship", "1"),
            ("piece.shirt", "1"),
            ("addItem", "shirt"),
            ("addCount", "1"),
        ]))
        .unwrap_err();
        assert_eq!(errors.get("piece.spaceship"), Some("This item is not on our price list."));
        assert_eq!(errors.get("addItem"), Some("Shirt is already listed above: change its count there."));
        let added_without_count =
            Weighing::from_form(&form(&[("bags", "1"), ("addItem", "shirt"), ("addCount", "")])).unwrap_err();
        assert_eq!(added_without_count.get("addItem"), Some("Enter the number of Shirt the customer added."));
    }

    #[test]
    fn a_delivery_payment_is_cash_an_mpesa_code_or_already_paid() {
        assert_eq!(Collected::from_form(&form(&[("paid", "cash"), ("cash", "750")])), Ok(Collected::Cash(750)));
        assert_eq!(
            Collected::from_form(&form(&[("paid", "mpesa"), ("mpesaCode", "qjk3l5x9tz")])),
            Ok(Collected::Mpesa(MpesaCode::parse("QJK3L5X9TZ").unwrap()))
        );
        assert_eq!(Collected::from_form(&form(&[("paid", "already")])), Ok(Collected::AlreadyPaid));
        assert_eq!(Collected::from_form(&form(&[("paid", "none")])), Ok(Collected::NothingToPay));
        assert_eq!(
            Collected::from_form(&form(&[("paid", "mpesa"), ("mpesaCode", "123")])).unwrap_err().get("mpesaCode"),
            Some(MpesaCode::EXPECTED)
        );
        assert!(Collected::from_form(&form(&[("paid", "cash"), ("cash", "seven")])).unwrap_err().get("cash").is_some());
        assert!(Collected::from_form(&form(&[])).unwrap_err().get("paid").is_some());
    }
}
