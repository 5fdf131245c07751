//! Every garment traced (issue 36), applied: items and their photos recorded at intake, the bags,
//! an order hung on a rack, a rack audit, the valet's count at delivery (a short count opens a
//! claim), and claims opened by customers and resolved by staff (money through the ledger, the
//! customer texted). Each function runs in the caller's write transaction; the order's row is
//! locked first, so two intakes at once give two tags.

use super::money::{self, MoneyRefusal};
use crate::db::DbConnection;
use crate::domain::garment::{ClaimRequest, GarmentFields, shortfall};
use crate::domain::{CLAIM_ANSWER_KEY, ClaimKind, ClaimOutcome, MessageKind, OrderStatus, ledger::Method};
use crate::models::garments::Garment;
use crate::models::garments::claim::Claim;
use crate::models::garments::handling::Handling;
use crate::models::garments::photo::GarmentPhoto;
use crate::models::order::Order;
use crate::models::outbox::Enqueued;
use crate::notify::NotifyCustomer;
use crate::photos::KeptPhoto;
use diesel::QueryResult;
use std::collections::BTreeSet;
use time::PrimitiveDateTime;

/// The most claims one order may have open at once: a customer reports what is wrong in one or
/// two; more is someone filling the list.
pub const MAX_OPEN_CLAIMS: usize = 5;
/// The most photos a customer may send with one claim (issue 50: one order's link must not fill
/// the photo disk).
pub const MAX_CLAIM_PHOTOS: usize = 3;
/// The most photos a customer may send with all of an order's claims.
pub const MAX_ORDER_CLAIM_PHOTOS: usize = 10;
/// The most photos an order's link may send in a minute.
pub const MAX_PHOTOS_PER_MINUTE: usize = 3;

/// Why a change to an order's garments was refused; nothing was written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GarmentRefusal {
    /// No such order.
    #[error("There is no such order.")]
    NoOrder,
    /// The order was cancelled: nothing of it is in the shop.
    #[error("Order {0} was cancelled: nothing of it is in the shop.")]
    Cancelled(String),
    /// No such item on the order.
    #[error("Order {0} has no item with tag {0}-{1}.")]
    NoItem(String, i32),
    /// The order has every tag it may have.
    #[error("Order {0} has {1} items already, the most one order may have.")]
    TooManyItems(String, i32),
    /// The rack is not one of the shop's.
    #[error("{0} is not one of the racks. Choose one of: {1}.")]
    NoRack(String, String),
}

/// Why a claim was not opened or resolved; nothing was written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClaimRefusal {
    /// No such order or claim.
    #[error("There is no such claim.")]
    NotFound,
    /// The order is not delivered: there is nothing to claim yet.
    #[error(
        "Order {0} has not been delivered yet. If something is wrong, tell the valet at the door, or call or WhatsApp us."
    )]
    NotDelivered(String),
    /// Items named that are not the order's.
    #[error("Some items chosen are not on this order. Please choose them again.")]
    NoSuchItem,
    /// Too many claims open.
    #[error(
        "This order has {MAX_OPEN_CLAIMS} reports open already: we will answer them first. Please call or WhatsApp us."
    )]
    TooMany,
    /// Resolved already.
    #[error("This claim was resolved already.")]
    Resolved,
    /// The report has as many photos as one may.
    #[error(
        "This report has {MAX_CLAIM_PHOTOS} photos already, as many as one report may. To show us more, call or WhatsApp us."
    )]
    ClaimPhotos,
    /// The order's reports have as many photos as they may.
    #[error(
        "This order has {MAX_ORDER_CLAIM_PHOTOS} photos from you already, as many as it may. To show us more, call or WhatsApp us."
    )]
    OrderPhotos,
    /// Photos sent faster than the link may send them.
    #[error("Please wait a minute before sending another photo.")]
    PhotosTooFast,
    /// A re-clean was chosen, but the order's page cannot book one now.
    #[error(
        "Order {0} cannot be re-cleaned from its page now (too long since delivery, a re-clean itself, or re-cleaned before): choose another outcome, or book a pickup with the customer."
    )]
    NoReclean(String),
    /// A refund or credit without a fitting amount, or the ledger refused it.
    #[error(transparent)]
    Money(#[from] MoneyRefusal),
}

