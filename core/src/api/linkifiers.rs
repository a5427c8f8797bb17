//! GET    /realm/linkifiers      get_linkifiers
//! PATCH  /realm/linkifiers      reorder_linkifiers
//! POST   /realm/filters         add_linkifier
//! PATCH  /realm/filters/{id}    update_linkifier
//! DELETE /realm/filters/{id}    remove_linkifier

use std::collections::BTreeSet;

use serde_json::json;

use crate::command::{Actor, Event, Outcome, require_admin};
use crate::error::{ApiError, ApiResult};
use crate::ids::IdKind;
use crate::markdown::validate_linkifier;
use crate::model::Linkifier;
use crate::params::{Json, Params, refuse_nul};
use crate::store::{Change, IdAllocator, Store};
use crate::wire;

/// The `realm_linkifiers` event with the organization's list after a change.
fn changed_event(store: &impl Store, actor: &Actor, after: &[Linkifier]) -> ApiResult<Event> {
    let users = crate::command::active_user_ids(store, actor.realm.id)?;
    Ok(Event::Other {
        users,
        body: json!({"type": "realm_linkifiers", "linkifiers": wire::linkifiers(after)}),
    })
}

/// `GET /realm/linkifiers`.
pub fn get_linkifiers(store: &impl Store, actor: &Actor) -> ApiResult<Outcome> {
    Ok(Outcome::default().reply("linkifiers", wire::linkifiers(&store.linkifiers(actor.realm.id)?)))
}

fn checked_input(params: &Params) -> ApiResult<(String, String)> {
    let pattern: String = params.required("pattern")?;
    let url_template: String = params.required("url_template")?;
    refuse_nul("pattern", &pattern)?;
    refuse_nul("url_template", &url_template)?;
    validate_linkifier(&pattern, &url_template).map_err(ApiError::bad_request)?;
    Ok((pattern, url_template))
}

/// `POST /realm/filters`: administrators add a linkifier at the end of the list.
pub fn add_linkifier(store: &impl Store, actor: &Actor, params: &Params) -> ApiResult<Outcome> {
    require_admin(actor)?;
    let (pattern, url_template) = checked_input(params)?;
    let mut all = store.linkifiers(actor.realm.id)?;
    let order = all.iter().map(|l| l.order + 1).max().unwrap_or(0);
    let id = IdAllocator::new(store, IdKind::Linkifier)?.take();
    let linkifier = Linkifier { id, realm_id: actor.realm.id, pattern, url_template, order };
    all.push(linkifier.clone());
    let event = changed_event(store, actor, &all)?;
    Ok(Outcome { changes: vec![Change::PutLinkifier(linkifier)], events: vec![event], ..Outcome::default() }
        .reply("id", id))
}

fn find(all: &[Linkifier], id: u64) -> ApiResult<usize> {
    all.iter().position(|l| l.id == id).ok_or_else(|| ApiError::bad_request("Linkifier not found."))
}

/// `PATCH /realm/filters/{filter_id}` (spec 4.18).
pub fn update_linkifier(store: &impl Store, actor: &Actor, id: u64, params: &Params) -> ApiResult<Outcome> {
    require_admin(actor)?;
    let mut all = store.linkifiers(actor.realm.id)?;
    let at = find(&all, id)?;
    let (pattern, url_template) = checked_input(params)?;
    all[at].pattern = pattern;
    all[at].url_template = url_template;
    let event = changed_event(store, actor, &all)?;
    Ok(Outcome {
        changes: vec![Change::PutLinkifier(all[at].clone())],
        events: vec![event],
        ..Outcome::default()
    })
}

/// `DELETE /realm/filters/{filter_id}`.
pub fn remove_linkifier(store: &impl Store, actor: &Actor, id: u64) -> ApiResult<Outcome> {
    require_admin(actor)?;
    let mut all = store.linkifiers(actor.realm.id)?;
    let at = find(&all, id)?;
    all.remove(at);
    let event = changed_event(store, actor, &all)?;
    Ok(Outcome {
        changes: vec![Change::DeleteLinkifier { realm: actor.realm.id, id }],
        events: vec![event],
        ..Outcome::default()
    })
}

/// `PATCH /realm/linkifiers`: a new order, naming every linkifier exactly once.
pub fn reorder_linkifiers(store: &impl Store, actor: &Actor, params: &Params) -> ApiResult<Outcome> {
    require_admin(actor)?;
    let Json(ordered) = params.required::<Json<Vec<u64>>>("ordered_linkifier_ids")?;
    let unique: BTreeSet<u64> = ordered.iter().copied().collect();
    if unique.len() != ordered.len() {
        return Err(ApiError::bad_request("The ordered list must not contain duplicated linkifiers"));
    }
    let all = store.linkifiers(actor.realm.id)?;
    let existing: BTreeSet<u64> = all.iter().map(|l| l.id).collect();
    if unique != existing {
        return Err(ApiError::bad_request(
            "The ordered list must enumerate all existing linkifiers exactly once",
        ));
    }
    let mut reordered = Vec::with_capacity(all.len());
    for (order, id) in ordered.iter().enumerate() {
        if let Some(linkifier) = all.iter().find(|l| l.id == *id) {
            reordered.push(Linkifier { order: order as u64, ..linkifier.clone() });
        }
    }
    let event = changed_event(store, actor, &reordered)?;
    Ok(Outcome {
        changes: reordered.into_iter().map(Change::PutLinkifier).collect(),
        events: vec![event],
        ..Outcome::default()
    })
}
