//! What a visitor gets when the server render fails: a fixture frontend whose server bundle
//! misbehaves for /pricing, beside the real client files.

use crate::helpers::{TestApp, built_frontend};
use std::path::Path;

/// A copy of the built frontend with `server/server.js` replaced by `bundle`.
fn frontend_with_bundle(bundle: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&built_frontend(), dir.path());
    std::fs::write(dir.path().join("server/server.js"), bundle).unwrap();
    dir
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// The error page renders; /pricing does what `pricing` says.
fn bundle(pricing: &str) -> String {
    format!(
        r#"globalThis.ssrRender = function (page, propsJson) {{
            if (page === "pricing") {{ {pricing} }}
            const props = JSON.parse(propsJson);
            return JSON.stringify({{ html: "<main><h1>Unexpected Application Error!</h1></main>", title: "Error",
                description: "", status: props.status }});
        }};"#
    )
}

#[actix_web::test]
async fn a_page_that_throws_answers_500_with_the_error_text() {
    let frontend = frontend_with_bundle(&bundle(r#"throw new Error("broken component");"#));
    let app = TestApp::builder().frontend(frontend.path()).start().await;

    let response = app.get("/pricing").await;

    assert_eq!(response.status(), 500);
    assert!(response.text().await.unwrap().contains("Unexpected Application Error!"));
}

#[actix_web::test]
async fn an_engine_that_times_out_still_sends_the_shell_for_the_browser_to_render() {
    let frontend = frontend_with_bundle(&bundle("for (;;) {}"));
    let app = TestApp::builder().frontend(frontend.path()).render_timeout_ms(50).start().await;

    let response = app.get("/pricing").await;

    assert_eq!(response.status(), 200);
    let html = response.text().await.unwrap();
    assert!(html.contains(r#"<div id="root"></div>"#), "the root should be empty for the client to render");
    assert!(html.contains(r#"<script type="module" src="/assets/entry-client-"#));
    assert!(html.contains(r#""page":"pricing""#));
    assert!(html.contains("General Laundry (1-5kg)"), "the props must travel with the shell");
}

#[actix_web::test]
async fn a_failed_render_is_not_cached() {
    let frontend = frontend_with_bundle(&bundle("for (;;) {}"));
    let app = TestApp::builder().frontend(frontend.path()).render_timeout_ms(50).start().await;
    let failed_before = app.state.pages().render_stats().failed;

    app.get("/pricing").await;
    app.get("/pricing").await;

    assert_eq!(app.state.pages().render_stats().failed, failed_before + 2, "the second request did not try again");
}
