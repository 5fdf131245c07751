//! Integration tests: the real server on port 0, driven over HTTP.
#![allow(clippy::unwrap_used, missing_docs)]

mod assets;
mod failures;
mod helpers;
mod pages;
mod seo;
