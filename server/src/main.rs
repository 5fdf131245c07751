//! `laundry serve`: reads the configuration from the environment and runs the server.
//! `laundry serve --demo`: the same on a fresh database of a week's orders, with the providers'
//! fakes (see `laundry::demo`, docs/demo.md).
//! `laundry serve --fake-providers`: the configured database, with the providers' fakes served by
//! the server itself (see `laundry::fakes`, docs/testing.md): for the browser tests.
//! `laundry admin …`: staff accounts (see `laundry::staff_cli`).
//! `laundry mpesa register-urls`: the till's callbacks (see `laundry::mpesa::cli`).
//! `laundry backup --to PATH` and `laundry restore --from PATH`: the SQLite database's backups
//! (see `laundry::db::backup`, docs/backups.md).

use laundry::config::Settings;
use laundry::db::Database;
use laundry::models::staff::Staff;
use laundry::staff_cli::{self, PasswordSource};
use laundry::startup::Application;
use laundry::telemetry;
use secrecy::ExposeSecret;
use std::io::IsTerminal;
use std::process::ExitCode;

const USAGE: &str = "usage: laundry serve [--demo | --fake-providers]\n       laundry admin create|password|role|list|disable|enable … (laundry admin help)\n       \
laundry mpesa register-urls [--shortcode N] (laundry mpesa help)\n       \
laundry backup --to PATH      a copy of the SQLite database while it runs, and PATH.sha256\n       \
laundry restore --from PATH   a backup into the empty database DATABASE_URL names\n\n\
Configuration is read from the environment; see .env.example.";

fn main() -> ExitCode {
    // Started by the server as a render process: that and nothing else (never returns), before
    // any thread or runtime of the server's exists.
    ssr_runtime::run_if_render_process();
    actix_web::rt::System::new().block_on(laundry())
}

async fn laundry() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mut demo, mut fake_providers) = (false, false);
    match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        [] | ["serve"] => {}
        ["serve", "--demo"] => demo = true,
        ["serve", "--fake-providers"] => fake_providers = true,
        ["admin", rest @ ..] => return admin(rest),
        ["mpesa", rest @ ..] => return mpesa(rest).await,
        ["backup", "--to", path] => return backup(path),
        ["restore", "--from", path] => return restore(path),
        ["help" | "--help" | "-h"] => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    }
    telemetry::init();
    laundry::db::time_queries();
    let settings = match Settings::from_env() {
        Ok(settings) if demo => match demo_settings(settings) {
            Ok(settings) => settings,
            Err(error) => {
                eprintln!("the demo's database could not be made afresh: {error}");
                return ExitCode::FAILURE;
            }
        },
        Ok(settings) => Settings { fake_providers, ..settings },
        Err(error) => {
            eprintln!("configuration error: {error}");
            return ExitCode::from(2);
        }
    };
    let application = match Application::build(settings.clone()).await {
        Ok(application) => application,
        Err(error) => {
            eprintln!("the server could not start: {error:#}");
            return ExitCode::FAILURE;
        }
    };
    tracing::info!(addr = %settings.addr, port = application.port(), "listening; open http://{}/pricing", settings.addr);
    if demo {
        print_demo(&application, &settings);
    } else if fake_providers {
        tracing::warn!(
            "--fake-providers: no text, e-mail or M-PESA prompt leaves this machine; they reach the fakes this server \
             serves (/dev/texts, /dev/mpesa). Never for customers."
        );
    } else {
        warn_without_staff(&application).await;
        warn_without_first_order_discount(&application);
        warn_without_backups(&settings);
    }
    match application.run_until_stopped().await {
        Ok(()) => {
            tracing::info!("stopped");
            ExitCode::SUCCESS
        }
        Err(error) => {
            tracing::error!(%error, "the server stopped with an error");
            ExitCode::FAILURE
        }
    }
}

/// Where the demo keeps its database, made afresh at each start.
const DEMO_DATABASE: &str = "data/demo.db";

/// The settings of `serve --demo`: the demo's own database, emptied (never `DATABASE_URL`'s), no
/// scheduled backups, and a clock of the demo's own that `/dev` moves on (to see the 5:30pm texts
/// and late stops without waiting for them).
fn demo_settings(mut settings: Settings) -> std::io::Result<Settings> {
    for suffix in ["", "-wal", "-shm"] {
        match std::fs::remove_file(format!("{DEMO_DATABASE}{suffix}")) {
            Err(error) if error.kind() != std::io::ErrorKind::NotFound => return Err(error),
            _ => {}
        }
    }
    settings.demo = true;
    settings.database_url = secrecy::SecretString::from(format!("sqlite://{DEMO_DATABASE}"));
    settings.backups.dir = None;
    settings.clock = laundry::clock::Clock::running_from(time::OffsetDateTime::now_utc());
    Ok(settings)
}

/// The demo's first screen on the console: where to look, and the accounts to sign in with.
fn print_demo(application: &Application, settings: &Settings) {
    let base = format!("http://{}:{}", settings.addr.ip(), application.port());
    println!("\nDemo mode: a fresh shop with a week of orders, in {DEMO_DATABASE} (made afresh at each start).");
    println!("  The site:              {base}/");
    println!("  Texts and e-mails:     {base}/dev/texts");
    println!("  M-PESA prompts to pay: {base}/dev/mpesa");
    println!("  Sign in:");
    for account in application.demo_accounts() {
        println!(
            "    {:<6} {:<20} password {}   at {base}{}",
            account.role_name(),
            account.email,
            account.password,
            account.home()
        );
    }
    println!();
}

