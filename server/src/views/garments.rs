//! What staff and customers read of an order's garments (issue 36): the intake page of an order
//! (`/admin/orders/{id}/items`), its tag labels (`/admin/orders/{id}/tags`), the shop floor page
//! (`/admin/garments`: find by tag, racks and their audit, open claims), and the items, photos and
//! claims on the customer's own order page.

use super::time;
use crate::domain::garment::tag_label;
use crate::domain::{ClaimKind, ClaimOutcome, FieldErrors, OrderStatus};
use crate::models::garments::claim::Claim;
use crate::models::garments::handling::Racked;
use crate::models::garments::photo::GarmentPhoto;
use crate::models::garments::{Garment, IntakeRecord};
use serde::Serialize;
use ts_rs::TS;

/// A photo as a page shows it: a thumbnail that opens the photo.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PhotoView {
    /// The photo's address (staff: `/admin/photos/{id}`; the customer: `/t/{token}/photos/{id}`).
    pub url: String,
    /// Its thumbnail's address.
    pub thumb_url: String,
    /// The photo's width.
    pub width: i32,
    /// The photo's height.
    pub height: i32,
}

impl PhotoView {
    /// `photo` under the address `base` (`/admin/photos` or `/t/{token}/photos`).
    pub fn new(photo: &GarmentPhoto, base: &str) -> Self {
        PhotoView {
            url: format!("{base}/{}", photo.id),
            thumb_url: format!("{base}/{}/thumb", photo.id),
            width: photo.width,
            height: photo.height,
        }
    }
}

/// An item taken in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct GarmentView {
    /// Its number in the order.
    pub tag: i32,
    /// Its tag: `AB12CD34-3`.
    pub label: String,
    /// What it is.
    pub item: String,
    /// Its colour ("" when not noted).
    pub colour: String,
    /// Brand or note.
    pub note: String,
    /// Stains and damage seen at intake.
    pub damage: String,
    /// Its photos, oldest first.
    pub photos: Vec<PhotoView>,
    /// When it was recorded, RFC 3339.
    pub recorded_at: String,
    /// Who recorded it (staff only; empty for the customer).
    pub recorded_by: String,
}

/// The order's items with their photos, the photos under `base`; `staff` shows who recorded them.
pub fn garment_views(
    reference: &str,
    garments: &[Garment],
    photos: &[GarmentPhoto],
    base: &str,
    staff: bool,
) -> Vec<GarmentView> {
    garments
        .iter()
        .map(|garment| GarmentView {
            tag: garment.tag,
            label: tag_label(reference, garment.tag),
            item: garment.item.clone(),
            colour: garment.colour.clone(),
            note: garment.note.clone(),
            damage: garment.damage.clone(),
            photos: photos
                .iter()
                .filter(|photo| photo.tag == Some(garment.tag) && photo.claim_id.is_none())
                .map(|photo| PhotoView::new(photo, base))
                .collect(),
            recorded_at: time(garment.recorded_at),
            recorded_by: if staff { garment.recorded_by.clone() } else { String::new() },
        })
        .collect()
}

/// A claim.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ClaimView {
    /// Its id (the resolve form's address).
    pub id: String,
    /// The order ID.
    pub reference: String,
    /// The customer's name (staff only).
    pub customer_name: String,
    /// Missing or damaged.
    pub kind: ClaimKind,
    /// The tags named (`AB12CD34-2`).
    pub tags: Vec<String>,
    /// What happened.
    pub story: String,
    /// "customer", or the valet whose count opened it.
    pub opened_by: String,
    /// When, RFC 3339.
    pub opened_at: String,
    /// Photos sent with it.
    pub photos: Vec<PhotoView>,
    /// How it was resolved; null while open.
    pub outcome: Option<ClaimOutcome>,
    /// What staff told the customer.
    pub outcome_note: Option<String>,
    /// KSh off the order.
    #[ts(type = "number | null")]
    pub amount: Option<i64>,
    /// Of it, KSh given back or kept as credit (what the order then owed back).
    #[ts(type = "number | null")]
    pub given_back: Option<i64>,
    /// When it was resolved, RFC 3339.
    pub resolved_at: Option<String>,
}

