//! Every garment traced, staff's side (issue 36): an order's intake page and its forms (items
//! with photos, a photo of an item, an item removed, the bags, the rack), its tag labels, and the
//! photos themselves. The shop floor page (find by tag, rack audit, claims) is [`super::floor`]. Every page works without JavaScript: forms are plain posts answered with a 303
//! back to the page (or the page again with the form's errors), and a photo is a file input
//! (`capture` opens the phone's camera).

use super::query::order_id;
use crate::auth::CurrentStaff;
use crate::db::{DbError, write_transaction};
use crate::domain::FieldErrors;
use crate::domain::garment::{GarmentInput, MAX_BAGS, parse_count, tag_label};
use crate::error::ApiError;
use crate::lifecycle::garments::{self, GarmentRefusal};
use crate::models::garments::IntakeRecord;
use crate::models::order::Order;
use crate::photos::upload::{UploadError, UploadForm};
use crate::photos::{KeptPhoto, PhotoError};
use crate::state::AppState;
use crate::views::garments::{GarmentsPageProps, IntakeValues, TagsPageProps};
use actix_multipart::Multipart;
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};

use super::read::garments::load;

use super::form::{field, one, see_other};

use crate::routes::photos::serve_photo;

/// The form fields of a plain post.
type Fields = web::Form<Vec<(String, String)>>;

/// The intake page's address, with what was saved.
fn items_page(reference: &str, saved: &str) -> String {
    format!("/admin/orders/{reference}/items?saved={saved}")
}

/// [`load`] for a page's address: an order ID that is not one is no order either.
async fn load_page(state: &AppState, reference: &str) -> Result<Option<IntakeRecord>, ApiError> {
    if crate::domain::OrderReference::parse(reference).is_none() {
        return Ok(None);
    }
    load(state, reference).await
}

/// The site's 404 page, for a page of an order that does not exist.
async fn not_found(state: &AppState, request: &HttpRequest) -> HttpResponse {
    state.pages().not_found().await.respond_private(request)
}

/// What a saved form says once the page is shown again (`?saved=`).
fn notice(reference: &str, saved: Option<&str>) -> Option<String> {
    let saved = saved?;
    Some(match saved.split_once('-') {
        Some(("item", tag)) => format!("Item {} recorded.", tag_label(reference, tag.parse().ok()?)),
        Some(("photo", tag)) => format!("Photo of {} kept.", tag_label(reference, tag.parse().ok()?)),
        Some(("removed", tag)) => {
            format!("Item {} removed; its tag is not used again.", tag_label(reference, tag.parse().ok()?))
        }
        _ => match saved {
            "bags" => "Bags saved.".to_owned(),
            "rack" => "Rack saved.".to_owned(),
            _ => return None,
        },
    })
}

/// The query of the intake page.
#[derive(Debug, serde::Deserialize)]
pub struct ItemsQuery {
    saved: Option<String>,
}

/// GET /admin/orders/{id}/items: the order's intake page.
pub async fn show_items(
    state: web::Data<AppState>,
    request: HttpRequest,
    staff: CurrentStaff,
    id: web::Path<String>,
    query: web::Query<ItemsQuery>,
) -> Result<HttpResponse, ApiError> {
    let Some(record) = load_page(&state, &id).await? else { return Ok(not_found(&state, &request).await) };
    let mut props = GarmentsPageProps::new(&record, &state.settings().racks, &staff.csrf_token);
    props.notice = notice(&record.order.reference, query.saved.as_deref());
    let path = format!("/admin/orders/{}/items", record.order.reference);
    let (page, _) = state.pages().render(&path, &props).await;
    Ok(page.respond_private(&request))
}

/// The intake page again with the form's `errors` (422, or `status`), keeping `values`.
async fn show_errors(
    state: &AppState,
    request: &HttpRequest,
    staff: &CurrentStaff,
    reference: &str,
    (errors, values, status): (FieldErrors, IntakeValues, StatusCode),
) -> Result<HttpResponse, ApiError> {
    let record = load(state, reference).await?.ok_or_else(super::query::no_such_order)?;
    let props = GarmentsPageProps {
        errors,
        values,
        ..GarmentsPageProps::new(&record, &state.settings().racks, &staff.csrf_token)
    };
    let path = format!("/admin/orders/{}/items", record.order.reference);
    let (page, _) = state.pages().render(&path, &props).await;
    Ok(page.with_status(status).respond_private(request))
}