/// Records an item of the order `order_id` with the next tag, and `photo` of it if one was sent.
pub fn record_item(
    connection: &mut DbConnection,
    order_id: &str,
    fields: &GarmentFields,
    photo: Option<&KeptPhoto>,
    by: &str,
    now: PrimitiveDateTime,
) -> QueryResult<Result<Garment, GarmentRefusal>> {
    let order = match open_order(connection, order_id)? {
        Ok(order) => order,
        Err(refusal) => return Ok(Err(refusal)),
    };
    let Some(garment) = Garment::add(connection, order_id, fields, by, now)? else {
        return Ok(Err(GarmentRefusal::TooManyItems(order.reference, crate::domain::garment::MAX_ITEMS)));
    };
    if let Some(photo) = photo {
        GarmentPhoto { tag: Some(garment.tag), ..GarmentPhoto::of(photo, order_id, by, now) }.insert(connection)?;
    }
    Ok(Ok(garment))
}

/// Records `photo` of the item `tag` of the order.
pub fn add_item_photo(
    connection: &mut DbConnection,
    order_id: &str,
    tag: i32,
    photo: &KeptPhoto,
    by: &str,
    now: PrimitiveDateTime,
) -> QueryResult<Result<(), GarmentRefusal>> {
    let order = match open_order(connection, order_id)? {
        Ok(order) => order,
        Err(refusal) => return Ok(Err(refusal)),
    };
    if !Garment::of_order(connection, order_id)?.iter().any(|garment| garment.tag == tag) {
        return Ok(Err(GarmentRefusal::NoItem(order.reference, tag)));
    }
    GarmentPhoto { tag: Some(tag), ..GarmentPhoto::of(photo, order_id, by, now) }.insert(connection)?;
    Ok(Ok(()))
}

/// Removes the item `tag` (recorded by mistake); its tag is not given again.
pub fn remove_item(
    connection: &mut DbConnection,
    order_id: &str,
    tag: i32,
    by: &str,
    now: PrimitiveDateTime,
) -> QueryResult<Result<(), GarmentRefusal>> {
    let order = match find_order(connection, order_id)? {
        Some(order) => order,
        None => return Ok(Err(GarmentRefusal::NoOrder)),
    };
    if !Garment::remove(connection, order_id, tag, by, now)? {
        return Ok(Err(GarmentRefusal::NoItem(order.reference, tag)));
    }
    Ok(Ok(()))
}

/// Records the bags counted at intake.
pub fn set_bags(connection: &mut DbConnection, order_id: &str, bags: i32) -> QueryResult<Result<(), GarmentRefusal>> {
    if let Err(refusal) = open_order(connection, order_id)? {
        return Ok(Err(refusal));
    }
    Handling::set_bags(connection, order_id, bags)?;
    Ok(Ok(()))
}

/// Hangs the order on `rack`, one of `racks` (matched ignoring case; the configured spelling is
/// kept).
pub fn hang_on_rack(
    connection: &mut DbConnection,
    order_id: &str,
    rack: &str,
    racks: &[String],
    by: &str,
    now: PrimitiveDateTime,
) -> QueryResult<Result<String, GarmentRefusal>> {
    let Some(rack) = rack_named(rack, racks) else {
        return Ok(Err(GarmentRefusal::NoRack(rack.trim().chars().take(20).collect(), racks.join(", "))));
    };
    if let Err(refusal) = open_order(connection, order_id)? {
        return Ok(Err(refusal));
    }
    Handling::set_rack(connection, order_id, &rack, by, now)?;
    Ok(Ok(rack))
}

/// The configured rack `asked` names (ignoring case and surrounding spaces).
pub fn rack_named(asked: &str, racks: &[String]) -> Option<String> {
    racks.iter().find(|rack| rack.eq_ignore_ascii_case(asked.trim())).cloned()
}

/// What a rack audit found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditResult {
    /// How many orders should have hung on the racks.
    pub expected: usize,
    /// The order IDs not found.
    pub missing: Vec<String>,
}

