//! Building the application: load the frontend, start the rendering engines, bind the listener,
//! and register every route in [`routes`], the one place that shows the whole HTTP surface.

use crate::auth::require_staff;
use crate::config::Settings;
use crate::db::Database;
use crate::demo::{self, pages::Accounts};
use crate::fakes::Fakes;
use crate::frontend::Frontend;
use crate::jobs::outbox_worker::OutboxWorker;
use crate::jobs::prompt_worker::PromptWorker;
use crate::jobs::{JobContext, Scheduler};
use crate::metrics::{self, Metrics};
use crate::rendering::Pages;
use crate::routes::{admin, assets, contacts, health, hooks, order_page, orders, pages, seo, tracking, valet};
use crate::state::AppState;
use crate::telemetry::RedactedRootSpan;
use actix_web::body::MessageBody;
use actix_web::dev::{Server, ServiceRequest, ServiceResponse};
use actix_web::http::Method;
use actix_web::middleware::{Compress, DefaultHeaders, Next, from_fn};
use actix_web::{App, FromRequest, Handler, HttpServer, Responder, Route, web};
use anyhow::Context as _;
use secrecy::ExposeSecret;
use ssr_runtime::{Renderer, RendererConfig};
use std::net::TcpListener;
use std::sync::Arc;
use std::time::Instant;
use tracing_actix_web::TracingLogger;

/// The Content-Security-Policy of every response: everything from our own origin only, except that
/// the intro video may come from `video_origin` (its https origin, from `INTRO_VIDEO_URL`), for media
/// and nothing else.
pub fn content_security_policy(video_origin: Option<&str>) -> String {
    let media = video_origin.map(|origin| format!("media-src 'self' {origin}; ")).unwrap_or_default();
    format!(
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; {media}\
         connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; \
         frame-ancestors 'none'"
    )
}

/// Browsers keep to HTTPS for a year once they have seen the site over HTTPS (sent only when
/// `LAUNDRY_BASE_URL` is https; not for subdomains, which the business may serve otherwise).
const STRICT_TRANSPORT_SECURITY: &str = "max-age=31536000";

/// HEAD is answered as GET on every route (uptime monitors and link checkers ask with it): the
/// request is routed as GET, and the HTTP layer, which saw HEAD, sends the headers without the body.
async fn head_as_get(
    mut request: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    if request.method() == Method::HEAD {
        request.head_mut().method = Method::GET;
    }
    next.call(request).await
}

/// Counts each request for `/metrics`: its route pattern as the router matched it (like
/// `/t/{token}`: the token is not a label), method, status and time to the response's headers.
async fn count_requests(
    request: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let started = Instant::now();
    let recorder = request.app_data::<web::Data<AppState>>().map(|state| state.metrics().clone());
    let method = match *request.method() {
        Method::GET => "GET",
        Method::HEAD => "HEAD",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::PATCH => "PATCH",
        Method::DELETE => "DELETE",
        Method::OPTIONS => "OPTIONS",
        _ => "other",
    };
    let answered = next.call(request).await;
    if let Some(recorder) = recorder {
        let (route, status) = match &answered {
            Ok(response) => (
                response.request().match_pattern().unwrap_or_else(|| metrics::UNMATCHED.to_owned()),
                response.status().as_u16(),
            ),
            Err(error) => (metrics::UNMATCHED.to_owned(), error.as_response_error().status_code().as_u16()),
        };
        recorder.request(&route, method, status, started.elapsed());
    }
    answered
}

/// The rendering engines of a server: its own, or others' it may use.
enum Rendering {
    Own(Renderer),
    Sharing(Arc<Renderer>),
}

/// The rendering engines `settings` ask for (the tests start the set their servers share with it).
pub fn renderer_config(settings: &Settings) -> RendererConfig {
    RendererConfig {
        engines: settings.workers,
        render_timeout: settings.render_timeout,
        // Renders are the expensive work; under load the pages served from memory go first.
        low_priority: true,
        program: settings.render_program.clone(),
        bytecode_cache: settings.ssr_bytecode_cache.clone(),
        ..RendererConfig::default()
    }
}

/// Starts the rendering engines `settings` ask for, with `frontend`'s server bundle.
async fn start_renderer(settings: &Settings, frontend: &Frontend) -> anyhow::Result<Renderer> {
    let config = renderer_config(settings);
    let bundle = frontend.server_bundle().to_owned();
    tokio::task::spawn_blocking(move || Renderer::start(bundle, config))
        .await
        .context("the rendering engines' start was cancelled")?
        .context("the rendering engines could not start")
}

