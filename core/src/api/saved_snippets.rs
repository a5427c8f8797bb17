//! GET    /saved_snippets                      get_saved_snippets
//! POST   /saved_snippets                      create_saved_snippet
//! PATCH  /saved_snippets/{saved_snippet_id}   edit_saved_snippet
//! DELETE /saved_snippets/{saved_snippet_id}   delete_saved_snippet
//!
//! Saved snippets (spec 2.7, 4.17): a user's reusable message texts, with `saved_snippets`
//! events to the user's clients.

use serde_json::{Value, json};

use crate::command::{Actor, Outcome};
use crate::error::{ApiError, ApiResult};
use crate::ids::UserId;
use crate::model::RecordKind;
use crate::params::{Params, refuse_nul};
use crate::store::Store;

use super::messages::MAX_MESSAGE_LENGTH;
use super::records::{deleted, new_ids, record, records, stored};

/// Zulip's `SavedSnippet.MAX_TITLE_LENGTH`.
pub const MAX_TITLE_LENGTH: usize = 60;

fn not_found() -> ApiError {
    ApiError::bad_request("Saved snippet does not exist.").with_status(404)
}

/// A title or content as sent: stripped, not empty, not too long.
fn checked(field: &str, shown_name: &str, value: &str, limit: usize) -> ApiResult<String> {
    refuse_nul(field, value)?;
    let value = value.trim();
    if value.is_empty() {
        return Err(ApiError::bad_request(format!("{shown_name} cannot be empty.")));
    }
    if value.chars().count() > limit {
        return Err(ApiError::bad_request(format!("{field} is too long (limit: {limit} characters)")));
    }
    Ok(value.to_owned())
}

fn shown(id: u64, snippet: &Value) -> Value {
    let mut snippet = snippet.clone();
    snippet["id"] = id.into();
    snippet
}

/// The user's snippets, as register and `GET /saved_snippets` show them.
pub fn saved_snippets_json(store: &impl Store, user: UserId) -> ApiResult<Value> {
    Ok(records(store, user, RecordKind::SavedSnippet)?.iter().map(|(id, s)| shown(*id, s)).collect())
}

/// `GET /saved_snippets`.
pub fn get_saved_snippets(store: &impl Store, actor: &Actor) -> ApiResult<Outcome> {
    Ok(Outcome::default().reply("saved_snippets", saved_snippets_json(store, actor.user.id)?))
}

/// `POST /saved_snippets`: answers `saved_snippet_id`.
pub fn create_saved_snippet(
    store: &impl Store,
    actor: &Actor,
    params: &Params,
    now: i64,
) -> ApiResult<Outcome> {
    let title = checked("title", "Title", &params.required::<String>("title")?, MAX_TITLE_LENGTH)?;
    let content = checked("content", "Content", &params.required::<String>("content")?, MAX_MESSAGE_LENGTH)?;
    let id = new_ids(store)?.take();
    let snippet = json!({"title": title, "content": content, "date_created": now});
    let event = json!({"type": "saved_snippets", "op": "add", "saved_snippet": shown(id, &snippet)});
    Ok(stored(actor.user.id, RecordKind::SavedSnippet, id, snippet, event).reply("saved_snippet_id", id))
}

/// `PATCH /saved_snippets/{saved_snippet_id}`: the title, the content or both.
pub fn edit_saved_snippet(store: &impl Store, actor: &Actor, id: u64, params: &Params) -> ApiResult<Outcome> {
    // As in Zulip, what is sent is checked before the snippet is looked up, and a request that
    // changes nothing succeeds without looking and without an event.
    let title = params
        .optional::<String>("title")?
        .map(|t| checked("title", "Title", &t, MAX_TITLE_LENGTH))
        .transpose()?;
    let content = params
        .optional::<String>("content")?
        .map(|c| checked("content", "Content", &c, MAX_MESSAGE_LENGTH))
        .transpose()?;
    if title.is_none() && content.is_none() {
        return Ok(Outcome::default());
    }
    let mut snippet = record(store, actor.user.id, RecordKind::SavedSnippet, id)?.ok_or_else(not_found)?;
    if let Some(title) = title {
        snippet["title"] = title.into();
    }
    if let Some(content) = content {
        snippet["content"] = content.into();
    }
    let event = json!({"type": "saved_snippets", "op": "update", "saved_snippet": shown(id, &snippet)});
    Ok(stored(actor.user.id, RecordKind::SavedSnippet, id, snippet, event))
}

/// `DELETE /saved_snippets/{saved_snippet_id}`.
pub fn delete_saved_snippet(store: &impl Store, actor: &Actor, id: u64) -> ApiResult<Outcome> {
    record(store, actor.user.id, RecordKind::SavedSnippet, id)?.ok_or_else(not_found)?;
    let event = json!({"type": "saved_snippets", "op": "remove", "saved_snippet_id": id});
    Ok(deleted(actor.user.id, RecordKind::SavedSnippet, id, event))
}
