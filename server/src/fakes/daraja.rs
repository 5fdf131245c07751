//! Safaricom's Daraja: the OAuth token (`GET /oauth/v1/generate`, HTTP Basic), the prompt
//! (`POST /mpesa/stkpush/v1/processrequest`), its status query (`POST /mpesa/stkpushquery/v1/query`)
//! and the till's URL registration (`POST /mpesa/c2b/{v1,v2}/registerurl`), each behind a Bearer
//! token it issued. A prompt waits on "the customer's phone" until its owner ends it
//! ([`FakeDaraja::end`]: paid, cancelled or timed out); then the status query answers how it ended,
//! and [`FakeDaraja::send_callback`] posts M-PESA's callback to the URL the prompt named.

use super::{Book, DARAJA_KEY, DARAJA_SECRET, lock};
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use base64::Engine as _;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use time::OffsetDateTime;

/// One request the fake received.
#[derive(Debug, Clone)]
pub struct DarajaRequest {
    /// The path as requested (where a server serves the fake, under its scope).
    pub path: String,
    /// Header names in lower case.
    pub headers: HashMap<String, String>,
    /// The JSON body (`Null` for the token's GET).
    pub body: Value,
}

/// How the fake answers a prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PushReply {
    /// Accepted: ResponseCode "0" and a fresh CheckoutRequestID.
    Accept,
    /// This HTTP status with Daraja's error body (`errorCode` 400.002.02 and this message).
    Error(u16, &'static str),
    /// Accepted, after this long (longer than the worker waits: a time-out).
    Hang(Duration),
}

/// How the fake answers a status query, set for one prompt ([`FakeDaraja::answer_query`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum QueryReply {
    /// 500 with `500.001.1001` "The transaction is being processed".
    Processing,
    /// 200 with this ResultCode and ResultDesc.
    Ended(i64, &'static str),
}

/// How a prompt on "the customer's phone" ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PromptEnd {
    /// Paid, with this M-PESA receipt.
    Paid(String),
    /// The customer pressed Cancel.
    Cancelled,
    /// Nobody answered before it timed out.
    TimedOut,
}

impl PromptEnd {
    /// Daraja's ResultCode and ResultDesc for it.
    pub fn result(&self) -> (i64, &'static str) {
        match self {
            PromptEnd::Paid(_) => (0, "The service request is processed successfully."),
            PromptEnd::Cancelled => (1032, "Request cancelled by user"),
            PromptEnd::TimedOut => (1037, "DS timeout user cannot be reached"),
        }
    }
}

/// One prompt the fake accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prompt {
    /// Daraja's `CheckoutRequestID`.
    pub checkout_request_id: String,
    /// Daraja's `MerchantRequestID`.
    pub merchant_request_id: String,
    /// `PhoneNumber`, as sent (2547…).
    pub phone: String,
    /// `Amount`, KSh.
    pub amount: i64,
    /// `AccountReference`: the order ID.
    pub account_reference: String,
    /// `CallBackURL`: where the result goes.
    pub callback_url: String,
    /// When it arrived.
    pub asked_at: OffsetDateTime,
    /// How it ended; none while it waits on the phone.
    pub end: Option<PromptEnd>,
}

struct State {
    book: Book<DarajaRequest, PushReply>,
    /// The prompts it accepted (a book with no script: their ends are set by [`FakeDaraja::end`]).
    prompts: Book<Prompt, ()>,
    query_replies: Mutex<HashMap<String, QueryReply>>,
    /// Tokens issued and still taken.
    tokens: Mutex<Vec<String>>,
    /// The `expires_in` of the tokens issued from now on, in seconds.
    expires_in: AtomicU64,
    next_id: AtomicU64,
    /// Makes its ids unlike those of a fake started before (a demo restarted).
    started: i64,
}

/// The fake Daraja. Clones share what it received, its prompts and its script.
#[derive(Clone)]
pub struct FakeDaraja {
    /// Where it serves alone (`start`); empty where a server serves it.
    pub url: String,
    state: Arc<State>,
}

impl Default for FakeDaraja {
    /// Tokens that last an hour, as Daraja's do.
    fn default() -> Self {
        let state = State {
            book: Book::default(),
            prompts: Book::default(),
            query_replies: Mutex::default(),
            tokens: Mutex::default(),
            expires_in: AtomicU64::new(3599),
            next_id: AtomicU64::new(0),
            started: OffsetDateTime::now_utc().unix_timestamp(),
        };
        Self { url: String::new(), state: Arc::new(state) }
    }
}

fn daraja_error(status: StatusCode, code: &str, message: &str) -> HttpResponse {
    HttpResponse::build(status).json(json!({"requestId": "fake-1", "errorCode": code, "errorMessage": message}))
}

