//! A kept photo of a garment served: to staff (the floor and intake pages) and to the customer on
//! the order's own page (only that order's photos).

use crate::db::DbError;
use crate::error::ApiError;
use crate::models::garments::photo::GarmentPhoto;
use crate::state::AppState;
use actix_web::HttpResponse;
use actix_web::http::header;

/// The photo `id` (of the order `order_id` only, when given): 404 for any other.
pub async fn serve_photo(
    state: &AppState,
    id: &str,
    order_id: Option<String>,
    thumb: bool,
) -> Result<HttpResponse, ApiError> {
    let missing = || ApiError::NotFound("There is no such photo.".to_owned());
    if !crate::photos::store::is_photo_id(id) {
        return Err(missing());
    }
    let photo_id = id.to_owned();
    let found = state
        .db()
        .run(move |connection| GarmentPhoto::find(connection, &photo_id).map_err(DbError::from))
        .await
        .map_err(|source| ApiError::Storage { message: "The photo could not be read. Please try again.", source })?;
    let Some(photo) = found.filter(|photo| order_id.as_ref().is_none_or(|order| *order == photo.order_id)) else {
        return Err(missing());
    };
    let bytes = state.photos().read(&photo.id, thumb).await.map_err(|error| {
        tracing::error!(%error, "a photo could not be read");
        ApiError::Storage {
            message: "The photo could not be read. Please try again.",
            source: DbError::Task(error.to_string()),
        }
    })?;
    let bytes = bytes.ok_or_else(missing)?;
    Ok(HttpResponse::Ok()
        .content_type("image/jpeg")
        .insert_header((header::CACHE_CONTROL, "private, max-age=31536000, immutable"))
        .insert_header(("X-Content-Type-Options", "nosniff"))
        .body(bytes))
}
