//! GET  /messages/matches_narrow   check_messages_match_narrow
//! POST /messages/render           render_message

use serde_json::{Map, Value, json};

use crate::command::{Actor, Outcome};
use crate::error::{ApiError, ApiResult};
use crate::ids::MessageId;
use crate::params::{Json, Params};
use crate::search::{self, SearchTerm};
use crate::store::Store;

use super::access::visible_flags;
use super::fetch::parse_narrow;
use super::rendering::render_message;
use super::send::MAX_MESSAGE_LENGTH;
use crate::api::narrow::{self, Condition};

/// Escapes text for HTML.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// `GET /messages/matches_narrow`: which of the given messages match a narrow, with the
/// search terms highlighted in `match_content` and `match_subject`.
pub fn check_messages_match_narrow(store: &impl Store, actor: &Actor, params: &Params) -> ApiResult<Outcome> {
    let Json(ids) = params.required::<Json<Vec<u64>>>("msg_ids")?;
    let narrow = parse_narrow(store, actor, params)?;
    let terms: Vec<SearchTerm> = narrow
        .terms
        .iter()
        .filter(|t| !t.negated)
        .flat_map(|t| match &t.condition {
            Condition::Search(terms) => terms.clone(),
            _ => Vec::new(),
        })
        .collect();
    let mut found = Map::new();
    for id in ids {
        let Some(message) = store.message(MessageId(id))? else { continue };
        if visible_flags(store, &actor.user, &message)?.is_none() {
            continue;
        }
        let facts = narrow::facts(store, &narrow, &message)?;
        if narrow.matches(&message, &facts) {
            found.insert(
                id.to_string(),
                json!({
                    "match_content": search::highlight_html(&message.rendered_content.html(), &terms),
                    "match_subject": search::highlight_html(&escape(message.topic()), &terms),
                }),
            );
        }
    }
    Ok(Outcome::default().reply("messages", Value::Object(found)))
}

/// `POST /messages/render`: the HTML a message with this content would have. Content longer
/// than a message may be is refused, as Zulip's parameter type refuses it (a send truncates).
pub fn render(store: &impl Store, actor: &Actor, params: &Params) -> ApiResult<Outcome> {
    let content: String = params.required("content")?;
    if content.chars().count() > MAX_MESSAGE_LENGTH {
        return Err(ApiError::bad_request(format!(
            "content is too long (limit: {MAX_MESSAGE_LENGTH} characters)"
        )));
    }
    let rendered = render_message(store, actor, &actor.user, &content)?;
    Ok(Outcome::default().reply("rendered", rendered.html))
}