fn invalid_token() -> HttpResponse {
    daraja_error(StatusCode::UNAUTHORIZED, "404.001.03", "Invalid Access Token")
}

impl FakeDaraja {
    fn record(&self, request: &HttpRequest, body: Value) {
        self.state.book.record(DarajaRequest {
            path: request.path().to_owned(),
            headers: super::headers_of(request),
            body,
        });
    }

    /// The Bearer token is one it issued and did not take back.
    fn authorised(&self, request: &HttpRequest) -> bool {
        let given = request
            .headers()
            .get("authorization")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .unwrap_or_default();
        lock(&self.state.tokens).iter().any(|token| token == given)
    }

    fn next_id(&self) -> u64 {
        self.state.next_id.fetch_add(1, Ordering::SeqCst) + 1
    }
}

async fn token(fake: web::Data<FakeDaraja>, request: HttpRequest) -> HttpResponse {
    fake.record(&request, Value::Null);
    let expected =
        format!("Basic {}", base64::engine::general_purpose::STANDARD.encode(format!("{DARAJA_KEY}:{DARAJA_SECRET}")));
    let basic = request.headers().get("authorization").and_then(|v| v.to_str().ok()).unwrap_or_default();
    if request.query_string() != "grant_type=client_credentials" {
        return daraja_error(StatusCode::BAD_REQUEST, "400.008.02", "Invalid grant type passed");
    }
    if basic != expected {
        return daraja_error(StatusCode::BAD_REQUEST, "400.008.01", "Invalid Authentication passed");
    }
    let token = format!("fake-token-{}-{}", fake.state.started, fake.next_id());
    lock(&fake.state.tokens).push(token.clone());
    let expires_in = fake.state.expires_in.load(Ordering::SeqCst);
    HttpResponse::Ok().json(json!({"access_token": token, "expires_in": expires_in.to_string()}))
}

async fn push(fake: web::Data<FakeDaraja>, request: HttpRequest, body: web::Json<Value>) -> HttpResponse {
    let body = body.into_inner();
    fake.record(&request, body.clone());
    if !fake.authorised(&request) {
        return invalid_token();
    }
    let text = |name: &str| match &body[name] {
        Value::String(text) => text.clone(),
        Value::Number(number) => number.to_string(),
        _ => String::new(),
    };
    let amount = text("Amount").parse::<i64>().ok().filter(|amount| *amount >= 1);
    let (phone, callback_url) = (text("PhoneNumber"), text("CallBackURL"));
    let Some(amount) = amount.filter(|_| !phone.is_empty() && callback_url.starts_with("http")) else {
        return daraja_error(StatusCode::BAD_REQUEST, "400.002.02", "Bad Request - Invalid Amount");
    };
    match fake.state.book.next_answer().unwrap_or(PushReply::Accept) {
        PushReply::Error(status, message) => {
            return daraja_error(
                StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
                "400.002.02",
                message,
            );
        }
        PushReply::Hang(delay) => tokio::time::sleep(delay).await,
        PushReply::Accept => {}
    }
    let n = fake.next_id();
    let prompt = Prompt {
        checkout_request_id: format!("ws_CO_{}{n:06}", fake.state.started),
        merchant_request_id: format!("29115-{}-{n}", fake.state.started),
        phone,
        amount,
        account_reference: text("AccountReference"),
        callback_url,
        asked_at: OffsetDateTime::now_utc(),
        end: None,
    };
    fake.state.prompts.record(prompt.clone());
    HttpResponse::Ok().json(json!({
        "MerchantRequestID": prompt.merchant_request_id,
        "CheckoutRequestID": prompt.checkout_request_id,
        "ResponseCode": "0",
        "ResponseDescription": "Success. Request accepted for processing",
        "CustomerMessage": "Success. Request accepted for processing",
    }))
}

async fn query(fake: web::Data<FakeDaraja>, request: HttpRequest, body: web::Json<Value>) -> HttpResponse {
    let body = body.into_inner();
    let checkout = body["CheckoutRequestID"].as_str().unwrap_or_default().to_owned();
    fake.record(&request, body);
    if !fake.authorised(&request) {
        return invalid_token();
    }
    let prompt = fake.prompt(&checkout);
    let set = lock(&fake.state.query_replies).get(&checkout).cloned();
    let reply = match (set, &prompt) {
        (Some(reply), _) => reply,
        (None, Some(Prompt { end: Some(end), .. })) => {
            let (code, desc) = end.result();
            QueryReply::Ended(code, desc)
        }
        (None, Some(_)) => QueryReply::Processing,
        (None, None) => {
            return daraja_error(StatusCode::BAD_REQUEST, "400.002.02", "Bad Request - Invalid CheckoutRequestID");
        }
    };
    match reply {
        QueryReply::Processing => {
            daraja_error(StatusCode::INTERNAL_SERVER_ERROR, "500.001.1001", "The transaction is being processed")
        }
        QueryReply::Ended(code, desc) => HttpResponse::Ok().json(json!({
            "ResponseCode": "0",
            "ResponseDescription": "The service request has been accepted successsfully",
            "MerchantRequestID": prompt.map(|p| p.merchant_request_id).unwrap_or_default(),
            "CheckoutRequestID": checkout,
            "ResultCode": code.to_string(),
            "ResultDesc": desc,
        })),
    }
}

