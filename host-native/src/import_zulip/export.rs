//! The whole export, parsed and checked before anything is written: the version that wrote it,
//! every file it names, and every reference between its rows. A problem refuses the import
//! with a list of what is wrong.

use std::collections::{HashMap, HashSet};

use serde::de::DeserializeOwned;

use super::archive::Contents;
use super::format::*;

/// The Zulip major versions whose export format this import reads. Zulip's own import accepts
/// only the version that wrote the export; Confab reads the format these versions write.
pub const SUPPORTED_MAJOR_VERSIONS: std::ops::RangeInclusive<u32> = 10..=11;

/// Zulip's `CustomProfileField.USER`: values are lists of user ids.
pub const USER_FIELD: i64 = 6;

/// At most this many problems are listed.
const MAX_PROBLEMS: usize = 20;

/// A checked export.
#[derive(Debug)]
pub struct Export {
    pub zulip_version: String,
    pub realm: RealmFile,
    pub messages: Vec<MessageFile>,
    pub attachments: Vec<AttachmentRow>,
    /// Attachment `path_id` → its file under `uploads/`.
    pub upload_files: HashMap<String, String>,
    /// User id → their avatar's file under `avatars/`.
    pub avatar_files: HashMap<u64, String>,
    /// Emoji file name → its image under `emoji/`.
    pub emoji_files: HashMap<String, String>,
}

impl Export {
    /// Parses and checks every part of the export.
    pub fn read(contents: &Contents) -> Result<Export, String> {
        let status: MigrationStatus = parse(contents, "migration_status.json").map_err(|e| {
            format!("{e}\n(Zulip writes it since version 10; older exports cannot be imported)")
        })?;
        check_version(&status.zulip_version)?;
        let realm: RealmFile = parse(contents, "realm.json")?;
        let mut messages = Vec::new();
        for number in 1.. {
            let name = format!("messages-{number:06}.json");
            if contents.json(&name).is_none() {
                break;
            }
            messages.push(parse::<MessageFile>(contents, &name)?);
        }
        let attachments = parse::<AttachmentFile>(contents, "attachment.json")?.zerver_attachment;
        let uploads: Vec<UploadRecord> = parse(contents, "uploads/records.json")?;
        let avatars: Vec<AvatarRecord> = optional(contents, "avatars/records.json")?;
        let emoji: Vec<EmojiRecord> = optional(contents, "emoji/records.json")?;

        let mut problems = Problems::default();
        let upload_files = uploads.into_iter().map(|r| (r.s3_path, format!("uploads/{}", r.path))).collect();
        // The image as uploaded (`.original`) where there is one, else the resized one.
        let mut avatar_files = HashMap::new();
        for record in avatars {
            let original = record.path.ends_with(".original");
            if original
                || !(record.path.ends_with("-medium.png")
                    || avatar_files.contains_key(&record.user_profile_id))
            {
                avatar_files.insert(record.user_profile_id, format!("avatars/{}", record.path));
            }
        }
        let mut emoji_files = HashMap::new();
        for record in emoji {
            if record.path.ends_with(".original") || !emoji_files.contains_key(&record.file_name) {
                emoji_files.insert(record.file_name, format!("emoji/{}", record.path));
            }
        }
        let export = Export {
            zulip_version: status.zulip_version,
            realm,
            messages,
            attachments,
            upload_files,
            avatar_files,
            emoji_files,
        };
        export.check(contents, &mut problems);
        problems.into_result().map(|()| export)
    }

    /// Every message row, in file order.
    pub fn message_rows(&self) -> impl Iterator<Item = &MessageRow> {
        self.messages.iter().flat_map(|file| &file.zerver_message)
    }

    /// Every user row: accounts, then mirror accounts.
    pub fn user_rows(&self) -> impl Iterator<Item = &UserRow> {
        self.realm.zerver_userprofile.iter().chain(&self.realm.zerver_userprofile_mirrordummy)
    }

