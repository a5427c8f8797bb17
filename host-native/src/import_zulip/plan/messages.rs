//! Messages in id order with every user's flags, their reactions, and the uploads they link.
//! Zulip's rendered HTML is kept, with the ids its mentions carry and the paths of uploads
//! rewritten (Zulip's `fix_message_rendered_content` and `fix_upload_links`).

use std::collections::HashMap;

use confab_core::ids::{StreamId, UserId};
use confab_core::model::{Attachment, EditRecord, Message, MessageFlags, MessageKind, Reaction, StoredHtml};
use confab_core::store::Change;

use super::{Planner, Target};
use crate::import_zulip::format::{AttachmentRow, EditRow, MessageRow, UserMessageRow};
use crate::import_zulip::rewrite::{remap_attribute, remap_uploads};

/// The flag bits Confab keeps: Zulip's `UserMessage` bits up to `is_private`, which Confab
/// lays out alike; the next, `active_mobile_push_notification`, is about the old server's
/// notifications.
const KEPT_FLAG_BITS: u32 = (1 << 12) - 1;

impl Planner<'_> {
    pub(super) fn messages(&mut self) -> Vec<Change> {
        let export = self.export;
        let clients: HashMap<u64, &str> =
            export.realm.zerver_client.iter().map(|c| (c.id, c.name.as_str())).collect();
        let mut receivers: HashMap<u64, Vec<(UserId, MessageFlags)>> = HashMap::new();
        for row in export.messages.iter().flat_map(|f| &f.zerver_usermessage) {
            receivers.entry(row.message).or_default().push((self.users[&row.user_profile], flags(row)));
        }
        // The uploads each message links, old path to new (Zulip's `message_id_to_attachments`).
        let mut uploads: HashMap<u64, Vec<(String, String)>> = HashMap::new();
        for attachment in &export.attachments {
            let Some(new) = self.kept.uploads.get(&attachment.path_id) else { continue };
            for message in &attachment.messages {
                uploads.entry(*message).or_default().push((attachment.path_id.clone(), new.clone()));
            }
        }
        let ids = IdNumbers {
            users: self.users.iter().map(|(old, new)| (*old, new.0)).collect(),
            streams: self.streams.iter().map(|(old, (new, _))| (*old, new.0)).collect(),
            groups: self.groups.iter().map(|(old, new)| (*old, new.0)).collect(),
        };
        let mut rows: Vec<&MessageRow> = export.message_rows().collect();
        rows.sort_by_key(|m| m.id);
        let mut changes = Vec::with_capacity(rows.len());
        for row in rows {
            let id = self.messages[&row.id];
            let sender = self.users[&row.sender];
            let (recipient_id, kind) = match &self.recipients[&row.recipient] {
                Target::Channel(stream, recipient) => {
                    (*recipient, MessageKind::Stream { stream_id: *stream, topic: row.subject.clone() })
                }
                Target::Person(user, recipient) => (*recipient, direct(vec![sender, *user])),
                Target::Group(recipient, members) => {
                    (*recipient, direct(members.iter().copied().chain([sender]).collect()))
                }
            };
            let private = matches!(kind, MessageKind::Direct { .. });
            let receivers = receivers
                .remove(&row.id)
                .unwrap_or_default()
                .into_iter()
                .map(|(user, f)| {
                    (
                        user,
                        if private {
                            f.with(MessageFlags::IS_PRIVATE)
                        } else {
                            f.without(MessageFlags::IS_PRIVATE)
                        },
                    )
                })
                .collect();
            let paths = uploads.remove(&row.id).unwrap_or_default();
            let content = remap_uploads(&row.content, &paths);
            let html = match &row.rendered_content {
                Some(html) => ids.html(&remap_uploads(html, &paths)),
                None => {
                    self.unrendered.insert(id);
                    paragraph(&content)
                }
            };
            let edit_history = edit_history(row, &ids, &paths);
            // As Confab keeps them: the last content edit, and the last move. Without a history,
            // Zulip's one time stands for an edit.
            let moves = edit_history.iter().filter(|e| e.prev_stream.is_some() || e.prev_topic.is_some());
            let last_moved_timestamp = moves.map(|e| e.timestamp).max();
            let last_edit_timestamp = match edit_history.is_empty() {
                true => row.last_edit_time.map(|t| t as i64),
                false => edit_history.iter().filter(|e| e.prev_content.is_some()).map(|e| e.timestamp).max(),
            };
            changes.push(Change::InsertMessage {
                message: Message {
                    id,
                    realm_id: self.realm.id,
                    sender_id: sender,
                    recipient_id,
                    kind,
                    is_me_message: confab_core::api::messages::is_me_message(&content),
                    content,
                    rendered_content: StoredHtml::new(&html),
                    timestamp: row.date_sent as i64,
                    client: row.sending_client.and_then(|c| clients.get(&c)).unwrap_or(&"Zulip").to_string(),
                    has_link: row.has_link,
                    has_image: row.has_image,
                    has_attachment: row.has_attachment,
                    last_edit_timestamp,
                    last_moved_timestamp,
                    edit_history,
                },
                receivers,
            });
            self.counts.messages += 1;
        }
        changes
    }

    /// Reactions; a custom emoji's code is its new id.
    pub(super) fn reactions(&mut self) -> Vec<Change> {
        let mut changes = Vec::new();
        for reaction in &self.export.realm.zerver_reaction {
            let emoji_code = match reaction.reaction_type.as_str() {
                "realm_emoji" => self.emoji_codes[&reaction.emoji_code].clone(),
                _ => reaction.emoji_code.clone(),
            };
            changes.push(Change::AddReaction(Reaction {
                message_id: self.messages[&reaction.message],
                user_id: self.users[&reaction.user_profile],
                emoji_name: reaction.emoji_name.clone(),
                emoji_code,
                reaction_type: reaction.reaction_type.clone(),
            }));
        }
        self.counts.reactions = changes.len();
        changes
    }

    /// The uploads' records, naming the files kept and the messages that link them.
    pub(super) fn uploads(&mut self) -> Vec<Change> {
        let mut changes = Vec::new();
        for attachment in &self.export.attachments {
            let Some(path_id) = self.kept.uploads.get(&attachment.path_id) else { continue };
            changes.push(Change::PutAttachment(Attachment {
                id: self.ids.attachment.take(),
                realm_id: self.realm.id,
                owner_id: self.users[&attachment.owner],
                path_id: path_id.clone(),
                file_name: attachment.file_name.clone(),
                size: attachment.size,
                content_type: content_type(attachment),
                create_time: attachment.create_time as i64,
                message_ids: attachment.messages.iter().map(|m| self.messages[m]).collect(),
                image: self.kept.images.get(&attachment.path_id).cloned(),
            }));
        }
        self.counts.uploads = changes.len();
        changes
    }
}