async fn register(fake: web::Data<FakeDaraja>, request: HttpRequest, body: web::Json<Value>) -> HttpResponse {
    fake.record(&request, body.into_inner());
    if !fake.authorised(&request) {
        return invalid_token();
    }
    HttpResponse::Ok().json(json!({
        "OriginatorCoversationID": "6e86-45dd-91ac-fd5d4178ab52",
        "ResponseCode": "0",
        "ResponseDescription": "success",
    }))
}

impl FakeDaraja {
    /// Serves it alone on a free port of 127.0.0.1 (its API at the root).
    pub async fn start() -> FakeDaraja {
        let fake = FakeDaraja::default();
        let routes = fake.clone();
        let url = super::serve_alone(move |config| routes.routes(config)).await;
        FakeDaraja { url, ..fake }
    }

    /// Its API, at the scope it is given.
    pub fn routes(&self, config: &mut web::ServiceConfig) {
        config
            .app_data(web::Data::new(self.clone()))
            .app_data(web::JsonConfig::default().limit(64 * 1024))
            .route("/oauth/v1/generate", web::get().to(token))
            .route("/mpesa/stkpush/v1/processrequest", web::post().to(push))
            .route("/mpesa/stkpushquery/v1/query", web::post().to(query))
            .route("/mpesa/c2b/{version}/registerurl", web::post().to(register));
    }

    /// The next prompts' answers, in order; after them Accept.
    pub fn script_pushes(&self, replies: &[PushReply]) {
        self.state.book.script(replies.iter().cloned());
    }

    /// What a status query of `checkout_request_id` answers from now on, whatever became of the
    /// prompt (or if the fake never issued it).
    pub fn answer_query(&self, checkout_request_id: &str, reply: QueryReply) {
        lock(&self.state.query_replies).insert(checkout_request_id.to_owned(), reply);
    }

    /// The lifetime, in seconds, of the tokens issued from now on.
    pub fn token_lifetime(&self, seconds: u64) {
        self.state.expires_in.store(seconds, Ordering::SeqCst);
    }

    /// Takes back every token issued (as Daraja does when it rotates them early).
    pub fn revoke_tokens(&self) {
        lock(&self.state.tokens).clear();
    }

    /// Every request received so far, oldest first.
    pub fn received(&self) -> Vec<DarajaRequest> {
        self.state.book.received()
    }

    /// The requests to `path` (its API's path, like `/oauth/v1/generate`), in order.
    pub fn requests_to(&self, path: &str) -> Vec<DarajaRequest> {
        self.received().into_iter().filter(|r| r.path.ends_with(path)).collect()
    }

    /// The prompts' requests received, in order (those refused too).
    pub fn pushes(&self) -> Vec<DarajaRequest> {
        self.requests_to("/mpesa/stkpush/v1/processrequest")
    }

    /// How many tokens were asked for.
    pub fn token_requests(&self) -> usize {
        self.requests_to("/oauth/v1/generate").len()
    }

    /// Waits until `count` prompts' requests arrived.
    ///
    /// # Panics
    /// After `within` without them.
    pub async fn wait_for_pushes(&self, count: usize, within: Duration) -> Vec<DarajaRequest> {
        super::wait_for("prompts", count, within, || self.pushes()).await
    }

    /// The prompts it accepted, oldest first.
    pub fn prompts(&self) -> Vec<Prompt> {
        self.state.prompts.received()
    }

    /// The prompt with this `CheckoutRequestID`.
    pub fn prompt(&self, checkout_request_id: &str) -> Option<Prompt> {
        self.state
            .prompts
            .with_received(|prompts| prompts.iter().find(|p| p.checkout_request_id == checkout_request_id).cloned())
    }

    /// Ends the prompt if it still waits; the prompt as it ended, or `None` (unknown, or ended
    /// before: each ends once).
    pub fn end(&self, checkout_request_id: &str, end: PromptEnd) -> Option<Prompt> {
        self.state.prompts.with_received(|prompts| {
            let prompt =
                prompts.iter_mut().find(|p| p.checkout_request_id == checkout_request_id && p.end.is_none())?;
            prompt.end = Some(end);
            Some(prompt.clone())
        })
    }

