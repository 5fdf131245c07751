//! Logging: `tracing` to standard error, filtered by `RUST_LOG` (default `info`), with a request
//! span that keeps secrets in URLs out of the log ([`RedactedRootSpan`]).

use actix_web::HttpMessage;
use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header;
use tracing::Span;
use tracing_actix_web::{DefaultRootSpanBuilder, RequestId, RootSpanBuilder};
use tracing_subscriber::EnvFilter;

/// Installs the global subscriber. Call once, first thing in `main`.
pub fn init() {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    // Colours only on a terminal: a log file, journald or `docker logs` gets plain text.
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_target(false)
        .with_ansi(ansi)
        .with_writer(std::io::stderr)
        .init();
}

/// The root span of each request, as `tracing-actix-web`'s default one but without what must not
/// reach a log: its `http.target` names the route's parameters that are secrets (`{secret}` of
/// the providers' callbacks, `{token}` of an order's page) by their names instead of their
/// values, and hides the values of such query parameters (and of a phone number or e-mail
/// looked up).
#[derive(Debug)]
pub struct RedactedRootSpan;

/// Route parameters and query parameters whose values are never logged.
const HIDDEN: [&str; 5] = ["secret", "token", "phone", "email", "csrf"];

impl RootSpanBuilder for RedactedRootSpan {
    fn on_request_start(request: &ServiceRequest) -> Span {
        let pattern = request.match_pattern();
        let route = pattern.clone().unwrap_or_else(|| "default".to_owned());
        let target = redacted_target(pattern.as_deref(), request.path(), request.query_string());
        let method = request.method().as_str().to_owned();
        let request_id = request.extensions().get::<RequestId>().copied().map(|id| id.to_string()).unwrap_or_default();
        let user_agent = request.headers().get(header::USER_AGENT).and_then(|value| value.to_str().ok()).unwrap_or("");
        let connection = request.connection_info();
        tracing::info_span!(
            "HTTP request",
            http.method = %method,
            http.route = %route,
            http.flavor = ?request.version(),
            http.scheme = %connection.scheme(),
            http.host = %connection.host(),
            http.client_ip = %connection.realip_remote_addr().unwrap_or(""),
            http.user_agent = %user_agent,
            http.target = %target,
            http.status_code = tracing::field::Empty,
            otel.name = %format!("{method} {route}"),
            otel.kind = "server",
            otel.status_code = tracing::field::Empty,
            request_id = %request_id,
            exception.message = tracing::field::Empty,
            exception.details = tracing::field::Empty,
        )
    }

    fn on_request_end<B: MessageBody>(span: Span, outcome: &Result<ServiceResponse<B>, actix_web::Error>) {
        DefaultRootSpanBuilder::on_request_end(span, outcome);
    }
}