/// The worker that sends this instance's e-mail from the outbox.
pub fn mail_worker(state: &AppState) -> OutboxWorker<crate::mail::MailSettings> {
    let settings = state.settings();
    OutboxWorker::new(state.db().clone(), settings.mail.clone(), settings.outbox_retry, state.mail_wake().clone())
        .with_clock(settings.clock.clone())
        .ahead_with_clock(settings.demo)
}

/// The worker that sends this instance's texts from the outbox, within the daily budget.
pub fn sms_worker(state: &AppState) -> OutboxWorker<crate::sms::SmsSettings> {
    let settings = state.settings();
    OutboxWorker::new(state.db().clone(), settings.sms.clone(), settings.outbox_retry, state.sms_wake().clone())
        .with_daily_budget(settings.sms.limits.daily_budget, settings.clock.clone())
        .ahead_with_clock(settings.demo)
}

/// The worker that sends this instance's M-PESA prompts.
pub fn prompt_worker(state: &AppState) -> PromptWorker {
    PromptWorker::new(
        state.db().clone(),
        state.daraja().clone(),
        state.settings().clock.clone(),
        state.prompt_wake().clone(),
    )
}

/// This instance's scheduled jobs.
pub fn scheduler(state: &AppState) -> Scheduler {
    Scheduler::new(job_context(state), state.settings().job_poll)
}

/// What the scheduled jobs of this instance need of its state.
fn job_context(state: &AppState) -> JobContext {
    JobContext {
        database: state.db().clone(),
        clock: state.settings().clock.clone(),
        texts: state.texts().clone(),
        schedule: state.settings().schedule.clone(),
        owner: format!("jobs-{}-{}", std::process::id(), uuid::Uuid::new_v4().simple()),
        outbox_wakes: vec![state.mail_wake().clone(), state.sms_wake().clone()],
        daraja: Some(state.daraja().clone()),
        notify: state.notify_customer(),
        keep_messages_months: state.settings().keep_messages_months,
        marks_late_stops: state.settings().marks_late_stops,
        metrics: state.metrics().clone(),
        backups: crate::jobs::backups::BackupPlan::of(
            state.settings().database_url.expose_secret(),
            &state.settings().backups,
        ),
    }
}

/// A built server, bound to its port, not yet running.
pub struct Application {
    port: u16,
    server: Server,
    state: web::Data<AppState>,
    demo_accounts: Vec<demo::seed::Account>,
}

impl Application {
    /// Loads everything the server needs and binds `settings.addr` (port 0 picks a free port).
    pub async fn build(settings: Settings) -> anyhow::Result<Self> {
        Self::build_rendering_with(settings, None).await
    }

    /// [`Application::build`] with rendering engines that others use too and that outlive this
    /// server (it never stops them): the tests' servers share one set, started once per test run.
    /// They must have been started with `settings.frontend_dir`'s server bundle.
    pub async fn build_sharing(settings: Settings, renderer: Arc<Renderer>) -> anyhow::Result<Self> {
        Self::build_rendering_with(settings, Some(renderer)).await
    }