/// The photo of the form's `photo` field kept, if one was sent; or the field's error and status.
async fn keep_photo(state: &AppState, form: &UploadForm) -> Result<Option<KeptPhoto>, (String, StatusCode)> {
    let Some(upload) = form.file("photo") else { return Ok(None) };
    match state.photos().keep(upload, crate::photos::Sender::Staff).await {
        Ok(kept) => Ok(Some(kept)),
        Err(PhotoError::Refused(refusal)) => Err((refusal.to_string(), StatusCode::UNPROCESSABLE_ENTITY)),
        Err(error @ PhotoError::Busy) => Err((error.to_string(), StatusCode::SERVICE_UNAVAILABLE)),
        Err(PhotoError::Store(error)) => {
            tracing::error!(%error, "a photo could not be kept");
            Err(("The photo could not be saved. Please try again.".to_owned(), StatusCode::SERVICE_UNAVAILABLE))
        }
    }
}

/// Reads a multipart form, or the error to show on `field`.
async fn read(state: &AppState, multipart: Multipart) -> Result<UploadForm, (String, StatusCode)> {
    match state.photos().read_form(multipart).await {
        Ok(form) => Ok(form),
        Err(UploadError::TooLarge) => Err((UploadError::TooLarge.to_string(), StatusCode::PAYLOAD_TOO_LARGE)),
        Err(UploadError::Stalled) => Err((UploadError::Stalled.to_string(), StatusCode::REQUEST_TIMEOUT)),
        Err(error @ UploadError::Malformed(_)) => Err((error.to_string(), StatusCode::BAD_REQUEST)),
        Err(UploadError::Spool(error)) => {
            tracing::error!(%error, "an upload could not be spooled");
            Err(("The photo could not be saved. Please try again.".to_owned(), StatusCode::SERVICE_UNAVAILABLE))
        }
    }
}

/// The form's values, sent back with its errors.
fn values_of(input: &GarmentInput) -> IntakeValues {
    let text = |value: &Option<String>| value.clone().unwrap_or_default().chars().take(400).collect();
    IntakeValues {
        item: text(&input.item),
        colour: text(&input.colour),
        note: text(&input.note),
        damage: text(&input.damage),
    }
}

/// A garment refusal as the field it is about.
fn refusal_field(refusal: &GarmentRefusal) -> (&'static str, StatusCode) {
    match refusal {
        GarmentRefusal::NoOrder => ("item", StatusCode::NOT_FOUND),
        GarmentRefusal::NoRack(..) => ("rack", StatusCode::UNPROCESSABLE_ENTITY),
        GarmentRefusal::NoItem(..) => ("photo", StatusCode::NOT_FOUND),
        GarmentRefusal::Cancelled(_) | GarmentRefusal::TooManyItems(..) => ("item", StatusCode::CONFLICT),
    }
}

/// POST /admin/orders/{id}/items (`multipart/form-data`, the token in the address): an item with
/// the next tag (`item`, `colour`, `note`, `damage`) and, if one was chosen, its `photo`.
pub async fn add_item(
    state: web::Data<AppState>,
    request: HttpRequest,
    staff: CurrentStaff,
    id: web::Path<String>,
    multipart: Multipart,
) -> Result<HttpResponse, ApiError> {
    let reference = order_id(&id)?;
    let page = IntakePage { state: &state, request: &request, staff: &staff, id: &id };
    let form = match read(&state, multipart).await {
        Ok(form) => form,
        Err((message, status)) => {
            return page.refused("photo", message, status).await;
        }
    };
    let input = GarmentInput::from_fields(&form.fields);
    let fields = match input.validate() {
        Ok(fields) => fields,
        Err(errors) => {
            let status = StatusCode::UNPROCESSABLE_ENTITY;
            return show_errors(&state, &request, &staff, &id, (errors, values_of(&input), status)).await;
        }
    };
    let photo = match keep_photo(&state, &form).await {
        Ok(photo) => photo,
        Err((message, status)) => {
            return show_errors(&state, &request, &staff, &id, (one("photo", message), values_of(&input), status))
                .await;
        }
    };
    let (by, now, kept) = (staff.email.clone(), state.now(), photo.clone());
    let recorded = on_order(&state, reference, move |connection, order_id| {
        garments::record_item(connection, order_id, &fields, kept.as_ref(), &by, now)
    })
    .await;
    let recorded = match recorded {
        Ok(recorded) => recorded,
        Err(error) => {
            forget(&state, photo.as_ref()).await;
            return Err(super::load_failed(error));
        }
    };
    match recorded {
        Ok(garment) => {
            tracing::info!(order = %id, tag = garment.tag, staff = %staff.email, "an item was taken in");
            Ok(see_other(&format!(
                "{}#tag-{}",
                items_page(&garment_reference(&id), &format!("item-{}", garment.tag)),
                garment.tag
            )))
        }
        Err(refusal) => {
            forget(&state, photo.as_ref()).await;
            let (field, status) = refusal_field(&refusal);
            show_errors(&state, &request, &staff, &id, (one(field, refusal.to_string()), values_of(&input), status))
                .await
        }
    }
}

