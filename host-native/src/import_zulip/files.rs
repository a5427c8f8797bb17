//! The export's files kept in the data directory before any record names them, as uploads
//! are kept: uploads under new paths in the new organization (images thumbnailed), avatars
//! under new names, custom emoji under their own names in the organization's folder.

use std::collections::{HashMap, HashSet};

use confab_core::ids::RealmId;
use confab_core::images::ImageFormat;

use super::archive::Contents;
use super::export::Export;
use super::plan::{self, KeptFiles};
use super::progress;
use crate::secrets;
use crate::uploads::FileStore;

/// Keeps the export's files in the data directory under their new names, and says which.
pub fn keep_files(
    contents: &Contents,
    export: &Export,
    files: &FileStore,
    realm: RealmId,
) -> Result<KeptFiles, String> {
    // Export path → what it becomes.
    let mut targets: HashMap<String, Target> = HashMap::new();
    for attachment in &export.attachments {
        let random = secrets::random_alphanumeric(26).map_err(|e| e.to_string())?;
        let (short, long) = random.split_at(2);
        let name = confab_core::api::uploads::sanitize_file_name(&attachment.file_name);
        let path_id = format!("{}/{short}/{long}/{name}", realm.0);
        let content_type = plan::content_type(attachment);
        targets.insert(
            export.upload_files[&attachment.path_id].clone(),
            Target::Upload { old: attachment.path_id.clone(), new: path_id, content_type },
        );
    }
    for (&user, file) in &export.avatar_files {
        targets.insert(file.clone(), Target::Avatar(user));
    }
    for emoji in &export.realm.zerver_realmemoji {
        if let Some(name) = &emoji.file_name {
            let path = confab_core::api::realm_emoji::emoji_path(realm, name);
            targets.insert(export.emoji_files[name].clone(), Target::Emoji(format!("avatars/{path}")));
        }
    }
    let wanted: HashSet<String> = targets.keys().cloned().collect();
    let total = wanted.len();
    let mut kept = KeptFiles::default();
    let mut done = 0;
    let keep = |path_id: &str, bytes: &[u8]| {
        files
            .keep_bytes(path_id, bytes)
            .map_err(|e| format!("cannot write {path_id} in the data directory: {e}"))
    };
    contents.for_each_file(&wanted, |path, bytes| {
        match &targets[path] {
            Target::Upload { old, new, content_type } => {
                keep(new, &bytes)?;
                kept.uploads.insert(old.clone(), new.clone());
                if let Some(image) = thumbnail(files, new, content_type)? {
                    kept.images.insert(old.clone(), image);
                }
            }
            Target::Avatar(user) => match ImageFormat::sniff(&bytes) {
                Some(format) => {
                    let random = secrets::random_alphanumeric(24).map_err(|e| e.to_string())?;
                    let path = confab_core::api::avatars::avatar_path(
                        realm,
                        &format!("{random}.{}", format.extension()),
                    );
                    keep(&format!("avatars/{path}"), &bytes)?;
                    kept.avatars.insert(*user, path);
                }
                None => progress(&format!(
                    "{path} is not a PNG, JPEG, GIF or WebP image: user {user} keeps the default avatar"
                )),
            },
            Target::Emoji(path_id) => keep(path_id, &bytes)?,
        }
        done += 1;
        if done % 100 == 0 || done == total {
            progress(&format!("files {done}/{total}"));
        }
        Ok(())
    })?;
    Ok(kept)
}

/// Thumbnails an image kept as an upload, as the upload route does, so that the thumbnails
/// Zulip's rendered HTML shows are there. An image that cannot be thumbnailed stays a plain
/// file, as it would on upload.
fn thumbnail(
    files: &FileStore,
    path_id: &str,
    content_type: &str,
) -> Result<Option<confab_core::model::ImageAttachment>, String> {
    if !confab_core::api::uploads::may_thumbnail(content_type) {
        return Ok(None);
    }
    let Some(path) = files.path(path_id) else { return Ok(None) };
    match crate::thumbnails::make(&path, content_type) {
        Ok(made) => {
            for (name, bytes) in &made.files {
                let thumbnail = confab_core::thumbnails::thumbnail_path_id(path_id, name);
                files
                    .keep_bytes(&thumbnail, bytes)
                    .map_err(|e| format!("cannot write {thumbnail} in the data directory: {e}"))?;
            }
            Ok(Some(made.image))
        }
        Err(why) => {
            progress(&format!("{path_id} stays a plain file: {}", why.0));
            Ok(None)
        }
    }
}

enum Target {
    /// An upload: its old path id, its new one, its content type.
    Upload { old: String, new: String, content_type: String },
    /// The avatar of the user with this (old) id.
    Avatar(u64),
    /// A custom emoji's image, by its path id in the file store.
    Emoji(String),
}
