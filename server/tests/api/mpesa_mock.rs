//! A mock of Safaricom's Daraja API on loopback: the OAuth token (`GET /oauth/v1/generate`, HTTP
//! Basic), the prompt (`POST /mpesa/stkpush/v1/processrequest`), its status query
//! (`POST /mpesa/stkpushquery/v1/query`) and the till's URL registration
//! (`POST /mpesa/c2b/{v1,v2}/registerurl`), each behind the Bearer token it issued. Records every
//! request with its headers and JSON, and answers from scripts.

use actix_web::{App, HttpRequest, HttpResponse, HttpServer, web};
use base64::Engine as _;
use serde_json::{Value, json};
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The consumer key and secret the mock takes (`mpesa_env` sets them).
pub const CONSUMER_KEY: &str = "test-consumer-key";
pub const CONSUMER_SECRET: &str = "test-consumer-secret";

/// One request the mock received.
#[derive(Debug, Clone)]
pub struct DarajaRequest {
    /// The path, like `/mpesa/stkpush/v1/processrequest`.
    pub path: String,
    /// Header names in lower case.
    pub headers: HashMap<String, String>,
    /// The JSON body (`Null` for the token's GET).
    pub body: Value,
}

/// How the mock answers a prompt.
#[derive(Debug, Clone)]
pub enum PushReply {
    /// Accepted: ResponseCode "0" and a fresh CheckoutRequestID.
    Accept,
    /// This HTTP status with Daraja's error body (`errorCode`, `errorMessage`).
    Error(u16, &'static str),
    /// Accepted, after this long (longer than the worker waits: a time-out).
    Hang(Duration),
}

/// How the mock answers a status query.
#[derive(Debug, Clone)]
pub enum QueryReply {
    /// 500 with `500.001.1001` "The transaction is being processed".
    Processing,
    /// 200 with this ResultCode and ResultDesc.
    Ended(i64, &'static str),
}

#[derive(Default)]
struct MockState {
    received: Mutex<Vec<DarajaRequest>>,
    push_script: Mutex<VecDeque<PushReply>>,
    query_replies: Mutex<HashMap<String, QueryReply>>,
    /// Tokens issued and still taken.
    tokens: Mutex<Vec<String>>,
    /// The `expires_in` the next tokens carry, in seconds.
    expires_in: AtomicU64,
    next_id: AtomicU64,
}

/// The running mock.
pub struct MockDaraja {
    pub url: String,
    state: Arc<MockState>,
}

fn headers_of(request: &HttpRequest) -> HashMap<String, String> {
    request
        .headers()
        .iter()
        .map(|(name, value)| (name.as_str().to_ascii_lowercase(), value.to_str().unwrap_or_default().to_owned()))
        .collect()
}

fn record(state: &MockState, request: &HttpRequest, body: Value) {
    state.received.lock().unwrap().push(DarajaRequest {
        path: request.path().to_owned(),
        headers: headers_of(request),
        body,
    });
}

fn daraja_error(status: u16, code: &str, message: &str) -> HttpResponse {
    HttpResponse::build(actix_web::http::StatusCode::from_u16(status).unwrap()).json(json!({
        "requestId": "mock-1",
        "errorCode": code,
        "errorMessage": message,
    }))
}

/// The Bearer token is one the mock issued and did not revoke.
fn authorised(state: &MockState, request: &HttpRequest) -> bool {
    let given = request
        .headers()
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or_default()
        .to_owned();
    state.tokens.lock().unwrap().contains(&given)
}

async fn token(state: web::Data<Arc<MockState>>, request: HttpRequest) -> HttpResponse {
    record(&state, &request, Value::Null);
    let expected = format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(format!("{CONSUMER_KEY}:{CONSUMER_SECRET}"))
    );
    let basic = request.headers().get("authorization").and_then(|v| v.to_str().ok()).unwrap_or_default();
    if request.query_string() != "grant_type=client_credentials" {
        return daraja_error(400, "400.008.02", "Invalid grant type passed");
    }
    if basic != expected {
        return daraja_error(400, "400.008.01", "Invalid Authentication passed");
    }
    let token = format!("token-{}", state.next_id.fetch_add(1, Ordering::SeqCst) + 1);
    state.tokens.lock().unwrap().push(token.clone());
    let expires_in = state.expires_in.load(Ordering::SeqCst);
    HttpResponse::Ok().json(json!({"access_token": token, "expires_in": expires_in.to_string()}))
}

async fn push(state: web::Data<Arc<MockState>>, request: HttpRequest, body: web::Json<Value>) -> HttpResponse {
    record(&state, &request, body.into_inner());
    if !authorised(&state, &request) {
        return daraja_error(401, "404.001.03", "Invalid Access Token");
    }
    let reply = state.push_script.lock().unwrap().pop_front().unwrap_or(PushReply::Accept);
    match reply {
        PushReply::Error(status, message) => return daraja_error(status, "400.002.02", message),
        PushReply::Hang(delay) => tokio::time::sleep(delay).await,
        PushReply::Accept => {}
    }
    let n = state.next_id.fetch_add(1, Ordering::SeqCst) + 1;
    HttpResponse::Ok().json(json!({
        "MerchantRequestID": format!("29115-34620561-{n}"),
        "CheckoutRequestID": format!("ws_CO_2611202610{n:06}"),
        "ResponseCode": "0",
        "ResponseDescription": "Success. Request accepted for processing",
        "CustomerMessage": "Success. Request accepted for processing",
    }))
}

async fn query(state: web::Data<Arc<MockState>>, request: HttpRequest, body: web::Json<Value>) -> HttpResponse {
    let body = body.into_inner();
    let checkout = body["CheckoutRequestID"].as_str().unwrap_or_default().to_owned();
    record(&state, &request, body);
    if !authorised(&state, &request) {
        return daraja_error(401, "404.001.03", "Invalid Access Token");
    }
    match state.query_replies.lock().unwrap().get(&checkout).cloned().unwrap_or(QueryReply::Processing) {
        QueryReply::Processing => daraja_error(500, "500.001.1001", "The transaction is being processed"),
        QueryReply::Ended(code, desc) => HttpResponse::Ok().json(json!({
            "ResponseCode": "0",
            "ResponseDescription": "The service request has been accepted successsfully",
            "MerchantRequestID": "29115-34620561-1",
            "CheckoutRequestID": checkout,
            "ResultCode": code.to_string(),
            "ResultDesc": desc,
        })),
    }
}

async fn register(state: web::Data<Arc<MockState>>, request: HttpRequest, body: web::Json<Value>) -> HttpResponse {
    record(&state, &request, body.into_inner());
    if !authorised(&state, &request) {
        return daraja_error(401, "404.001.03", "Invalid Access Token");
    }
    HttpResponse::Ok().json(json!({
        "OriginatorCoversationID": "6e86-45dd-91ac-fd5d4178ab52",
        "ResponseCode": "0",
        "ResponseDescription": "success",
    }))
}

impl MockDaraja {
    /// Starts the mock on a free port; its tokens last an hour.
    pub async fn start() -> MockDaraja {
        let state = Arc::new(MockState { expires_in: AtomicU64::new(3599), ..MockState::default() });
        let shared = web::Data::new(state.clone());
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let server = HttpServer::new(move || {
            App::new()
                .app_data(shared.clone())
                .route("/oauth/v1/generate", web::get().to(token))
                .route("/mpesa/stkpush/v1/processrequest", web::post().to(push))
                .route("/mpesa/stkpushquery/v1/query", web::post().to(query))
                .route("/mpesa/c2b/{version}/registerurl", web::post().to(register))
        })
        .workers(1)
        .listen(listener)
        .unwrap()
        .run();
        actix_web::rt::spawn(server);
        MockDaraja { url: format!("http://127.0.0.1:{port}"), state }
    }

