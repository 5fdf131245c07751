//! Request handlers, one file (or folder) per resource. `startup::routes` registers them all in one
//! place. Handler files do not call into each other; what several of them need is here.

pub mod admin;
pub mod assets;
pub mod contacts;
pub mod health;
pub mod hooks;
pub mod order_page;
pub mod orders;
pub mod pages;
pub mod placing;
pub mod same_site;
pub mod seo;
pub mod slots;
pub mod tracking;
pub mod valet;

use crate::config::Settings;
use crate::db::DbError;
use crate::domain::schedule::nairobi_day;
use crate::models::stop::Stop;
use crate::rendering::PageResponse;
use crate::state::AppState;
use crate::views::pages::{CatalogueProps, ContactPageProps, HomeProps, OrderPageProps, Page, PickupByText};
use crate::views::slots::{PickupChoices, horizon_end};
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
            sends_texts: settings.sms.missing().is_empty(),
            pickup_by_text: PickupByText::new(&settings.sms),
            reclean_days: settings.reclean_days,
        }),
        Page::Pricing => serde_json::to_value(CatalogueProps::new(settings.first_order_discount)),
        // Every window with all its places: the page as it is before anything is booked.
        Page::Order => serde_json::to_value(OrderPageProps {
            catalogue: CatalogueProps::new(settings.first_order_discount),
            pickup: PickupChoices::new(&settings.schedule, settings.clock.now(), &[]),
            prompts: settings.mpesa.sends_prompts(),
            form: None,
        }),
        Page::Tracking => serde_json::to_value(TrackingProps { query: None, result: None }),
        Page::Contact => serde_json::to_value(ContactPageProps { form: None, sent: false }),
        Page::Privacy | Page::Confirmation | Page::Login | Page::Admin | Page::Valet | Page::Error => {
            Ok(Value::Object(Default::default()))
        }
        Page::OrderStatus | Page::Receipt => Ok(Value::Object(Default::default())),
    };
    own.unwrap_or_default()
}

/// A page that is the same for every visitor, from the cache. The order form's pickup windows
/// fill up and close: it is kept while they stay as they are.
pub async fn public_page(state: &AppState, page: Page, path: &str) -> Arc<PageResponse> {
    let pages = state.pages();
    if page == Page::Order {
        let catalogue = CatalogueProps::new(state.settings().first_order_discount);
        let own = OrderPageProps {
            catalogue,
            pickup: pickup_choices(state).await,
            prompts: state.sends_prompts(),
            form: None,
        };
        return pages.current(page.name(), page, pages.props(path, &own)).await;
    }
    pages.cached(page.name(), page, pages.props(path, &own_props(state.settings(), page))).await
}

/// The order form's pickup windows as they stand now, with the bookings of the days it offers
/// (one query). Should the database fail, the windows are offered with all their places: the
/// booking itself is still checked, and the form still works.
pub async fn pickup_choices(state: &AppState) -> PickupChoices {
    let schedule = &state.settings().schedule;
    let now = state.clock().now();
    let (from, to) = (nairobi_day(now), horizon_end(schedule, now));
    let booked = state
        .db()
        .run(move |connection| Stop::pickups_booked_between(connection, from, to).map_err(DbError::from))
        .await
        .unwrap_or_else(|error| {
            tracing::error!(%error, "counting the booked pickups for the order form failed");
            Vec::new()
        });
    PickupChoices::new(schedule, now, &booked)
}
