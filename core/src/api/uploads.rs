//! POST   /user_uploads                           upload_file
//! GET    /user_uploads/{realm_id}/{path}         (the file itself; the host serves it)
//! GET    /api/v1/user_uploads/{realm_id}/{path}  get_file_temporary_url
//! GET    /attachments                            get_attachments
//! DELETE /attachments/{attachment_id}            remove_attachment
//!
//! Uploaded files (spec 4.23, Zulip's `Attachment`): the rules — names, limits, who may download,
//! which messages claim a file. The host keeps the bytes under the data directory.

use serde_json::{Value, json};

use crate::command::{Actor, Event, Outcome};
use crate::error::{ApiError, ApiResult};
use crate::ids::{IdKind, MessageId};
use crate::model::{Attachment, ImageAttachment, MessageKind, StoredThumbnail, User};
use crate::store::{Change, IdAllocator, Store};

/// Zulip's `MAX_FILE_UPLOAD_SIZE`, in MiB (register's `max_file_upload_size_mib`): Zulip's
/// default since 7.0. Files this large are better sent through the resumable endpoint.
pub const MAX_FILE_UPLOAD_SIZE_MIB: u64 = 100;

/// The URL prefix of uploaded files.
pub const UPLOADS_PREFIX: &str = "/user_uploads/";

/// Zulip's `sanitize_name`: word characters, spaces, dots and dashes; runs of spaces and dashes
/// become one dash. (Zulip first applies Unicode NFKC normalization, which is not done here.)
pub fn sanitize_file_name(name: &str) -> String {
    let name = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let kept: String =
        name.chars().filter(|c| c.is_alphanumeric() || "_.- \t".contains(*c) || c.is_whitespace()).collect();
    let mut cleaned = String::with_capacity(kept.len());
    let mut in_run = false;
    for c in kept.trim().chars() {
        if c == '-' || c.is_whitespace() {
            if !in_run {
                cleaned.push('-');
            }
            in_run = true;
        } else {
            cleaned.push(c);
            in_run = false;
        }
    }
    if cleaned.is_empty() || cleaned == "." || cleaned == ".." { "uploaded-file".to_owned() } else { cleaned }
}

/// Zulip's checks on an upload request: one file, within the size limit.
pub fn check_upload(files: usize, size: u64) -> ApiResult<()> {
    if files == 0 {
        return Err(ApiError::bad_request("You must specify a file to upload"));
    }
    if files != 1 {
        return Err(ApiError::bad_request("You may only upload one file at a time"));
    }
    if size > MAX_FILE_UPLOAD_SIZE_MIB * 1024 * 1024 {
        return Err(ApiError::bad_request(format!(
            "Uploaded file is larger than the allowed limit of {MAX_FILE_UPLOAD_SIZE_MIB} MiB"
        )));
    }
    Ok(())
}

/// Where a new upload goes: `<realm>/<2 random>/<24 random>/<sanitized name>`. The host draws
/// the randomness (26 URL-safe characters).
pub fn new_path_id(actor: &Actor, random: &str, file_name: &str) -> String {
    let (short, long) = random.split_at(random.len().min(2));
    format!("{}/{short}/{long}/{}", actor.realm.id, sanitize_file_name(file_name))
}

/// Whether Zulip would thumbnail a file of this content type (its `THUMBNAIL_ACCEPT_IMAGE_TYPES`),
/// less the formats Confab cannot read. Other files' bytes are never parsed.
///
/// HEIC and AVIF are left out because no pure-Rust decoder reads them (HEIC's HEVC and AVIF's
/// AV1 decoders are C libraries): they stay plain files, as they do in a Zulip whose libvips
/// was built without the HEIF loader. SVG is left out too: drawing it would need a renderer.
pub fn may_thumbnail(content_type: &str) -> bool {
    matches!(content_type, "image/png" | "image/jpeg" | "image/gif" | "image/webp" | "image/tiff")
}

