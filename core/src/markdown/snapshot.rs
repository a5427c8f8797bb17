//! An organization as plain data, for renderers that have no store: a browser client's cache
//! (through confab-web), and texts that mention no one (channel and organization
//! descriptions, rendered against an empty snapshot).

use std::collections::{BTreeMap, HashMap};
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::{
    CustomEmoji, Linkifier, MarkdownContext, MentionGroup, MentionStream, MentionUser, UploadLookup,
    UploadedImage,
};

/// What the renderer may look up, as lists. Lookups follow [`MarkdownContext`]'s rules:
/// full names and group names case-insensitively, channel names exactly.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct OrganizationSnapshot {
    pub users: Vec<MentionUser>,
    pub groups: Vec<MentionGroup>,
    /// The channels the sender may link to.
    pub streams: Vec<MentionStream>,
    pub custom_emoji: Vec<CustomEmoji>,
    pub linkifiers: Vec<Linkifier>,
    pub realm_url: String,
    pub default_code_block_language: Option<String>,
    /// Uploaded images by path id (`2/ab/…/photo.png`), as the server renders their previews.
    /// An upload not listed here is previewed by its extension (the snapshot cannot tell it
    /// is no image).
    pub uploaded_images: BTreeMap<String, UploadedImage>,
    /// The newest message the client knows of in each topic it knows: `#**channel>topic**`
    /// links end in `/with/<id>` as the server's will. A topic not listed gets no `/with/`.
    pub topics: Vec<TopicLatest>,
    /// `users` by lower-cased full name (indexes into `users`), built at the first mention
    /// lookup: in an organization of 10,000 users, lower-casing every name for every mention
    /// made rendering a 1 KB message cost more than a millisecond. A snapshot is not changed
    /// once it has been used (a client builds a new one when the organization changes).
    #[serde(skip)]
    #[cfg_attr(feature = "typescript", ts(skip))]
    pub(crate) users_by_name: NameIndex,
}

/// A topic and its newest message, for [`OrganizationSnapshot::topics`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct TopicLatest {
    pub stream_id: u64,
    pub topic: String,
    pub message_id: u64,
}

/// A lookup cache, derived from the fields: it takes no part in comparing snapshots.
#[derive(Clone, Debug, Default)]
pub(crate) struct NameIndex(OnceLock<HashMap<String, Vec<usize>>>);

impl PartialEq for NameIndex {
    fn eq(&self, _: &NameIndex) -> bool {
        true
    }
}

impl Eq for NameIndex {}

impl MarkdownContext for OrganizationSnapshot {
    fn user_by_id(&self, id: u64) -> Option<MentionUser> {
        self.users.iter().find(|u| u.id == id).cloned()
    }

    fn users_by_full_name(&self, name: &str) -> Vec<MentionUser> {
        let index = self.users_by_name.0.get_or_init(|| {
            let mut index: HashMap<String, Vec<usize>> = HashMap::new();
            for (at, user) in self.users.iter().enumerate() {
                index.entry(user.full_name.to_lowercase()).or_default().push(at);
            }
            index
        });
        let found = index.get(&name.to_lowercase()).map(Vec::as_slice).unwrap_or_default();
        found.iter().filter_map(|&at| self.users.get(at).cloned()).collect()
    }

    fn group_by_name(&self, name: &str) -> Option<MentionGroup> {
        let name = name.to_lowercase();
        self.groups.iter().find(|g| g.name.to_lowercase() == name).cloned()
    }

    fn stream_by_name(&self, name: &str) -> Option<MentionStream> {
        self.streams.iter().find(|s| s.name == name).cloned()
    }

    fn custom_emoji(&self, name: &str) -> Option<CustomEmoji> {
        self.custom_emoji.iter().find(|e| e.name == name).cloned()
    }

    fn linkifiers(&self) -> &[Linkifier] {
        &self.linkifiers
    }

    fn realm_url(&self) -> &str {
        &self.realm_url
    }

    fn default_code_block_language(&self) -> Option<&str> {
        self.default_code_block_language.as_deref()
    }

    fn latest_message_in_topic(&self, stream_id: u64, topic: &str) -> Option<u64> {
        let topic = topic.to_lowercase();
        self.topics
            .iter()
            .filter(|t| t.stream_id == stream_id && t.topic.to_lowercase() == topic)
            .map(|t| t.message_id)
            .max()
    }

    fn uploaded_image(&self, path_id: &str) -> UploadLookup {
        self.uploaded_images
            .get(path_id)
            .map_or(UploadLookup::Unknown, |image| UploadLookup::Image(image.clone()))
    }
}

impl OrganizationSnapshot {
    /// The active custom emoji of register's `realm_emoji` (`{id: {id, name, source_url,
    /// deactivated, ...}}`), for a client that builds its snapshot from register's state and
    /// keeps it in step with `realm_emoji` events.
    pub fn custom_emoji_from_register(realm_emoji: &serde_json::Value) -> Vec<CustomEmoji> {
        let Some(all) = realm_emoji.as_object() else { return Vec::new() };
        let mut emoji: Vec<CustomEmoji> = all
            .values()
            .filter(|e| e["deactivated"] != serde_json::Value::Bool(true))
            .filter_map(|e| {
                Some(CustomEmoji {
                    id: e["id"].as_str()?.parse().ok()?,
                    name: e["name"].as_str()?.to_owned(),
                    source_url: e["source_url"].as_str()?.to_owned(),
                })
            })
            .collect();
        emoji.sort_by_key(|e| e.id);
        emoji
    }
}

/// Renders text that mentions no one and links no channel, such as a channel's description.
pub fn render_description(text: &str) -> String {
    super::render(text, &OrganizationSnapshot::default()).html
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn register_state_gives_the_active_custom_emoji_to_the_renderer() {
        let realm_emoji = serde_json::json!({
            "2": {"id": "2", "name": "gone_away", "source_url": "/user_avatars/1/emoji/images/b.png", "deactivated": true},
            "1": {"id": "1", "name": "party", "source_url": "/user_avatars/1/emoji/images/a.png", "deactivated": false},
        });
        let custom_emoji = OrganizationSnapshot::custom_emoji_from_register(&realm_emoji);
        assert_eq!(custom_emoji.iter().map(|e| e.name.as_str()).collect::<Vec<_>>(), ["party"]);
        let snapshot = OrganizationSnapshot { custom_emoji, ..OrganizationSnapshot::default() };
        assert_eq!(
            crate::markdown::render(":party: :gone_away:", &snapshot).html,
            "<p><img alt=\":party:\" class=\"emoji\" src=\"/user_avatars/1/emoji/images/a.png\" title=\"party\"> :gone_away:</p>"
        );
    }
}