/// Runs `change` on the order with this order ID in one write transaction; its refusal, or
/// [`GarmentRefusal::NoOrder`].
async fn on_order<T: Send + 'static>(
    state: &AppState,
    reference: crate::domain::OrderReference,
    change: impl FnOnce(&mut crate::db::DbConnection, &str) -> diesel::QueryResult<Result<T, GarmentRefusal>>
    + Send
    + 'static,
) -> Result<Result<T, GarmentRefusal>, DbError> {
    state
        .db()
        .run(move |connection| {
            write_transaction(connection, |connection| {
                let Some(order) = Order::find_by_reference(connection, &reference)? else {
                    return Ok(Err(GarmentRefusal::NoOrder));
                };
                change(connection, &order.id)
            })
            .map_err(DbError::from)
        })
        .await
}

/// The intake page a form was sent from, to show again with what was wrong.
struct IntakePage<'a> {
    state: &'a AppState,
    request: &'a HttpRequest,
    staff: &'a CurrentStaff,
    id: &'a str,
}

impl IntakePage<'_> {
    /// The page again with `message` on `field`, answered with `status`.
    async fn refused(
        &self,
        field: impl Into<std::borrow::Cow<'static, str>>,
        message: impl Into<String>,
        status: StatusCode,
    ) -> Result<HttpResponse, ApiError> {
        let sent_back = (one(field, message), IntakeValues::default(), status);
        show_errors(self.state, self.request, self.staff, self.id, sent_back).await
    }
}

/// The order ID as the addresses write it.
fn garment_reference(id: &str) -> String {
    order_id(id).map(|reference| reference.as_str().to_owned()).unwrap_or_default()
}

/// Deletes a kept photo whose record was not written.
async fn forget(state: &AppState, photo: Option<&KeptPhoto>) {
    if let Some(photo) = photo {
        state.photos().forget(&photo.id).await;
    }
}

/// POST /admin/orders/{id}/items/{tag}/photos (`multipart/form-data`): another photo of an item.
pub async fn add_item_photo(
    state: web::Data<AppState>,
    request: HttpRequest,
    staff: CurrentStaff,
    path: web::Path<(String, i32)>,
    multipart: Multipart,
) -> Result<HttpResponse, ApiError> {
    let (id, tag) = path.into_inner();
    let reference = order_id(&id)?;
    let page = IntakePage { state: &state, request: &request, staff: &staff, id: &id };
    // The message goes beside that item's photo field.
    let field = format!("photo-{tag}");
    let form = match read(&state, multipart).await {
        Ok(form) => form,
        Err((message, status)) => {
            return page.refused(field.clone(), message, status).await;
        }
    };
    let photo = match keep_photo(&state, &form).await {
        Ok(Some(photo)) => photo,
        Ok(None) => {
            let empty = crate::photos::prepare::PhotoRefusal::Empty.to_string();
            return page.refused(field.clone(), empty, StatusCode::UNPROCESSABLE_ENTITY).await;
        }
        Err((message, status)) => {
            return page.refused(field.clone(), message, status).await;
        }
    };
    let (by, now, kept) = (staff.email.clone(), state.now(), photo.clone());
    let recorded = on_order(&state, reference, move |connection, order_id| {
        garments::add_item_photo(connection, order_id, tag, &kept, &by, now)
    })
    .await;
    match recorded {
        Ok(Ok(())) => {
            Ok(see_other(&format!("{}#tag-{tag}", items_page(&garment_reference(&id), &format!("photo-{tag}")))))
        }
        Ok(Err(refusal)) => {
            forget(&state, Some(&photo)).await;
            let (_, status) = refusal_field(&refusal);
            page.refused(field, refusal.to_string(), status).await
        }
        Err(error) => {
            forget(&state, Some(&photo)).await;
            Err(super::load_failed(error))
        }
    }
}