/// A rack audit of the orders `listed` (the order IDs the audit's page showed: an order hung since
/// was not looked for): of those that should still hang on a rack, those whose order IDs are in
/// `seen` were found, the others are marked missing (until they are found or hung again).
pub fn audit_racks(
    connection: &mut DbConnection,
    (listed, seen): (&BTreeSet<String>, &BTreeSet<String>),
    by: &str,
    now: PrimitiveDateTime,
) -> QueryResult<AuditResult> {
    use crate::db::schema::rack_audits;
    use diesel::prelude::*;
    let mut racked = Handling::on_racks(connection)?;
    racked.retain(|racked| listed.contains(&racked.reference));
    let (found, missing): (Vec<_>, Vec<_>) = racked.iter().partition(|racked| seen.contains(&racked.reference));
    let ids = |list: &[&crate::models::garments::handling::Racked]| {
        list.iter().map(|racked| racked.handling.order_id.clone()).collect::<Vec<_>>()
    };
    Handling::mark_found(connection, &ids(&found))?;
    Handling::mark_missing(connection, &ids(&missing), now)?;
    let count = |n: usize| i32::try_from(n).unwrap_or(i32::MAX);
    diesel::insert_into(rack_audits::table)
        .values((
            rack_audits::id.eq(uuid::Uuid::new_v4().simple().to_string()),
            rack_audits::done_by.eq(by),
            rack_audits::done_at.eq(now),
            rack_audits::expected.eq(count(racked.len())),
            rack_audits::missing.eq(count(missing.len())),
        ))
        .execute(connection)?;
    Ok(AuditResult { expected: racked.len(), missing: missing.iter().map(|racked| racked.reference.clone()).collect() })
}

/// The valet's count at delivery: recorded, and when it is short of the items taken in or the
/// bags, a claim is opened in the valet's name. Returns that claim.
pub fn count_at_delivery(
    connection: &mut DbConnection,
    order_id: &str,
    counted: (i32, i32),
    by: &str,
    now: PrimitiveDateTime,
) -> QueryResult<Option<(Claim, (i32, i32))>> {
    let items = i32::try_from(Garment::of_order(connection, order_id)?.len()).unwrap_or(i32::MAX);
    let handling = Handling::of_order(connection, order_id)?;
    let bags = match handling.bags {
        Some(bags) => bags,
        None => Order::bags_of(connection, &[order_id])?.get(order_id).copied().unwrap_or(0),
    };
    Handling::set_count(connection, order_id, counted, by, now)?;
    let Some(story) = shortfall((items, bags), counted) else { return Ok(None) };
    let claim = Claim::open(order_id, ClaimKind::Missing, &BTreeSet::new(), &story, by, now);
    claim.insert(connection)?;
    Ok(Some((claim, (items, bags))))
}

/// Whether the customer of `order` may report a missing or damaged item now (delivered, fewer than
/// [`MAX_OPEN_CLAIMS`] open): asked before their form is read, so that nobody's upload is taken for
/// an order that cannot take a claim.
pub fn may_claim(connection: &mut DbConnection, order: &Order) -> QueryResult<Result<(), ClaimRefusal>> {
    if order.status != OrderStatus::Delivered {
        return Ok(Err(ClaimRefusal::NotDelivered(order.reference.clone())));
    }
    let open = Claim::of_order(connection, &order.id)?.iter().filter(|claim| claim.resolved_at.is_none()).count();
    Ok(if open >= MAX_OPEN_CLAIMS { Err(ClaimRefusal::TooMany) } else { Ok(()) })
}

/// Whether the customer may send another photo with the order `order_id`'s claims now (with the
/// claim `claim`, when it is known): at most [`MAX_CLAIM_PHOTOS`] a claim, [`MAX_ORDER_CLAIM_PHOTOS`]
/// an order and [`MAX_PHOTOS_PER_MINUTE`] a minute. Asked before a photo is read (so that no photo
/// is decoded for nothing) and again, under the order's lock, before it is kept.
pub fn may_send_photo(
    connection: &mut DbConnection,
    order_id: &str,
    claim: Option<&str>,
    now: PrimitiveDateTime,
) -> QueryResult<Result<(), ClaimRefusal>> {
    use crate::models::garments::claim::BY_CUSTOMER;
    let sent: Vec<GarmentPhoto> = GarmentPhoto::of_order(connection, order_id)?
        .into_iter()
        .filter(|photo| photo.taken_by == BY_CUSTOMER)
        .collect();
    let with_claim = sent.iter().filter(|photo| claim.is_some() && photo.claim_id.as_deref() == claim).count();
    let last_minute = sent.iter().filter(|photo| photo.taken_at > now - time::Duration::minutes(1)).count();
    Ok(if with_claim >= MAX_CLAIM_PHOTOS {
        Err(ClaimRefusal::ClaimPhotos)
    } else if sent.len() >= MAX_ORDER_CLAIM_PHOTOS {
        Err(ClaimRefusal::OrderPhotos)
    } else if last_minute >= MAX_PHOTOS_PER_MINUTE {
        Err(ClaimRefusal::PhotosTooFast)
    } else {
        Ok(())
    })
}

