//! Rendering message content for the organization, and what a rendering means for each
//! recipient's flags. This is the one place messages are rendered, so that sending, editing
//! and previewing agree.

use std::cell::{OnceCell, RefCell};
use std::collections::BTreeSet;
use std::ops::Bound;

use crate::command::Actor;
use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::groups::{Groups, realm_permission};
use crate::ids::{RealmId, StreamId, UserId};
use crate::markdown::{
    self, MarkdownContext, MentionGroup, MentionStream, MentionUser, Rendering, UploadLookup, UploadedImage,
    alert_word_hits,
};
use crate::model::{Message, MessageFlags, MessageKind, Realm, Stream, User};
use crate::store::{Direction, MessageIndex, Store};

use super::super::streams::has_content_access;

/// The flags a message's content decides; an edit recomputes exactly these.
pub const CONTENT_FLAGS: MessageFlags = MessageFlags::MENTIONED
    .with(MessageFlags::STREAM_WILDCARD_MENTIONED)
    .with(MessageFlags::TOPIC_WILDCARD_MENTIONED)
    .with(MessageFlags::HAS_ALERT_WORD);

/// Zulip's `Realm.WILDCARD_MENTION_THRESHOLD`: above this many recipients, only users in
/// `can_mention_many_users_group` (administrators) may use wildcard mentions.
pub const WILDCARD_MENTION_THRESHOLD: usize = 15;

/// Renders message content as `sender` would have it shown to the organization.
pub fn render_message(
    store: &impl Store,
    actor: &Actor,
    sender: &User,
    content: &str,
) -> ApiResult<Rendering> {
    let context = StoreContext::new(store, &actor.realm, &actor.realm_url, sender)?;
    let rendering = markdown::render(content, &context);
    match context.failure.into_inner() {
        Some(error) => Err(error),
        None => Ok(rendering),
    }
}

/// Whether content is a `/me` message: Zulip requires a single line.
pub fn is_me_message(content: &str) -> bool {
    content.starts_with("/me ") && !content.contains('\n')
}

/// What a rendered message means for its recipients' flags.
pub struct Mentions {
    /// Users mentioned directly or through a group.
    mentioned: BTreeSet<u64>,
    stream_wildcard: bool,
    /// Who a `@**topic**` mention reaches, if the message has one.
    topic_participants: Option<BTreeSet<UserId>>,
    /// A group the message mentions that its sender may not mention (`can_mention_group`).
    unmentionable_group: Option<String>,
    /// Recipients one of whose alert words the message contains.
    alerted: BTreeSet<UserId>,
    /// Whether the sender is in the organization's `can_mention_many_users_group`.
    may_mention_many: bool,
}

impl Mentions {
    /// The mentions of `rendering` for `message` (already addressed, with its sender), and the
    /// alert words it holds for `recipients`.
    pub fn of(
        store: &impl Store,
        rendering: &Rendering,
        message: &Message,
        recipients: &[UserId],
    ) -> ApiResult<Mentions> {
        let mentioned =
            rendering.mentioned_user_ids.union(&rendering.mentioned_group_member_ids).copied().collect();
        let topic_participants =
            if rendering.topic_wildcard { Some(topic_participants(store, message)?) } else { None };
        let unmentionable_group = unmentionable_group(store, rendering, message)?;
        let may_mention_many = if rendering.stream_wildcard || rendering.topic_wildcard {
            let groups = Groups::load(store, message.realm_id)?;
            let realm = store
                .realm(message.realm_id)?
                .ok_or_else(|| ApiError::internal("message without organization"))?;
            match groups.user(message.sender_id) {
                Some(sender) => realm_permission(&groups, &realm, sender, "can_mention_many_users_group")?,
                None => false,
            }
        } else {
            true
        };
        let mut words_by_user = Vec::new();
        for user in recipients {
            let words = store.alert_words(*user)?;
            if !words.is_empty() {
                words_by_user.push((user.0, words));
            }
        }
        let alerted = alert_word_hits(rendering, &words_by_user).into_iter().map(UserId).collect();
        Ok(Mentions {
            mentioned,
            stream_wildcard: rendering.stream_wildcard,
            topic_participants,
            unmentionable_group,
            alerted,
            may_mention_many,
        })
    }

