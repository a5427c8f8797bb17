//! `backup.json`: what a backup holds, written last (its presence marks a whole backup), and
//! what `confab verify` compares the copy with.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

/// The manifest's name inside a backup.
pub const MANIFEST_FILE: &str = "backup.json";

/// The layout this build writes; a newer one is refused.
pub const FORMAT: u32 = 1;

#[derive(Debug, Serialize, Deserialize)]
pub struct Manifest {
    pub format: u32,
    /// When the snapshot was taken (Unix seconds).
    pub created_at: i64,
    pub confab_version: String,
    pub schema_version: u64,
    /// Rows per table, as copied.
    pub tables: BTreeMap<String, u64>,
    /// Files copied under `uploads/`, and their bytes.
    pub upload_files: u64,
    pub upload_bytes: u64,
}

impl Manifest {
    /// Reads a backup's manifest; `None` when there is none (a data directory).
    pub fn read(dir: &Path) -> Result<Option<Manifest>, String> {
        let path = dir.join(MANIFEST_FILE);
        let bytes = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(format!("{}: {e}", path.display())),
        };
        let manifest: Manifest =
            serde_json::from_slice(&bytes).map_err(|e| format!("{} is damaged: {e}", path.display()))?;
        if manifest.format > FORMAT {
            return Err(format!(
                "{} has format {}, newer than this Confab's ({FORMAT}); use a newer Confab",
                path.display(),
                manifest.format
            ));
        }
        Ok(Some(manifest))
    }

    pub fn summary(&self) -> String {
        let messages = self.tables.get("msgid_message").copied().unwrap_or(0);
        let users = self.tables.get("userid_user").copied().unwrap_or(0);
        format!(
            "{messages} messages, {users} users, {} upload files ({} bytes)",
            self.upload_files, self.upload_bytes
        )
    }
}
