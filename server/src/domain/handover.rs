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

/// The most items the customer added at the door one pickup form takes (`addItem.1` … `addItem.3`).
pub const MAX_ADDED: u8 = 3;

/// The most cash one delivery may record, in KSh: far above any bill, to catch a slip of the thumb.
const MAX_CASH: i64 = 1_000_000;

/// A weighing that passed every rule; whether the order needs its kg is the bill's to say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Weighing {
    /// Bags collected, 1 to [`MAX_BAGS`].
    pub bags: i32,
    /// The kg billed for the order's kg service, if weighed: the scale's reading rounded up to the
    /// next whole kg ([`billed_kg`]), 1 to [`MAX_QUANTITY_KG`].
    pub kg: Option<i32>,
    /// The price-list items counted (none counted as 0), in the price list's order.
    pub pieces: Vec<(&'static PriceItem, i32)>,
}

impl Weighing {
    /// Reads the pickup form's fields: `bags`, `kg` (as the scale reads it: `4.6`), a `piece.<id>`
    /// per item of the order, and up to [`MAX_ADDED`] items the customer added (`addItem.1` and
    /// `addCount.1`, …; a page from before several could be added sends `addItem` and `addCount`).
    /// Other fields (the CSRF token, where to go back to) are not looked at. A message per wrong
    /// field.
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
        let listed = pieces.len();
        for (item_field, count_field) in added_fields() {
            let added = match added_item(fields, &item_field, &count_field) {
                Ok(Some(added)) => added,
                Ok(None) => continue,
                Err(message) => {
                    errors.add(item_field, message);
                    continue;
                }
            };
            match pieces.iter().position(|(known, _)| known.id == added.0.id) {
                Some(at) if at < listed => {
                    errors.add(item_field, format!("{} is already listed above: change its count there.", added.0.item))
                }
                Some(_) => errors.add(item_field, format!("{} was added twice: enter its count once.", added.0.item)),
                None => pieces.push(added),
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

/// What the form says of the kg rule, beside the field.
pub const KG_RULE: &str = "Billed by the whole kg, rounded up: 4.6 kg is billed as 5 kg.";

fn parse_kg(value: Option<&str>) -> Result<Option<i32>, String> {
    let message =
        || format!("Please enter the weighed kg as the scale shows it, like 4.6, up to {MAX_QUANTITY_KG} kg.");
    let text = value.map(str::trim).unwrap_or_default();
    if text.is_empty() {
        return Ok(None);
    }
    billed_kg(text).filter(|kg| (1..=MAX_QUANTITY_KG).contains(kg)).map(Some).ok_or_else(message)
}

/// The kg billed for a scale's reading (`4.6`, `4,6`, `5`, `0.4`): rounded up to the next whole
/// kg ([`KG_RULE`]); none for what is not a reading above 0 with at most two decimals.
pub fn billed_kg(reading: &str) -> Option<i32> {
    let (whole, fraction) = reading.split_once(['.', ',']).unwrap_or((reading, ""));
    let digits = |part: &str| part.bytes().all(|byte| byte.is_ascii_digit());
    if (whole.is_empty() && fraction.is_empty()) || !digits(whole) || !digits(fraction) || fraction.len() > 2 {
        return None;
    }
    let whole: i32 = if whole.is_empty() { 0 } else { whole.parse().ok()? };
    let part = fraction.bytes().any(|byte| byte != b'0');
    let billed = whole.checked_add(i32::from(part))?;
    (billed > 0).then_some(billed)
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

/// The names of the added items' fields, `(addItem.1, addCount.1)` …, and the single pair of a
/// page from before several could be added.
fn added_fields() -> impl Iterator<Item = (String, String)> {
    let numbered = (1..=MAX_ADDED).map(|n| (format!("addItem.{n}"), format!("addCount.{n}")));
    std::iter::once(("addItem".to_owned(), "addCount".to_owned())).chain(numbered)
}

/// The item the customer added at the door in the fields `item_field` and `count_field`, if one
/// was chosen.
fn added_item(
    fields: &[(String, String)],
    item_field: &str,
    count_field: &str,
) -> Result<Option<(&'static PriceItem, i32)>, String> {
    let chosen = field(fields, item_field).map(str::trim).filter(|id| !id.is_empty());
    let count = field(fields, count_field).map(str::trim).filter(|count| !count.is_empty());
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
    fn a_scale_reading_is_billed_as_the_next_whole_kg() {
        let billed = |reading: &str| billed_kg(reading);
        assert_eq!((billed("4.6"), billed("4,6"), billed("4.0"), billed("4")), (Some(5), Some(5), Some(4), Some(4)));
        assert_eq!(
            (billed("0.4"), billed(".5"), billed("4.05"), billed("499.99")),
            (Some(1), Some(1), Some(5), Some(500))
        );
        for wrong in ["", ".", "0", "0.0", "4.600", "-1", "4.6kg", "1e3", "4..6", "4.6.1", " 4", "99999999999"] {
            assert_eq!(billed(wrong), None, "{wrong:?}");
        }
        let weighing = Weighing::from_form(&form(&[("bags", "1"), ("kg", " 4.6 ")])).unwrap();
        assert_eq!(weighing.kg, Some(5));
    }

    #[test]
    fn several_added_items_are_read_and_one_added_twice_is_refused() {
        let weighing = Weighing::from_form(&form(&[
            ("bags", "1"),
            ("addItem.1", "shirt"),
            ("addCount.1", "2"),
            ("addItem.2", "dress"),
            ("addCount.2", "1"),
            ("addItem.3", ""),
            ("addCount.3", ""),
        ]))
        .unwrap();
        let pieces: Vec<_> = weighing.pieces.iter().map(|(item, count)| (item.id, *count)).collect();
        assert_eq!(pieces, [("shirt", 2), ("dress", 1)]);
        let errors = Weighing::from_form(&form(&[
            ("bags", "1"),
            ("addItem.1", "shirt"),
            ("addCount.1", "2"),
            ("addItem.2", "shirt"),
            ("addCount.2", "1"),
            ("addCount.3", "4"),
        ]))
        .unwrap_err();
        assert_eq!(errors.get("addItem.2"), Some("Shirt was added twice: enter its count once."));
        assert_eq!(errors.get("addItem.3"), Some("Choose the item the customer added."));
    }

    #[test]
    fn bags_and_kg_out_of_range_are_refused_with_their_messages() {
        let errors = Weighing::from_form(&form(&[("bags", "0"), ("kg", "2.5 kg")])).unwrap_err();
        assert_eq!(errors.get("bags"), Some("Please enter how many bags you collected, from 1 to 20."));
        assert_eq!(
            errors.get("kg"),
            Some("Please enter the weighed kg as the scale shows it, like 4.6, up to 500 kg.")
        );
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
