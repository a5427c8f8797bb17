//! `confab migrate --from SOURCE --to TARGET`: a whole store copied between engines, a redb
//! data directory and a PostgreSQL database, either way (or between two of a kind).
//!
//! Both ends are checked before anything is opened, since opening writes (a new file, missing
//! tables): the source must hold a Confab database, the target must be empty. Then every table
//! is copied from one snapshot of the source (`ReadTables::copy_to`, bounded transactions),
//! and the copy is checked: each table's row count on both sides, and the target's records and
//! indexes as `confab verify` checks them. Any difference exits non-zero.

use std::path::PathBuf;
use std::time::Instant;

use crate::backups::Progress;
use crate::store::{DB_FILE, OpenError, POSTGRES_NOTE, Store};

#[derive(clap::Args, Debug)]
#[command(after_long_help = "\
SOURCE and TARGET are each a data directory (the directory holding confab.redb) or a \
PostgreSQL database: a value starting with postgres:// or postgresql://, or holding \
dbname= or host= (libpq's key=value form), is a database; anything else is a directory.

The source's servers must be stopped. A data directory a server has open is refused; on \
PostgreSQL, no check can tell, so stop every server on the database first: a write made \
during the copy may be missed.

The target must be empty: a directory that does not exist or is empty, or a database without \
Confab's tables or with empty ones. Otherwise nothing is written.

Uploaded files are not in the database: they stay under DATA_DIR/uploads/. Copy that \
directory to (or share it with) the data directory of every server on the target.

Examples:
  confab migrate --from ./confab-data --to postgres://confab:secret@db.internal/confab
  confab migrate --from 'host=/run/postgresql dbname=confab' --to ./confab-data-new")]
pub struct MigrateArgs {
    /// Where the store is now: a stopped server's data directory, or a PostgreSQL database
    /// whose servers are stopped.
    #[arg(long, value_name = "SOURCE")]
    from: String,
    /// Where to copy it: a new data directory, or an empty PostgreSQL database.
    #[arg(long, value_name = "TARGET")]
    to: String,
}

/// One end of a migration.
#[derive(Debug, PartialEq, Eq)]
pub enum Place {
    /// A data directory, its database in `DIR/confab.redb`.
    Directory(PathBuf),
    /// A PostgreSQL database's address.
    Database(String),
}

impl Place {
    /// A database if it reads as one (a URL, or libpq's `key=value` pairs naming a database
    /// or host); a directory otherwise.
    pub fn parse(text: &str) -> Place {
        let lower = text.trim_start().to_ascii_lowercase();
        let database = lower.starts_with("postgres://")
            || lower.starts_with("postgresql://")
            || lower.contains("dbname=")
            || lower.contains("host=");
        if database { Place::Database(text.to_owned()) } else { Place::Directory(PathBuf::from(text)) }
    }

    /// How it is named in messages: a database without its password.
    fn describe(&self) -> String {
        match self {
            Place::Directory(dir) => dir.display().to_string(),
            Place::Database(url) => {
                use std::str::FromStr as _;
                match postgres::Config::from_str(url) {
                    Ok(config) => format!(
                        "the PostgreSQL database {}",
                        config.get_dbname().unwrap_or("(the user's default)")
                    ),
                    Err(_) => "the PostgreSQL database".to_owned(),
                }
            }
        }
    }
}

pub fn migrate(args: MigrateArgs) -> Result<(), String> {
    let (from, to) = (Place::parse(&args.from), Place::parse(&args.to));
    let mut progress = Progress::to_stderr("migrate");
    check_source(&from)?;
    check_target(&to)?;
    let started = Instant::now();
    let source = open_source(&from)?;
    let created_dir = match &to {
        Place::Directory(dir) => !dir.exists(),
        Place::Database(_) => false,
    };
    let target = open_target(&to)?;
    progress.stage(&format!("copying {} into {}", from.describe(), to.describe()))?;
    let copied = copy_and_check(&source, &target, &mut progress);
    if let Err(e) = source.close() {
        tracing::warn!("the source was not closed cleanly: {e}");
    }
    let closed = target.close();
    let (rows, problems) = match copied {
        Ok(outcome) => outcome,
        Err(e) => return Err(failed_copy(&to, created_dir, e)),
    };
    closed.map_err(|e| format!("closing {}: {e}", to.describe()))?;
    if problems > 0 {
        return Err(format!("the copy in {} differs from its source: {problems} problems", to.describe()));
    }
    println!(
        "migrated {rows} rows from {} to {} in {:.1} s",
        from.describe(),
        to.describe(),
        started.elapsed().as_secs_f64()
    );
    println!("{}", uploads_note(&from, &to));
    Ok(())
}

/// The source must hold a Confab database; a data directory that is only a PostgreSQL
/// server's (its queues) holds none.
fn check_source(from: &Place) -> Result<(), String> {
    match from {
        Place::Directory(dir) => {
            if !dir.is_dir() {
                return Err(format!("the source {} does not exist or is not a directory", dir.display()));
            }
            if dir.join(POSTGRES_NOTE).exists() {
                return Err(format!(
                    "the source {} is the data directory of a server on PostgreSQL: its data is in \
                     the database, so migrate from the database (--from postgres://...)",
                    dir.display()
                ));
            }
            if !dir.join(DB_FILE).is_file() {
                return Err(format!("the source {} holds no Confab database (no {DB_FILE})", dir.display()));
            }
        }
        Place::Database(url) => {
            let tables = Store::postgres_tables(url).map_err(|e| format!("the source: {e}"))?;
            if !tables.iter().any(|(name, _)| *name == "meta") {
                return Err(format!("the source, {}, holds no Confab tables", from.describe()));
            }
        }
    }
    Ok(())
}

/// The target must be empty: nothing is written otherwise. A database's `meta` may hold one
/// row, the schema version a store opened on it wrote before anything else.
fn check_target(to: &Place) -> Result<(), String> {
    match to {
        Place::Directory(dir) => {
            if dir.exists() {
                let mut entries =
                    std::fs::read_dir(dir).map_err(|e| format!("the target {}: {e}", dir.display()))?;
                if entries.next().is_some() {
                    return Err(format!(
                        "the target {} is not empty: migrate into a new data directory",
                        dir.display()
                    ));
                }
            }
        }
        Place::Database(url) => {
            let tables = Store::postgres_tables(url).map_err(|e| format!("the target: {e}"))?;
            let occupied: Vec<String> = tables
                .iter()
                .filter(|&&(name, rows)| rows > u64::from(name == "meta"))
                .map(|(name, rows)| format!("{name} ({rows} rows)"))
                .collect();
            if !occupied.is_empty() {
                return Err(format!(
                    "the target, {}, is not empty: {}. Migrate into a new database",
                    to.describe(),
                    occupied.join(", ")
                ));
            }
        }
    }
    Ok(())
}

fn open_source(from: &Place) -> Result<Store, String> {
    match from {
        Place::Directory(dir) => Store::open(dir).map_err(|e| match e {
            OpenError::InUse => {
                format!("a Confab server is running on the source {}: stop it, then migrate", dir.display())
            }
            other => format!("cannot open the source {}: {other}", dir.display()),
        }),
        Place::Database(url) => {
            Store::open_postgres(url).map_err(|e| format!("cannot open the source, {}: {e}", from.describe()))
        }
    }
}

fn open_target(to: &Place) -> Result<Store, String> {
    let opened = match to {
        Place::Directory(dir) => Store::open(dir),
        Place::Database(url) => Store::open_postgres(url),
    };
    opened.map_err(|e| format!("cannot open the target, {}: {e}", to.describe()))
}

/// Copies every table and checks the copy; returns the rows copied and the problems found
/// (tables whose counts differ, and what verification reports).
fn copy_and_check(source: &Store, target: &Store, progress: &mut Progress) -> Result<(u64, u64), String> {
    let started = Instant::now();
    let snapshot = source.snapshot().map_err(|e| format!("reading the source: {}", e.msg))?;
    let copied = snapshot.copy_to(target, progress)?;
    let rows = copied.iter().map(|(_, rows)| rows).sum();
    progress.stage(&format!("copied {rows} rows in {:.1} s", started.elapsed().as_secs_f64()))?;

    progress.stage("checking every table's row count on both sides")?;
    let before = snapshot.lengths().map_err(|e| format!("counting the source's rows: {e}"))?;
    let copy = target.snapshot().map_err(|e| format!("reading the target: {}", e.msg))?;
    let after = copy.lengths().map_err(|e| format!("counting the target's rows: {e}"))?;
    let mut problems = 0;
    println!("{:<40} {:>12} {:>12}", "table", "source", "target");
    for ((table, source_rows), (_, target_rows)) in before.iter().zip(&after) {
        let mark = if source_rows == target_rows { "" } else { "  DIFFERS" };
        println!("{table:<40} {source_rows:>12} {target_rows:>12}{mark}");
        problems += u64::from(source_rows != target_rows);
    }

    progress.stage("verifying the target's records and indexes")?;
    let started = Instant::now();
    let report = crate::store::verify::verify(&copy, progress)?;
    progress.stage(&format!("verified in {:.1} s", started.elapsed().as_secs_f64()))?;
    for problem in &report.problems {
        println!("PROBLEM: {problem}");
    }
    if report.unlisted > 0 {
        println!("... and {} more problems", report.unlisted);
    }
    Ok((rows, problems + report.problem_count()))
}

/// What went wrong, and what is left: a directory this run created is removed; a database
/// keeps what was written, to be emptied before another try.
fn failed_copy(to: &Place, created_dir: bool, error: String) -> String {
    match to {
        Place::Directory(dir) if created_dir => match std::fs::remove_dir_all(dir) {
            Ok(()) => format!("{error} (the partial copy in {} was removed)", dir.display()),
            Err(e) => format!("{error} (the partial copy in {} could not be removed: {e})", dir.display()),
        },
        Place::Directory(dir) => {
            format!("{error} (remove the partial copy in {} before trying again)", dir.display())
        }
        Place::Database(_) => {
            format!("{error} ({} holds a partial copy: drop its tables before trying again)", to.describe())
        }
    }
}

/// Uploaded files are in data directories, never in the database.
fn uploads_note(from: &Place, to: &Place) -> String {
    let source = match from {
        Place::Directory(dir) => dir.join("uploads").display().to_string(),
        Place::Database(_) => "a server's data directory's uploads/".to_owned(),
    };
    let target = match to {
        Place::Directory(dir) => dir.join("uploads").display().to_string(),
        Place::Database(_) => {
            "the data directory of every server on the database (or a shared one)".to_owned()
        }
    };
    format!("uploaded files are not in the database: copy {source} to {target}")
}

#[cfg(test)]
mod tests {
    use super::Place;

    #[test]
    fn urls_and_key_value_pairs_are_databases_and_the_rest_directories() {
        for database in [
            "postgres://u:p@h/db",
            "postgresql://h/db",
            "host=/run/postgresql dbname=confab",
            "dbname=confab",
        ] {
            assert_eq!(Place::parse(database), Place::Database(database.to_owned()));
        }
        for dir in ["./confab-data", "/var/lib/confab", "postgres"] {
            assert_eq!(Place::parse(dir), Place::Directory(dir.into()));
        }
    }

    #[test]
    fn a_database_is_named_without_its_password() {
        let described = Place::parse("postgres://confab:secret@db/chat").describe();
        assert_eq!(described, "the PostgreSQL database chat");
    }
}