    async fn build_rendering_with(settings: Settings, shared: Option<Arc<Renderer>>) -> anyhow::Result<Self> {
        crate::memory::return_freed_memory_in_the_background();
        let metrics = Arc::new(Metrics::new());
        let frontend = Frontend::load(&settings.frontend_dir)?;
        let renderer = match shared {
            Some(renderer) => Rendering::Sharing(renderer),
            None => Rendering::Own(start_renderer(&settings, &frontend).await?),
        };
        let database_url = settings.database_url.expose_secret().to_owned();
        let connections = (settings.workers as u32 * 4).max(8);
        let database = tokio::task::spawn_blocking(move || Database::open(&database_url, connections))
            .await
            .context("opening the database was cancelled")??;
        tracing::info!(backend = ?database.backend(), url = %crate::db::redact(settings.database_url.expose_secret()), "database ready");
        let listener =
            TcpListener::bind(settings.addr).with_context(|| format!("cannot listen on {}", settings.addr))?;
        let port = listener.local_addr()?.port();
        // The demo and `--fake-providers`: the providers are fakes this server serves on its own port.
        let settings = if settings.demo || settings.fake_providers {
            let secret = uuid::Uuid::new_v4().simple().to_string();
            settings.with_providers_from(&Fakes::env(&format!("http://127.0.0.1:{port}"), &secret))?
        } else {
            settings
        };
        let workers = settings.workers;
        let (business, base_url, clock) =
            (settings.business.clone(), settings.base_url.clone(), settings.clock.clone());
        let pages = match renderer {
            Rendering::Own(own) => Pages::new(own, frontend, business, base_url, clock),
            Rendering::Sharing(shared) => Pages::sharing(shared, frontend, business, base_url, clock),
        }
        .compressing_at_once(settings.compress_pages_at_once)
        .counting_into(metrics.clone());
        let state = web::Data::new(AppState::new(settings, pages, database, metrics));
        if state.settings().warm_pages {
            pages::warm_cache(&state).await;
        }
        // Before the workers start: the past week's messages are marked sent, today's wait for them.
        let demo_accounts = if state.settings().demo {
            demo::open_shop(&state).await.context("the demo's shop could not be made")?
        } else {
            Vec::new()
        };
        actix_web::rt::spawn(mail_worker(&state).run());
        actix_web::rt::spawn(sms_worker(&state).run());
        actix_web::rt::spawn(prompt_worker(&state).run());
        actix_web::rt::spawn(scheduler(&state).run());

        let shared = state.clone();
        let (demo_on, fakes_on) = (state.settings().demo, state.settings().demo || state.settings().fake_providers);
        // The providers' fakes exist only where the server serves them (the demo, --fake-providers).
        let fakes = fakes_on.then(Fakes::default);
        let accounts = web::Data::new(Accounts(demo_accounts.clone()));
        let https = state.settings().base_url.starts_with("https://");
        let csp = content_security_policy(state.settings().intro_video_origin());
        let server = HttpServer::new(move || {
            let mut headers = DefaultHeaders::new()
                .add(("Content-Security-Policy", csp.as_str()))
                .add(("X-Content-Type-Options", "nosniff"))
                .add(("Referrer-Policy", "strict-origin-when-cross-origin"));
            if https {
                headers = headers.add(("Strict-Transport-Security", STRICT_TRANSPORT_SECURITY));
            }
            App::new()
                .app_data(shared.clone())
                // Innermost: it sees the path as the router does, and its answers get the headers.
                .wrap(from_fn(require_staff))
                .wrap(Compress::default())
                .wrap(headers)
                .wrap(from_fn(head_as_get))
                .wrap(from_fn(count_requests))
                .wrap(TracingLogger::<RedactedRootSpan>::new())
                .configure(routes)
                .configure(|config| {
                    if let Some(fakes) = &fakes {
                        config.configure(|config| fakes.routes(config)).configure(demo::fakes_pages);
                    }
                    if demo_on {
                        config.app_data(accounts.clone()).configure(demo::routes);
                    }
                })
        })
        .workers(workers)
        .listen(listener)?
        .run();
        Ok(Self { port, server, state, demo_accounts })
    }

    /// The port the server listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The accounts the demo made (none outside demo mode).
    pub fn demo_accounts(&self) -> &[demo::seed::Account] {
        &self.demo_accounts
    }

    /// The shared state, for tests that look inside (render counters, say).
    pub fn state(&self) -> web::Data<AppState> {
        self.state.clone()
    }

    /// Serves until the process is told to stop (SIGTERM or SIGINT: the requests under way are
    /// answered first), then stops the rendering engines, each on its own thread, before the
    /// process may exit.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        let served = self.server.await;
        let state = self.state;
        if tokio::task::spawn_blocking(move || state.pages().shutdown()).await.is_err() {
            tracing::error!("stopping the rendering engines panicked");
        }
        served
    }
}