/// The path id a URL path names (`/user_uploads/<path_id>`), if it is one.
pub fn path_id_of(url_path: &str) -> Option<&str> {
    url_path.strip_prefix(UPLOADS_PREFIX)
}

fn attachment_json(store: &impl Store, attachment: &Attachment) -> ApiResult<Value> {
    let mut messages = Vec::new();
    for id in &attachment.message_ids {
        if let Some(message) = store.message(*id)? {
            // Zulip sends milliseconds here.
            messages.push(json!({"id": id, "date_sent": message.timestamp * 1000}));
        }
    }
    Ok(json!({
        "id": attachment.id,
        "name": attachment.file_name,
        "path_id": attachment.path_id,
        "size": attachment.size,
        // Zulip sends milliseconds here.
        "create_time": attachment.create_time * 1000,
        "messages": messages,
    }))
}

/// Zulip's `upload_space_used`: the organization's uploads, in bytes.
fn space_used(store: &impl Store, user: &User) -> ApiResult<u64> {
    let mut used = 0;
    for member in store.realm_users(user.realm_id)? {
        used += store.user_attachments(member.id)?.iter().map(|a| a.size).sum::<u64>();
    }
    Ok(used)
}

fn attachment_event(
    store: &impl Store,
    owner: &User,
    op: &str,
    attachment: Value,
    extra_size: i64,
) -> ApiResult<Event> {
    let used = space_used(store, owner)? as i64 + extra_size;
    Ok(Event::Other {
        users: vec![owner.id],
        body: json!({"type": "attachment", "op": op, "attachment": attachment, "upload_space_used": used.max(0)}),
    })
}

/// The name of an upload as the client gave it (Zulip's `get_file_info`): the last part of
/// the path a browser may send, then `%XX` escapes decoded, as Python's `unquote` does. The
/// attachment keeps this name; only its URL uses the sanitized one.
pub fn uploaded_file_name(raw: &str) -> String {
    let base = raw.rsplit(['/', '\\']).next().unwrap_or(raw);
    crate::links::percent_decode(base)
}

/// `POST /user_uploads`, once the host has stored the bytes durably under `path_id` (and, for
/// an image it could read, its thumbnails: `image`). Answers Zulip's `uri` and `url` (the same)
/// and `filename`, the name the client uploaded the file as (see [`uploaded_file_name`]).
#[allow(clippy::too_many_arguments)]
pub fn record_upload(
    store: &impl Store,
    actor: &Actor,
    path_id: String,
    uploaded_name: &str,
    content_type: &str,
    size: u64,
    image: Option<ImageAttachment>,
    now: i64,
) -> ApiResult<Outcome> {
    check_upload(1, size)?;
    let file_name = uploaded_file_name(uploaded_name);
    let attachment = Attachment {
        id: IdAllocator::new(store, IdKind::Attachment)?.take(),
        realm_id: actor.realm.id,
        owner_id: actor.user.id,
        path_id,
        file_name: file_name.clone(),
        size,
        content_type: content_type.to_owned(),
        create_time: now,
        message_ids: Vec::new(),
        image,
    };
    let url = format!("{UPLOADS_PREFIX}{}", attachment.path_id);
    let event =
        attachment_event(store, &actor.user, "add", attachment_json(store, &attachment)?, size as i64)?;
    Ok(Outcome {
        changes: vec![Change::PutAttachment(attachment)],
        events: vec![event],
        ..Outcome::default()
    }
    .reply("uri", url.clone())
    .reply("url", url)
    .reply("filename", file_name))
}

