//! Integration tests: the real server on port 0, driven over HTTP.
#![allow(clippy::unwrap_used, missing_docs)]

mod admin_dashboard;
mod admin_detail;
mod admin_guard;
mod admin_run;
mod admin_slots;
mod assets;
mod contacts;
mod failures;
mod helpers;
mod http;
mod mail;
mod mail_mock;
mod migrations;
mod order_lines;
mod order_page;
mod orders;
mod pages;
mod process;
mod seo;
mod shell;
mod slots;
mod sms;
mod sms_mock;
mod tracking;
mod valet;