    fn check(&self, contents: &Contents, problems: &mut Problems) {
        let realm = &self.realm;
        if realm.zerver_realm.len() != 1 {
            problems
                .add(format!("realm.json has {} organizations; an export has one", realm.zerver_realm.len()));
        }
        let mut users = HashSet::new();
        let mut emails = HashSet::new();
        for user in self.user_rows() {
            if !users.insert(user.id) {
                problems.add(format!("user {} appears twice", user.id));
            }
            if !emails.insert(user.delivery_email.to_lowercase()) {
                problems.add(format!("the email {} belongs to two users", user.delivery_email));
            }
            if let Err(e) = confab_core::api::users::validate_email(&user.delivery_email) {
                problems.add(format!("user {}: {}", user.id, e.msg));
            }
            if user.full_name.trim().is_empty() {
                problems.add(format!("user {} has no name", user.id));
            }
            if confab_core::model::Role::from_value(user.role).is_none() {
                problems.add(format!("user {} has the unknown role {}", user.id, user.role));
            }
        }
        let senders: HashSet<u64> =
            users.iter().copied().chain(realm.zerver_userprofile_crossrealm.iter().map(|b| b.id)).collect();
        for user in self.user_rows() {
            if let Some(owner) = user.bot_owner.filter(|o| !users.contains(o)) {
                problems.add(format!("bot {} has the unknown owner {owner}", user.id));
            }
        }
        let streams: HashSet<u64> = realm.zerver_stream.iter().map(|s| s.id).collect();
        let mut names = HashSet::new();
        for stream in &realm.zerver_stream {
            if !names.insert(stream.name.to_lowercase()) {
                problems.add(format!("two channels are named {:?}", stream.name));
            }
        }
        let groups_dm: HashSet<u64> = realm.zerver_huddle.iter().map(|h| h.id).collect();
        let mut recipients: HashSet<u64> =
            realm.zerver_userprofile_crossrealm.iter().map(|b| b.recipient_id).collect();
        for recipient in &realm.zerver_recipient {
            recipients.insert(recipient.id);
            let known = match recipient.kind {
                PERSONAL => users.contains(&recipient.type_id),
                STREAM => streams.contains(&recipient.type_id),
                DIRECT_MESSAGE_GROUP => groups_dm.contains(&recipient.type_id),
                _ => false,
            };
            if !known {
                problems.add(format!(
                    "recipient {} names the unknown {} {}",
                    recipient.id,
                    kind_name(recipient.kind),
                    recipient.type_id
                ));
            }
        }
        for sub in &realm.zerver_subscription {
            if !users.contains(&sub.user_profile) || !recipients.contains(&sub.recipient) {
                problems.add(format!(
                    "a subscription names user {} and recipient {}, not both in the export",
                    sub.user_profile, sub.recipient
                ));
            }
        }
        let mut messages = HashSet::new();
        for message in self.message_rows() {
            if !messages.insert(message.id) {
                problems.add(format!("message {} appears twice", message.id));
            }
            if !senders.contains(&message.sender) {
                problems.add(format!("message {} has the unknown sender {}", message.id, message.sender));
            }
            if !recipients.contains(&message.recipient) {
                problems
                    .add(format!("message {} has the unknown recipient {}", message.id, message.recipient));
            }
            if let Some(history) = &message.edit_history
                && serde_json::from_str::<Vec<EditRow>>(history).is_err()
            {
                problems
                    .add(format!("message {} has an edit history that is not a list of edits", message.id));
            }
        }
        for row in self.messages.iter().flat_map(|f| &f.zerver_usermessage) {
            if !users.contains(&row.user_profile) || !messages.contains(&row.message) {
                problems.add(format!(
                    "flags name user {} and message {}, not both in the export",
                    row.user_profile, row.message
                ));
            }
        }
        let emoji: HashSet<String> = realm.zerver_realmemoji.iter().map(|e| e.id.to_string()).collect();
        for reaction in &realm.zerver_reaction {
            if !users.contains(&reaction.user_profile) || !messages.contains(&reaction.message) {
                problems.add(format!(
                    "a reaction names user {} and message {}, not both in the export",
                    reaction.user_profile, reaction.message
                ));
            }
            if reaction.reaction_type == "realm_emoji" && !emoji.contains(&reaction.emoji_code) {
                problems.add(format!("a reaction names the unknown custom emoji {}", reaction.emoji_code));
            }
        }
        let groups: HashSet<u64> = realm.zerver_usergroup.iter().map(|g| g.id).collect();
        for named in &realm.zerver_namedusergroup {
            if !named.group_id().is_some_and(|id| groups.contains(&id)) {
                problems.add(format!("the group '{}' has no row in zerver_usergroup", named.name));
            }
        }
        for member in &realm.zerver_usergroupmembership {
            if !groups.contains(&member.user_group) || !users.contains(&member.user_profile) {
                problems.add(format!(
                    "a group membership names group {} and user {}, not both in the export",
                    member.user_group, member.user_profile
                ));
            }
        }
        for nesting in &realm.zerver_groupgroupmembership {
            if !groups.contains(&nesting.supergroup) || !groups.contains(&nesting.subgroup) {
                problems.add(format!(
                    "a group nesting names group {} or {}, missing from the export",
                    nesting.supergroup, nesting.subgroup
                ));
            }
        }
        for word in &realm.zerver_alertword {
            if !users.contains(&word.user_profile) {
                problems.add(format!("an alert word names the unknown user {}", word.user_profile));
            }
        }
        for muted in &realm.zerver_muteduser {
            if !users.contains(&muted.user_profile) || !users.contains(&muted.muted_user) {
                problems.add(format!(
                    "a muting names user {} or {}, missing from the export",
                    muted.user_profile, muted.muted_user
                ));
            }
        }
        for topic in &realm.zerver_usertopic {
            if !users.contains(&topic.user_profile) || !streams.contains(&topic.stream) {
                problems.add(format!(
                    "a topic preference names user {} and channel {}, not both in the export",
                    topic.user_profile, topic.stream
                ));
            }
        }
        for status in &realm.zerver_userstatus {
            if !users.contains(&status.user_profile) {
                problems.add(format!("a status names the unknown user {}", status.user_profile));
            }
            if status.reaction_type == "realm_emoji" && !emoji.contains(&status.emoji_code) {
                problems.add(format!("a status names the unknown custom emoji {}", status.emoji_code));
            }
        }
        for service in &realm.zerver_service {
            if !users.contains(&service.user_profile) {
                problems.add(format!("a bot service names the unknown bot {}", service.user_profile));
            }
        }
        let fields: HashMap<u64, i64> =
            realm.zerver_customprofilefield.iter().map(|f| (f.id, f.field_type)).collect();
        for field in &realm.zerver_customprofilefield {
            if confab_core::model::ProfileFieldType::from_value(field.field_type).is_none() {
                problems.add(format!(
                    "the profile field '{}' has the unknown type {}",
                    field.name, field.field_type
                ));
            }
        }
        for value in &realm.zerver_customprofilefieldvalue {
            if !users.contains(&value.user_profile) || !fields.contains_key(&value.field) {
                problems.add(format!(
                    "a profile value names user {} and field {}, not both in the export",
                    value.user_profile, value.field
                ));
            } else if fields[&value.field] == USER_FIELD
                && !serde_json::from_str::<Vec<u64>>(&value.value)
                    .is_ok_and(|ids| ids.iter().all(|u| users.contains(u)))
            {
                problems.add(format!(
                    "user {}'s value of field {} names unknown users",
                    value.user_profile, value.field
                ));
            }
        }
        let folders: HashSet<u64> = realm.zerver_channelfolder.iter().map(|f| f.id).collect();
        for stream in &realm.zerver_stream {
            if let Some(folder) = stream.folder.filter(|f| !folders.contains(f)) {
                problems.add(format!("channel '{}' is in the unknown folder {folder}", stream.name));
            }
        }
        for attachment in &self.attachments {
            if !users.contains(&attachment.owner) {
                problems
                    .add(format!("upload {} has the unknown owner {}", attachment.path_id, attachment.owner));
            }
            if let Some(missing) = attachment.messages.iter().find(|m| !messages.contains(m)) {
                problems.add(format!("upload {} names the unknown message {missing}", attachment.path_id));
            }
            match self.upload_files.get(&attachment.path_id) {
                None => problems.add(format!("upload {} is not in uploads/records.json", attachment.path_id)),
                Some(file) if !contents.has_file(file) => problems.add(format!("the file {file} is missing")),
                Some(_) => {}
            }
        }
        for (user, file) in &self.avatar_files {
            if !users.contains(user) {
                problems.add(format!("an avatar names the unknown user {user}"));
            } else if !contents.has_file(file) {
                problems.add(format!("the file {file} is missing"));
            }
        }
        for emoji in &realm.zerver_realmemoji {
            if let Some(author) = emoji.author.filter(|a| !users.contains(a)) {
                problems.add(format!("the emoji '{}' has the unknown author {author}", emoji.name));
            }
            // Reactions and statuses name an emoji by its id; one without an image cannot be shown.
            let Some(file_name) = &emoji.file_name else {
                problems.add(format!("the emoji '{}' has no file name", emoji.name));
                continue;
            };
            if !is_plain_name(file_name) {
                problems.add(format!("the emoji '{}' has the file name {file_name:?}", emoji.name));
            }
            match self.emoji_files.get(file_name) {
                None => {
                    problems.add(format!("the emoji '{}' has no image in emoji/records.json", emoji.name))
                }
                Some(file) if !contents.has_file(file) => problems.add(format!("the file {file} is missing")),
                Some(_) => {}
            }
        }
    }
}

