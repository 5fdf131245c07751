//! The laundry service's web server: public pages rendered by React inside the process, the JSON
//! API for the hydrated pages, and the built frontend's assets.
//!
//! `main.rs` only reads the configuration and calls [`startup::Application::build`]; everything
//! else lives in these modules.

pub mod auth;
pub mod clock;
pub(crate) mod compressed;
pub mod config;
pub mod db;
pub mod demo;
pub mod domain;
pub mod fakes;
/// The catalogue lives with the domain (it gives lines their units); every page reads it from here.
pub use domain::catalogue;
pub(crate) mod error;
pub mod frontend;
pub mod jobs;
#[cfg(test)]
mod layers;
pub mod lifecycle;
pub mod mail;
pub(crate) mod memory;
pub mod metrics;
pub mod models;
pub mod mpesa;
pub mod notify;
pub mod outbox;
pub mod password;
pub mod photos;
pub(crate) mod rate_limit;
pub mod rendering;
pub mod routes;
pub(crate) mod seo;
pub mod sms;
pub mod staff_cli;
pub mod startup;
pub mod state;
pub mod telemetry;
pub mod views;
