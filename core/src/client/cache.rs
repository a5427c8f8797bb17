//! The message cache: messages by id, and for each narrow a window of ids known to be complete.
//!
//! A window covers a range of message ids (`oldest..=newest`, `newest` open while events keep it
//! current): every message of the narrow with an id in that range is in the window. A request
//! inside the range is answered from the cache; anything else is fetched, and the answer is
//! merged when it touches the window (else it replaces it). Events keep windows current with the
//! server's own narrow predicate (see [`super::projection`]); where the client cannot know (a
//! message it never saw may now match, or the narrow needs the Markdown source), the window is
//! dropped and the next request fetches it again.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::api::narrow::RawTerm;

use super::narrow_terms::{Aspects, dependencies};
use super::projection::Projection;
use super::types::{Anchor, ChatMessage, MessagesPage, NamedAnchor};

/// One narrow's known messages.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Window {
    /// The narrow, canonical.
    pub terms: Vec<RawTerm>,
    pub ids: BTreeSet<u64>,
    /// The lowest id covered; 0 once the oldest message is known.
    pub oldest: u64,
    /// The highest id covered; `None` while events bring every new message of the narrow.
    pub newest: Option<u64>,
    /// Whether membership is decided locally (see [`super::narrow_terms::decidable_locally`]).
    pub local: bool,
}

impl Window {
    pub fn covers(&self, id: u64) -> bool {
        id >= self.oldest && self.newest.is_none_or(|newest| id <= newest)
    }
}

/// Cached messages and narrows' windows.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MessageCache {
    pub messages: BTreeMap<u64, ChatMessage>,
    pub windows: BTreeMap<String, Window>,
}

/// What a fetch answered, for merging.
#[derive(Clone, Debug)]
pub struct Fetched {
    pub anchor: u64,
    pub num_before: u32,
    pub num_after: u32,
    pub ids: Vec<u64>,
    pub found_oldest: bool,
    pub found_newest: bool,
    /// Whether new messages of the narrow will all arrive as events (see
    /// [`super::Engine::narrow_is_live`]).
    pub live: bool,
}

impl MessageCache {
    /// Answers from a window, if it covers the request.
    pub fn answer(&self, key: &str, anchor: &Anchor, before: u32, after: u32) -> Option<MessagesPage> {
        let window = self.windows.get(key)?;
        let anchor_id = match anchor {
            Anchor::Id(id) => *id,
            Anchor::Named(NamedAnchor::Newest) => u64::MAX,
            Anchor::Named(NamedAnchor::Oldest) => 0,
            Anchor::Named(NamedAnchor::FirstUnread) => return None,
        };
        if !(window.covers(anchor_id) || (anchor_id == u64::MAX && window.newest.is_none())) {
            return None;
        }
        let count_below = window.ids.range(..anchor_id).count();
        let count_above = window.ids.range(anchor_id.saturating_add(1)..).count();
        let below: Vec<u64> = window.ids.range(..anchor_id).rev().take(before as usize).copied().collect();
        let above: Vec<u64> =
            window.ids.range(anchor_id.saturating_add(1)..).take(after as usize).copied().collect();
        // Fewer than asked for is an answer only where the window reaches the narrow's end.
        if (below.len() < before as usize && window.oldest != 0)
            || (above.len() < after as usize && window.newest.is_some())
        {
            return None;
        }
        let found_oldest = window.oldest == 0 && below.len() == count_below;
        let found_newest = window.newest.is_none() && above.len() == count_above;
        let found_anchor = window.ids.contains(&anchor_id);
        let mut ids: Vec<u64> = below.into_iter().rev().collect();
        if found_anchor {
            ids.push(anchor_id);
        }
        ids.extend(above);
        Some(MessagesPage {
            messages: ids.iter().filter_map(|id| self.messages.get(id).cloned()).collect(),
            found_anchor,
            found_oldest,
            found_newest,
            from_cache: true,
        })
    }

