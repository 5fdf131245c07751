//! The JSON that crosses between Rust and TypeScript: page props, API answers and the request
//! bodies the frontend sends, each a struct with `#[derive(Serialize, TS)]`. The TypeScript types
//! in `frontend/src/lib/generated/` are made from these (`make generate`), and a test fails when
//! they are stale, so the two sides cannot drift. Handlers build these views; nothing else writes
//! the shape of an answer. Each page's own props implement [`pages::PageProps`], which ties them
//! to their page on both sides; the request bodies are in [`requests`].

pub mod accounts;
pub mod admin;
pub mod awaiting;
pub mod backups;
pub mod booking;
pub mod garments;
pub mod inbox;
pub mod messages;
pub mod money;
pub mod order_detail;
pub mod order_links;
pub mod order_page;
pub mod orders;
pub mod outbox;
pub mod pages;
pub mod payment;
pub mod payments;
pub mod receipt;
pub mod reclean;
pub mod reports;
pub mod requests;
pub mod run;
pub mod samples;
pub mod slots;
pub mod texts;
pub mod tracking;
pub mod valet;

use std::path::Path;
use ts_rs::{Config, ExportError, TS};

/// Where the generated TypeScript types live, from the server crate's folder.
pub const GENERATED_DIR: &str = "../frontend/src/lib/generated";

/// Writes the TypeScript type of every view (and of what they use) into `dir`, one file a type.
pub fn export_typescript(dir: &Path) -> Result<(), ExportError> {
    let config = Config::new().with_out_dir(dir).with_large_int("number");
    pages::Page::export_all(&config)?;
    pages::PagePropsMap::export_all(&config)?;
    pages::SharedProps::<'static>::export_all(&config)?;
    pages::HomeProps::export_all(&config)?;
    pages::CatalogueProps::export_all(&config)?;
    pages::OrderPageProps::export_all(&config)?;
    pages::ContactPageProps::export_all(&config)?;
    pages::ConfirmationProps::export_all(&config)?;
    pages::ErrorProps::export_all(&config)?;
    pages::LoginProps::export_all(&config)?;
    tracking::TrackingProps::export_all(&config)?;
    tracking::TrackingResult::export_all(&config)?;
    admin::DashboardProps::export_all(&config)?;
    valet::ValetProps::export_all(&config)?;
    order_detail::OrderChanged::export_all(&config)?;
    messages::MessageChanged::export_all(&config)?;
    outbox::MessageResent::export_all(&config)?;
    order_detail::OrderDetail::export_all(&config)?;
    payments::PaymentsToCheck::export_all(&config)?;
    payments::PaymentChanged::export_all(&config)?;
    orders::OrderView::export_all(&config)?;
    orders::ContactCreated::export_all(&config)?;
    crate::error::ErrorBody::export_all(&config)?;
    slots::SlotsAnswer::export_all(&config)?;
    slots::PickupChoices::export_all(&config)?;
    order_page::OrderStatusProps::export_all(&config)?;
    payment::CustomerPayment::export_all(&config)?;
    receipt::ReceiptProps::export_all(&config)?;
    awaiting::AwaitingList::export_all(&config)?;
    awaiting::SlotConfirmed::export_all(&config)?;
    run::DayRun::export_all(&config)?;
    accounts::StaffAccounts::export_all(&config)?;
    texts::TextSwitches::export_all(&config)?;
    inbox::InboxPage::export_all(&config)?;
    inbox::InboxChanged::export_all(&config)?;
    booking::BookingForm::export_all(&config)?;
    booking::BookingPlaced::export_all(&config)?;
    booking::CustomerLookup::export_all(&config)?;
    requests::OrderBody::export_all(&config)?;
    requests::RunSave::export_all(&config)?;
    requests::PaymentBody::export_all(&config)?;
    requests::RefundBody::export_all(&config)?;
    requests::DiscountBody::export_all(&config)?;
    requests::HandoverBody::export_all(&config)?;
    money::CashUp::export_all(&config)?;
    money::Balances::export_all(&config)?;
    reports::MonthSummary::export_all(&config)?;
    garments::GarmentsPageProps::export_all(&config)?;
    garments::TagsPageProps::export_all(&config)?;
    garments::FloorPageProps::export_all(&config)?;
    garments::CustomerGarments::export_all(&config)?;
    Ok(())
}

/// RFC 3339, UTC, as every time in a view is written.
fn time(at: time::PrimitiveDateTime) -> String {
    crate::clock::rfc3339(at)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use std::collections::BTreeMap;
    use std::fs;
    use std::path::PathBuf;

    fn files(dir: &Path) -> BTreeMap<PathBuf, String> {
        let mut found = BTreeMap::new();
        let mut folders = vec![dir.to_path_buf()];
        while let Some(folder) = folders.pop() {
            for entry in fs::read_dir(&folder).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    folders.push(path);
                } else {
                    found.insert(path.strip_prefix(dir).unwrap().to_path_buf(), fs::read_to_string(&path).unwrap());
                }
            }
        }
        found
    }

    /// `UPDATE_GENERATED=1 cargo test -p laundry --lib generated` (or `make generate`) rewrites them.
    #[test]
    fn the_generated_typescript_types_match_the_rust_views() {
        let checked_in = Path::new(env!("CARGO_MANIFEST_DIR")).join(GENERATED_DIR);
        if std::env::var_os("UPDATE_GENERATED").is_some() {
            let _ = fs::remove_dir_all(&checked_in);
            export_typescript(&checked_in).unwrap();
        }
        let fresh = tempfile::tempdir().unwrap();
        export_typescript(fresh.path()).unwrap();
        let (expected, found) = (files(fresh.path()), files(&checked_in));
        let stale: Vec<_> = expected
            .keys()
            .chain(found.keys())
            .filter(|name| expected.get(*name) != found.get(*name))
            .map(|name| name.display().to_string())
            .collect();
        assert!(stale.is_empty(), "frontend/src/lib/generated is stale ({}): run `make generate`", stale.join(", "));
    }
}