    /// The content flags of one recipient.
    /// The users mentioned by name or through a group (not through wildcards).
    pub fn mentioned_users(&self) -> impl Iterator<Item = UserId> + '_ {
        self.mentioned.iter().map(|id| UserId(*id))
    }

    pub fn flags_for(&self, user: UserId) -> MessageFlags {
        let mut flags = MessageFlags::empty();
        if self.mentioned.contains(&user.0) {
            flags = flags.with(MessageFlags::MENTIONED);
        }
        if self.stream_wildcard {
            flags = flags.with(MessageFlags::STREAM_WILDCARD_MENTIONED);
        }
        if self.topic_participants.as_ref().is_some_and(|p| p.contains(&user)) {
            flags = flags.with(MessageFlags::TOPIC_WILDCARD_MENTIONED);
        }
        if self.alerted.contains(&user) {
            flags = flags.with(MessageFlags::HAS_ALERT_WORD);
        }
        flags
    }

    /// Refuses wildcard mentions that would reach more than [`WILDCARD_MENTION_THRESHOLD`]
    /// users from a sender outside `can_mention_many_users_group`, as Zulip does for channel
    /// messages.
    pub fn check_allowed(&self, message: &Message, recipients: usize) -> ApiResult<()> {
        if let Some(name) = &self.unmentionable_group {
            return Err(ApiError::bad_request(format!(
                "You are not allowed to mention user group '{name}'."
            )));
        }
        if message.is_direct() || self.may_mention_many {
            return Ok(());
        }
        if self.stream_wildcard && recipients > WILDCARD_MENTION_THRESHOLD {
            return Err(ApiError::new(
                ErrorCode::StreamWildcardMentionNotAllowed,
                "You do not have permission to use channel wildcard mentions in this channel.",
            ));
        }
        if self.topic_participants.as_ref().is_some_and(|p| p.len() > WILDCARD_MENTION_THRESHOLD) {
            return Err(ApiError::new(
                ErrorCode::TopicWildcardMentionNotAllowed,
                "You do not have permission to use topic wildcard mentions in this topic.",
            ));
        }
        Ok(())
    }
}

/// The first group the message mentions (not silently) whose `can_mention_group` does not
/// hold its sender.
fn unmentionable_group(
    store: &impl Store,
    rendering: &Rendering,
    message: &Message,
) -> ApiResult<Option<String>> {
    if rendering.mentioned_group_ids.is_empty() {
        return Ok(None);
    }
    let groups = Groups::load(store, message.realm_id)?;
    let Some(sender) = groups.user(message.sender_id) else { return Ok(None) };
    Ok(rendering
        .mentioned_group_ids
        .iter()
        .filter_map(|id| groups.get(crate::ids::UserGroupId(*id)))
        .find(|group| !groups.has_permission(sender, &group.can_mention_group, true))
        .map(|group| group.name.clone()))
}

/// Who a `@**topic**` mention reaches: everyone who sent or reacted in the topic, and the
/// sender. In a direct message the topic is the conversation, so every participant.
fn topic_participants(store: &impl Store, message: &Message) -> ApiResult<BTreeSet<UserId>> {
    let mut participants = BTreeSet::from([message.sender_id]);
    match &message.kind {
        MessageKind::Direct { participants: users } => participants.extend(users.iter().copied()),
        MessageKind::Stream { topic, .. } => {
            let index = MessageIndex::Topic(message.recipient_id, topic.to_lowercase());
            for id in store.message_ids(&index, Bound::Unbounded, Bound::Unbounded, Direction::Ascending)? {
                let Some(earlier) = store.message(id?)? else { continue };
                participants.insert(earlier.sender_id);
                participants.extend(store.reactions(earlier.id)?.iter().map(|r| r.user_id));
            }
        }
    }
    Ok(participants)
}

/// The organization as the renderer sees it, read from the store on demand. Store failures
/// cannot pass through the renderer's lookups, so the first one is kept and returned after.
struct StoreContext<'a, S: Store> {
    store: &'a S,
    realm: RealmId,
    realm_url: &'a str,
    sender: &'a User,
    linkifiers: Vec<markdown::Linkifier>,
    users: OnceCell<Vec<User>>,
    groups: OnceCell<Option<Groups>>,
    custom_emoji: OnceCell<Vec<markdown::CustomEmoji>>,
    failure: RefCell<Option<ApiError>>,
}

impl<'a, S: Store> StoreContext<'a, S> {
    fn new(store: &'a S, realm: &Realm, realm_url: &'a str, sender: &'a User) -> ApiResult<Self> {
        Ok(StoreContext {
            store,
            realm: realm.id,
            realm_url,
            sender,
            linkifiers: markdown_linkifiers(store, realm.id)?,
            users: OnceCell::new(),
            groups: OnceCell::new(),
            custom_emoji: OnceCell::new(),
            failure: RefCell::new(None),
        })
    }

    fn keep<T>(&self, result: ApiResult<T>) -> Option<T> {
        result.map_err(|e| self.failure.borrow_mut().get_or_insert(e).clone()).ok()
    }

    /// The organization's groups, read once, on the first group mention.
    fn groups(&self) -> Option<&Groups> {
        self.groups.get_or_init(|| self.keep(Groups::load(self.store, self.realm))).as_ref()
    }

