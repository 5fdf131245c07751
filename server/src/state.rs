//! The one state every handler shares.

use crate::config::Settings;
use crate::db::Database;
use crate::pages::Pages;
use crate::rate_limit::RateLimiter;

/// Shared by all workers behind `web::Data`.
#[derive(Debug)]
pub struct AppState {
    settings: Settings,
    pages: Pages,
    database: Database,
    tracking_limit: RateLimiter,
}

impl AppState {
    /// State from loaded settings, the page renderer and the database.
    pub fn new(settings: Settings, pages: Pages, database: Database) -> Self {
        Self { settings, pages, database, tracking_limit: RateLimiter::tracking() }
    }

    /// The database pool.
    pub fn db(&self) -> &Database {
        &self.database
    }

    /// The per-client limit on order look-ups.
    pub fn tracking_limit(&self) -> &RateLimiter {
        &self.tracking_limit
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
