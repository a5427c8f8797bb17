//! # confab-server
//!
//! The native host of Confab: an axum server over redb storage, and the `confab` command. The
//! rules live in `confab-core`; this crate carries requests to them and their results to disk
//! and back.

pub mod backups;
pub mod bootstrap;
pub mod cli;
pub mod config;
pub mod deliveries;
pub mod events;
pub mod exports;
pub mod http;
pub mod import_zulip;
pub mod mail;
pub mod math;
pub mod metrics;
pub mod migrate;
pub mod missed_emails;
pub mod node;
pub mod offline;
pub mod outgoing;
/// A throwaway PostgreSQL server for tests and benchmarks; never used by the server itself.
pub mod scratch_postgres;
pub mod secrets;
pub mod server;
pub mod store;
pub mod temporary_urls;
pub mod thumbnails;
pub mod uploads;
pub mod writer;
pub mod zuliprc;
