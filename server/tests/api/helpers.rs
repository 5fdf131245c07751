//! `spawn_app()` and request helpers shared by the integration tests.

use actix_web::web;
use laundry::config::Settings;
use laundry::startup::Application;
use laundry::state::AppState;
use std::path::{Path, PathBuf};

/// A running server and a client for it.
pub struct TestApp {
    pub address: String,
    pub client: reqwest::Client,
    pub state: web::Data<AppState>,
}

impl TestApp {
    /// GET `path`, asking for no compression so bodies read as text.
    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client.get(format!("{}{path}", self.address)).send().await.unwrap()
    }

    /// GET `path` with extra headers.
    pub async fn get_with(&self, path: &str, headers: &[(&str, &str)]) -> reqwest::Response {
        let mut request = self.client.get(format!("{}{path}", self.address));
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        request.send().await.unwrap()
    }

    /// Renders completed by the server's engines so far.
    pub fn renders(&self) -> u64 {
        self.state.pages().render_stats().rendered
    }
}

/// The frontend built by `make build` (frontend/dist).
pub fn built_frontend() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../frontend/dist");
    assert!(dir.join("manifest.json").exists(), "build the frontend first: make build (looked in {})", dir.display());
    dir
}

/// Starts the real server on a free port with the built frontend.
pub async fn spawn_app() -> TestApp {
    spawn_app_with(&built_frontend(), 1000).await
}

/// Starts the real server with another frontend folder and render time limit.
pub async fn spawn_app_with(frontend_dir: &Path, render_timeout_ms: u64) -> TestApp {
    let frontend = frontend_dir.display().to_string();
    let timeout = render_timeout_ms.to_string();
    let settings = Settings::from_lookup(|name| match name {
        "LAUNDRY_ADDR" => Some("127.0.0.1:0".to_owned()),
        "LAUNDRY_FRONTEND_DIR" => Some(frontend.clone()),
        "LAUNDRY_WORKERS" => Some("2".to_owned()),
        "LAUNDRY_RENDER_TIMEOUT_MS" => Some(timeout.clone()),
        _ => None,
    })
    .unwrap();
    let application = Application::build(settings).await.unwrap();
    let address = format!("http://127.0.0.1:{}", application.port());
    let state = application.state();
    actix_web::rt::spawn(application.run_until_stopped());
    let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    TestApp { address, client, state }
}
