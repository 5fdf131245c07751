//! The local mode that shows the whole product: `laundry serve --demo` (`make demo`;
//! docs/demo.md).
//!
//! - The providers: the fakes of [`crate::fakes`] (the tests' own), served by this server itself
//!   under `/dev/at`, `/dev/daraja` and `/dev/mail`, with the providers' own request and answer
//!   shapes. The settings point at them ([`crate::fakes::Fakes::env`]), so the outbox workers, the
//!   prompt worker and the callbacks run exactly the code they run in production.
//! - [`pages`]: `/dev/texts` (the texts and e-mails that reached the stand-ins) and `/dev/mpesa`
//!   (the prompts on "the customer's phone": pay, cancel or let time out).
//! - [`seed`]: a fresh shop: an owner, a staff member and a valet, and a week of orders.
//!
//! None of these routes exists unless the server runs in demo mode ([`routes`] is registered only
//! then).

pub mod pages;
pub mod seed;

use actix_web::web;

/// Opens the demo's shop on the server's fresh database: the accounts, the past week, and today's
/// orders (their texts and prompt wait in the outbox for the workers). Returns the accounts.
pub async fn open_shop(state: &crate::state::AppState) -> anyhow::Result<Vec<seed::Account>> {
    let settings = state.settings();
    let schedule = settings.schedule.clone();
    let texts = state.texts().clone();
    let notify = state.notify_customer();
    let (today, now, reclean_days) = (settings.clock.nairobi().date(), settings.clock.utc(), settings.reclean_days);
    state
        .db()
        .run(move |connection| {
            let shop = seed::Shop { schedule: &schedule, texts: &texts, today, reclean_days };
            let (accounts, valet_id) = seed::accounts(connection, now)?;
            shop.past_week(connection, &valet_id)?;
            shop.today(connection, &notify, &valet_id, now)?;
            Ok::<_, anyhow::Error>(accounts)
        })
        .await
}

/// The pages of what the fake providers received: `/dev/texts` and `/dev/mpesa`. Registered
/// wherever the server serves the fakes (the demo, `serve --fake-providers`).
pub fn fakes_pages(config: &mut web::ServiceConfig) {
    config
        .route("/dev/texts", web::get().to(pages::texts))
        .route("/dev/mpesa", web::get().to(pages::mpesa))
        .route("/dev/mpesa/{checkout}/{end}", web::post().to(pages::end_prompt));
}

/// The demo's own routes: `/dev` and its clock. Registered only in demo mode.
pub fn routes(config: &mut web::ServiceConfig) {
    config.route("/dev", web::get().to(pages::index)).route("/dev/clock", web::post().to(pages::move_clock));
}
