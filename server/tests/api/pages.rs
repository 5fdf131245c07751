//! The pages as the HTML arrives, before any JavaScript runs.

use crate::helpers::TestApp;
use laundry::catalogue::PRICE_LIST;

#[actix_web::test]
async fn pricing_html_holds_every_price_and_the_header_links_before_javascript() {
    let app = TestApp::builder().start().await;

    let response = app.get("/pricing").await;

    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "text/html; charset=utf-8");
    let html = response.text().await.unwrap();
    let root = html.split(r#"<div id="root">"#).nth(1).unwrap().split(r#"<script id="page-data""#).next().unwrap();
    assert_eq!(PRICE_LIST.len(), 34);
    for entry in PRICE_LIST {
        let item = entry.item.replace('&', "&amp;");
        let card = format!(
            r#"<span class="price-card__item">{item}</span><span class="price-card__price">KSh {}</span>"#,
            entry.price
        );
        assert!(root.contains(&card), "the server-rendered HTML lacks {card}");
    }
    for (href, label) in [("/", "Home"), ("/pricing", "Pricing"), ("/order", "Order"), ("/contact", "Contact")] {
        assert!(
            root.contains(&format!(r#"<a href="{href}""#)) && root.contains(&format!(">{label}</a>")),
            "no {label} link"
        );
    }
    assert!(root.contains("General Laundry (1-5kg)</span><span class=\"price-card__price\">KSh 500"));
    assert!(root.contains("Order Now") && root.contains("Place Your Order"));
    assert!(html.contains("<title>Laundry &#38; Dry Cleaning Prices in Nairobi"));
}

#[actix_web::test]
async fn the_active_header_link_is_the_current_page() {
    let app = TestApp::builder().start().await;

    let html = app.get("/pricing").await.text().await.unwrap();

    assert!(html.contains(r#"<a href="/pricing" class="active" aria-current="page">Pricing</a>"#));
    assert!(html.contains(r#"<a href="/">Home</a>"#), "Home must not be active on /pricing");
}

#[actix_web::test]
async fn the_footer_shows_the_tagline_business_details_and_this_year() {
    let app = TestApp::builder().start().await;

    let html = app.get("/pricing").await.text().await.unwrap();

    let year = app.clock.nairobi().year();
    assert!(html.contains("Express Laundry Services"));
    assert!(html.contains("Pickup &amp; delivery available"));
    assert!(html.contains("sales@example.com"));
    assert!(html.contains(&format!("© <!-- -->{year}")), "no copyright line for {year}");
    // The chat link carries the provider's number and starts a booking with what staff need.
    let booking = "Hello%20Usafi%20Express%20Laundry%2C%20I%20would%20like%20to%20book%20a%20laundry%20pickup.\
                   %0AMy%20name%3A%20%0ALocation%3A%20%0APickup%20day%20and%20time%3A%20";
    let chat = format!(r#"href="https://wa.me/254700000000?text={booking}" target="_blank" rel="noopener noreferrer""#);
    assert!(html.contains(&chat), "the header's chat link");
}

#[actix_web::test]
async fn an_unknown_route_is_404_with_the_error_text_inside_the_header_and_footer() {
    let app = TestApp::builder().start().await;

    let response = app.get("/no-such-page").await;

    assert_eq!(response.status(), 404);
    let html = response.text().await.unwrap();
    assert!(html.contains("Unexpected Application Error!"));
    assert!(html.contains(r#"class="site-header""#) && html.contains(r#"class="site-footer""#));
}

#[actix_web::test]
async fn a_second_request_for_pricing_is_served_without_rendering_again() {
    let app = TestApp::builder().start().await;
    let first = app.get("/pricing").await.text().await.unwrap();
    let renders_after_first = app.renders();

    let second = app.get("/pricing").await.text().await.unwrap();

    assert_eq!(app.renders(), renders_after_first, "the second request rendered again");
    assert_eq!(first, second);
}

#[actix_web::test]
async fn pages_are_compressed_for_clients_that_accept_it_and_revalidate_by_etag() {
    let app = TestApp::builder().start().await;

    let brotli = app.get_with("/pricing", &[("accept-encoding", "br, gzip")]).await;
    let gzip = app.get_with("/pricing", &[("accept-encoding", "gzip")]).await;

    assert_eq!(brotli.headers()["content-encoding"], "br");
    assert_eq!(gzip.headers()["content-encoding"], "gzip");
    let etag = brotli.headers()["etag"].to_str().unwrap().to_owned();
    let revalidated = app.get_with("/pricing", &[("if-none-match", &etag)]).await;
    assert_eq!(revalidated.status(), 304);
}

#[actix_web::test]
async fn the_page_data_carries_the_catalogue_the_search_reads() {
    let app = TestApp::builder().start().await;

    let html = app.get("/pricing").await.text().await.unwrap();

    let data = html
        .split(r#"<script id="page-data" type="application/json">"#)
        .nth(1)
        .unwrap()
        .split("</script>")
        .next()
        .unwrap();
    let data: serde_json::Value = serde_json::from_str(data).unwrap();
    assert_eq!(data["page"], "pricing");
    assert_eq!(data["props"]["priceList"].as_array().unwrap().len(), 34);
    assert_eq!(data["props"]["priceList"][0]["price"], 500);
    assert_eq!(data["props"]["services"][0]["pricePerKg"], 150, "and the services ordered by the kg");
}

#[actix_web::test]
async fn every_public_page_is_server_rendered_with_its_own_title() {
    let app = TestApp::builder().start().await;
    let pages = [
        ("/", "We&#x27;ll take the laundry. You take the time."),
        ("/order", "Place Your Order"),
        ("/tracking", "Track Your Order"),
        ("/contact", "Get in Touch"),
        ("/confirmation", "Order Confirmed!"),
    ];
    let mut titles = std::collections::HashSet::new();

    for (path, heading) in pages {
        let response = app.get(path).await;
        assert_eq!(response.status(), 200, "{path}");
        let html = response.text().await.unwrap();
        assert!(html.contains(heading), "{path} lacks {heading}");
        let title = html.split("<title>").nth(1).unwrap().split("</title>").next().unwrap().to_owned();
        assert!(titles.insert(title.clone()), "{path} repeats the title {title}");
    }
}

#[actix_web::test]
async fn the_order_form_posts_named_fields_without_javascript() {
    let app = TestApp::builder().start().await;

    let html = app.get("/order").await.text().await.unwrap();

    assert!(html.contains(r#"<form class="form order-form" action="/order" method="post">"#));
    for name in [
        "customerName",
        "phone",
        "email",
        "location",
        "serviceType",
        "quantity",
        "paymentMethod",
        "specialInstructions",
        "piece.shirt",
        "piece.graduation-gown",
    ] {
        assert!(html.contains(&format!(r#"name="{name}""#)), "no field named {name}");
    }
    assert!(html.contains(r#"<option value="wash-fold">Wash &amp; Fold - KSh 150 per kg</option>"#));
    assert!(html.contains("Select a service to see pricing"));
    assert!(html.contains("3552248"));
    assert!(html.contains(">Place Order</button>"));
}

#[actix_web::test]
async fn the_home_page_has_the_banner_and_three_testimonials() {
    let app = TestApp::builder().start().await;

    let html = app.get("/").await.text().await.unwrap();

    assert!(html.contains("Get $20 off your first order"));
    assert_eq!(html.matches(r#"class="card testimonial""#).count(), 3);
    assert!(html.contains(r#"href="/order">Schedule a Pickup</a>"#));
    assert!(html.contains(r#"href="/pricing">View Pricing</a>"#));
}

#[test]
fn the_server_renders_exactly_the_pages_of_the_frontend_route_table() {
    let frontend = laundry::frontend::Frontend::load(&crate::helpers::built_frontend()).unwrap();
    let mut table: Vec<&str> = frontend.manifest().pages.keys().map(String::as_str).collect();
    let mut server: Vec<&str> = laundry::views::pages::Page::ALL.iter().map(|page| page.name()).collect();
    table.sort_unstable();
    server.sort_unstable();

    assert_eq!(server, table, "the server's Page enum and frontend/src/routes.ts must name the same pages");
}

/// The inlined stylesheet of a page's HTML.
fn inlined_css(html: &str) -> &str {
    html.split("<style>").nth(1).and_then(|rest| rest.split("</style>").next()).expect("an inlined <style>")
}

#[actix_web::test]
async fn the_staff_stylesheet_is_inlined_into_the_staff_pages_only() {
    let app = TestApp::builder().start().await;
    app.create_staff("styles@example.com", "Styles-Test-Pass-2026");
    let staff_only = [".admin-head", ".orders-table", ".login-card"];

    let pricing = app.get("/pricing").await.text().await.unwrap();
    let site_css = inlined_css(&pricing);
    assert!(site_css.contains(".price-card"), "/pricing lost the site's own styles");
    for selector in staff_only {
        assert!(!pricing.contains(selector), "/pricing carries the staff selector {selector}");
    }
    for path in ["/", "/order", "/tracking", "/contact", "/no-such-page"] {
        let html = app.get(path).await.text().await.unwrap();
        assert_eq!(inlined_css(&html), site_css, "{path} must have the site's stylesheet and nothing more");
    }

    let session = app.sign_in("styles@example.com", "Styles-Test-Pass-2026").await;
    let login = app.get("/admin/login").await.text().await.unwrap();
    let dashboard = app.get_with("/admin", &[("cookie", &session.cookie)]).await.text().await.unwrap();
    for (path, html) in [("/admin/login", &login), ("/admin", &dashboard)] {
        let css = inlined_css(html);
        assert!(
            css.starts_with(site_css) && css.len() > site_css.len(),
            "{path}: the site's stylesheet, then the staff one"
        );
        for selector in staff_only {
            assert!(css.contains(selector), "{path} lacks the staff selector {selector}");
        }
    }
}
