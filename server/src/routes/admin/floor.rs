//! The shop floor (issue 36), `/admin/garments`: find an order by its tag (typed or scanned,
//! `/admin/scan`), the racks with the ready orders that should hang on them and their audit, and the
//! open claims beside what was taken in, resolved through the ledger. Plain forms, answered with a
//! 303 back to the page or the page again with what was wrong.

use super::form::{field, one, see_other};
use super::read::garments::load;
use crate::auth::CurrentStaff;
use crate::db::{DbError, write_transaction};
use crate::domain::garment::{MAX_STORY, parse_count, parse_tag, tag_label};
use crate::domain::ledger::Method;
use crate::domain::{ClaimOutcome, FieldErrors, TextEnum};
use crate::error::ApiError;
use crate::lifecycle::garments::{self, ClaimRefusal, Resolution, ResolveError, Resolved};
use crate::models::garments::Garment;
use crate::models::garments::claim::Claim;
use crate::models::garments::handling::Handling;
use crate::models::garments::photo::GarmentPhoto;
use crate::models::outbox::Enqueued;
use crate::state::AppState;
use crate::views::garments::{FloorPageProps, OpenClaim, ResolveValues, rack_views};
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use std::collections::BTreeSet;

/// The form fields of a plain post.
type Fields = web::Form<Vec<(String, String)>>;

/// The query of the shop floor page and of a scan.
#[derive(Debug, serde::Deserialize)]
pub struct FloorQuery {
    tag: Option<String>,
    done: Option<String>,
    missing: Option<u32>,
    /// After `done=resolved-held`: when the held text goes (`19:10`, Nairobi).
    at: Option<String>,
}

/// GET /admin/garments: find an order by its tag, the racks with the orders that should hang on
/// them, and the open claims.
pub async fn show_floor(
    state: web::Data<AppState>,
    request: HttpRequest,
    staff: CurrentStaff,
    query: web::Query<FloorQuery>,
) -> Result<HttpResponse, ApiError> {
    let notice = match (query.done.as_deref(), query.missing) {
        (Some("audit"), Some(0)) => Some("Rack audit saved: every order was found.".to_owned()),
        (Some("audit"), Some(1)) => Some("Rack audit saved: 1 order was not found on its rack.".to_owned()),
        (Some("audit"), Some(n)) => Some(format!("Rack audit saved: {n} orders were not found on their racks.")),
        (Some("resolved"), _) => Some("Claim resolved; the customer is texted.".to_owned()),
        (Some("resolved-held"), _) => Some(match query.at.as_deref().filter(|at| clock_time(at)) {
            Some(at) => format!(
                "Claim resolved. The text to the customer is held by the limit of texts to one phone an hour: it goes at {at}."
            ),
            None => "Claim resolved. The text to the customer is held by the limit of texts to one phone an hour.".to_owned(),
        }),
        (Some("resolved-untexted"), _) => Some(
            "Claim resolved, but the customer is not texted (their number asked for no texts, staff's answers are switched off, or texts are not set up): tell them by phone."
                .to_owned(),
        ),
        _ => None,
    };
    floor_page(&state, &request, &staff, FloorPageState { notice, ..FloorPageState::default() }).await
}

/// What the shop floor page shows besides what is stored.
#[derive(Debug, Default)]
struct FloorPageState {
    notice: Option<String>,
    scanned: String,
    scan_error: Option<String>,
    errors: FieldErrors,
    error_claim: Option<String>,
    resolve_values: ResolveValues,
    status: Option<StatusCode>,
}

async fn floor_page(
    state: &AppState,
    request: &HttpRequest,
    staff: &CurrentStaff,
    shown: FloorPageState,
) -> Result<HttpResponse, ApiError> {
    let racks = state.settings().racks.clone();
    let (racks, claims) = state
        .db()
        .run(move |connection| {
            let racked = Handling::on_racks(connection)?;
            let ids: Vec<String> = racked.iter().map(|order| order.handling.order_id.clone()).collect();
            let items = Garment::counts(connection, &ids)?;
            let mut claims = Vec::new();
            for (claim, reference, customer_name) in Claim::open_ones(connection)? {
                let photos = GarmentPhoto::of_order(connection, &claim.order_id)?;
                let garments = Garment::of_order(connection, &claim.order_id)?;
                claims.push(OpenClaim::new(&claim, &reference, &customer_name, &garments, &photos));
            }
            Ok::<_, DbError>((rack_views(&racks, &racked, &items), claims))
        })
        .await
        .map_err(super::load_failed)?;
    let props = FloorPageProps {
        racks,
        claims,
        csrf: staff.csrf_token.clone(),
        scan_error: shown.scan_error,
        scanned: shown.scanned,
        notice: shown.notice,
        errors: shown.errors,
        error_claim: shown.error_claim,
        resolve_values: shown.resolve_values,
    };
    let (page, _) = state.pages().render("/admin/garments", &props).await;
    let page = match shown.status {
        Some(status) => page.with_status(status),
        None => page,
    };
    Ok(page.respond_private(request))
}

