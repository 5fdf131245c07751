//! Page names and the props of every page: what all pages share, and each page's own.

use crate::catalogue::{PriceItem, SERVICES, Service};
use crate::config::Business;
use crate::domain::FieldErrors;
use crate::views::orders::OrderLineView;
use crate::views::payment::CustomerPayment;
use crate::views::slots::PickupChoices;
use serde::Serialize;
use std::collections::BTreeMap;
use ts_rs::TS;

/// The pages of the frontend's route table (`frontend/src/pages.json`); a test checks the two
/// name the same pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(rename = "PageName")]
pub enum Page {
    /// `/`
    Home,
    /// `/pricing`
    Pricing,
    /// `/order`
    Order,
    /// `/tracking`
    Tracking,
    /// `/contact`
    Contact,
    /// `/privacy`
    Privacy,
    /// `/confirmation`
    Confirmation,
    /// `/admin/login`
    Login,
    /// `/admin`
    Admin,
    /// `/valet`: the day's run on a valet's phone, never hydrated.
    Valet,
    /// 404 and 500.
    Error,
    /// `/t/{token}`: one order's own page.
    OrderStatus,
    /// `/t/{token}/receipt`: one order's receipt, printable.
    Receipt,
    /// `/admin/exports/summary`: the accountant's summary of a month, printable.
    Summary,
    /// `/admin/orders/{id}/items`: an order's items, photos, bags, rack and claims.
    Garments,
    /// `/admin/orders/{id}/tags`: an order's tag labels and bag ticket, printable.
    Tags,
    /// `/admin/garments`: find an order by its tag, the racks and their audit, open claims.
    Floor,
}

impl Page {
    /// Every page.
    pub const ALL: [Page; 17] = [
        Page::Home,
        Page::Pricing,
        Page::Order,
        Page::Tracking,
        Page::Contact,
        Page::Privacy,
        Page::Confirmation,
        Page::Login,
        Page::Admin,
        Page::Valet,
        Page::Error,
        Page::OrderStatus,
        Page::Receipt,
        Page::Summary,
        Page::Garments,
        Page::Tags,
        Page::Floor,
    ];
}

/// A page's own props (besides the [`SharedProps`]): each page has exactly one such type, and
/// rendering takes one (`rendering::PageJson::new`), so a page is never rendered with
/// another page's props. The frontend's route table is checked against the same pairs: the
/// generated `PagePropsMap` names each page's props type, and `tsc` refuses a page component that
/// expects anything else.
pub trait PageProps: Serialize {
    /// The page these are the props of.
    const PAGE: Page;
}

/// Pairs each page with its name in the frontend's route table and its own props type: implements
/// [`PageProps`] for each type, writes [`Page::name`], and declares [`PagePropsMap`] for the
/// TypeScript side. The `match` in `name` is exhaustive, so a page without props fails to build,
/// and a type given to two pages has two conflicting `impl`s.
macro_rules! pages_with_props {
    ($($page:ident $name:ident: $props:ty,)*) => {
        $(impl PageProps for $props {
            const PAGE: Page = Page::$page;
        })*

        impl Page {
            /// The name the frontend's route table gives it.
            pub fn name(self) -> &'static str {
                match self {
                    $(Page::$page => stringify!($name),)*
                }
            }
        }

        /// Page name → the type of its own props: the TypeScript type `PagePropsMap`, which
        /// `frontend/src/routes.ts` holds every page component to. Only its type is used; it is
        /// never built.
        #[derive(TS)]
        #[allow(dead_code)]
        pub struct PagePropsMap {
            $($name: $props,)*
        }
    };
}

