//! The one state every handler shares.

use crate::config::Settings;
use crate::pages::Pages;

/// Shared by all workers behind `web::Data`.
#[derive(Debug)]
pub struct AppState {
    settings: Settings,
    pages: Pages,
}

impl AppState {
    /// State from loaded settings and the page renderer.
    pub fn new(settings: Settings, pages: Pages) -> Self {
        Self { settings, pages }
    }

    /// The configuration the server started with.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Page rendering and its cache.
    pub fn pages(&self) -> &Pages {
        &self.pages
    }
}