/// GET /admin/scan?tag=AB12CD34-3: what a tag's QR code opens (or a tag typed): 303 to the order's
/// intake page at that item; the shop floor page with why when no order has that tag.
pub async fn scan(
    state: web::Data<AppState>,
    request: HttpRequest,
    staff: CurrentStaff,
    query: web::Query<FloorQuery>,
) -> Result<HttpResponse, ApiError> {
    let typed = query.tag.clone().unwrap_or_default().chars().take(200).collect::<String>();
    let not_found = |why: &str| FloorPageState {
        scanned: typed.clone(),
        scan_error: Some(why.to_owned()),
        status: Some(StatusCode::NOT_FOUND),
        ..FloorPageState::default()
    };
    let Some((reference, tag)) = parse_tag(&typed) else {
        let why = "That is not a tag: a tag reads like K7MX2QPD-3 (the order ID, then the item's number).";
        return floor_page(&state, &request, &staff, not_found(why)).await;
    };
    let Some(record) = load(&state, reference.as_str()).await? else {
        let why = format!("No order has the ID {}.", reference.as_str());
        return floor_page(&state, &request, &staff, not_found(&why)).await;
    };
    match tag {
        Some(tag) if !record.garments.iter().any(|garment| garment.tag == tag) => {
            let why = format!("Order {} has no item {}.", reference.as_str(), tag_label(reference.as_str(), tag));
            floor_page(&state, &request, &staff, not_found(&why)).await
        }
        Some(tag) => Ok(see_other(&format!("/admin/orders/{}/items#tag-{tag}", reference.as_str()))),
        None => Ok(see_other(&format!("/admin/orders/{}/items", reference.as_str()))),
    }
}

/// POST /admin/racks/audit: the orders the page listed (`listed`, an order ID each, repeated) and
/// those found on their racks (`seen`); the others listed that should still hang there are marked
/// missing. An order hung after the page was shown is not judged.
pub async fn audit_racks(
    state: web::Data<AppState>,
    staff: CurrentStaff,
    form: Fields,
) -> Result<HttpResponse, ApiError> {
    let references = |field: &str| -> BTreeSet<String> {
        form.iter()
            .filter(|(name, _)| name == field)
            .filter_map(|(_, value)| crate::domain::OrderReference::parse(value))
            .map(|reference| reference.as_str().to_owned())
            .collect()
    };
    let (listed, seen) = (references("listed"), references("seen"));
    let (by, now) = (staff.email.clone(), state.now());
    let result = state
        .db()
        .run(move |connection| {
            write_transaction(connection, |connection| garments::audit_racks(connection, (&listed, &seen), &by, now))
                .map_err(DbError::from)
        })
        .await
        .map_err(super::load_failed)?;
    tracing::info!(expected = result.expected, missing = result.missing.len(), staff = %staff.email, "a rack audit was saved");
    Ok(see_other(&format!("/admin/garments?done=audit&missing={}#racks", result.missing.len())))
}

