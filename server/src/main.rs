//! `laundry serve`: reads the configuration from the environment and runs the server.
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

const USAGE: &str = "usage: laundry serve\n       laundry admin create|password|role|list|disable|enable … (laundry admin help)\n       \
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
    match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        [] | ["serve"] => {}
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
    let settings = match Settings::from_env() {
        Ok(settings) => settings,
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
    warn_without_staff(&application).await;
    warn_without_first_order_discount(&application);
    warn_without_backups(&settings);
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
