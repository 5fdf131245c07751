//! Request handlers, one file per resource. `startup::routes` registers them all in one place.

pub mod assets;
pub mod catalogue;
pub mod health;
pub mod pages;
pub mod seo;