pages_with_props! {
    Home home: HomeProps,
    Pricing pricing: CatalogueProps,
    Order order: OrderPageProps,
    Tracking tracking: crate::views::tracking::TrackingProps,
    Contact contact: ContactPageProps,
    Privacy privacy: PrivacyProps,
    Confirmation confirmation: ConfirmationProps,
    Login login: LoginProps,
    Admin admin: crate::views::admin::DashboardProps,
    Valet valet: crate::views::valet::ValetProps,
    Error error: ErrorProps,
    OrderStatus orderstatus: crate::views::order_page::OrderStatusProps,
    Receipt receipt: crate::views::receipt::ReceiptProps,
    Summary summary: crate::views::reports::MonthSummary,
    Garments garments: crate::views::garments::GarmentsPageProps,
    Tags tags: crate::views::garments::TagsPageProps,
    Floor floor: crate::views::garments::FloorPageProps,
}

impl Page {
    /// Whether the browser hydrates the page: false for the valet page, which is all plain forms
    /// for a cheap phone on 2G and is sent without any script or page data.
    pub fn hydrates(self) -> bool {
        self != Page::Valet
    }
}

impl std::fmt::Display for Page {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What every page receives, whatever the page.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SharedProps<'a> {
    /// The request path, for the active header link.
    pub path: &'a str,
    /// The year of the copyright line, given by the server so that both renders agree.
    pub year: i32,
    /// Business details, from the configuration.
    pub business: &'a Business,
    /// The single catalogue's price list; the header search reads it.
    #[ts(as = "Vec<PriceItem>")]
    pub price_list: &'static [PriceItem],
}

/// The JSON embedded in the document for the client entry (`PageData` in
/// `frontend/src/lib/types.ts`, made of the generated `PageName` and `SharedProps`).
#[derive(Debug, Clone, Serialize)]
pub struct PageData<'a> {
    /// Which page to hydrate.
    pub page: Page,
    /// Its props (the shared ones and its own).
    pub props: &'a serde_json::Value,
}

/// The home page's own props.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct HomeProps {
    /// The intro video, if configured.
    pub intro_video_url: Option<String>,
    /// KSh off a phone number's first order, when the offer is on: the banner says how it applies.
    pub first_order_discount: Option<u32>,
    /// Whether customers get texts (Africa's Talking is configured): the page promises the 5:30pm
    /// ETA text and the tracking link only then.
    pub sends_texts: bool,
    /// How to book a pickup by text; `None` unless it works (the page promises it only then).
    pub pickup_by_text: Option<PickupByText>,
    /// Days after delivery within which a free re-clean is asked for (the guarantee's terms).
    pub reclean_days: u32,
}

/// The letter a customer texts, and the number they text it to, to book a pickup.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct PickupByText {
    /// `LAUNDRY_SMS_PICKUP_LETTER`, upper case.
    pub letter: String,
    /// `AT_SHORTCODE`.
    pub number: String,
}

impl PickupByText {
    /// From the SMS settings, when a text with the letter is received and answered.
    pub fn new(sms: &crate::sms::SmsSettings) -> Option<Self> {
        let number = sms.shortcode.clone().filter(|_| sms.takes_pickups_by_text())?;
        Some(PickupByText { letter: sms.pickup_letter.to_string(), number })
    }
}

/// The props of the pages that show the services (pricing, order); the price list is in every
/// page's shared props.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CatalogueProps {
    /// The services ordered by the kg.
    #[ts(as = "Vec<Service>")]
    pub services: &'static [Service],
    /// KSh off a phone number's first order, when the offer is on.
    pub first_order_discount: Option<u32>,
}

impl CatalogueProps {
    /// The catalogue's services and the configured first-order discount.
    pub fn new(first_order_discount: Option<u32>) -> Self {
        CatalogueProps { services: &SERVICES, first_order_discount }
    }
}

/// A form the server sends back: the entered values, a message per wrong field, and an alert.
#[derive(Debug, Clone, Serialize, TS)]
pub struct FormState {
    /// What was entered, by field name.
    pub values: BTreeMap<String, Option<String>>,
    /// A message per wrong field.
    pub errors: FieldErrors,
    /// A message for the whole form.
    pub alert: Option<String>,
    /// The HTTP status the page answers with.
    pub status: u16,
}