impl ClaimView {
    /// `claim` of the order `reference`, its photos among `photos` under `base`.
    pub fn new(claim: &Claim, reference: &str, customer_name: &str, photos: &[GarmentPhoto], base: &str) -> Self {
        ClaimView {
            id: claim.id.clone(),
            reference: reference.to_owned(),
            customer_name: customer_name.to_owned(),
            kind: claim.kind,
            tags: claim.tag_numbers().into_iter().map(|tag| tag_label(reference, tag)).collect(),
            story: claim.story.clone(),
            opened_by: claim.opened_by.clone(),
            opened_at: time(claim.opened_at),
            photos: photos
                .iter()
                .filter(|photo| photo.claim_id.as_deref() == Some(claim.id.as_str()))
                .map(|photo| PhotoView::new(photo, base))
                .collect(),
            outcome: claim.outcome,
            outcome_note: claim.outcome_note.clone(),
            amount: claim.amount,
            given_back: claim.given_back,
            resolved_at: claim.resolved_at.map(time),
        }
    }
}

/// The valet's count at delivery.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CountView {
    /// Items counted.
    pub items: i32,
    /// Bags counted.
    pub bags: i32,
    /// Who counted.
    pub by: String,
    /// When, RFC 3339.
    pub at: String,
}

/// `GET /admin/orders/{id}/items`: an order's intake, printable tags, rack and claims.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct GarmentsPageProps {
    /// The order ID.
    pub reference: String,
    /// The customer's name.
    pub customer_name: String,
    /// The order's status.
    pub status: OrderStatus,
    /// Its items, by tag.
    pub items: Vec<GarmentView>,
    /// Bags counted at intake; else the valet's weighing's.
    pub bags: Option<i32>,
    /// Items the valet counted at the door when picking up.
    pub door_items: Option<i32>,
    /// The rack it hangs on.
    pub rack: Option<String>,
    /// When a rack audit did not find it there, RFC 3339.
    pub missing_since: Option<String>,
    /// The shop's racks.
    pub racks: Vec<String>,
    /// The valet's count at delivery.
    pub count: Option<CountView>,
    /// Its claims, oldest first.
    pub claims: Vec<ClaimView>,
    /// The price list's item names, offered as the item's name.
    pub item_names: Vec<String>,
    /// The session's CSRF token, for the forms.
    pub csrf: String,
    /// What was wrong with the form just sent, by field (`item`, `photo`, `bags`, `rack`…).
    pub errors: FieldErrors,
    /// What was saved, said once after a form (`Item K7MX2QPD-3 recorded.`).
    pub notice: Option<String>,
    /// The form's values sent back with its errors.
    pub values: IntakeValues,
}

/// The intake form's values, sent back with its errors.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct IntakeValues {
    /// What it is.
    pub item: String,
    /// Its colour.
    pub colour: String,
    /// Brand or note.
    pub note: String,
    /// Stains and damage.
    pub damage: String,
}

impl GarmentsPageProps {
    /// The page of `record`.
    pub fn new(record: &IntakeRecord, racks: &[String], csrf: &str) -> Self {
        let order = &record.order;
        let handling = &record.handling;
        GarmentsPageProps {
            reference: order.reference.clone(),
            customer_name: order.customer_name.clone(),
            status: order.status,
            items: garment_views(&order.reference, &record.garments, &record.photos, "/admin/photos", true),
            bags: handling.bags.or(record.weighed_bags),
            door_items: handling.door_items,
            rack: handling.rack.clone(),
            missing_since: handling.missing_since.map(time),
            racks: racks.to_vec(),
            count: match (handling.counted_items, handling.counted_bags, handling.counted_at) {
                (Some(items), Some(bags), Some(at)) => {
                    Some(CountView { items, bags, by: handling.counted_by.clone().unwrap_or_default(), at: time(at) })
                }
                _ => None,
            },
            claims: record
                .claims
                .iter()
                .map(|claim| {
                    ClaimView::new(claim, &order.reference, &order.customer_name, &record.photos, "/admin/photos")
                })
                .collect(),
            item_names: crate::catalogue::PRICE_LIST.iter().map(|item| item.item.to_owned()).collect(),
            csrf: csrf.to_owned(),
            errors: FieldErrors::default(),
            notice: None,
            values: IntakeValues::default(),
        }
    }
}

/// A QR code as an SVG path: `size` modules square, the dark ones drawn by `path` (in module
/// units; the page adds the quiet zone).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct QrView {
    /// Modules on a side.
    pub size: u32,
    /// The dark modules, as runs: `M{x} {y}h{n}v1h-{n}z` each.
    pub path: String,
}

