//! `laundry serve`: reads the configuration from the environment and runs the server.

use laundry::config::Settings;
use laundry::startup::Application;
use laundry::telemetry;
use std::process::ExitCode;

const USAGE: &str = "usage: laundry serve\n\nConfiguration is read from the environment; see .env.example.";

#[actix_web::main]
async fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        [] | ["serve"] => {}
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
    match application.run_until_stopped().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            tracing::error!(%error, "the server stopped with an error");
            ExitCode::FAILURE
        }
    }
}