    /// Merges a fetched page into the narrow's window: joined when the ranges meet, else the
    /// fetched range replaces the window.
    pub fn merge(&mut self, key: &str, terms: Vec<RawTerm>, local: bool, fetched: Fetched) {
        let lowest = fetched.ids.iter().min().copied();
        let highest = fetched.ids.iter().max().copied();
        let oldest = if fetched.found_oldest {
            0
        } else if fetched.num_before > 0 {
            lowest.unwrap_or(fetched.anchor)
        } else {
            fetched.anchor.min(lowest.unwrap_or(fetched.anchor))
        };
        let newest = if fetched.found_newest && fetched.live && local {
            None
        } else if fetched.found_newest || fetched.num_after > 0 {
            // Complete up to the newest message returned; later ones may not reach us.
            Some(highest.unwrap_or(oldest).max(oldest))
        } else {
            Some(fetched.anchor.max(highest.unwrap_or(0)))
        };
        let fresh = Window { terms, ids: fetched.ids.into_iter().collect(), oldest, newest, local };
        let merged = match self.windows.remove(key) {
            Some(old) if ranges_meet(&old, &fresh) => Window {
                ids: old.ids.union(&fresh.ids).copied().collect(),
                oldest: old.oldest.min(fresh.oldest),
                // A live window stays live: events kept it complete up to now.
                newest: match (old.newest, fresh.newest) {
                    (None, _) | (_, None) => None,
                    (Some(a), Some(b)) => Some(a.max(b)),
                },
                ..fresh
            },
            _ => fresh,
        };
        self.windows.insert(key.to_owned(), merged);
        self.prune();
    }

    /// Puts a message (new, or a newer copy of a cached one).
    pub fn put(&mut self, message: ChatMessage) {
        self.messages.insert(message.id, message);
    }

    /// A new message: added to every open window whose narrow it matches. A window the client
    /// cannot decide for stops covering at the message before it.
    pub fn on_new_message(&mut self, id: u64, projection: &Projection) -> Vec<String> {
        let mut changed = Vec::new();
        for (key, window) in &mut self.windows {
            if window.newest.is_some() {
                continue;
            }
            if !window.local {
                window.newest = Some(id.saturating_sub(1));
                continue;
            }
            if projection.resolve(&window.terms).is_ok_and(|narrow| projection.matches(&narrow, id)) {
                window.ids.insert(id);
                changed.push(key.clone());
            }
        }
        changed
    }

    /// Messages changed in `aspects` (by an edit, a move, a flag or a reaction): each window
    /// that depends on those aspects re-decides the messages it covers, or is dropped when it
    /// cannot. `ids` of `None` means every message (the user's muting changed). Returns the keys
    /// of windows that changed or were dropped.
    pub fn on_changed(
        &mut self,
        ids: Option<&[u64]>,
        aspects: Aspects,
        projection: &Projection,
    ) -> Vec<String> {
        let mut changed = Vec::new();
        let mut dropped = Vec::new();
        for (key, window) in &mut self.windows {
            if !dependencies(&window.terms).intersects(aspects) {
                continue;
            }
            let Some(ids) = ids else {
                dropped.push(key.clone());
                continue;
            };
            let covered: Vec<u64> = ids.iter().copied().filter(|id| window.covers(*id)).collect();
            if covered.is_empty() {
                continue;
            }
            let narrow = match projection.resolve(&window.terms) {
                Ok(narrow) if window.local => narrow,
                _ => {
                    dropped.push(key.clone());
                    continue;
                }
            };
            if covered.iter().any(|id| !self.messages.contains_key(id)) {
                dropped.push(key.clone());
                continue;
            }
            let mut differs = false;
            for id in covered {
                let belongs = projection.matches(&narrow, id);
                differs |= if belongs { window.ids.insert(id) } else { window.ids.remove(&id) };
            }
            if differs {
                changed.push(key.clone());
            }
        }
        for key in &dropped {
            self.windows.remove(key);
        }
        changed.extend(dropped);
        self.prune();
        changed
    }