impl QrView {
    /// The QR code of `text` (error correction M: a creased label still scans).
    pub fn of(text: &str) -> Option<Self> {
        let code = qrcode::QrCode::with_error_correction_level(text, qrcode::EcLevel::M).ok()?;
        let size = code.width();
        let colors = code.to_colors();
        let mut path = String::new();
        for y in 0..size {
            let mut x = 0;
            while x < size {
                if colors[y * size + x] == qrcode::Color::Dark {
                    let start = x;
                    while x < size && colors[y * size + x] == qrcode::Color::Dark {
                        x += 1;
                    }
                    let run = x - start;
                    path.push_str(&format!("M{start} {y}h{run}v1h-{run}z"));
                } else {
                    x += 1;
                }
            }
        }
        Some(QrView { size: u32::try_from(size).ok()?, path })
    }
}

/// One label to print.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TagLabel {
    /// `AB12CD34-3`, or the order ID alone for the bag's ticket.
    pub label: String,
    /// "3 of 12", or "Bag ticket".
    pub count: String,
    /// What it is ("Shirt, blue").
    pub item: String,
    /// The QR code of the address that opens it for staff.
    pub qr: QrView,
}

/// `GET /admin/orders/{id}/tags?size=58|80|a4`: the order's tag labels and its bag ticket,
/// laid out for a label printer's roll or an A4 sheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TagsPageProps {
    /// The order ID.
    pub reference: String,
    /// The customer's name (on the bag ticket).
    pub customer_name: String,
    /// The paper: `58`, `80` (mm rolls) or `a4`.
    pub size: String,
    /// Bags, for the ticket.
    pub bags: Option<i32>,
    /// The bag ticket, then each item's label.
    pub labels: Vec<TagLabel>,
}

impl TagsPageProps {
    /// The labels of `record`'s items; `base_url` makes the scanned addresses whole.
    pub fn new(record: &IntakeRecord, size: &str, base_url: &str) -> Self {
        let order = &record.order;
        let total = record.garments.len();
        let scan = |tag: &str| format!("{base_url}/admin/scan?tag={tag}");
        let mut labels = Vec::with_capacity(total + 1);
        if let Some(qr) = QrView::of(&scan(&order.reference)) {
            labels.push(TagLabel {
                label: order.reference.clone(),
                count: format!("Bag ticket: {total} items"),
                item: order.customer_name.clone(),
                qr,
            });
        }
        for (at, garment) in record.garments.iter().enumerate() {
            let label = tag_label(&order.reference, garment.tag);
            let Some(qr) = QrView::of(&scan(&label)) else { continue };
            let item = [garment.item.as_str(), garment.colour.as_str()]
                .into_iter()
                .filter(|part| !part.is_empty())
                .collect::<Vec<_>>()
                .join(", ");
            labels.push(TagLabel { count: format!("{} of {total}", at + 1), label, item, qr });
        }
        TagsPageProps {
            reference: order.reference.clone(),
            customer_name: order.customer_name.clone(),
            size: size.to_owned(),
            bags: record.handling.bags.or(record.weighed_bags),
            labels,
        }
    }
}

/// An order on a rack, as the audit lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RackedOrder {
    /// The order ID.
    pub reference: String,
    /// The customer's name.
    pub customer_name: String,
    /// Since when it hangs there, RFC 3339.
    pub since: Option<String>,
    /// When an audit did not find it, RFC 3339.
    pub missing_since: Option<String>,
    /// Its items.
    #[ts(type = "number")]
    pub items: i64,
}

/// A rack and what should hang on it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RackView {
    /// Its name.
    pub name: String,
    /// The ready orders hung on it.
    pub orders: Vec<RackedOrder>,
}

/// `GET /admin/garments`: find an order by its tag, the racks with their audit, and the open
/// claims.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct FloorPageProps {
    /// Each rack with its orders (a rack no longer configured is listed too while orders hang on it).
    pub racks: Vec<RackView>,
    /// The open claims, oldest first, each with its order's items.
    pub claims: Vec<OpenClaim>,
    /// The session's CSRF token.
    pub csrf: String,
    /// The tag typed that found nothing, with why.
    pub scan_error: Option<String>,
    /// The tag typed.
    pub scanned: String,
    /// What the last form did.
    pub notice: Option<String>,
    /// What was wrong with a resolve form, by field, and which claim it was.
    pub errors: FieldErrors,
    /// The claim the errors are about.
    pub error_claim: Option<String>,
    /// What its resolve form held, sent back with the errors.
    pub resolve_values: ResolveValues,
}

