//! The client files the pages name.

use crate::helpers::TestApp;

fn module_named_by(html: &str) -> String {
    html.split(r#"<script type="module" src=""#).nth(1).unwrap().split('"').next().unwrap().to_owned()
}

#[actix_web::test]
async fn the_client_module_the_page_names_is_served_as_javascript_cached_for_a_year() {
    let app = TestApp::builder().start().await;
    let html = app.get("/pricing").await.text().await.unwrap();
    let module = module_named_by(&html);
    assert!(module.starts_with("/assets/entry-client-"), "{module}");

    let response = app.get(&module).await;

    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "text/javascript; charset=utf-8");
    assert_eq!(response.headers()["cache-control"], "public, max-age=31536000, immutable");
    assert!(response.text().await.unwrap().len() > 1000);
}

#[actix_web::test]
async fn every_preloaded_module_exists() {
    let app = TestApp::builder().start().await;
    let html = app.get("/pricing").await.text().await.unwrap();

    let preloads: Vec<&str> =
        html.split(r#"<link rel="modulepreload" href=""#).skip(1).map(|rest| rest.split('"').next().unwrap()).collect();

    assert!(preloads.iter().any(|p| p.contains("PricingPage-")), "the page's own chunk is not preloaded");
    assert!(!preloads.iter().any(|p| p.contains("ErrorPage-")), "another page's chunk is preloaded");
    for module in preloads {
        assert_eq!(app.get(module).await.status(), 200, "{module}");
    }
}

#[actix_web::test]
async fn assets_are_sent_compressed_when_accepted() {
    let app = TestApp::builder().start().await;
    let html = app.get("/pricing").await.text().await.unwrap();

    let response = app.get_with(&module_named_by(&html), &[("accept-encoding", "br")]).await;

    assert_eq!(response.headers()["content-encoding"], "br");
}

#[actix_web::test]
async fn an_unknown_asset_is_404() {
    let app = TestApp::builder().start().await;

    assert_eq!(app.get("/assets/nothing-here.js").await.status(), 404);
}