/// POST /admin/claims/{id}/resolve: `outcome` (note, reclean, refund, credit), `note` (what the
/// customer is told; required for a note), and for a refund or credit `amount` (KSh off the order)
/// and for a refund `method` (`mpesa-reversal` or `cash`).
pub async fn resolve_claim(
    state: web::Data<AppState>,
    request: HttpRequest,
    staff: CurrentStaff,
    id: web::Path<String>,
    form: Fields,
) -> Result<HttpResponse, ApiError> {
    let claim_id = id.into_inner();
    if claim_id.len() != 32 || !claim_id.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(ApiError::NotFound("There is no such claim.".to_owned()));
    }
    let mut errors = FieldErrors::default();
    let outcome = errors.check(
        "outcome",
        field(&form, "outcome")
            .and_then(|value| ClaimOutcome::parse(value.trim()))
            .ok_or_else(|| "Choose how the claim is resolved.".to_owned()),
    );
    let note = errors
        .check("note", crate::domain::optional_text(field(&form, "note"), "note", MAX_STORY, true))
        .flatten()
        .unwrap_or_default();
    if outcome == Some(ClaimOutcome::Note) && note.is_empty() {
        errors.add("note", "Say what the customer is told (found it, explained, …).");
    }
    let money = matches!(outcome, Some(ClaimOutcome::Refund | ClaimOutcome::Credit));
    let amount = if money {
        errors.check("amount", parse_count(field(&form, "amount"), "shillings", 1, crate::lifecycle::money::MAX_AMOUNT))
    } else {
        None
    };
    let method = if outcome == Some(ClaimOutcome::Refund) {
        errors.check(
            "method",
            match field(&form, "method").map(str::trim) {
                Some("cash") => Ok(Method::Cash),
                Some("mpesa-reversal") => Ok(Method::Reversal),
                _ => Err("Choose how the money goes back: M-PESA reversal or cash.".to_owned()),
            },
        )
    } else {
        None
    };
    let sent = |name: &str| field(&form, name).unwrap_or_default().chars().take(MAX_STORY).collect::<String>();
    let values =
        ResolveValues { outcome: sent("outcome"), amount: sent("amount"), method: sent("method"), note: sent("note") };
    let refused = |errors: FieldErrors, status: StatusCode, claim: &str| FloorPageState {
        errors,
        error_claim: Some(claim.to_owned()),
        resolve_values: values.clone(),
        status: Some(status),
        ..FloorPageState::default()
    };
    let Some(outcome) = outcome.filter(|_| errors.is_empty()) else {
        return floor_page(&state, &request, &staff, refused(errors, StatusCode::UNPROCESSABLE_ENTITY, &claim_id))
            .await;
    };
    let reclean_days = state.settings().reclean_days;
    let resolution = Resolution { outcome, note, amount, method, reclean_days };
    let (by, now, notify, claim) = (staff.email.clone(), state.now(), state.notify_customer(), claim_id.clone());
    let resolved = state
        .db()
        .run(move |connection| {
            let resolved = write_transaction(connection, |connection| {
                garments::resolve_claim(connection, &claim, &resolution, &notify, &by, now)
            });
            match resolved {
                Ok(claim) => Ok(Ok(claim)),
                Err(ResolveError::Refused(refusal)) => Ok(Err(refusal)),
                Err(ResolveError::Database(error)) => Err(DbError::from(error)),
            }
        })
        .await
        .map_err(super::load_failed)?;
    match resolved {
        Ok(Resolved { claim, told }) => {
            tracing::info!(claim = %claim.id, outcome = claim.outcome.map(TextEnum::as_str), staff = %staff.email, told = ?told, "a claim was resolved");
            state.wake_outbox();
            let done = match told {
                Some(Enqueued::Written | Enqueued::AlreadyThere) => vec![("done", "resolved".to_owned())],
                Some(Enqueued::Held(at)) => {
                    vec![("done", "resolved-held".to_owned()), ("at", crate::clock::nairobi_date_time(at).1)]
                }
                Some(Enqueued::OptedOut | Enqueued::SwitchedOff | Enqueued::OverLimit) | None => {
                    vec![("done", "resolved-untexted".to_owned())]
                }
            };
            let query = serde_urlencoded::to_string(done).unwrap_or_default();
            Ok(see_other(&format!("/admin/garments?{query}#claims")))
        }
        Err(ClaimRefusal::NotFound) => Err(ApiError::NotFound("There is no such claim.".to_owned())),
        Err(refusal) => {
            let field = if matches!(refusal, ClaimRefusal::Money(_)) { "amount" } else { "outcome" };
            tracing::info!(claim = %claim_id, reason = %refusal, "a claim's resolution was refused");
            floor_page(
                &state,
                &request,
                &staff,
                refused(one(field, refusal.to_string()), StatusCode::CONFLICT, &claim_id),
            )
            .await
        }
    }
}

/// A time of day as the floor page's notice shows it: `19:10`.
fn clock_time(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() == 5 && bytes[2] == b':' && [0, 1, 3, 4].iter().all(|&i| bytes[i].is_ascii_digit())
}