impl FormState {
    /// The form with what was entered, its mistakes, and an alert, answered with `status`.
    pub fn new<Name: Into<String>>(
        values: impl IntoIterator<Item = (Name, Option<String>)>,
        errors: FieldErrors,
        alert: Option<&str>,
        status: u16,
    ) -> Self {
        FormState {
            values: values.into_iter().map(|(name, value)| (name.into(), value)).collect(),
            errors,
            alert: alert.map(str::to_owned),
            status,
        }
    }
}

/// The order page's own props.
#[derive(Debug, Clone, Serialize, TS)]
pub struct OrderPageProps {
    /// The orderable services.
    #[serde(flatten)]
    pub catalogue: CatalogueProps,
    /// The pickup windows that can be chosen, and the terms of delivery.
    pub pickup: PickupChoices,
    /// Whether "Pay Now (M-PESA)" sends a prompt to the phone (the summary says so).
    pub prompts: bool,
    /// The form sent back after a plain post with mistakes.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub form: Option<FormState>,
}

/// The contact page's own props.
#[derive(Debug, Clone, Serialize, TS)]
pub struct ContactPageProps {
    /// The form sent back after a plain post with mistakes.
    pub form: Option<FormState>,
    /// After a plain post that was stored.
    pub sent: bool,
}

/// The privacy page's own props (the business e-mail it names is in the shared props).
#[derive(Debug, Clone, Default, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PrivacyProps {
    /// Months the outbox keeps a copy of a message (`LAUNDRY_KEEP_MESSAGES_MONTHS`); null: as long
    /// as the order.
    pub keep_messages_months: Option<u32>,
}

/// The order just placed, as the confirmation shows it (no more personal data than needed).
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ConfirmedOrder {
    /// The order ID.
    pub id: String,
    /// The main line's service.
    pub service_label: String,
    /// The main line's kg.
    pub quantity: i32,
    /// KSh: the sum of the lines.
    pub total_amount: i32,
    /// Every line, the main (kg) line first.
    pub lines: Vec<OrderLineView>,
    /// Whether the customer pays now (the till instructions are shown).
    pub pay_now: bool,
    /// Masked.
    pub phone: String,
    /// The pickup window, `Wed 25 Nov, 19:00-20:00` (none for an order placed before windows
    /// could be chosen).
    pub pickup: Option<String>,
    /// Whether staff have confirmed the pickup slot yet.
    pub pickup_confirmed: bool,
    /// The delivery, `Sat 28 Nov, 19:00-20:00`.
    pub delivery: Option<String>,
    /// Next-day rush.
    pub rush: bool,
    /// The payment (the prompt on the phone, when the site sends prompts).
    pub payment: CustomerPayment,
    /// The order's own page, `/t/{token}`, where it can be followed and changed: only for the
    /// browser that placed it (the order ID alone is no secret).
    pub track_path: Option<String>,
}

/// The confirmation page's own props.
#[derive(Debug, Clone, Serialize, TS)]
pub struct ConfirmationProps {
    /// The order, when the address named one (null when it named none that exists).
    #[ts(optional = nullable)]
    pub order: Option<ConfirmedOrder>,
    /// Why the order is not shown (too many look-ups from this connection).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub error: Option<String>,
}

/// The error page's own props.
#[derive(Debug, Clone, Serialize, TS)]
pub struct ErrorProps {
    /// 404 or 500.
    pub status: u16,
}

/// The sign-in page's own props.
#[derive(Debug, Clone, Serialize, TS)]
pub struct LoginProps {
    /// The form's token, checked by the server with its cookie.
    pub csrf: String,
    /// Where to go once signed in (a path of the dashboard).
    pub next: String,
    /// The e-mail entered before, after a refused attempt.
    pub email: String,
    /// Why the last attempt was refused.
    pub error: Option<String>,
    /// A word about what just happened ('You have signed out.').
    pub notice: Option<String>,
    /// The HTTP status the page answers with.
    pub status: u16,
}
