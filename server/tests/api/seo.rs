//! What search engines read.

use crate::helpers::TestApp;

fn structured_data(html: &str) -> serde_json::Value {
    let json = html.split(r#"<script type="application/ld+json">"#).nth(1).unwrap().split("</script>").next().unwrap();
    serde_json::from_str(json).unwrap()
}

#[actix_web::test]
async fn pricing_has_a_canonical_address_open_graph_and_an_offer_catalogue() {
    let app = TestApp::builder().start().await;

    let html = app.get("/pricing").await.text().await.unwrap();

    assert!(html.contains(r#"<link rel="canonical" href="http://127.0.0.1:8080/pricing">"#));
    assert!(html.contains(r#"<meta property="og:title" content="Laundry &#38; Dry Cleaning Prices in Nairobi"#));
    let data = structured_data(&html);
    assert_eq!(data["@type"], "DryCleaningOrLaundry");
    assert_eq!(data["telephone"], "+254 700 000 000");
    assert_eq!(data["hasOfferCatalog"]["itemListElement"].as_array().unwrap().len(), 34);
}

#[actix_web::test]
async fn every_page_names_the_business_with_its_hours_and_area() {
    let app = TestApp::builder().start().await;

    for path in ["/", "/order", "/tracking", "/contact", "/confirmation", "/missing"] {
        let data = structured_data(&app.get(path).await.text().await.unwrap());
        assert_eq!(data["areaServed"]["name"], "Nairobi", "{path}");
        assert_eq!(data["openingHoursSpecification"]["dayOfWeek"].as_array().unwrap().len(), 7, "{path}");
    }
}

#[actix_web::test]
async fn the_confirmation_and_error_pages_are_kept_out_of_search_results() {
    let app = TestApp::builder().start().await;

    for path in ["/confirmation", "/missing"] {
        let html = app.get(path).await.text().await.unwrap();
        assert!(html.contains(r#"<meta name="robots" content="noindex">"#), "{path}");
        assert!(!html.contains(r#"rel="canonical""#), "{path}");
    }
}

#[actix_web::test]
async fn robots_txt_keeps_crawlers_out_of_admin_and_points_to_the_sitemap() {
    let app = TestApp::builder().start().await;

    let response = app.get("/robots.txt").await;

    assert_eq!(response.status(), 200);
    let robots = response.text().await.unwrap();
    assert!(robots.contains("Disallow: /admin"));
    assert!(robots.contains("Sitemap: http://127.0.0.1:8080/sitemap.xml"));
}

#[actix_web::test]
async fn the_sitemap_lists_the_public_pages() {
    let app = TestApp::builder().start().await;

    let response = app.get("/sitemap.xml").await;

    assert_eq!(response.headers()["content-type"], "application/xml; charset=utf-8");
    let xml = response.text().await.unwrap();
    for path in ["/", "/pricing", "/order", "/tracking", "/contact"] {
        assert!(xml.contains(&format!("<loc>http://127.0.0.1:8080{path}</loc>")), "{path}");
    }
}