/// Every route of the server. Everything under `/admin` and `/api/admin` but the login is for
/// staff only: [`require_staff`] wraps the whole application and guards those paths, wherever
/// their routes are registered; the guard test walks [`admin_page_routes`] and [`admin_api_routes`].
pub fn routes(config: &mut web::ServiceConfig) {
    config
        .route("/", web::get().to(pages::show_home))
        .route("/pricing", web::get().to(pages::show_pricing))
        .service(
            web::resource("/order")
                .route(web::get().to(orders::show_order_form))
                .route(web::post().to(orders::submit_order_form)),
        )
        .service(
            web::resource("/tracking")
                .route(web::get().to(tracking::show_tracking))
                .route(web::post().to(tracking::submit_tracking_form)),
        )
        .service(
            web::resource("/contact")
                .route(web::get().to(contacts::show_contact))
                .route(web::post().to(contacts::submit_contact_form)),
        )
        .route("/confirmation", web::get().to(orders::show_confirmation))
        // An order's own page, from its messages' link: its plain forms work without JavaScript.
        .route("/t/{token}", web::get().to(order_page::show_order_page))
        .route("/t/{token}/reschedule", web::post().to(order_page::reschedule_pickup))
        .route("/t/{token}/delivery", web::post().to(order_page::reschedule_delivery))
        .route("/t/{token}/cancel", web::post().to(order_page::cancel_order))
        .route("/t/{token}/texts", web::post().to(order_page::choose_texts))
        .route("/t/{token}/pay", web::post().to(order_page::ask_prompt_again))
        .route("/t/{token}/credit", web::post().to(order_page::keep_as_credit))
        .route("/t/{token}/use-credit", web::post().to(order_page::use_credit))
        .route("/t/{token}/reclean", web::post().to(order_page::ask_reclean))
        .route("/t/{token}/claims", web::post().to(order_page::report_claim))
        .route("/t/{token}/photos/{id}", web::get().to(order_page::show_photo))
        .route("/t/{token}/photos/{id}/thumb", web::get().to(order_page::show_photo))
        .route("/t/{token}/payment", web::get().to(order_page::show_payment))
        .route("/t/{token}/receipt", web::get().to(order_page::show_receipt))
        .route("/privacy", web::get().to(pages::show_privacy))
        .route("/assets/{name}", web::get().to(assets::serve_asset))
        .route("/api/orders", web::post().to(orders::create_order))
        .route("/api/slots", web::get().to(crate::routes::slots::list_slots))
        .route("/api/contacts", web::post().to(contacts::create_contact))
        .route("/api/tracking", web::post().to(tracking::track_order))
        // Staff: the login is open; everything else under /admin and /api/admin is behind the guard.
        .service(
            web::resource("/admin/login")
                .route(web::get().to(admin::session::show_login))
                .route(web::post().to(admin::session::login)),
        )
        .service(web::scope("/admin").configure(register(admin_page_routes())))
        .service(web::scope("/api/admin").configure(register(admin_api_routes())))
        // Valets (and staff standing in for one): the day's run from a phone.
        .service(web::scope("/valet").configure(register(valet_routes())))
        // The providers' callbacks, each behind a secret in its path (or its query).
        .route("/hooks/sms/delivery", web::post().to(hooks::sms_delivery::sms_delivery_report))
        .route("/hooks/sms/delivery/{secret}", web::post().to(hooks::sms_delivery::sms_delivery_report))
        .route("/hooks/sms/incoming", web::post().to(hooks::sms_incoming::sms_incoming))
        .route("/hooks/sms/incoming/{secret}", web::post().to(hooks::sms_incoming::sms_incoming))
        .route("/hooks/payments/prompt", web::post().to(hooks::payments::prompt_result))
        .route("/hooks/payments/prompt/{secret}", web::post().to(hooks::payments::prompt_result))
        .route("/hooks/payments/till/confirmation", web::post().to(hooks::payments::till_confirmation))
        .route("/hooks/payments/till/confirmation/{secret}", web::post().to(hooks::payments::till_confirmation))
        .route("/hooks/payments/till/validation", web::post().to(hooks::payments::till_validation))
        .route("/hooks/payments/till/validation/{secret}", web::post().to(hooks::payments::till_validation))
        .route("/healthz", web::get().to(health::health))
        .route("/readyz", web::get().to(health::ready))
        .route("/metrics", web::get().to(health::metrics))
        .route("/sitemap.xml", web::get().to(seo::sitemap))
        .route("/robots.txt", web::get().to(seo::robots))
        .route("/favicon.ico", web::get().to(assets::serve_favicon_ico))
        .route("/favicon.svg", web::get().to(assets::serve_favicon_svg))
        .route("/og-image.png", web::get().to(assets::serve_share_image))
        .default_service(web::to(pages::not_found));
}

