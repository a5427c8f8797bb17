//! Uploaded files' bytes, under `DIR/uploads/<path_id>`, and the tokens of Zulip's temporary
//! download URLs (signed with the directory's key: `temporary_urls.rs`). Rules (names,
//! limits, access) are in `confab_core::api::uploads`. Servers sharing one database share
//! this directory (a mount at each one's `DIR/uploads`).

use std::path::{Component, Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use crate::temporary_urls::UrlSigner;

/// How long a temporary download URL works (Zulip's signed local-upload URLs: 60 seconds).
const TEMPORARY_URL_SECONDS: i64 = 60;

/// A file being received; removed when dropped unless it was kept (moved into place).
pub struct TemporaryFile {
    path: PathBuf,
}

impl TemporaryFile {
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for TemporaryFile {
    fn drop(&mut self) {
        // Already moved into place, or never written: nothing to remove.
        let _ = std::fs::remove_file(&self.path);
    }
}

/// The uploads directory.
pub struct FileStore {
    root: PathBuf,
    /// Signs temporary URLs; its key is read (or made) at the first one.
    signer: OnceLock<UrlSigner>,
    /// Removals wait while a backup copies the files (see [`FileStore::hold_removals`]).
    removals: Mutex<Removals>,
}

/// Removals asked for while held, done when the last hold ends.
#[derive(Default)]
struct Removals {
    holds: usize,
    waiting: Vec<Removal>,
}

enum Removal {
    File(String),
    Thumbnails(String),
}

/// While one lives, files are not removed: a backup's snapshot may name a file whose record
/// is deleted after the snapshot was taken, and must still find it. Dropping the last hold does
/// the removals asked for meanwhile.
pub struct RemovalHold {
    files: std::sync::Arc<FileStore>,
}

impl Drop for RemovalHold {
    fn drop(&mut self) {
        let waiting = {
            let mut removals = self.files.removals();
            removals.holds -= 1;
            if removals.holds > 0 {
                return;
            }
            std::mem::take(&mut removals.waiting)
        };
        for removal in waiting {
            match removal {
                Removal::File(path_id) => self.files.remove(&path_id),
                Removal::Thumbnails(path_id) => self.files.remove_thumbnails(&path_id),
            }
        }
    }
}

impl FileStore {
    pub fn new(data_dir: &Path) -> FileStore {
        FileStore { root: data_dir.join("uploads"), signer: OnceLock::new(), removals: Mutex::default() }
    }

    /// The uploads directory, `DIR/uploads`.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Holds every removal until the hold is dropped (a backup takes one before its snapshot).
    pub fn hold_removals(self: &std::sync::Arc<Self>) -> RemovalHold {
        self.removals().holds += 1;
        RemovalHold { files: self.clone() }
    }

    fn removals(&self) -> std::sync::MutexGuard<'_, Removals> {
        self.removals.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Whether a removal must wait for a backup; if so, it is kept for later.
    fn removal_held(&self, removal: Removal) -> bool {
        let mut removals = self.removals();
        if removals.holds == 0 {
            return false;
        }
        removals.waiting.push(removal);
        true
    }

    /// The data directory the files are kept under (`/ready` checks it takes writes).
    pub fn data_dir(&self) -> &Path {
        self.root.parent().unwrap_or(&self.root)
    }

    /// Where a path id's bytes live, if the path id is a plain relative path.
    fn file(&self, path_id: &str) -> Option<PathBuf> {
        let relative = Path::new(path_id);
        relative.components().all(|c| matches!(c, Component::Normal(_))).then(|| self.root.join(relative))
    }

    /// A new temporary file for bytes still arriving (`DIR/uploads/tmp/`).
    pub fn temporary(&self) -> std::io::Result<TemporaryFile> {
        let directory = self.root.join("tmp");
        std::fs::create_dir_all(&directory)?;
        let name =
            crate::secrets::random_alphanumeric(24).map_err(|e| std::io::Error::other(e.to_string()))?;
        Ok(TemporaryFile { path: directory.join(name) })
    }

    /// Moves received bytes into place durably: synced, renamed, directory synced. Only then
    /// does the caller record the upload, so a recorded upload always has its bytes.
    pub fn keep(&self, temporary: &TemporaryFile, path_id: &str) -> std::io::Result<()> {
        self.keep_path(&temporary.path, path_id)
    }

    /// Moves any file into place as an upload, durably (see [`FileStore::keep`]).
    pub fn keep_path(&self, source: &Path, path_id: &str) -> std::io::Result<()> {
        let target = self.file(path_id).ok_or_else(|| std::io::Error::other("invalid upload path"))?;
        let directory =
            target.parent().ok_or_else(|| std::io::Error::other("upload path without directory"))?;
        std::fs::create_dir_all(directory)?;
        std::fs::File::open(source)?.sync_all()?;
        std::fs::rename(source, &target)?;
        std::fs::File::open(directory)?.sync_all()
    }

    /// Where resumable uploads grow: `DIR/uploads/tus/<id>` and its `<id>.json` description.
    pub fn tus_paths(&self, id: &str) -> Option<(PathBuf, PathBuf)> {
        let valid = !id.is_empty() && id.chars().all(|c| c.is_ascii_alphanumeric());
        let directory = self.root.join("tus");
        valid.then(|| (directory.join(id), directory.join(format!("{id}.json"))))
    }

    /// Where a path id's bytes are on disk, if the path id is a plain relative path.
    pub fn path(&self, path_id: &str) -> Option<PathBuf> {
        self.file(path_id)
    }

    /// Writes bytes made here (a thumbnail) into place durably, as [`FileStore::keep`] does.
    pub fn keep_bytes(&self, path_id: &str, bytes: &[u8]) -> std::io::Result<()> {
        let temporary = self.temporary()?;
        std::fs::write(temporary.path(), bytes)?;
        self.keep(&temporary, path_id)
    }

    pub fn read(&self, path_id: &str) -> std::io::Result<Vec<u8>> {
        let path = self.file(path_id).ok_or_else(|| std::io::Error::from(std::io::ErrorKind::NotFound))?;
        std::fs::read(path)
    }

    /// Removes a file's bytes (after its record was deleted, or when recording it failed).
    pub fn remove(&self, path_id: &str) {
        if self.removal_held(Removal::File(path_id.to_owned())) {
            return;
        }
        if let Some(path) = self.file(path_id)
            && let Err(e) = std::fs::remove_file(&path)
        {
            tracing::warn!("could not remove upload {}: {e}", path.display());
        }
    }

    /// Removes an upload's bytes and its thumbnails.
    pub fn remove_upload(&self, path_id: &str) {
        self.remove(path_id);
        self.remove_thumbnails(path_id);
    }

    /// Removes an upload's thumbnails (`thumbnail/<path_id>/`), if it has any.
    pub fn remove_thumbnails(&self, path_id: &str) {
        if self.removal_held(Removal::Thumbnails(path_id.to_owned())) {
            return;
        }
        let thumbnails = confab_core::thumbnails::thumbnail_path_id(path_id, "");
        if let Some(directory) = self.file(thumbnails.trim_end_matches('/'))
            && let Err(e) = std::fs::remove_dir_all(&directory)
            && e.kind() != std::io::ErrorKind::NotFound
        {
            tracing::warn!("could not remove thumbnails {}: {e}", directory.display());
        }
    }

    /// A token for a temporary URL to a file, good for a minute.
    pub fn temporary_token(&self, path_id: &str, now: i64) -> std::io::Result<String> {
        Ok(self.signer()?.sign(path_id, now + TEMPORARY_URL_SECONDS))
    }

    /// The file a temporary token opens, while it is valid.
    pub fn path_of_token(&self, token: &str, now: i64) -> Option<String> {
        self.signer().ok()?.open(token, now)
    }

    fn signer(&self) -> std::io::Result<&UrlSigner> {
        if let Some(signer) = self.signer.get() {
            return Ok(signer);
        }
        let loaded = UrlSigner::load_or_create(&self.root)?;
        // Two requests may load it at once; both read the same key.
        Ok(self.signer.get_or_init(|| loaded))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::FileStore;

    #[test]
    fn removals_wait_for_the_last_hold() {
        let dir = tempfile::tempdir().expect("a directory");
        let files = Arc::new(FileStore::new(dir.path()));
        files.keep_bytes("1/ab/file.txt", b"bytes").expect("kept");
        let path = files.path("1/ab/file.txt").expect("a path");
        let (first, second) = (files.hold_removals(), files.hold_removals());
        files.remove("1/ab/file.txt");
        drop(first);
        assert!(path.exists(), "a backup still copies it");
        drop(second);
        assert!(!path.exists(), "removed once no backup holds it");
    }
}