/// A user's flags on a message: the mask of a realm export, or the names of a user's export.
fn flags(row: &UserMessageRow) -> MessageFlags {
    match (&row.flags_mask, &row.flags) {
        (Some(mask), _) => MessageFlags((*mask as u32) & KEPT_FLAG_BITS),
        (None, Some(names)) => names
            .iter()
            .filter_map(|n| MessageFlags::from_name(n))
            .fold(MessageFlags::empty(), MessageFlags::with),
        (None, None) => MessageFlags::empty(),
    }
}

/// A direct message's kind: its participants, sender included, sorted.
fn direct(mut participants: Vec<UserId>) -> MessageKind {
    participants.sort();
    participants.dedup();
    MessageKind::Direct { participants }
}

/// Old ids → new ones, as numbers, for the ids rendered HTML carries.
struct IdNumbers {
    users: HashMap<u64, u64>,
    streams: HashMap<u64, u64>,
    groups: HashMap<u64, u64>,
}

impl IdNumbers {
    fn html(&self, html: &str) -> String {
        let html = remap_attribute(html, "data-user-id", &self.users);
        let html = remap_attribute(&html, "data-stream-id", &self.streams);
        remap_attribute(&html, "data-user-group-id", &self.groups)
    }
}

fn edit_history(message: &MessageRow, ids: &IdNumbers, paths: &[(String, String)]) -> Vec<EditRecord> {
    let Some(history) = &message.edit_history else { return Vec::new() };
    // `Export::read` checked that it parses.
    let mut edits: Vec<EditRow> = serde_json::from_str(history).unwrap_or_default();
    edits.sort_by(|a, b| a.timestamp.total_cmp(&b.timestamp));
    let stream = |old: Option<u64>| old.and_then(|s| ids.streams.get(&s)).map(|s| StreamId(*s));
    edits
        .into_iter()
        .map(|edit| EditRecord {
            user_id: UserId(edit.user_id.and_then(|u| ids.users.get(&u).copied()).unwrap_or(0)),
            timestamp: edit.timestamp as i64,
            prev_content: edit.prev_content.map(|c| remap_uploads(&c, paths)),
            prev_rendered_content: edit.prev_rendered_content.map(|h| ids.html(&remap_uploads(&h, paths))),
            prev_stream: stream(edit.prev_stream),
            stream: stream(edit.stream),
            prev_topic: edit.prev_topic,
            topic: edit.topic,
        })
        .collect()
}

/// An upload's content type: as recorded, else an image's guessed from its name (as Zulip's
/// import guesses), else unknown.
pub fn content_type(attachment: &AttachmentRow) -> String {
    attachment
        .content_type
        .clone()
        .or_else(|| {
            confab_core::images::ImageFormat::from_extension(&attachment.file_name)
                .map(|format| format.content_type().to_owned())
        })
        .unwrap_or_else(|| "application/octet-stream".to_owned())
}

/// Text as one HTML paragraph: what a message the renderer refuses shows.
pub fn paragraph(text: &str) -> String {
    if text.is_empty() {
        return String::new();
    }
    let escaped = text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;");
    format!("<p>{escaped}</p>")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(flags_mask: Option<u64>, flags: Option<&[&str]>) -> UserMessageRow {
        UserMessageRow {
            user_profile: 1,
            message: 1,
            flags_mask,
            flags: flags.map(|names| names.iter().map(|n| (*n).to_owned()).collect()),
        }
    }

    #[test]
    fn flags_keep_zulips_bits_but_push_notifications() {
        // read, starred, mentioned, has_alert_word, historical, and Zulip's
        // active_mobile_push_notification (bit 12), which is the old server's business.
        let mask = 1 | 1 << 1 | 1 << 3 | 1 << 9 | 1 << 10 | 1 << 12;
        assert_eq!(
            flags(&row(Some(mask), None)).names(),
            ["read", "starred", "mentioned", "has_alert_word", "historical"]
        );
        let named = flags(&row(None, Some(&["read", "starred", "no_such_flag"])));
        assert_eq!(named, MessageFlags::READ.with(MessageFlags::STARRED));
        assert_eq!(flags(&row(None, None)), MessageFlags::empty());
    }

    #[test]
    fn paragraphs_escape_html() {
        assert_eq!(paragraph("a <b> & \"c\""), "<p>a &lt;b&gt; &amp; &quot;c&quot;</p>");
        assert_eq!(paragraph(""), "");
    }
}
