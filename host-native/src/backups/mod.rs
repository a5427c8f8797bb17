//! Backups: `confab backup`, `confab restore` and `confab verify`.
//!
//! A backup is a directory laid out like a data directory, so `confab verify` reads either and
//! `confab serve --data-dir BACKUP` would run on one:
//!
//! ```text
//! BACKUP/confab.redb   every table, copied from one read snapshot (no write-ahead log needed)
//! BACKUP/uploads/      the uploaded files, thumbnails, avatars, emoji and exports
//! BACKUP/zuliprc       the first owner's zuliprc, when the data directory has one
//! BACKUP/backup.json   the manifest (`Manifest`), written last
//! ```
//!
//! It is built under a hidden sibling (`.NAME.partial`) and renamed into place once whole, so
//! `BACKUP` either is complete or does not exist. A running server holds its database's lock,
//! so it makes the backup itself when `confab backup` asks on its control socket (`socket.rs`);
//! a stopped server's data directory is copied by the command directly.

pub mod command;
mod files;
mod make;
mod manifest;
mod progress;
mod restore;
pub mod socket;
mod verify;

pub use make::make_backup;
pub use manifest::{MANIFEST_FILE, Manifest};
pub use progress::Progress;
pub use verify::verify_dir;