/// The staff pages and forms, under `/admin`.
pub fn admin_page_routes() -> Vec<AdminRoute> {
    use admin::{dashboard, floor, garments, reports, session};
    vec![
        at("", Method::GET, dashboard::show_dashboard),
        at("/logout", Method::POST, session::logout),
        at("/orders/{id}/items", Method::GET, garments::show_items),
        at("/orders/{id}/items", Method::POST, garments::add_item),
        at("/orders/{id}/items/{tag}/photos", Method::POST, garments::add_item_photo),
        at("/orders/{id}/items/{tag}/remove", Method::POST, garments::remove_item),
        at("/orders/{id}/bags", Method::POST, garments::set_bags),
        at("/orders/{id}/rack", Method::POST, garments::set_rack),
        at("/orders/{id}/tags", Method::GET, garments::show_tags),
        at("/photos/{id}", Method::GET, garments::show_photo),
        at("/photos/{id}/thumb", Method::GET, garments::show_photo),
        at("/garments", Method::GET, floor::show_floor),
        at("/scan", Method::GET, floor::scan),
        at("/racks/audit", Method::POST, floor::audit_racks),
        at("/claims/{id}/resolve", Method::POST, floor::resolve_claim),
        at("/exports/ledger.csv", Method::GET, reports::export_ledger),
        at("/exports/orders.csv", Method::GET, reports::export_orders),
        at("/exports/payments.csv", Method::GET, reports::export_payments),
        at("/exports/summary", Method::GET, reports::show_summary),
        at("/reports/sharing", Method::POST, reports::share_reports),
    ]
}

/// The dashboard's JSON API, under `/api/admin`.
pub fn admin_api_routes() -> Vec<AdminRoute> {
    use admin::{
        bookings, customers, dashboard, detail, inbox, messages, money, orders, outbox, payments, run, slots, staff,
        texts,
    };
    vec![
        at("/stats", Method::GET, dashboard::get_stats),
        at("/orders", Method::GET, orders::list_orders),
        at("/orders", Method::POST, bookings::create_booking),
        at("/booking-form", Method::GET, bookings::booking_form),
        at("/customers", Method::GET, customers::find_customer),
        at("/orders/{id}", Method::GET, detail::show_order),
        at("/orders/{id}/status", Method::POST, orders::change_order_status),
        at("/orders/{id}/payment", Method::POST, money::record_payment),
        at("/orders/{id}/refund", Method::POST, money::record_refund),
        at("/orders/{id}/discount", Method::POST, money::give_discount),
        at("/orders/{id}/credit", Method::POST, money::keep_credit),
        at("/orders/{id}/entries/{entry}/correct", Method::POST, money::correct_entry),
        at("/cash-up", Method::GET, money::show_cash_up),
        at("/cash-up", Method::POST, money::record_handover),
        at("/balances", Method::GET, money::show_balances),
        at("/orders/{id}/prompt", Method::POST, payments::send_prompt),
        at("/payments", Method::GET, payments::list_payments),
        at("/payments/{receipt}/match", Method::POST, payments::match_payment),
        at("/payments/{receipt}/checked", Method::POST, payments::mark_payment_checked),
        at("/messages", Method::GET, messages::list_messages),
        at("/messages/{id}/status", Method::POST, messages::change_message_status),
        at("/inbox", Method::GET, inbox::list_inbox),
        at("/inbox/{id}/status", Method::POST, inbox::change_text_status),
        at("/inbox/{id}/answer", Method::POST, inbox::answer_text),
        at("/outbox", Method::GET, outbox::show_outbox),
        at("/outbox/{id}/resend", Method::POST, outbox::resend_message),
        at("/unconfirmed", Method::GET, slots::list_unconfirmed),
        at("/orders/{id}/slot", Method::POST, slots::change_slot),
        at("/run", Method::GET, run::show_run),
        at("/run", Method::POST, run::save_day_run),
        at("/staff", Method::GET, staff::list_staff),
        at("/texts", Method::GET, texts::list_texts),
        at("/texts", Method::POST, texts::switch_text),
    ]
}

/// The valet page and its forms, under `/valet`.
pub fn valet_routes() -> Vec<AdminRoute> {
    vec![at("", Method::GET, valet::show_run), at("/stops/{id}/{action}", Method::POST, valet::act_on_stop)]
}

/// One guarded route: its path inside its scope, its method, and the route itself.
pub struct AdminRoute {
    /// Path inside the scope (`""` is the scope's own path).
    pub path: &'static str,
    /// The HTTP method.
    pub method: Method,
    route: Route,
}

fn at<F, Args>(path: &'static str, method: Method, handler: F) -> AdminRoute
where
    F: Handler<Args>,
    Args: FromRequest + 'static,
    F::Output: Responder + 'static,
{
    AdminRoute { path, method: method.clone(), route: web::method(method).to(handler) }
}

/// Registers `routes` in the scope being configured.
fn register(routes: Vec<AdminRoute>) -> impl FnOnce(&mut web::ServiceConfig) {
    move |config| {
        for AdminRoute { path, route, .. } in routes {
            config.route(path, route);
        }
    }
}
