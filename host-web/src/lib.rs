//! # confab-web
//!
//! Confab's client engine for browsers, mobile web views and Node: `confab_core::client`
//! through wasm-bindgen. [`client::Client`] is a session (state, message cache, outbox, event
//! loop); the free functions are the same rules without a session. Nothing is decided here:
//! this crate carries requests (gloo-net), waits (timers) and converts values
//! (serde-wasm-bindgen); the TypeScript declarations come from core's own types (ts-rs, see
//! `tests/typescript_declarations.rs`).

mod client;
mod http;
mod live_state;
mod math;
mod values;

use confab_core::markdown::{self, OrganizationSnapshot};
use confab_core::widgets;
use wasm_bindgen::prelude::*;

pub use client::Client;
pub use live_state::LiveState;
pub use math::use_katex;
use values::{from_js, to_js};

/// The declarations of every type the exports take and return, generated from confab-core.
#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = include_str!("types.d.ts");

/// Renders message Markdown to HTML exactly as the server does, for an organization (users,
/// groups, channels, custom emoji, linkifiers, its URL; every field optional). Returns the
/// HTML and the facts that drive flags and narrows.
#[wasm_bindgen(js_name = renderMessage, unchecked_return_type = "Rendering")]
pub fn render_message(
    source: &str,
    #[wasm_bindgen(unchecked_param_type = "Partial<OrganizationSnapshot>")] organization: JsValue,
) -> Result<JsValue, JsValue> {
    let organization: OrganizationSnapshot = from_js(organization)?;
    to_js(&markdown::render(source, &organization))
}

/// The active custom emoji of register's `realm_emoji` object, as the `custom_emoji` of an
/// `OrganizationSnapshot`.
#[wasm_bindgen(js_name = customEmojiFromRealmEmoji, unchecked_return_type = "CustomEmoji[]")]
pub fn custom_emoji_from_realm_emoji(
    #[wasm_bindgen(unchecked_param_type = "{ [key in string]?: JsonValue }")] realm_emoji: JsValue,
) -> Result<JsValue, JsValue> {
    let realm_emoji: serde_json::Value = from_js(realm_emoji)?;
    to_js(&OrganizationSnapshot::custom_emoji_from_register(&realm_emoji))
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

/// Checks a narrow (either wire form); returns the server's error message, or `undefined`
/// when it parses.
#[wasm_bindgen(js_name = checkNarrow)]
pub fn check_narrow(
    #[wasm_bindgen(unchecked_param_type = "NarrowTerm[] | [string, string][]")] narrow: JsValue,
) -> Option<String> {
    let value: serde_json::Value = match from_js(narrow) {
        Ok(v) => v,
        Err(_) => return Some("narrow is not a list of terms".to_owned()),
    };
    confab_core::api::narrow::parse_terms(&value).err().map(|e| e.msg)
}

/// Applies one event to a register state for user `userId`, as a `Client` does; returns the
/// new state.
#[wasm_bindgen(js_name = applyEvent, unchecked_return_type = "RegisterState")]
pub fn apply_event(
    #[wasm_bindgen(unchecked_param_type = "RegisterState")] state: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ServerEvent")] event: JsValue,
    #[wasm_bindgen(js_name = userId)] user_id: f64,
) -> Result<JsValue, JsValue> {
    let mut state: serde_json::Map<String, serde_json::Value> = from_js(state)?;
    // Any JSON is an event: one no variant reads is `ServerEvent::Other` and changes nothing.
    let event = confab_core::events::ServerEvent::parse(from_js(event)?);
    confab_core::events::apply_server_event(&mut state, &event, user_id as u64);
    to_js(&state)
}

/// The state of the widget a message's submessages make (Zulip's poll and to-do list, folded
/// as its web app folds them), as user `viewerId` sees it; `undefined` if they make none. The
/// sender is the message's; the submessages are its `submessages`, in any order.
#[wasm_bindgen(js_name = widgetState, unchecked_return_type = "WidgetState | undefined")]
pub fn widget_state(
    #[wasm_bindgen(js_name = senderId)] sender_id: f64,
    #[wasm_bindgen(unchecked_param_type = "ChatSubmessage[]")] submessages: JsValue,
    #[wasm_bindgen(js_name = viewerId)] viewer_id: f64,
) -> Result<JsValue, JsValue> {
    let submessages: Vec<confab_core::client::ChatSubmessage> = from_js(submessages)?;
    let submessages: Vec<_> = submessages.iter().map(|s| s.to_model()).collect();
    let sender = confab_core::ids::UserId(sender_id as u64);
    match widgets::widget_state(sender, &submessages, confab_core::ids::UserId(viewer_id as u64)) {
        Some(state) => to_js(&state),
        None => Ok(JsValue::UNDEFINED),
    }
}

/// Checks a change to a widget as `POST /submessage` does: `content` must be JSON, and for a
/// `poll` or `todo` widget one of its changes (only its author may change the question or the
/// title). Returns the server's error message, or `undefined` when it would be accepted.
#[wasm_bindgen(js_name = checkSubmessage)]
pub fn check_submessage(
    #[wasm_bindgen(js_name = widgetType)] widget_type: Option<String>,
    content: &str,
    #[wasm_bindgen(js_name = isWidgetAuthor)] is_widget_author: bool,
) -> Option<String> {
    widgets::check_submessage_content(widget_type.as_deref(), content, is_widget_author).err()
}

/// The `widget` submessage content the server stores for a message's content (`/poll` or
/// `/todo` on its first word), or `undefined` when it makes no widget: for a local echo.
#[wasm_bindgen(js_name = widgetCommand)]
pub fn widget_command(content: &str) -> Option<String> {
    widgets::widget_command(content).map(|command| command.submessage_content())
}
