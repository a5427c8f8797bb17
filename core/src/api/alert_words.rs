//! GET    /users/me/alert_words   get_alert_words
//! POST   /users/me/alert_words   add_alert_words
//! DELETE /users/me/alert_words   remove_alert_words
//!
//! Words that flag a message `has_alert_word` for the user who chose them (matched by
//! `markdown::alert_word_hits` when a message is sent or edited).

use serde_json::json;

use crate::command::{Actor, Event, Outcome};
use crate::error::{ApiError, ApiResult};
use crate::params::{Json, Params, refuse_nul};
use crate::store::{Change, Store};

/// Zulip's `AlertWord.MAX_WORD_LENGTH`.
pub const MAX_ALERT_WORD_LENGTH: usize = 100;

/// The words sent: trimmed, empty ones dropped, each at most [`MAX_ALERT_WORD_LENGTH`].
fn requested(params: &Params) -> ApiResult<Vec<String>> {
    let Json(words) = params.required::<Json<Vec<String>>>("alert_words")?;
    let mut checked = Vec::with_capacity(words.len());
    for (index, word) in words.iter().enumerate() {
        refuse_nul(&format!("alert_words[{index}]"), word)?;
        if word.chars().count() > MAX_ALERT_WORD_LENGTH {
            return Err(ApiError::bad_request(format!(
                "alert_words[{index}] is too long (limit: {MAX_ALERT_WORD_LENGTH} characters)"
            )));
        }
        let word = word.trim();
        if !word.is_empty() {
            checked.push(word.to_owned());
        }
    }
    Ok(checked)
}

fn changed(actor: &Actor, words: Vec<String>) -> Outcome {
    let event = Event::Other {
        users: vec![actor.user.id],
        body: json!({"type": "alert_words", "alert_words": words}),
    };
    Outcome {
        changes: vec![Change::PutAlertWords(actor.user.id, words.clone())],
        events: vec![event],
        ..Outcome::default()
    }
    .reply("alert_words", words)
}

/// `GET /users/me/alert_words`.
pub fn get_alert_words(store: &impl Store, actor: &Actor) -> ApiResult<Outcome> {
    Ok(Outcome::default().reply("alert_words", store.alert_words(actor.user.id)?))
}

/// `POST /users/me/alert_words`: adds words not already there (compared case-insensitively).
pub fn add_alert_words(store: &impl Store, actor: &Actor, params: &Params) -> ApiResult<Outcome> {
    let mut words = store.alert_words(actor.user.id)?;
    for word in requested(params)? {
        if !words.iter().any(|w| w.to_lowercase() == word.to_lowercase()) {
            words.push(word);
        }
    }
    Ok(changed(actor, words))
}

/// `DELETE /users/me/alert_words`: removes the words given (compared case-insensitively).
pub fn remove_alert_words(store: &impl Store, actor: &Actor, params: &Params) -> ApiResult<Outcome> {
    let removed: Vec<String> = requested(params)?.iter().map(|w| w.to_lowercase()).collect();
    let words = store
        .alert_words(actor.user.id)?
        .into_iter()
        .filter(|w| !removed.contains(&w.to_lowercase()))
        .collect();
    Ok(changed(actor, words))
}
