//! `confab verify DIR`: a backup's or a stopped server's data directory, checked whole. The
//! database is opened read-only and checked by `store::verify`; a backup's row counts are
//! compared with its manifest; every file a record names must be under `DIR/uploads/` with
//! the size recorded.

use std::path::Path;

use super::{Manifest, Progress};
use crate::store::log::LOG_FILE;
use crate::store::verify::{Report, verify};
use crate::store::{OpenError, ReadOnlyStore, Store};

/// Checks `dir`; the report lists what was checked and every problem. `Err` when it could not
/// be checked at all (no database, a server running on it).
pub fn verify_dir(dir: &Path, progress: &mut Progress) -> Result<Report, String> {
    let manifest = Manifest::read(dir)?;
    progress.stage(match manifest {
        Some(_) => "a backup: checking its database, its manifest and its files",
        None => "a data directory: checking its database and its files",
    })?;
    let store = ReadOnlyStore::open(dir).map_err(|e| match e {
        OpenError::InUse => format!(
            "a Confab server is running on {}: stop it, or verify a backup of it (confab backup)",
            dir.display()
        ),
        other => other.to_string(),
    })?;
    let log = dir.join(LOG_FILE);
    if std::fs::metadata(&log).is_ok_and(|m| m.len() > 0) {
        return Err(format!(
            "{} holds batches not yet in the database (the server was not stopped cleanly): start \
             and stop the server on it once, then verify again",
            log.display()
        ));
    }
    let tables = store.snapshot()?;
    // redb may panic on a file damaged under it; that is a finding, not a crash of the command.
    let checked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| verify(&tables, progress)));
    let mut report = match checked {
        Ok(Ok(report)) => report,
        Ok(Err(e)) => {
            let mut report = Report::default();
            report.problem(format!("the database could not be read whole: {e}"));
            return Ok(report);
        }
        Err(_) => {
            let mut report = Report::default();
            report.problem("the database file is damaged: reading it failed".to_owned());
            return Ok(report);
        }
    };
    if let Some(manifest) = &manifest {
        let lengths = tables.lengths().map_err(|e| e.to_string())?;
        for (table, rows) in lengths {
            if let Some(&listed) = manifest.tables.get(table)
                && listed != rows
            {
                report.problem(format!("{table} has {rows} rows; the manifest says {listed}"));
            }
        }
    }
    check_files(dir, &mut report, progress)?;
    Ok(report)
}

/// Checks a PostgreSQL database on one snapshot (its servers may run), and the files its
/// records name under `dir/uploads/` (the uploads its servers share).
pub fn verify_database(url: &str, dir: &Path, progress: &mut Progress) -> Result<Report, String> {
    if Store::postgres_tables(url)?.is_empty() {
        return Err("the database holds no Confab tables".to_owned());
    }
    progress.stage("a PostgreSQL database: checking its records and the files they name")?;
    let store = Store::open_postgres(url).map_err(|e| format!("cannot open the database: {e}"))?;
    let tables = store.snapshot().map_err(|e| e.msg)?;
    let mut report = match verify(&tables, progress) {
        Ok(report) => report,
        Err(e) => {
            let mut report = Report::default();
            report.problem(format!("the database could not be read whole: {e}"));
            return Ok(report);
        }
    };
    check_files(dir, &mut report, progress)?;
    Ok(report)
}

/// Every file a record names must exist, with its recorded size.
fn check_files(dir: &Path, report: &mut Report, progress: &mut Progress) -> Result<(), String> {
    progress.stage(&format!("checking the {} files the records name", report.files.len()))?;
    let uploads = dir.join("uploads");
    let files = std::mem::take(&mut report.files);
    for (done, file) in files.iter().enumerate() {
        let path = uploads.join(&file.path);
        match std::fs::metadata(&path) {
            Ok(meta) if !meta.is_file() => {
                report.problem(format!("uploads/{} is not a file ({})", file.path, file.named_by));
            }
            Ok(meta) => {
                if let Some(size) = file.size
                    && meta.len() != size
                {
                    report.problem(format!(
                        "uploads/{} has {} bytes; {} recorded {size}",
                        file.path,
                        meta.len(),
                        file.named_by
                    ));
                }
            }
            Err(e) => report.problem(format!("uploads/{} is missing ({}): {e}", file.path, file.named_by)),
        }
        progress.count(|| format!("  {done} files so far"))?;
    }
    report.checked.push(("files named by records".to_owned(), files.len() as u64));
    Ok(())
}

/// Prints a report on `what` (a directory, or the database): what was checked, then every
/// problem.
pub fn print(what: &str, report: &Report) {
    for (what, count) in &report.checked {
        println!("checked {what}: {count}");
    }
    for problem in &report.problems {
        println!("PROBLEM: {problem}");
    }
    if report.unlisted > 0 {
        println!("... and {} more problems", report.unlisted);
    }
    match report.problem_count() {
        0 => println!("OK: {what} passed every check"),
        n => println!("{n} problems found in {what}"),
    }
}
