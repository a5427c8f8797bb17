//! The `confab backup`, `confab restore` and `confab verify` subcommands. Progress goes to
//! standard error; the outcome (a summary, or the verification's report) to standard output.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::{Progress, make_backup, restore, socket, verify};
use crate::store::{DB_FILE, OpenError, Store};
use crate::uploads::FileStore;

#[derive(clap::Args, Debug)]
pub struct BackupArgs {
    /// The data directory of the server to back up, running or stopped.
    #[arg(long, default_value = "./confab-data")]
    data_dir: PathBuf,
    /// The backup's directory, which must not exist yet.
    #[arg(long, value_name = "PATH")]
    to: PathBuf,
}

#[derive(clap::Args, Debug)]
pub struct RestoreArgs {
    /// The backup to restore (a directory `confab backup` wrote).
    backup: PathBuf,
    /// The data directory to restore into; its server must be stopped.
    #[arg(long, default_value = "./confab-data")]
    data_dir: PathBuf,
    /// Restore over a data directory that holds a database: its contents are moved into
    /// DIR/before-restore-<time>/ first.
    #[arg(long)]
    replace: bool,
}

#[derive(clap::Args, Debug)]
pub struct VerifyArgs {
    /// A backup, or the data directory of a stopped server; with --database, a data directory
    /// whose uploads/ holds the database's files (servers running on it are fine).
    dir: PathBuf,
    /// Check this PostgreSQL database (as given to `confab serve`) instead of DIR's file, on
    /// one snapshot, while its servers run.
    #[arg(long, value_name = "URL")]
    database: Option<String>,
}

/// Asks the server running on the data directory for the backup, or copies a stopped one's.
pub fn backup(args: BackupArgs) -> Result<(), String> {
    let BackupArgs { data_dir, to } = args;
    let to = std::path::absolute(&to).map_err(|e| format!("{}: {e}", to.display()))?;
    let mut progress = Progress::to_stderr("backup");
    let summary = match socket::ask_for_backup(&data_dir, &to, &mut progress)? {
        Some(summary) => summary,
        None => {
            progress.stage(&format!("no server answers on {}: copying it directly", data_dir.display()))?;
            backup_stopped(&data_dir, &to, &mut progress)?
        }
    };
    println!("{summary}");
    Ok(())
}

fn backup_stopped(data_dir: &Path, to: &Path, progress: &mut Progress) -> Result<String, String> {
    if !data_dir.join(DB_FILE).is_file() {
        return Err(format!("{} holds no Confab database", data_dir.display()));
    }
    let store = Store::open(data_dir).map_err(|e| match e {
        OpenError::InUse => format!(
            "a Confab server has {} open but does not answer on {}: stop it and run this again",
            data_dir.display(),
            socket::socket_path(data_dir).display()
        ),
        other => format!("cannot open {}: {other}", data_dir.display()),
    })?;
    let files = Arc::new(FileStore::new(data_dir));
    let manifest = make_backup(&store, &files, data_dir, to, progress);
    if let Err(e) = store.close() {
        tracing::warn!("the database was not closed cleanly: {e}");
    }
    Ok(format!("backup written to {}: {}", to.display(), manifest?.summary()))
}

pub fn restore(args: RestoreArgs) -> Result<(), String> {
    let RestoreArgs { backup, data_dir, replace } = args;
    let mut progress = Progress::to_stderr("restore");
    let manifest = restore::restore(&backup, &data_dir, replace, &mut progress)?;
    println!("restored {} into {}: {}", backup.display(), data_dir.display(), manifest.summary());
    Ok(())
}

/// Exits non-zero when a problem is found.
pub fn verify(args: VerifyArgs) -> Result<(), String> {
    let mut progress = Progress::to_stderr("verify");
    let (report, what) = match &args.database {
        Some(url) => (verify::verify_database(url, &args.dir, &mut progress)?, "the database".to_owned()),
        None => (verify::verify_dir(&args.dir, &mut progress)?, args.dir.display().to_string()),
    };
    verify::print(&what, &report);
    match report.problem_count() {
        0 => Ok(()),
        n => Err(format!("{what} failed verification: {n} problems")),
    }
}
