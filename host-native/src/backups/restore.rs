//! `confab restore BACKUP --data-dir DIR`: a verified backup copied into a data directory whose
//! server is stopped. A directory that holds a database already is left alone unless
//! `--replace` is given; its database, log, uploads, queues and zuliprc are then moved aside
//! (`DIR/before-restore-<time>/`), never deleted.

use std::path::Path;

use super::files::{self, copy_file, sync_dir};
use super::{Manifest, Progress, socket, verify_dir};
use crate::store::log::LOG_FILE;
use crate::store::{DB_FILE, OpenError, ReadOnlyStore};

/// What a data directory holds that a restore replaces.
const REPLACED: [&str; 5] = [DB_FILE, LOG_FILE, "uploads", "event_queues.json", "zuliprc"];

pub fn restore(
    backup: &Path,
    data_dir: &Path,
    replace: bool,
    progress: &mut Progress,
) -> Result<Manifest, String> {
    let manifest = Manifest::read(backup)?
        .ok_or_else(|| format!("{} is not a Confab backup (it has no backup.json)", backup.display()))?;
    refuse_running_server(data_dir)?;
    let occupied = data_dir.join(DB_FILE).exists();
    if occupied && !replace {
        return Err(format!(
            "{} holds a database already. To restore over it, add --replace: its database, log, \
             uploads, event queues and zuliprc are then moved into {}/before-restore-<time>/",
            data_dir.display(),
            data_dir.display()
        ));
    }
    let report = verify_dir(backup, progress)?;
    if report.problem_count() > 0 {
        return Err(format!(
            "the backup failed verification ({} problems; `confab verify {}` lists them): nothing was restored",
            report.problem_count(),
            backup.display()
        ));
    }
    std::fs::create_dir_all(data_dir).map_err(|e| format!("{}: {e}", data_dir.display()))?;
    if occupied {
        move_aside(data_dir, progress)?;
    }
    progress.stage("copying the database")?;
    let staging = data_dir.join(".restore.partial");
    if staging.exists() {
        std::fs::remove_dir_all(&staging).map_err(|e| format!("{}: {e}", staging.display()))?;
    }
    files::create_private_dir(&staging)?;
    copy_file(&backup.join(DB_FILE), &staging.join(DB_FILE))
        .map_err(|e| format!("copying the database: {e}"))?;
    progress.stage("copying the uploaded files")?;
    let copied = files::copy_tree(&backup.join("uploads"), &staging.join("uploads"), &[], progress)?;
    progress.stage(&format!("copied {} files ({} bytes)", copied.files, copied.bytes))?;
    if backup.join("zuliprc").is_file() {
        copy_file(&backup.join("zuliprc"), &staging.join("zuliprc"))
            .map_err(|e| format!("copying zuliprc: {e}"))?;
    }
    sync_dir(&staging)?;
    // Queues saved by another history would name events it never had.
    for stale in [LOG_FILE, "event_queues.json"] {
        let _ = std::fs::remove_file(data_dir.join(stale));
    }
    for name in [DB_FILE, "uploads", "zuliprc"] {
        let from = staging.join(name);
        if from.exists() {
            let to = data_dir.join(name);
            std::fs::rename(&from, &to).map_err(|e| format!("moving {} into place: {e}", to.display()))?;
        }
    }
    std::fs::remove_dir(&staging).map_err(|e| format!("{}: {e}", staging.display()))?;
    sync_dir(data_dir)?;
    Ok(manifest)
}

/// A restore under a running server would be overwritten by it, or overwrite it.
fn refuse_running_server(data_dir: &Path) -> Result<(), String> {
    let running = || {
        format!(
            "a Confab server is running on {}: stop it first (a restore replaces its database)",
            data_dir.display()
        )
    };
    if socket::server_answers(data_dir) {
        return Err(running());
    }
    if data_dir.join(DB_FILE).exists()
        && let Err(OpenError::InUse) = ReadOnlyStore::open(data_dir)
    {
        return Err(running());
    }
    Ok(())
}

fn move_aside(data_dir: &Path, progress: &mut Progress) -> Result<(), String> {
    let aside = data_dir.join(format!("before-restore-{}", crate::http::now()));
    files::create_private_dir(&aside)?;
    for name in REPLACED {
        let from = data_dir.join(name);
        if from.exists() {
            std::fs::rename(&from, aside.join(name))
                .map_err(|e| format!("moving {} aside: {e}", from.display()))?;
        }
    }
    sync_dir(data_dir)?;
    progress.stage(&format!("moved the data directory's contents to {}", aside.display()))
}