/// POST /admin/orders/{id}/items/{tag}/remove: an item recorded by mistake is removed.
pub async fn remove_item(
    state: web::Data<AppState>,
    request: HttpRequest,
    staff: CurrentStaff,
    path: web::Path<(String, i32)>,
) -> Result<HttpResponse, ApiError> {
    let (id, tag) = path.into_inner();
    let reference = order_id(&id)?;
    let page = IntakePage { state: &state, request: &request, staff: &staff, id: &id };
    let (by, now) = (staff.email.clone(), state.now());
    let removed = on_order(&state, reference, move |connection, order_id| {
        garments::remove_item(connection, order_id, tag, &by, now)
    })
    .await
    .map_err(super::load_failed)?;
    match removed {
        Ok(()) => Ok(see_other(&items_page(&garment_reference(&id), &format!("removed-{tag}")))),
        Err(refusal) => {
            let (_, status) = refusal_field(&refusal);
            page.refused("items", refusal.to_string(), status).await
        }
    }
}

/// POST /admin/orders/{id}/bags: the bags counted at intake (`bags`).
pub async fn set_bags(
    state: web::Data<AppState>,
    request: HttpRequest,
    staff: CurrentStaff,
    id: web::Path<String>,
    form: Fields,
) -> Result<HttpResponse, ApiError> {
    let reference = order_id(&id)?;
    let page = IntakePage { state: &state, request: &request, staff: &staff, id: &id };
    let bags = match parse_count(field(&form, "bags"), "bags", 1, MAX_BAGS) {
        Ok(bags) => bags,
        Err(message) => {
            return page.refused("bags", message, StatusCode::UNPROCESSABLE_ENTITY).await;
        }
    };
    let saved = on_order(&state, reference, move |connection, order_id| garments::set_bags(connection, order_id, bags))
        .await
        .map_err(super::load_failed)?;
    match saved {
        Ok(()) => Ok(see_other(&format!("{}#bags", items_page(&garment_reference(&id), "bags")))),
        Err(refusal) => {
            let (_, status) = refusal_field(&refusal);
            page.refused("bags", refusal.to_string(), status).await
        }
    }
}

/// POST /admin/orders/{id}/rack: the order hung on a rack (`rack`), or moved to another; an audit's
/// "missing" mark is cleared.
pub async fn set_rack(
    state: web::Data<AppState>,
    request: HttpRequest,
    staff: CurrentStaff,
    id: web::Path<String>,
    form: Fields,
) -> Result<HttpResponse, ApiError> {
    let reference = order_id(&id)?;
    let page = IntakePage { state: &state, request: &request, staff: &staff, id: &id };
    let rack = field(&form, "rack").unwrap_or_default().to_owned();
    let racks = state.settings().racks.clone();
    let (by, now) = (staff.email.clone(), state.now());
    let saved = on_order(&state, reference, move |connection, order_id| {
        garments::hang_on_rack(connection, order_id, &rack, &racks, &by, now)
    })
    .await
    .map_err(super::load_failed)?;
    match saved {
        Ok(_) => Ok(see_other(&format!("{}#rack", items_page(&garment_reference(&id), "rack")))),
        Err(refusal) => {
            let (_, status) = refusal_field(&refusal);
            page.refused("rack", refusal.to_string(), status).await
        }
    }
}

/// The query of the tags page.
#[derive(Debug, serde::Deserialize)]
pub struct TagsQuery {
    size: Option<String>,
}

/// GET /admin/orders/{id}/tags?size=58|80|a4: the order's labels to print (58 mm by default).
pub async fn show_tags(
    state: web::Data<AppState>,
    request: HttpRequest,
    _staff: CurrentStaff,
    id: web::Path<String>,
    query: web::Query<TagsQuery>,
) -> Result<HttpResponse, ApiError> {
    let size = match query.size.as_deref().map(str::trim) {
        None | Some("" | "58") => "58",
        Some("80") => "80",
        Some(size) if size.eq_ignore_ascii_case("a4") => "a4",
        Some(_) => return Err(ApiError::BadRequest("The label size is 58, 80 (mm rolls) or a4.".to_owned())),
    };
    let Some(record) = load_page(&state, &id).await? else { return Ok(not_found(&state, &request).await) };
    let props = TagsPageProps::new(&record, size, &state.settings().base_url);
    let path = format!("/admin/orders/{}/tags", record.order.reference);
    let (page, _) = state.pages().render(&path, &props).await;
    Ok(page.respond_private(&request))
}

/// GET /admin/photos/{id} and /admin/photos/{id}/thumb: a photo, for staff.
pub async fn show_photo(
    state: web::Data<AppState>,
    _staff: CurrentStaff,
    path: web::Path<String>,
    request: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let thumb = request.path().ends_with("/thumb");
    serve_photo(&state, &path, None, thumb).await
}