/// Refuses an export from a Zulip version whose format this import does not read.
pub fn check_version(version: &str) -> Result<(), String> {
    let major = version.split(['.', '-', '+']).next().and_then(|m| m.parse::<u32>().ok());
    match major {
        Some(major) if SUPPORTED_MAJOR_VERSIONS.contains(&major) => Ok(()),
        _ => Err(format!(
            "the export was made by Zulip {version}, and this import reads exports of Zulip {} to {}: \
             upgrade the Zulip server to one of those and export again",
            SUPPORTED_MAJOR_VERSIONS.start(),
            SUPPORTED_MAJOR_VERSIONS.end()
        )),
    }
}

/// A file name with no directory in it.
fn is_plain_name(name: &str) -> bool {
    !name.is_empty() && name != "." && name != ".." && !name.contains(['/', '\\', '\0'])
}

fn kind_name(kind: u8) -> &'static str {
    match kind {
        PERSONAL => "user",
        STREAM => "channel",
        DIRECT_MESSAGE_GROUP => "direct-message group",
        _ => "kind of recipient",
    }
}

fn parse<T: DeserializeOwned>(contents: &Contents, name: &str) -> Result<T, String> {
    let bytes = contents.json(name).ok_or_else(|| format!("the export has no {name}"))?;
    serde_json::from_slice(bytes).map_err(|e| format!("{name} is not what Zulip writes: {e}"))
}