/// `laundry admin …` against the database of `DATABASE_URL`.
fn admin(args: &[&str]) -> ExitCode {
    if matches!(args, [] | ["help" | "--help" | "-h"]) {
        println!("{}", staff_cli::USAGE);
        return ExitCode::SUCCESS;
    }
    let settings = match Settings::from_env() {
        Ok(settings) => settings,
        Err(error) => {
            eprintln!("configuration error: {error}");
            return ExitCode::from(2);
        }
    };
    let database = match Database::open(settings.database_url.expose_secret(), 2) {
        Ok(database) => database,
        Err(error) => {
            eprintln!("{error}");
            return ExitCode::FAILURE;
        }
    };
    let stdin = std::io::stdin();
    let mut lines = stdin.lock();
    let source =
        if std::io::stdin().is_terminal() { PasswordSource::Terminal } else { PasswordSource::Lines(&mut lines) };
    match staff_cli::run(args, &database, &settings.clock, source, &mut std::io::stdout()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{message}");
            ExitCode::FAILURE
        }
    }
}

/// The `DATABASE_URL` of the environment (or its default), or why it cannot be read.
fn database_url() -> Result<String, ExitCode> {
    Settings::from_env().map(|settings| settings.database_url.expose_secret().to_owned()).map_err(|error| {
        eprintln!("configuration error: {error}");
        ExitCode::from(2)
    })
}

/// `laundry backup --to PATH`.
fn backup(path: &str) -> ExitCode {
    let url = match database_url() {
        Ok(url) => url,
        Err(code) => return code,
    };
    match laundry::db::backup::backup(&url, std::path::Path::new(path)) {
        Ok(made) => {
            println!("backed up to {} ({} bytes, sha256 {})", made.path.display(), made.bytes, made.sha256);
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("no backup made: {error}");
            ExitCode::FAILURE
        }
    }
}

/// `laundry restore --from PATH`.
fn restore(path: &str) -> ExitCode {
    let url = match database_url() {
        Ok(url) => url,
        Err(code) => return code,
    };
    match laundry::db::backup::restore(std::path::Path::new(path), &url) {
        Ok(restored) => {
            println!(
                "restored {} into {} ({} orders); start the server on it to bring its schema up to date",
                path,
                restored.path.display(),
                restored.orders
            );
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("nothing restored: {error}");
            ExitCode::FAILURE
        }
    }
}

/// `laundry mpesa …` with the M-PESA configuration of the environment.
async fn mpesa(args: &[&str]) -> ExitCode {
    let settings = match Settings::from_env() {
        Ok(settings) => settings,
        Err(error) => {
            eprintln!("configuration error: {error}");
            return ExitCode::from(2);
        }
    };
    match laundry::mpesa::cli::run(args, &settings.mpesa, &mut std::io::stdout()).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            eprintln!("{}", failure.message);
            failure.exit_code()
        }
    }
}

/// Says on the console that the home page's first-order banner has no discount behind it.
fn warn_without_first_order_discount(application: &Application) {
    if application.state().settings().first_order_discount.is_none() {
        tracing::warn!(
            "the home page's 'Get $20 off your first order' banner is not applied to orders: set \
             LAUNDRY_FIRST_ORDER_DISCOUNT_KES (whole shillings) to take it off first orders; until then the banner asks \
             customers to mention it when staff call"
        );
    }
}

/// Says on the console when no daily backup is scheduled, and what to do instead.
fn warn_without_backups(settings: &Settings) {
    let sqlite = settings.database_url.expose_secret().starts_with("sqlite://");
    match (&settings.backups.dir, sqlite) {
        (None, true) => tracing::warn!(
            "no daily backup is scheduled: set LAUNDRY_BACKUP_DIR to a folder (another disk, ideally) to get a copy of the \
             database there every day at LAUNDRY_BACKUP_AT (03:30 Nairobi time by default); see docs/backups.md"
        ),
        (Some(dir), false) => tracing::warn!(
            dir = %dir.display(),
            "LAUNDRY_BACKUP_DIR is for a SQLite database: back PostgreSQL up with pg_dump (docs/backups.md)"
        ),
        (Some(dir), true) => {
            tracing::info!(dir = %dir.display(), at = %laundry::domain::schedule::clock_time(settings.backups.at_minute), "a daily backup is scheduled")
        }
        (None, false) => {}
    }
}

/// Says on the console how to create the first staff account when none can sign in.
async fn warn_without_staff(application: &Application) {
    let state = application.state();
    let enabled = state.db().run(|c| Staff::count_enabled(c).map_err(laundry::db::DbError::from)).await;
    if let Ok(0) = enabled {
        let program = std::env::args().next().unwrap_or_else(|| "laundry".to_owned());
        tracing::warn!(
            "no staff account can sign in to /admin yet; create one with:  {program} admin create --email you@example.com  \
             (it asks for the password, or reads it from standard input)"
        );
    }
}