/// A claim's resolve form as it was sent, to show again with what was wrong.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ResolveValues {
    /// `note`, `reclean`, `refund` or `credit`.
    pub outcome: String,
    /// KSh off the order, as typed.
    pub amount: String,
    /// `mpesa-reversal` or `cash`.
    pub method: String,
    /// What the customer is told.
    pub note: String,
}

/// An open claim beside what was recorded at intake: the items it names (all the order's when it
/// names none) with their notes and photos.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct OpenClaim {
    /// The claim.
    pub claim: ClaimView,
    /// The items as taken in.
    pub items: Vec<GarmentView>,
}

impl OpenClaim {
    /// `claim` of the order `reference` (its customer `customer_name`), with the order's
    /// `garments` and `photos`.
    pub fn new(
        claim: &Claim,
        reference: &str,
        customer_name: &str,
        garments: &[Garment],
        photos: &[GarmentPhoto],
    ) -> Self {
        let named = claim.tag_numbers();
        let shown: Vec<Garment> =
            garments.iter().filter(|garment| named.is_empty() || named.contains(&garment.tag)).cloned().collect();
        OpenClaim {
            claim: ClaimView::new(claim, reference, customer_name, photos, "/admin/photos"),
            items: garment_views(reference, &shown, photos, "/admin/photos", true),
        }
    }
}

/// The racks of `racks` (configured) with the orders `racked` on them, and items per order.
pub fn rack_views(
    racks: &[String],
    racked: &[Racked],
    items: &std::collections::HashMap<String, i64>,
) -> Vec<RackView> {
    let mut names: Vec<String> = racks.to_vec();
    for order in racked {
        if let Some(rack) = &order.handling.rack
            && !names.iter().any(|name| name == rack)
        {
            names.push(rack.clone());
        }
    }
    names
        .into_iter()
        .map(|name| RackView {
            orders: racked
                .iter()
                .filter(|order| order.handling.rack.as_deref() == Some(name.as_str()))
                .map(|order| RackedOrder {
                    reference: order.reference.clone(),
                    customer_name: order.customer_name.clone(),
                    since: order.handling.racked_at.map(time),
                    missing_since: order.handling.missing_since.map(time),
                    items: items.get(&order.handling.order_id).copied().unwrap_or(0),
                })
                .collect(),
            name,
        })
        .collect()
}

/// The customer's items, photos and claims on their order's page.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CustomerGarments {
    /// The items taken in, with their intake photos.
    pub items: Vec<GarmentView>,
    /// Bags.
    pub bags: Option<i32>,
    /// Their reports of missing or damaged items.
    pub claims: Vec<ClaimView>,
    /// Whether they may report one (the order is delivered).
    pub may_claim: bool,
    /// What was wrong with the report just sent, by field.
    pub errors: FieldErrors,
    /// The report form's values sent back with its errors.
    pub story: String,
}

impl CustomerGarments {
    /// `record`'s items and claims as its customer reads them, photos under `/t/{token}/photos`.
    pub fn new(record: &IntakeRecord, token: &str) -> Self {
        let base = format!("/t/{token}/photos");
        let order = &record.order;
        CustomerGarments {
            items: garment_views(&order.reference, &record.garments, &record.photos, &base, false),
            bags: record.handling.bags.or(record.weighed_bags),
            claims: record
                .claims
                .iter()
                .map(|claim| ClaimView {
                    opened_by: String::new(),
                    ..ClaimView::new(claim, &order.reference, "", &record.photos, &base)
                })
                .collect(),
            may_claim: order.status == OrderStatus::Delivered,
            errors: FieldErrors::default(),
            story: String::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_qr_code_is_drawn_as_runs_of_dark_modules() {
        let qr = QrView::of("https://shop.example/admin/scan?tag=K7MX2QPD-3").unwrap();
        assert!(qr.size >= 21 && (qr.size - 17).is_multiple_of(4), "{}", qr.size);
        // The finder pattern's top edge: a run of 7 dark modules at the corner.
        assert!(qr.path.starts_with("M0 0h7v1h-7z"), "{}", &qr.path[..40]);
    }
}
