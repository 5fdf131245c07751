//! Request handlers, one file per resource. `startup::routes` registers them all in one place.

pub mod admin;
pub mod assets;
pub mod catalogue;
pub mod contacts;
pub mod health;
pub mod orders;
pub mod pages;
pub mod seo;
pub mod tracking;