/// The customer's claim about a delivered order, with `photo` if one was sent.
pub fn open_claim(
    connection: &mut DbConnection,
    order_id: &str,
    request: &ClaimRequest,
    photo: Option<&KeptPhoto>,
    now: PrimitiveDateTime,
) -> QueryResult<Result<Claim, ClaimRefusal>> {
    use crate::models::garments::claim::BY_CUSTOMER;
    Order::lock(connection, order_id)?;
    let Some(order) = Order::find(connection, order_id)? else { return Ok(Err(ClaimRefusal::NotFound)) };
    if order.status != OrderStatus::Delivered {
        return Ok(Err(ClaimRefusal::NotDelivered(order.reference)));
    }
    let tags: BTreeSet<i32> = Garment::of_order(connection, order_id)?.iter().map(|garment| garment.tag).collect();
    if !request.tags.is_subset(&tags) {
        return Ok(Err(ClaimRefusal::NoSuchItem));
    }
    let claims = Claim::of_order(connection, order_id)?;
    // The same report sent twice (a double tap, the form sent again) is the claim already open;
    // a photo sent with it again is kept with it.
    if let Some(same) = claims
        .iter()
        .find(|claim| claim.resolved_at.is_none() && claim.kind == request.kind && claim.story == request.story)
    {
        if let Some(photo) = photo {
            if let Err(refusal) = may_send_photo(connection, order_id, Some(&same.id), now)? {
                return Ok(Err(refusal));
            }
            GarmentPhoto { claim_id: Some(same.id.clone()), ..GarmentPhoto::of(photo, order_id, BY_CUSTOMER, now) }
                .insert(connection)?;
        }
        return Ok(Ok(same.clone()));
    }
    if claims.iter().filter(|claim| claim.resolved_at.is_none()).count() >= MAX_OPEN_CLAIMS {
        return Ok(Err(ClaimRefusal::TooMany));
    }
    if photo.is_some()
        && let Err(refusal) = may_send_photo(connection, order_id, None, now)?
    {
        return Ok(Err(refusal));
    }
    let claim = Claim::open(order_id, request.kind, &request.tags, &request.story, BY_CUSTOMER, now);
    claim.insert(connection)?;
    if let Some(photo) = photo {
        GarmentPhoto { claim_id: Some(claim.id.clone()), ..GarmentPhoto::of(photo, order_id, BY_CUSTOMER, now) }
            .insert(connection)?;
    }
    Ok(Ok(claim))
}

/// How staff resolve a claim.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolution {
    /// What they decided.
    pub outcome: ClaimOutcome,
    /// What they tell the customer (may be empty for a refund or credit).
    pub note: String,
    /// KSh off the order, for a refund or credit.
    pub amount: Option<i32>,
    /// How a refund is given back: M-PESA reversal or cash.
    pub method: Option<Method>,
    /// Days after delivery within which a free re-clean is booked (`LAUNDRY_RECLEAN_DAYS`): a
    /// re-clean is offered only while the order's page can book it.
    pub reclean_days: u32,
}

