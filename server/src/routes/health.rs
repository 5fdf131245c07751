//! GET /healthz: for load balancers and `make run` scripts.

use actix_web::HttpResponse;

/// 200 while the server accepts requests.
pub async fn health() -> HttpResponse {
    HttpResponse::Ok().content_type("text/plain; charset=utf-8").body("ok")
}
