//! Rendering message content for the organization: the one place messages are rendered, so
//! sending, editing and previewing agree.

use crate::error::ApiResult;
use crate::model::Realm;
use crate::render::{Rendered, render_markdown};
use crate::store::Store;

/// Renders message content as the organization shows it.
pub fn render_message(_store: &impl Store, _realm: &Realm, content: &str) -> ApiResult<Rendered> {
    // Zulip's extensions (mentions, channel links, emoji, linkifiers) arrive with the Markdown
    // module; they need the organization's users, channels and linkifiers from `_store`.
    Ok(render_markdown(content))
}
