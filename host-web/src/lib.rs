//! # confab-web
//!
//! The same rules the server runs, for browsers and offline-capable clients: a thin
//! wasm-bindgen surface over `confab-core`. Each export converts JS values in and out and calls
//! one core function; nothing is decided here.

use confab_core::markdown::{self, OrganizationSnapshot};
use wasm_bindgen::prelude::*;

/// Renders message Markdown to HTML exactly as the server does, for an organization given as
/// JSON (an `OrganizationSnapshot`: users, groups, streams, custom_emoji, linkifiers,
/// realm_url; every field optional). Returns the rendering as JSON: `html` and the facts that
/// drive flags and narrows (`mentioned_user_ids`, `stream_wildcard`, `has_link`, ...).
#[wasm_bindgen(js_name = renderMessage)]
pub fn render_message(source: &str, organization_json: &str) -> Result<String, JsError> {
    let organization: OrganizationSnapshot = serde_json::from_str(organization_json)?;
    Ok(serde_json::to_string(&markdown::render(source, &organization))?)
}

/// The custom emoji a renderer knows, from register's `realm_emoji` object (JSON, kept in step
/// by `applyEvent`): the active ones, as the `custom_emoji` list of the organization given to
/// `renderMessage` (JSON).
#[wasm_bindgen(js_name = customEmojiFromRealmEmoji)]
pub fn custom_emoji_from_realm_emoji(realm_emoji_json: &str) -> Result<String, JsError> {
    let realm_emoji: serde_json::Value = serde_json::from_str(realm_emoji_json)?;
    Ok(serde_json::to_string(&OrganizationSnapshot::custom_emoji_from_register(&realm_emoji))?)
}

/// Renders Markdown that mentions no one (descriptions, previews without an organization).
#[wasm_bindgen(js_name = renderMarkdown)]
pub fn render_markdown(source: &str) -> String {
    markdown::render_description(source)
}

/// The Zulip API feature level these rules implement.
#[wasm_bindgen(js_name = featureLevel)]
pub fn feature_level() -> u32 {
    confab_core::version::FEATURE_LEVEL
}

/// Checks a narrow (either wire form, as a JSON string); returns the error message, or
/// `undefined` when it parses.
#[wasm_bindgen(js_name = checkNarrow)]
pub fn check_narrow(narrow_json: &str) -> Option<String> {
    let value: serde_json::Value = match serde_json::from_str(narrow_json) {
        Ok(v) => v,
        Err(_) => return Some("narrow is not valid JSON".to_owned()),
    };
    confab_core::api::narrow::parse_terms(&value).err().map(|e| e.msg)
}

/// Applies one event (JSON) to a register state (JSON) for user `user_id`, as the server's
/// consistency tests check; returns the new state as JSON. A browser cache stays in step with
/// the server by applying each fetched event.
#[wasm_bindgen(js_name = applyEvent)]
pub fn apply_event(state_json: &str, event_json: &str, user_id: u64) -> Result<String, JsError> {
    let mut state: serde_json::Map<String, serde_json::Value> = serde_json::from_str(state_json)?;
    let event: serde_json::Value = serde_json::from_str(event_json)?;
    confab_core::events::apply_event(&mut state, &event, user_id);
    Ok(serde_json::to_string(&state)?)
}