    /// The next prompts' answers, in order; after them Accept.
    pub fn script_pushes(&self, replies: &[PushReply]) {
        self.state.push_script.lock().unwrap().extend(replies.iter().cloned());
    }

    /// What a status query of `checkout_request_id` answers from now on (default Processing).
    pub fn answer_query(&self, checkout_request_id: &str, reply: QueryReply) {
        self.state.query_replies.lock().unwrap().insert(checkout_request_id.to_owned(), reply);
    }

    /// The lifetime, in seconds, of the tokens issued from now on.
    pub fn token_lifetime(&self, seconds: u64) {
        self.state.expires_in.store(seconds, Ordering::SeqCst);
    }

    /// Takes back every token issued (as Daraja does when it rotates them early).
    pub fn revoke_tokens(&self) {
        self.state.tokens.lock().unwrap().clear();
    }

    /// Everything received so far.
    pub fn received(&self) -> Vec<DarajaRequest> {
        self.state.received.lock().unwrap().clone()
    }

    /// The requests to `path`, in order.
    pub fn requests_to(&self, path: &str) -> Vec<DarajaRequest> {
        self.received().into_iter().filter(|r| r.path == path).collect()
    }

    /// The prompts received, in order.
    pub fn pushes(&self) -> Vec<DarajaRequest> {
        self.requests_to("/mpesa/stkpush/v1/processrequest")
    }

    /// How many tokens were asked for.
    pub fn token_requests(&self) -> usize {
        self.requests_to("/oauth/v1/generate").len()
    }

    /// Waits until `count` prompts arrived (fails after `within`).
    pub async fn wait_for_pushes(&self, count: usize, within: Duration) -> Vec<DarajaRequest> {
        let deadline = Instant::now() + within;
        loop {
            let pushes = self.pushes();
            if pushes.len() >= count {
                return pushes;
            }
            assert!(Instant::now() < deadline, "the mock got {} prompts, expected {count}", pushes.len());
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}