/// The path and query of a request, safe to log. A path that matched `pattern` shows each hidden
/// parameter as `{name}`; a path that matched nothing under `/t/` or `/hooks/` (a callback URL
/// mistyped with a trailing slash, say) keeps only its route words. Hidden query values are `***`.
fn redacted_target(pattern: Option<&str>, path: &str, query: &str) -> String {
    fn is_hidden(segment: &str) -> Option<&str> {
        let name = segment.strip_prefix('{')?.strip_suffix('}')?;
        let name = name.split(':').next().unwrap_or(name);
        HIDDEN.contains(&name).then_some(name)
    }
    let mut shown = match pattern {
        Some(pattern) if pattern.split('/').any(|segment| is_hidden(segment).is_some()) => {
            if pattern.split('/').count() == path.split('/').count() {
                let pairs = pattern.split('/').zip(path.split('/'));
                pairs
                    .map(|(pattern, actual)| is_hidden(pattern).map_or(actual.to_owned(), |name| format!("{{{name}}}")))
                    .collect::<Vec<_>>()
                    .join("/")
            } else {
                pattern.to_owned()
            }
        }
        Some(_) => path.to_owned(),
        None if path.starts_with("/t/") || path.starts_with("/hooks/") => path
            .split('/')
            .map(|segment| {
                let word = segment.len() <= 15 && segment.bytes().all(|b| b.is_ascii_lowercase() || b == b'-');
                if word { segment } else { "{redacted}" }
            })
            .collect::<Vec<_>>()
            .join("/"),
        None => path.to_owned(),
    };
    if !query.is_empty() {
        let pairs = query.split('&').map(|pair| match pair.split_once('=') {
            Some((key, _)) if HIDDEN.contains(&key) => format!("{key}=***"),
            _ => pair.to_owned(),
        });
        shown.push('?');
        shown.push_str(&pairs.collect::<Vec<_>>().join("&"));
    }
    shown
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use actix_web::test as actix_test;
    use actix_web::{App, HttpResponse, web};
    use std::io::Write;
    use std::sync::{Arc, Mutex};
    use tracing_actix_web::TracingLogger;

    const SECRET: &str = "s3cret-0123456789abcdefghij";
    const TOKEN: &str = "abcd1234efgh5678";

    #[test]
    fn hidden_parameters_are_named_not_shown() {
        let incoming = Some("/hooks/sms/incoming/{secret}");
        assert_eq!(
            redacted_target(incoming, &format!("/hooks/sms/incoming/{SECRET}"), ""),
            "/hooks/sms/incoming/{secret}"
        );
        assert_eq!(
            redacted_target(Some("/t/{token}/cancel"), &format!("/t/{TOKEN}/cancel"), "x=1"),
            "/t/{token}/cancel?x=1"
        );
        assert_eq!(
            redacted_target(Some("/hooks/sms/incoming"), "/hooks/sms/incoming", &format!("secret={SECRET}&a=b")),
            "/hooks/sms/incoming?secret=***&a=b"
        );
        assert_eq!(
            redacted_target(Some("/api/tracking"), "/api/tracking", "ref=AB12CD34&phone=0712345678"),
            "/api/tracking?ref=AB12CD34&phone=***"
        );
        // Other parameters stay readable: they are what one looks for in a log.
        assert_eq!(
            redacted_target(Some("/admin/orders/{id}/items"), "/admin/orders/AB12CD34/items", "csrf=k3y"),
            "/admin/orders/AB12CD34/items?csrf=***",
            "a photo form's CSRF token"
        );
        assert_eq!(redacted_target(Some("/assets/{name}"), "/assets/app-1a2b.js", ""), "/assets/app-1a2b.js");
        assert_eq!(redacted_target(None, "/nowhere/9", ""), "/nowhere/9");
        // A callback URL that matched no route still hides its secret.
        assert_eq!(
            redacted_target(None, &format!("/hooks/sms/incoming/{SECRET}/"), ""),
            "/hooks/sms/incoming/{redacted}/"
        );
        assert_eq!(redacted_target(None, &format!("/t/{TOKEN}/x"), ""), "/t/{redacted}/x");
    }

    /// Everything the subscriber writes, for the test to read.
    #[derive(Clone, Default)]
    struct Captured(Arc<Mutex<Vec<u8>>>);

    impl Write for Captured {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[actix_web::test]
    async fn a_request_to_a_secret_url_logs_its_route_and_never_its_secret() {
        let captured = Captured::default();
        let writer = captured.clone();
        let subscriber = tracing_subscriber::fmt().with_ansi(false).with_writer(move || writer.clone()).finish();
        let _guard = tracing::subscriber::set_default(subscriber);
        let handler = || async {
            tracing::info!("handled");
            HttpResponse::Ok().finish()
        };
        let app = actix_test::init_service(
            App::new()
                .wrap(TracingLogger::<RedactedRootSpan>::new())
                .route("/hooks/sms/incoming/{secret}", web::post().to(handler))
                .route("/t/{token}", web::get().to(handler)),
        )
        .await;
        for request in [
            actix_test::TestRequest::post().uri(&format!("/hooks/sms/incoming/{SECRET}?secret={SECRET}")),
            actix_test::TestRequest::get().uri(&format!("/t/{TOKEN}")),
        ] {
            assert!(actix_test::call_service(&app, request.to_request()).await.status().is_success());
        }
        let log = String::from_utf8(captured.0.lock().unwrap().clone()).unwrap();
        assert!(log.contains("http.target=/hooks/sms/incoming/{secret}?secret=***"), "{log}");
        assert!(log.contains("http.target=/t/{token}"), "{log}");
        assert!(log.contains("http.route=/t/{token}"), "{log}");
        assert!(!log.contains(SECRET) && !log.contains(TOKEN), "{log}");
    }
}