/// Who may download an upload (Zulip's `validate_attachment_request`): `None` when there is no
/// such file in the organization (404), `Some(false)` when the user may not (403).
pub fn may_download(store: &impl Store, user: &User, path_id: &str) -> ApiResult<Option<bool>> {
    if path_id.starts_with("exports/") {
        return super::realm_export::may_download_export(store, user, path_id);
    }
    let Some(attachment) = store.attachment_by_path(path_id)?.filter(|a| a.realm_id == user.realm_id) else {
        return Ok(None);
    };
    if attachment.owner_id == user.id {
        return Ok(Some(true));
    }
    for id in &attachment.message_ids {
        // A message the user received, or one in a channel whose history they may read.
        if store.message_flags(user.id, *id)?.is_some() {
            return Ok(Some(true));
        }
        let Some(message) = store.message(*id)? else { continue };
        if let MessageKind::Stream { stream_id, .. } = message.kind
            && let Some(stream) = store.stream(stream_id)?
            && stream.history_public_to_subscribers
            && super::streams::has_content_access(store, user, &stream)?
        {
            return Ok(Some(true));
        }
    }
    Ok(Some(false))
}

/// The stored thumbnail `GET /user_uploads/thumbnail/<path_id>/<format>` answers with, once
/// [`may_download`] let the user have the file: none when the file is not an image that was
/// thumbnailed, or `format` is no format's name (Zulip answers both 404).
pub fn thumbnail_of(store: &impl Store, path_id: &str, format: &str) -> ApiResult<Option<StoredThumbnail>> {
    let Some(image) = store.attachment_by_path(path_id)?.and_then(|a| a.image) else { return Ok(None) };
    Ok(crate::thumbnails::thumbnail_to_serve(&image, format).cloned())
}

/// `GET /attachments`.
pub fn get_attachments(store: &impl Store, actor: &Actor) -> ApiResult<Outcome> {
    let attachments = store.user_attachments(actor.user.id)?;
    let shown = attachments.iter().map(|a| attachment_json(store, a)).collect::<ApiResult<Vec<_>>>()?;
    let used = space_used(store, &actor.user)?;
    Ok(Outcome::default().reply("attachments", shown).reply("upload_space_used", used))
}

/// `DELETE /attachments/{attachment_id}`: the owner removes a file; the host deletes its bytes
/// once this is committed.
pub fn remove_attachment(store: &impl Store, actor: &Actor, id: u64) -> ApiResult<Outcome> {
    let attachment = store
        .attachment(id)?
        .filter(|a| a.owner_id == actor.user.id)
        .ok_or_else(|| ApiError::bad_request("Invalid attachment"))?;
    let event = attachment_event(store, &actor.user, "remove", json!({"id": id}), -(attachment.size as i64))?;
    Ok(Outcome {
        changes: vec![Change::DeleteAttachment(attachment)],
        events: vec![event],
        ..Outcome::default()
    })
}

/// What linking a message to its uploads changes: the changes to commit, the owners'
/// `attachment` events, and the uploads the edit left linked from no message.
#[derive(Debug, Default)]
pub struct ClaimedAttachments {
    pub changes: Vec<Change>,
    pub events: Vec<Event>,
    /// The sender's uploads that only this message linked and that it no longer links, as
    /// attachment objects (Zulip's `detached_uploads`: the client may offer to delete them).
    pub detached: Vec<Value>,
}

