//! What a preview renders against: the organization snapshot, and the engine's topics for the
//! `/with/<id>` of topic links (the newest message the client knows in each topic, as the
//! server picks the newest one the sender can read). The message the server renders replaces
//! the preview, so a topic the client has not seen only loses its `/with/` until then.

use crate::markdown::{
    CustomEmoji, Linkifier, MarkdownContext, MathRenderer, MentionGroup, MentionStream, MentionUser,
    OrganizationSnapshot, UploadLookup,
};

use super::Engine;

pub(super) struct PreviewContext<'a> {
    pub(super) organization: &'a OrganizationSnapshot,
    pub(super) engine: &'a Engine,
}

impl MarkdownContext for PreviewContext<'_> {
    fn user_by_id(&self, id: u64) -> Option<MentionUser> {
        self.organization.user_by_id(id)
    }

    fn users_by_full_name(&self, name: &str) -> Vec<MentionUser> {
        self.organization.users_by_full_name(name)
    }

    fn group_by_name(&self, name: &str) -> Option<MentionGroup> {
        self.organization.group_by_name(name)
    }

    fn stream_by_name(&self, name: &str) -> Option<MentionStream> {
        self.organization.stream_by_name(name)
    }

    fn custom_emoji(&self, name: &str) -> Option<CustomEmoji> {
        self.organization.custom_emoji(name)
    }

    fn linkifiers(&self) -> &[Linkifier] {
        self.organization.linkifiers()
    }

    fn realm_url(&self) -> &str {
        self.organization.realm_url()
    }

    fn latest_message_in_topic(&self, stream_id: u64, topic: &str) -> Option<u64> {
        let topic = topic.to_lowercase();
        let known = self.engine.topics(stream_id).into_iter().find(|t| t.name.to_lowercase() == topic);
        known.map(|t| t.max_id).or_else(|| self.organization.latest_message_in_topic(stream_id, &topic))
    }

    fn default_code_block_language(&self) -> Option<&str> {
        self.organization.default_code_block_language()
    }

    fn uploaded_image(&self, path_id: &str) -> UploadLookup {
        self.organization.uploaded_image(path_id)
    }

    fn math_renderer(&self) -> Option<&dyn MathRenderer> {
        self.organization.math_renderer()
    }
}