    /// Messages the user now has a copy of (the server gives one to whoever flags or reacts to
    /// a channel message they never received): narrows of the user's own messages (those
    /// without channel history, such as all messages) may hold them now. Such a window covering
    /// one decides it again, or is dropped when it cannot (the message is not cached, or the
    /// narrow is not decided locally). Returns the keys of windows that changed or were dropped.
    pub fn on_received(&mut self, ids: &[u64], projection: &Projection) -> Vec<String> {
        let mut changed = Vec::new();
        let mut dropped = Vec::new();
        for (key, window) in &mut self.windows {
            let covered: Vec<u64> =
                ids.iter().copied().filter(|id| window.covers(*id) && !window.ids.contains(id)).collect();
            if covered.is_empty() {
                continue;
            }
            let narrow = match projection.resolve(&window.terms) {
                // A channel's history holds its messages whoever has a copy.
                Ok(narrow) if narrow.include_history => continue,
                Ok(narrow) if window.local && covered.iter().all(|id| self.messages.contains_key(id)) => {
                    narrow
                }
                _ => {
                    dropped.push(key.clone());
                    continue;
                }
            };
            let mut differs = false;
            for id in covered {
                if projection.matches(&narrow, id) {
                    differs |= window.ids.insert(id);
                }
            }
            if differs {
                changed.push(key.clone());
            }
        }
        for key in &dropped {
            self.windows.remove(key);
        }
        changed.extend(dropped);
        self.prune();
        changed
    }

    /// Messages deleted: gone from every window.
    pub fn on_deleted(&mut self, ids: &[u64]) -> Vec<String> {
        let mut changed = Vec::new();
        for (key, window) in &mut self.windows {
            let mut differs = false;
            for id in ids {
                differs |= window.ids.remove(id);
            }
            if differs {
                changed.push(key.clone());
            }
        }
        for id in ids {
            self.messages.remove(id);
        }
        changed
    }

    /// The narrows whose windows hold a message.
    pub fn windows_holding(&self, id: u64) -> Vec<String> {
        self.windows.iter().filter(|(_, w)| w.ids.contains(&id)).map(|(key, _)| key.clone()).collect()
    }

    /// Puts a message back into the narrows that held it (a deletion the server refused), where
    /// those windows still cover it. Returns the keys of the windows that took it back.
    pub fn restore(&mut self, message: ChatMessage, keys: &[String]) -> Vec<String> {
        let id = message.id;
        let mut restored = Vec::new();
        for key in keys {
            if let Some(window) = self.windows.get_mut(key)
                && window.covers(id)
                && window.ids.insert(id)
            {
                restored.push(key.clone());
            }
        }
        if !restored.is_empty() {
            self.messages.insert(id, message);
        }
        restored
    }

    /// Forgets windows that events can no longer keep current (the user left their channel).
    pub fn forget_windows(&mut self, keys: &[String]) {
        for key in keys {
            self.windows.remove(key);
        }
        self.prune();
    }

    /// Forgets every window and message (after the state was fetched anew).
    pub fn clear(&mut self) {
        self.windows.clear();
        self.messages.clear();
    }

    /// Drops messages no window holds.
    fn prune(&mut self) {
        let held: BTreeSet<u64> = self.windows.values().flat_map(|w| w.ids.iter().copied()).collect();
        self.messages.retain(|id, _| held.contains(id));
    }
}

/// Whether two windows' ranges overlap or touch, so their union is complete.
fn ranges_meet(a: &Window, b: &Window) -> bool {
    let a_high = a.newest.unwrap_or(u64::MAX);
    let b_high = b.newest.unwrap_or(u64::MAX);
    a.oldest <= b_high.saturating_add(1) && b.oldest <= a_high.saturating_add(1)
}