/// Why a resolution was not written: refused (its reason), or the database failed. Either rolls
/// back the transaction, so a refusal never leaves half of a resolution (a discount without its
/// claim resolved) behind.
#[derive(Debug, thiserror::Error)]
pub enum ResolveError {
    /// Refused, with the reason staff read.
    #[error(transparent)]
    Refused(#[from] ClaimRefusal),
    /// The database failed.
    #[error(transparent)]
    Database(#[from] diesel::result::Error),
}

/// Resolves the claim `claim_id`, in the caller's write transaction (which a refusal rolls back):
/// the claim is marked resolved first, so that of two staff resolving it at once the second is
/// refused before any money moves; a refund or credit then takes the amount off the order (a
/// discount whose reason names the claim) and gives back what the order then owes back, up to the
/// amount, by the method chosen or as credit. The customer is texted the outcome; over the limit
/// of texts to one phone the text is held, not dropped (staff are told when it goes).
pub fn resolve_claim(
    connection: &mut DbConnection,
    claim_id: &str,
    resolution: &Resolution,
    notify: &NotifyCustomer,
    by: &str,
    now: PrimitiveDateTime,
) -> Result<Resolved, ResolveError> {
    let Some(found) = Claim::find(connection, claim_id)? else { return Err(ClaimRefusal::NotFound.into()) };
    // The order's lock first, then the claim as it is under it.
    Order::lock(connection, &found.order_id)?;
    let Some(order) = Order::find(connection, &found.order_id)? else { return Err(ClaimRefusal::NotFound.into()) };
    let money = matches!(resolution.outcome, ClaimOutcome::Refund | ClaimOutcome::Credit);
    let off = match (money, resolution.amount) {
        (true, None) => return Err(ClaimRefusal::Money(MoneyRefusal::Amount(0)).into()),
        (true, Some(off)) => Some(i64::from(off)),
        (false, _) => None,
    };
    if resolution.outcome == ClaimOutcome::Reclean {
        let offer = crate::models::reclean::Reclean::offer(connection, &order, resolution.reclean_days, now)?;
        if !offer.is_some_and(|offer| offer.askable()) {
            return Err(ClaimRefusal::NoReclean(order.reference.clone()).into());
        }
    }
    if !Claim::resolve(connection, claim_id, (resolution.outcome, &resolution.note, off), by, now)? {
        return Err(ClaimRefusal::Resolved.into());
    }
    if let Some(off) = resolution.amount.filter(|_| money) {
        let reason = format!("Claim: {} item", found.kind.as_str());
        money::discount(connection, &order.id, off, &reason, by, now)?.map_err(ClaimRefusal::from)?;
        let owed_back = crate::models::ledger::Entry::balance(connection, &order.id)?.owed_back();
        let back = i32::try_from(owed_back.min(i64::from(off))).unwrap_or(0);
        if back > 0 {
            let method = match resolution.outcome {
                ClaimOutcome::Credit => Method::Credit,
                _ => resolution.method.unwrap_or(Method::Cash),
            };
            money::refund(connection, &order.id, method, back, None, &reason, by, now)?.map_err(ClaimRefusal::from)?;
        }
        Claim::set_given_back(connection, claim_id, i64::from(back))?;
    }
    let claim = Claim::find(connection, claim_id)?.ok_or(ClaimRefusal::NotFound)?;
    let told = notify.text_from_staff(
        connection,
        MessageKind::SmsAnswer,
        &order,
        Some(format!("{CLAIM_ANSWER_KEY}{claim_id}")),
        |texts| texts.claim_resolved(&order, &claim),
        now,
    )?;
    Ok(Resolved { claim, told })
}

/// A claim resolved, and what became of the text that tells the customer: none when this change
/// texts nobody (texts are not set up); held when the limit of texts to one phone holds it.
#[derive(Debug)]
pub struct Resolved {
    /// The claim as resolved.
    pub claim: Claim,
    /// What became of the customer's text.
    pub told: Option<Enqueued>,
}

fn find_order(connection: &mut DbConnection, order_id: &str) -> QueryResult<Option<Order>> {
    Order::lock(connection, order_id)?;
    Order::find(connection, order_id)
}

/// The order, locked, unless it is missing or cancelled.
fn open_order(connection: &mut DbConnection, order_id: &str) -> QueryResult<Result<Order, GarmentRefusal>> {
    Ok(match find_order(connection, order_id)? {
        None => Err(GarmentRefusal::NoOrder),
        Some(order) if order.status == OrderStatus::Cancelled => Err(GarmentRefusal::Cancelled(order.reference)),
        Some(order) => Ok(order),
    })
}
