//! Request handlers, one file (or folder) per resource. `startup::routes` registers them all in one
//! place. Handler files do not call into each other; what several of them need is here.

pub mod admin;
pub mod assets;
pub mod catalogue;
pub mod contacts;
pub mod health;
pub mod orders;
pub mod pages;
pub mod seo;
pub mod tracking;
pub mod valet;

use crate::config::Settings;
use crate::rendering::PageResponse;
use crate::state::AppState;
use crate::views::pages::{CatalogueProps, ContactPageProps, HomeProps, Page};
use crate::views::tracking::TrackingProps;
use serde_json::Value;
use std::sync::Arc;

/// The pages that are the same for every visitor: (page, path).
pub const STATIC_PAGES: [(Page, &str); 7] = [
    (Page::Home, "/"),
    (Page::Pricing, "/pricing"),
    (Page::Order, "/order"),
    (Page::Tracking, "/tracking"),
    (Page::Contact, "/contact"),
    (Page::Privacy, "/privacy"),
    (Page::Confirmation, "/confirmation"),
];

/// A page's own props as it is shown to everyone, besides the shared ones.
pub fn own_props(settings: &Settings, page: Page) -> Value {
    let own = match page {
        Page::Home => serde_json::to_value(HomeProps {
            intro_video_url: settings.intro_video_url.clone(),
            first_order_discount: settings.first_order_discount,
        }),
        Page::Pricing | Page::Order => serde_json::to_value(CatalogueProps::new(settings.first_order_discount)),
        Page::Tracking => serde_json::to_value(TrackingProps { query: None, result: None }),
        Page::Contact => serde_json::to_value(ContactPageProps { form: None, sent: false }),
        Page::Privacy | Page::Confirmation | Page::Login | Page::Admin | Page::Valet | Page::Error => {
            Ok(Value::Object(Default::default()))
        }
    };
    own.unwrap_or_default()
}

/// A page that is the same for every visitor, from the cache.
pub async fn public_page(state: &AppState, page: Page, path: &str) -> Arc<PageResponse> {
    let pages = state.pages();
    pages.cached(page.name(), page, pages.props(path, &own_props(state.settings(), page))).await
}