    /// Posts the callback of `prompt`, ended, to its `CallBackURL`: what the server answered, in
    /// words.
    pub async fn send_callback(prompt: &Prompt) -> String {
        let sent = crate::outbox::http_client()
            .post(&prompt.callback_url)
            .timeout(Duration::from_secs(10))
            .json(&callback_of(prompt))
            .send()
            .await;
        match sent {
            Ok(response) if response.status().is_success() => {
                format!("Order {}: the callback was sent and answered {}.", prompt.account_reference, response.status())
            }
            Ok(response) => format!(
                "Order {}: the callback was refused with {}; see the server's log.",
                prompt.account_reference,
                response.status()
            ),
            Err(error) => format!("Order {}: the callback could not be sent: {error}", prompt.account_reference),
        }
    }
}

/// The callback Daraja sends when `prompt` ended as it did (`Body.stkCallback`); `Null` while it
/// waits.
pub fn callback_of(prompt: &Prompt) -> Value {
    let Some(end) = &prompt.end else { return Value::Null };
    let (code, desc) = end.result();
    let mut callback = json!({
        "MerchantRequestID": prompt.merchant_request_id,
        "CheckoutRequestID": prompt.checkout_request_id,
        "ResultCode": code,
        "ResultDesc": desc,
    });
    if let PromptEnd::Paid(receipt) = end {
        let now = OffsetDateTime::now_utc().to_offset(crate::clock::NAIROBI);
        let date = format!(
            "{:04}{:02}{:02}{:02}{:02}{:02}",
            now.year(),
            u8::from(now.month()),
            now.day(),
            now.hour(),
            now.minute(),
            now.second()
        );
        callback["CallbackMetadata"] = json!({"Item": [
            {"Name": "Amount", "Value": prompt.amount},
            {"Name": "MpesaReceiptNumber", "Value": receipt},
            {"Name": "Balance"},
            {"Name": "TransactionDate", "Value": date.parse::<u64>().unwrap_or_default()},
            {"Name": "PhoneNumber", "Value": prompt.phone.parse::<u64>().unwrap_or_default()},
        ]});
    }
    json!({"Body": {"stkCallback": callback}})
}

#[cfg(test)]
mod tests {
    use super::*;

    fn waiting(fake: &FakeDaraja, n: usize) {
        fake.state.prompts.record(Prompt {
            checkout_request_id: format!("ws_CO_{n}"),
            merchant_request_id: format!("m-{n}"),
            phone: "254712345678".to_owned(),
            amount: 450,
            account_reference: "K7M2Q9XA".to_owned(),
            callback_url: "http://127.0.0.1:8080/hooks/payments/prompt/secret".to_owned(),
            asked_at: OffsetDateTime::UNIX_EPOCH,
            end: None,
        });
    }

    #[test]
    fn a_prompt_ends_once() {
        let fake = FakeDaraja::default();
        waiting(&fake, 1);
        waiting(&fake, 2);

        assert_eq!(fake.end("ws_CO_1", PromptEnd::Cancelled).map(|p| p.end), Some(Some(PromptEnd::Cancelled)));
        assert_eq!(fake.end("ws_CO_1", PromptEnd::Paid("TK".to_owned())), None, "ended already");
        assert_eq!(fake.end("ws_CO_9", PromptEnd::TimedOut), None, "unknown");
        let ids: Vec<_> = fake.prompts().into_iter().map(|p| p.checkout_request_id).collect();
        assert_eq!(ids, ["ws_CO_1", "ws_CO_2"]);
    }

    #[test]
    fn a_paid_prompts_callback_carries_its_receipt_amount_and_phone() {
        let fake = FakeDaraja::default();
        waiting(&fake, 1);
        assert_eq!(callback_of(&fake.prompts()[0]), Value::Null, "no callback while it waits");
        let paid = fake.end("ws_CO_1", PromptEnd::Paid("TK4ABCDEFG".to_owned())).map(|p| callback_of(&p));
        let callback = &paid.unwrap_or_default()["Body"]["stkCallback"];
        assert_eq!(callback["ResultCode"], 0);
        let items = callback["CallbackMetadata"]["Item"].as_array().cloned().unwrap_or_default();
        let value = |name: &str| items.iter().find(|item| item["Name"] == name).map(|item| item["Value"].clone());
        assert_eq!(value("MpesaReceiptNumber"), Some(json!("TK4ABCDEFG")));
        assert_eq!(value("Amount"), Some(json!(450)));
        assert_eq!(value("PhoneNumber"), Some(json!(254_712_345_678_u64)));
    }
}
