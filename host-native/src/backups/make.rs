//! Making a backup of a live store: a snapshot copied table by table, then the files.
//!
//! File removals are held from before the snapshot until the files are copied, so every file
//! the snapshot names is still there to copy (files are written before their records, so none
//! it names is missing to begin with). Files added meanwhile may be copied too; nothing names
//! them, and they cost only their bytes.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::Progress;
use super::files::{self, copy_file, create_private_dir, sync_dir};
use super::manifest::{self, MANIFEST_FILE, Manifest};
use crate::store::{DB_FILE, SCHEMA_VERSION, Store};
use crate::uploads::FileStore;

/// Page cache for writing the copy: it is written once, in key order.
const COPY_CACHE_BYTES: usize = 16 * 1024 * 1024;

/// Under `uploads/`: files still arriving, not yet anyone's upload.
const UNFINISHED_UPLOADS: [&str; 2] = ["tmp", "tus"];

/// Writes a backup of `store` and the files of `data_dir` to `to`, which must not exist yet.
pub fn make_backup(
    store: &Store,
    files: &Arc<FileStore>,
    data_dir: &Path,
    to: &Path,
    progress: &mut Progress,
) -> Result<Manifest, String> {
    let partial = partial_path(data_dir, to)?;
    create_private_dir(&partial)?;
    match write(store, files, data_dir, &partial, progress) {
        Ok(manifest) => {
            std::fs::rename(&partial, to)
                .map_err(|e| format!("cannot move {} to {}: {e}", partial.display(), to.display()))?;
            if let Some(parent) = to.parent() {
                sync_dir(parent)?;
            }
            Ok(manifest)
        }
        Err(e) => {
            let _ = std::fs::remove_dir_all(&partial);
            Err(e)
        }
    }
}

/// Where the backup is built before it is renamed to `to`: a hidden sibling.
fn partial_path(data_dir: &Path, to: &Path) -> Result<PathBuf, String> {
    if to.exists() {
        return Err(format!("{} exists already: name a new directory", to.display()));
    }
    let (Some(parent), Some(name)) = (to.parent(), to.file_name()) else {
        return Err(format!("{} cannot be a backup's directory", to.display()));
    };
    let parent = if parent.as_os_str().is_empty() { Path::new(".") } else { parent };
    let parent = parent
        .canonicalize()
        .map_err(|e| format!("{}: {e} (the backup's parent directory must exist)", parent.display()))?;
    if let Ok(data_dir) = data_dir.canonicalize()
        && parent.starts_with(&data_dir)
    {
        return Err(format!("{} is inside the data directory: put the backup elsewhere", to.display()));
    }
    let partial = parent.join(format!(".{}.partial", name.to_string_lossy()));
    if partial.exists() {
        return Err(format!(
            "{} exists: another backup to the same place is running, or one was interrupted (then remove it)",
            partial.display()
        ));
    }
    Ok(partial)
}

fn write(
    store: &Store,
    files: &Arc<FileStore>,
    data_dir: &Path,
    partial: &Path,
    progress: &mut Progress,
) -> Result<Manifest, String> {
    let hold = files.hold_removals();
    let snapshot = store.snapshot().map_err(|e| e.msg)?;
    let created_at = crate::http::now();
    progress.stage("took a snapshot of the database; copying its tables")?;
    let copy = redb::Database::builder()
        .set_cache_size(COPY_CACHE_BYTES)
        .create(partial.join(DB_FILE))
        .map_err(|e| format!("cannot create the copy: {e}"))?;
    let tables = snapshot.copy_into(&copy, progress)?;
    drop(snapshot);
    copy.close().map_err(|e| format!("cannot close the copy: {e}"))?;
    progress.stage("copied the database; copying the uploaded files")?;
    let copied = files::copy_tree(files.root(), &partial.join("uploads"), &UNFINISHED_UPLOADS, progress)?;
    drop(hold);
    progress.stage(&format!("copied {} files ({} bytes)", copied.files, copied.bytes))?;
    let zuliprc = data_dir.join("zuliprc");
    if zuliprc.is_file() {
        copy_file(&zuliprc, &partial.join("zuliprc")).map_err(|e| format!("{}: {e}", zuliprc.display()))?;
    }
    let manifest = Manifest {
        format: manifest::FORMAT,
        created_at,
        confab_version: env!("CARGO_PKG_VERSION").to_owned(),
        schema_version: SCHEMA_VERSION,
        tables: tables.into_iter().map(|(name, rows)| (name.to_owned(), rows)).collect(),
        upload_files: copied.files,
        upload_bytes: copied.bytes,
    };
    let json = serde_json::to_vec_pretty(&manifest).map_err(|e| e.to_string())?;
    crate::bootstrap::write_private_file(&partial.join(MANIFEST_FILE), &json)
        .map_err(|e| format!("cannot write the manifest: {e}"))?;
    sync_dir(partial)?;
    Ok(manifest)
}
