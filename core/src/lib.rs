#![recursion_limit = "256"]
//! # confab-core
//!
//! All of Confab's rules, as pure functions: request validation, permissions, narrow filtering,
//! message flags, Markdown rendering, and (later) event-queue semantics.
//!
//! This crate does not do I/O. It reads no clock (time is an argument, `now`, in UNIX seconds),
//! draws no randomness (secrets come from the host), and touches no disk or network: storage is
//! the [`store::Store`] trait, which a host implements, and writes are [`store::Change`]s that a
//! host commits. That is what lets the same rules run in the server (`confab-server`) and in the
//! browser (`confab-web`, compiled to `wasm32-unknown-unknown`).

pub mod api;
pub mod client;
pub mod command;
pub mod emails;
pub mod error;
pub mod events;
pub mod groups;
pub mod html_diff;
pub mod ids;
pub mod images;
pub mod legacy_policies;
pub mod links;
pub mod markdown;
pub mod memo;
pub mod memory;
pub mod model;
pub mod outgoing_policy;
pub mod params;
pub mod permission_settings;
pub mod permissions;
pub mod rate_limit;
pub mod raw_json;
pub mod search;
pub mod store;
pub mod subdomains;
pub mod thumbnails;
pub mod time;
pub mod timezones;
pub mod user_access;
pub mod version;
pub mod widgets;
pub mod wire;

pub use command::{Actor, Event, Outcome};
pub use error::{ApiError, ApiResult, ErrorCode};