    /// The organization's active custom emoji, read once, on the first `:name:` that could be one.
    fn custom_emoji(&self) -> &[markdown::CustomEmoji] {
        self.custom_emoji.get_or_init(|| {
            self.keep(crate::api::realm_emoji::active_custom_emoji(self.store, self.realm))
                .unwrap_or_default()
        })
    }

    /// Every user of the organization, read once: full-name mentions need a scan.
    fn users(&self) -> &[User] {
        self.users.get_or_init(|| self.keep(self.store.realm_users(self.realm)).unwrap_or_default())
    }

    fn linkable(&self, stream: &Stream) -> Option<bool> {
        self.keep(has_content_access(self.store, self.sender, stream))
    }
}

fn mention_user(user: &User) -> MentionUser {
    MentionUser {
        id: user.id.0,
        full_name: user.full_name.clone(),
        email: user.email.clone(),
        is_active: user.is_active,
    }
}

impl<S: Store> MarkdownContext for StoreContext<'_, S> {
    fn user_by_id(&self, id: u64) -> Option<MentionUser> {
        let user = self.keep(self.store.user(UserId(id)))??;
        (user.realm_id == self.realm).then(|| mention_user(&user))
    }

    fn users_by_full_name(&self, name: &str) -> Vec<MentionUser> {
        let name = name.to_lowercase();
        self.users().iter().filter(|u| u.full_name.to_lowercase() == name).map(mention_user).collect()
    }

    fn group_by_name(&self, name: &str) -> Option<MentionGroup> {
        let groups = self.groups()?;
        let group = groups.by_name(name)?;
        Some(MentionGroup {
            id: group.id.0,
            name: group.system.map_or_else(|| group.name.clone(), |s| s.display_name().to_owned()),
            members: groups.members(group.id).into_iter().map(|u| u.0).collect(),
            is_deactivated: group.deactivated,
        })
    }

    fn stream_by_name(&self, name: &str) -> Option<MentionStream> {
        let id = self.keep(self.store.stream_by_name(self.realm, name))??;
        let stream = self.keep(self.store.stream(id))??;
        (stream.name == name && self.linkable(&stream)?)
            .then_some(MentionStream { id: stream.id.0, name: stream.name })
    }

    fn custom_emoji(&self, name: &str) -> Option<markdown::CustomEmoji> {
        self.custom_emoji().iter().find(|e| e.name == name).cloned()
    }

    fn linkifiers(&self) -> &[markdown::Linkifier] {
        &self.linkifiers
    }

    fn realm_url(&self) -> &str {
        self.realm_url
    }

    /// The newest message of the topic the sender can read (Zulip's `topic_info`): in a
    /// channel whose history is public to its subscribers that is the newest of all; otherwise
    /// the newest the sender received.
    fn latest_message_in_topic(&self, stream_id: u64, topic: &str) -> Option<u64> {
        let stream = self.keep(self.store.stream(StreamId(stream_id)))??;
        let index = MessageIndex::Topic(stream.recipient_id, topic.to_lowercase());
        let newest_first = self.keep(self.store.message_ids(
            &index,
            Bound::Unbounded,
            Bound::Unbounded,
            Direction::Descending,
        ))?;
        for id in newest_first {
            let message = self.keep(id.and_then(|id| self.store.message(id)))??;
            if self.keep(super::access::visible_flags(self.store, self.sender, &message))?.is_some() {
                return Some(message.id.0);
            }
        }
        None
    }

    /// The organization's upload at `path_id`, if it was read as an image (Zulip's
    /// `get_user_upload_previews`); anything else is no image.
    fn uploaded_image(&self, path_id: &str) -> UploadLookup {
        let attachment = self.keep(self.store.attachment_by_path(path_id)).flatten();
        let Some((content_type, image)) =
            attachment.filter(|a| a.realm_id == self.realm).and_then(|a| Some((a.content_type, a.image?)))
        else {
            return UploadLookup::NotAnImage;
        };
        let (thumbnail_url, animated) = if image.thumbnails.is_empty() {
            (None, false)
        } else {
            let (url, animated) = crate::thumbnails::default_thumbnail(path_id, &image);
            (Some(url), animated)
        };
        UploadLookup::Image(UploadedImage {
            original_width_px: image.original_width_px,
            original_height_px: image.original_height_px,
            transcoded_image: crate::thumbnails::transcoded_image(&content_type, &image),
            original_content_type: content_type,
            thumbnail_url,
            animated,
        })
    }
}

/// The organization's linkifiers in the renderer's form, for `topic_links`.
pub fn markdown_linkifiers(store: &impl Store, realm: RealmId) -> ApiResult<Vec<markdown::Linkifier>> {
    Ok(store
        .linkifiers(realm)?
        .into_iter()
        .map(|l| markdown::Linkifier { id: l.id, pattern: l.pattern, url_template: l.url_template })
        .collect())
}
