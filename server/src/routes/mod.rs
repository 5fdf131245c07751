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
pub mod photos;
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
use crate::rendering::PageJson;
use crate::rendering::PageResponse;
use crate::state::AppState;
use crate::views::pages::{
    CatalogueProps, ConfirmationProps, ContactPageProps, HomeProps, OrderPageProps, PickupByText, PrivacyProps,
};
use crate::views::slots::{PickupChoices, horizon_end};
use crate::views::tracking::TrackingProps;
use std::sync::Arc;
use time::OffsetDateTime;

/// The pages that are the same for every visitor (at their address).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PublicPage {
    /// `/`
    Home,
    /// `/pricing`
    Pricing,
    /// `/order`, the form without anything entered.
    Order,
    /// `/tracking` before a search.
    Tracking,
    /// `/contact`, the form without anything entered.
    Contact,
    /// `/privacy`
    Privacy,
    /// `/confirmation` without an order named.
    Confirmation,
}

impl PublicPage {
    /// Every one of them.
    pub const ALL: [PublicPage; 7] = [
        PublicPage::Home,
        PublicPage::Pricing,
        PublicPage::Order,
        PublicPage::Tracking,
        PublicPage::Contact,
        PublicPage::Privacy,
        PublicPage::Confirmation,
    ];

    /// Its address.
    pub fn path(self) -> &'static str {
        match self {
            PublicPage::Home => "/",
            PublicPage::Pricing => "/pricing",
            PublicPage::Order => "/order",
            PublicPage::Tracking => "/tracking",
            PublicPage::Contact => "/contact",
            PublicPage::Privacy => "/privacy",
            PublicPage::Confirmation => "/confirmation",
        }
    }

    /// The page with its props as everyone sees it; the order form as it is before anything is
    /// booked at `now` (every window with all its places): what the cache starts from and the
    /// benches render.
    pub fn page(self, settings: &Settings, now: OffsetDateTime) -> PageJson {
        let (business, clock, path) = (&settings.business, &settings.clock, self.path());
        let discount = settings.first_order_discount;
        match self {
            PublicPage::Home => PageJson::new(
                business,
                clock,
                path,
                &HomeProps {
                    intro_video_url: settings.intro_video_url.clone(),
                    first_order_discount: discount,
                    sends_texts: settings.sms.missing().is_empty(),
                    pickup_by_text: PickupByText::new(&settings.sms),
                    reclean_days: settings.reclean_days,
                },
            ),
            PublicPage::Pricing => PageJson::new(business, clock, path, &CatalogueProps::new(discount)),
            PublicPage::Order => {
                let pickup = PickupChoices::new(&settings.schedule, now, &[]);
                PageJson::new(business, clock, path, &order_form(settings, pickup, settings.mpesa.sends_prompts()))
            }
            PublicPage::Tracking => PageJson::new(business, clock, path, &TrackingProps { query: None, result: None }),
            PublicPage::Contact => PageJson::new(business, clock, path, &ContactPageProps { form: None, sent: false }),
            PublicPage::Privacy => {
                let props = PrivacyProps { keep_messages_months: settings.keep_messages_months };
                PageJson::new(business, clock, path, &props)
            }
            PublicPage::Confirmation => {
                PageJson::new(business, clock, path, &ConfirmationProps { order: None, error: None })
            }
        }
    }
}

/// The order form without anything entered, offering `pickup`; `prompts`: whether "Pay Now
/// (M-PESA)" sends a prompt to the phone.
fn order_form(settings: &Settings, pickup: PickupChoices, prompts: bool) -> OrderPageProps {
    OrderPageProps { catalogue: CatalogueProps::new(settings.first_order_discount), pickup, prompts, form: None }
}

/// A page that is the same for every visitor, from the cache. The order form's pickup windows
/// fill up and close: it is kept while they stay as they are.
pub async fn public_page(state: &AppState, page: PublicPage) -> Arc<PageResponse> {
    let pages = state.pages();
    if page == PublicPage::Order {
        let own = order_form(state.settings(), pickup_choices(state).await, state.sends_prompts());
        return pages.current(pages.page(page.path(), &own)).await;
    }
    let json = page.page(state.settings(), state.clock().now());
    pages.cached(json.page().name(), json).await
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
