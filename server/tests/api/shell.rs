//! The site's shell (issue 14): the icon and link-preview picture, the privacy notice, and the
//! Content-Security-Policy that lets the intro video in.

use crate::helpers::{TestApp, quick_retries};

/// The directives of a Content-Security-Policy header, by name.
fn directives(policy: &str) -> Vec<(&str, &str)> {
    policy
        .split(';')
        .map(str::trim)
        .filter(|directive| !directive.is_empty())
        .map(|directive| directive.split_once(' ').unwrap_or((directive, "")))
        .collect()
}

#[actix_web::test]
async fn the_favicon_answers_where_browsers_ask_for_it() {
    let app = TestApp::builder().start().await;

    let ico = app.get("/favicon.ico").await;
    let svg = app.get("/favicon.svg").await;

    assert_eq!(ico.status(), 200);
    assert_eq!(ico.headers()["content-type"], "image/x-icon");
    assert!(ico.headers()["cache-control"].to_str().unwrap().contains("max-age=86400"));
    assert_eq!(&ico.bytes().await.unwrap()[..4], &[0, 0, 1, 0], "an ICO file starts 00 00 01 00");
    assert_eq!(svg.status(), 200);
    assert_eq!(svg.headers()["content-type"], "image/svg+xml");
    assert!(svg.text().await.unwrap().starts_with("<svg"));
}

#[actix_web::test]
async fn every_page_links_the_icon_and_a_1200_by_630_share_picture_that_answers() {
    let app = TestApp::builder().start().await;

    for path in ["/", "/pricing", "/privacy", "/missing"] {
        let html = app.get(path).await.text().await.unwrap();
        assert!(html.contains(r#"<link rel="icon" href="/favicon.ico" sizes="32x32">"#), "{path}");
        assert!(html.contains(r#"<link rel="icon" href="/favicon.svg" type="image/svg+xml">"#), "{path}");
        assert!(html.contains(r#"<meta property="og:image" content="http://127.0.0.1:8080/og-image.png">"#), "{path}");
        assert!(html.contains(r#"<meta property="og:image:width" content="1200">"#), "{path}");
        assert!(html.contains(r#"<meta property="og:image:height" content="630">"#), "{path}");
        assert!(html.contains(r#"<meta property="og:image:alt" content=""#), "{path}");
    }
    let picture = app.get("/og-image.png").await;
    assert_eq!(picture.status(), 200);
    assert_eq!(picture.headers()["content-type"], "image/png");
    let png = picture.bytes().await.unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    // The IHDR chunk: width and height, big-endian, at bytes 16..24.
    assert_eq!(u32::from_be_bytes(png[16..20].try_into().unwrap()), 1200);
    assert_eq!(u32::from_be_bytes(png[20..24].try_into().unwrap()), 630);
}

#[actix_web::test]
async fn the_privacy_notice_says_what_is_kept_why_how_long_and_whom_to_ask() {
    let app = TestApp::builder().start().await;

    let response = app.get("/privacy").await;

    assert_eq!(response.status(), 200);
    assert!(response.headers().contains_key("etag"), "served from the page cache");
    let html = response.text().await.unwrap();
    assert!(html.contains("<h1>Privacy Notice</h1>"));
    assert!(html.contains("Data Protection"));
    assert!(html.contains("5 years after the order"));
    assert!(html.contains("1 year after we answer"));
    assert!(
        html.contains("1 year after we send them; the order then keeps only a note of what was sent and when."),
        "copies of messages for LAUNDRY_KEEP_MESSAGES_MONTHS (12 by default)"
    );
    assert!(html.contains(r#"href="mailto:sales@example.com""#), "the business e-mail from the configuration");
    assert!(html.contains("Office of the Data Protection Commissioner"));
    assert!(html.contains(r#"<link rel="canonical" href="http://127.0.0.1:8080/privacy">"#));
    let sitemap = app.get("/sitemap.xml").await.text().await.unwrap();
    assert!(sitemap.contains("<loc>http://127.0.0.1:8080/privacy</loc>"));
}

#[actix_web::test]
async fn every_page_footer_links_the_privacy_notice_and_the_header_links_tracking() {
    let app = TestApp::builder().start().await;

    for path in ["/", "/pricing", "/order", "/contact", "/tracking"] {
        let html = app.get(path).await.text().await.unwrap();
        assert!(html.contains(r#"<a href="/privacy">Privacy notice</a>"#), "{path}");
        let header = html.split("</header>").next().unwrap();
        assert!(header.contains(r#"href="/tracking""#), "{path}: the header links /tracking");
    }
}

#[actix_web::test]
async fn without_an_intro_video_media_comes_from_our_own_site_only() {
    let app = TestApp::builder().start().await;

    let response = app.get("/").await;

    let policy = response.headers()["content-security-policy"].to_str().unwrap().to_owned();
    assert!(!directives(&policy).iter().any(|(name, _)| *name == "media-src"), "{policy}");
    assert!(directives(&policy).contains(&("default-src", "'self'")), "{policy}");
}

#[actix_web::test]
async fn an_intro_video_on_another_site_is_allowed_as_media_and_nothing_else() {
    let env = [("INTRO_VIDEO_URL", "https://videos.example.net/laundry/intro.mp4".to_owned())];
    let app = TestApp::builder().env(&env).retries(quick_retries()).start().await;

    let response = app.get("/").await;

    let policy = response.headers()["content-security-policy"].to_str().unwrap().to_owned();
    let directives = directives(&policy);
    assert!(directives.contains(&("media-src", "'self' https://videos.example.net")), "{policy}");
    let naming: Vec<_> = directives.iter().filter(|(_, sources)| sources.contains("videos.example.net")).collect();
    assert_eq!(naming.len(), 1, "only media-src names the video's site: {policy}");
    assert!(directives.contains(&("script-src", "'self'")), "{policy}");
    let html = response.text().await.unwrap();
    assert!(html.contains(r#"src="https://videos.example.net/laundry/intro.mp4""#));
}

#[actix_web::test]
async fn the_first_order_banner_says_how_its_discount_is_claimed() {
    let off = TestApp::builder().start().await;
    let env = [("LAUNDRY_FIRST_ORDER_DISCOUNT_KES", "250".to_owned())];
    let on = TestApp::builder().env(&env).retries(quick_retries()).start().await;

    let without = off.get("/").await.text().await.unwrap();
    let with = on.get("/").await.text().await.unwrap();

    for html in [&without, &with] {
        assert!(html.contains("Get $20 off your first order"));
    }
    assert!(without.contains("Mention this offer when we call to confirm your first order."));
    assert!(with.contains("new to us and KSh 250 comes off your total"), "the configured amount");
}