/// A records file an export may lack (an organization without avatars or emoji).
fn optional<T: DeserializeOwned + Default>(contents: &Contents, name: &str) -> Result<T, String> {
    if contents.json(name).is_none() { Ok(T::default()) } else { parse(contents, name) }
}

#[derive(Default)]
struct Problems(Vec<String>);

impl Problems {
    fn add(&mut self, problem: String) {
        self.0.push(problem);
    }

    fn into_result(self) -> Result<(), String> {
        if self.0.is_empty() {
            return Ok(());
        }
        let count = match self.0.len() {
            1 => "1 problem".to_owned(),
            n => format!("{n} problems"),
        };
        let mut text = format!("the export is broken ({count}):");
        for problem in self.0.iter().take(MAX_PROBLEMS) {
            text.push_str("\n  ");
            text.push_str(problem);
        }
        if self.0.len() > MAX_PROBLEMS {
            text.push_str(&format!("\n  and {} more", self.0.len() - MAX_PROBLEMS));
        }
        Err(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_ten_and_eleven_are_read_and_others_refused() {
        for version in ["10.0", "10.4", "11.0-dev+git", "11.2"] {
            assert!(check_version(version).is_ok(), "{version}");
        }
        for version in ["9.4", "12.0", "", "banana"] {
            let refusal = check_version(version).expect_err("refused");
            assert!(refusal.contains(&format!("made by Zulip {version},")), "{refusal}");
        }
    }

    #[test]
    fn file_names_must_not_name_directories() {
        assert!(is_plain_name("1a2b.png"));
        for name in ["", "..", "a/b.png", "../x", "a\\b"] {
            assert!(!is_plain_name(name), "{name}");
        }
    }
}
