//! What Confab tells clients about its API level.
//!
//! Confab implements the Zulip API as of the feature level below (the level the specification
//! cites). Clients gate features on `zulip_feature_level`, so it must never claim a level whose
//! behaviour differs from ours in a way a client relies on.

/// The Zulip API feature level Confab speaks.
pub const FEATURE_LEVEL: u32 = 419;

/// The version string: the Zulip release whose API this is, and our own version.
pub const ZULIP_VERSION: &str = concat!("11.0-confab-", env!("CARGO_PKG_VERSION"));

/// Confab is not a fork of Zulip's code, so there is no merge base (the spec: empty string).
pub const MERGE_BASE: &str = "";