/// Links a message to the uploads its content names (Zulip's `do_claim_attachments`), and
/// unlinks the ones an edit removed (Zulip's `check_attachment_reference_change`). A sender
/// claims only files they may download themselves.
pub fn claim_attachments(
    store: &impl Store,
    sender: &User,
    message: MessageId,
    sent_at: i64,
    paths: &[String],
    previous_paths: &[String],
) -> ApiResult<ClaimedAttachments> {
    let mut claimed = ClaimedAttachments::default();
    let mut touched: Vec<Attachment> = Vec::new();
    for path in paths {
        let Some(path_id) = path_id_of(path) else { continue };
        if may_download(store, sender, path_id)? != Some(true) {
            continue;
        }
        if let Some(mut attachment) = store.attachment_by_path(path_id)?
            && !attachment.message_ids.contains(&message)
        {
            attachment.message_ids.push(message);
            touched.push(attachment);
        }
    }
    for path in previous_paths.iter().filter(|p| !paths.contains(p)) {
        let Some(path_id) = path_id_of(path) else { continue };
        if let Some(mut attachment) =
            store.attachment_by_path(path_id)?.filter(|a| a.message_ids.contains(&message))
        {
            attachment.message_ids.retain(|id| *id != message);
            if attachment.message_ids.is_empty() && attachment.owner_id == sender.id {
                claimed.detached.push(attachment_json(store, &attachment)?);
            }
            touched.push(attachment);
        }
    }
    for attachment in touched {
        if let Some(owner) = store.user(attachment.owner_id)? {
            let mut shown = attachment_json(store, &attachment)?;
            // The message may be new in this very command: list it by id.
            if let Some(list) = shown["messages"].as_array_mut()
                && attachment.message_ids.contains(&message)
                && !list.iter().any(|m| m["id"] == message.0)
            {
                list.push(json!({"id": message, "date_sent": sent_at * 1000}));
            }
            claimed.events.push(attachment_event(store, &owner, "update", shown, 0)?);
        }
        claimed.changes.push(Change::PutAttachment(attachment));
    }
    Ok(claimed)
}

/// The content type of a file by its name, and whether browsers may show it inline (Zulip's
/// `INLINE_MIME_TYPES`); anything else downloads as an attachment.
pub fn content_type_of(file_name: &str) -> (&'static str, bool) {
    let extension = file_name.rsplit('.').next().unwrap_or_default().to_ascii_lowercase();
    match extension.as_str() {
        "png" => ("image/png", true),
        "jpg" | "jpeg" => ("image/jpeg", true),
        "gif" => ("image/gif", true),
        "webp" => ("image/webp", true),
        "avif" => ("image/avif", true),
        "bmp" => ("image/bmp", true),
        // Browsers do not show TIFF: it downloads, and its preview is a transcoded WebP.
        "tif" | "tiff" => ("image/tiff", false),
        "mp3" => ("audio/mpeg", true),
        "wav" => ("audio/wav", true),
        "ogg" => ("audio/ogg", true),
        "mp4" => ("video/mp4", true),
        "webm" => ("video/webm", true),
        "pdf" => ("application/pdf", true),
        "txt" | "log" => ("text/plain", true),
        "svg" => ("image/svg+xml", false),
        "html" | "htm" => ("text/html", false),
        "json" => ("application/json", false),
        "zip" => ("application/zip", false),
        "csv" => ("text/csv", false),
        _ => ("application/octet-stream", false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_uploaded_name_is_kept_as_the_client_sent_it() {
        assert_eq!(uploaded_file_name("Quarterly report (final).pdf"), "Quarterly report (final).pdf");
        assert_eq!(uploaded_file_name("C:\\Users\\ann\\notes.txt"), "notes.txt");
        assert_eq!(uploaded_file_name("caf%C3%A9%20menu.txt"), "café menu.txt");
    }

    #[test]
    fn file_names_are_sanitized_as_zulip_does() {
        assert_eq!(sanitize_file_name("My Photo (1).png"), "My-Photo-1.png");
        assert_eq!(sanitize_file_name("../../etc/passwd"), "passwd");
        assert_eq!(sanitize_file_name("a -- b.txt"), "a-b.txt");
        assert_eq!(sanitize_file_name("???"), "uploaded-file");
        assert_eq!(sanitize_file_name(".."), "uploaded-file");
        assert_eq!(sanitize_file_name("naïve.txt"), "naïve.txt");
    }

    #[test]
    fn uploads_are_one_file_within_the_limit() {
        assert!(check_upload(1, 100 * 1024 * 1024).is_ok());
        assert_eq!(
            check_upload(1, 100 * 1024 * 1024 + 1).map_err(|e| e.msg),
            Err("Uploaded file is larger than the allowed limit of 100 MiB".to_owned())
        );
        assert!(check_upload(0, 1).is_err());
        assert!(check_upload(2, 1).is_err());
    }
}
