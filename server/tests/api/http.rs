//! What every answer carries: HEAD answered like GET, and HSTS once the site is on HTTPS.

use crate::helpers::{TestApp, quick_retries};
use std::io::{Read, Write};

/// Sends `HEAD path` over a plain connection and returns everything the server sent back.
async fn raw_head(app: &TestApp, path: &str) -> String {
    let address = app.address.trim_start_matches("http://").to_owned();
    let request = format!("HEAD {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n");
    actix_web::rt::task::spawn_blocking(move || {
        let mut stream = std::net::TcpStream::connect(&address).unwrap();
        stream.set_read_timeout(Some(std::time::Duration::from_secs(10))).unwrap();
        stream.write_all(request.as_bytes()).unwrap();
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer).unwrap();
        String::from_utf8_lossy(&answer).into_owned()
    })
    .await
    .unwrap()
}

#[actix_web::test]
async fn head_of_the_home_and_pricing_pages_answers_200_without_a_body() {
    let app = TestApp::builder().start().await;

    for path in ["/", "/pricing"] {
        let answer = raw_head(&app, path).await;

        let (head, body) = answer.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 200"), "HEAD {path}: {head}");
        assert!(head.to_lowercase().contains("content-type: text/html"), "HEAD {path}: {head}");
        assert_eq!(body, "", "HEAD {path} sent a body");
    }
}

#[actix_web::test]
async fn hsts_is_sent_when_the_site_is_served_over_https_and_not_otherwise() {
    let plain = TestApp::builder().start().await;
    let https = TestApp::builder()
        .set("LAUNDRY_BASE_URL", "https://laundry.example.com")
        .retries(quick_retries())
        .start()
        .await;

    let over_http = plain.get("/pricing").await;
    let over_https = https.get("/pricing").await;

    assert!(over_http.headers().get("strict-transport-security").is_none());
    assert_eq!(over_https.headers()["strict-transport-security"], "max-age=31536000");
}
