//! What the fakes a server serves received, as JSON, and the end of a waiting prompt: for the
//! browser tests (`laundry serve --fake-providers`), which read the texts the customer got and pay
//! the prompts as the customer's phone would. Served only where the fakes are.
//!
//! - `GET /dev/fakes/texts`: `[{"to", "message"}]`, oldest first.
//! - `GET /dev/fakes/prompts`: `[{"checkout", "phone", "amount", "account", "ended"}]`, oldest
//!   first (`ended`: `null` while it waits, else `paid`, `cancelled` or `timed out`).
//! - `POST /dev/fakes/prompts/{checkout}/pay` (JSON `{"receipt": "QLP500GHIJ"}`, optional: ten
//!   capitals and digits), `…/cancel`, `…/timeout`: ends the prompt and posts M-PESA's callback;
//!   `{"said": …}` with how the server answered it. 404 if the prompt is not waiting.

use super::{FakeDaraja, Fakes, PromptEnd};
use actix_web::{HttpResponse, web};
use serde::Deserialize;
use serde_json::json;

/// The routes, under `/dev/fakes`.
pub fn routes(config: &mut web::ServiceConfig) {
    config
        .route("/dev/fakes/texts", web::get().to(texts))
        .route("/dev/fakes/prompts", web::get().to(prompts))
        .route("/dev/fakes/prompts/{checkout}/{end}", web::post().to(end_prompt));
}

async fn texts(fakes: web::Data<Fakes>) -> HttpResponse {
    let texts: Vec<_> = fakes
        .at
        .received()
        .iter()
        .map(|text| json!({"to": text.field("to"), "message": text.field("message")}))
        .collect();
    HttpResponse::Ok().json(texts)
}

async fn prompts(fakes: web::Data<Fakes>) -> HttpResponse {
    let prompts: Vec<_> = fakes
        .daraja
        .prompts()
        .into_iter()
        .map(|prompt| {
            json!({
                "checkout": prompt.checkout_request_id,
                "phone": prompt.phone,
                "amount": prompt.amount,
                "account": prompt.account_reference,
                "ended": prompt.end.as_ref().map(|end| match end {
                    PromptEnd::Paid(_) => "paid",
                    PromptEnd::Cancelled => "cancelled",
                    PromptEnd::TimedOut => "timed out",
                }),
            })
        })
        .collect();
    HttpResponse::Ok().json(prompts)
}

/// The body of `…/pay`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Paid {
    receipt: Option<String>,
}

/// An M-PESA receipt's shape: ten capitals and digits, starting with a capital.
fn receipt_shaped(receipt: &str) -> bool {
    receipt.len() == 10
        && receipt.starts_with(|c: char| c.is_ascii_uppercase())
        && receipt.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
}

/// A fresh receipt of M-PESA's shape.
pub fn new_receipt() -> String {
    format!("TD{}", &uuid::Uuid::new_v4().simple().to_string()[..8]).to_uppercase()
}

async fn end_prompt(fakes: web::Data<Fakes>, path: web::Path<(String, String)>, body: web::Bytes) -> HttpResponse {
    let (checkout, end) = path.into_inner();
    let paid = if body.is_empty() { Ok(Paid::default()) } else { serde_json::from_slice::<Paid>(&body) };
    let paid = match paid {
        Ok(paid) => paid,
        Err(error) => {
            return HttpResponse::BadRequest().json(
                json!({"error": format!("Send nothing, or JSON like {{\"receipt\": \"QLP500GHIJ\"}}: {error}")}),
            );
        }
    };
    let end = match end.as_str() {
        "pay" => match paid.receipt {
            None => PromptEnd::Paid(new_receipt()),
            Some(receipt) if receipt_shaped(&receipt) => PromptEnd::Paid(receipt),
            Some(_) => {
                return HttpResponse::BadRequest()
                    .json(json!({"error": "A receipt is ten capitals and digits, starting with a capital."}));
            }
        },
        "cancel" => PromptEnd::Cancelled,
        "timeout" => PromptEnd::TimedOut,
        _ => return HttpResponse::NotFound().json(json!({"error": "Ends are pay, cancel and timeout."})),
    };
    match fakes.daraja.end(&checkout, end) {
        None => HttpResponse::NotFound().json(json!({"error": "That prompt is not waiting."})),
        Some(prompt) => HttpResponse::Ok().json(json!({"said": FakeDaraja::send_callback(&prompt).await})),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn receipts_have_m_pesas_shape() {
        assert!(receipt_shaped("QLP500GHIJ") && receipt_shaped(&new_receipt()));
        for wrong in ["qlp500ghij", "1LP500GHIJ", "QLP500GHI", "QLP500GHIJK", "QLP500-HIJ"] {
            assert!(!receipt_shaped(wrong), "{wrong}");
        }
    }
}
