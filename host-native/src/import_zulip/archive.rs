//! The export's tarball, read twice: once for its JSON files (kept in memory) and the names
//! and sizes of the others, and once more, after everything was checked, for the files to copy.
//! Nothing is ever unpacked to disk by the names the tarball gives.

use std::collections::{BTreeMap, HashSet};
use std::io::Read;
use std::path::{Path, PathBuf};

use flate2::read::GzDecoder;

/// What the first reading found. Paths are relative to the export's directory (Zulip tars one
/// directory, `zulip-export-…/`).
#[derive(Debug)]
pub struct Contents {
    tarball: PathBuf,
    /// The export's directory inside the tarball, with its `/`; empty when files are at the top.
    prefix: String,
    json: BTreeMap<String, Vec<u8>>,
    /// Every other file, by path, with its size.
    files: BTreeMap<String, u64>,
}

impl Contents {
    /// Reads the tarball's listing and JSON files.
    pub fn read(tarball: &Path) -> Result<Contents, String> {
        let mut json = BTreeMap::new();
        let mut files = BTreeMap::new();
        for_each_entry(tarball, |path, entry| {
            if path.ends_with(".json") {
                let mut bytes = Vec::new();
                entry.read_to_end(&mut bytes).map_err(|e| format!("cannot read {path}: {e}"))?;
                json.insert(path, bytes);
            } else {
                files.insert(path, entry.header().size().unwrap_or(0));
            }
            Ok(())
        })?;
        let realm = json
            .keys()
            .filter(|path| path.as_str() == "realm.json" || path.ends_with("/realm.json"))
            .min_by_key(|path| path.len())
            .ok_or_else(|| {
                "it holds no realm.json: is it an export made by Zulip's `manage.py export`?".to_owned()
            })?;
        let prefix = realm.trim_end_matches("realm.json").to_owned();
        let json = strip(json, &prefix);
        let files = strip(files, &prefix);
        Ok(Contents { tarball: tarball.to_owned(), prefix, json, files })
    }

    /// A JSON file's bytes, by its path in the export.
    pub fn json(&self, path: &str) -> Option<&[u8]> {
        self.json.get(path).map(Vec::as_slice)
    }

    /// Drops the JSON files' bytes, once parsed.
    pub fn forget_json(&mut self) {
        self.json.clear();
    }

    /// Whether the export holds a file (not a JSON one) at this path.
    pub fn has_file(&self, path: &str) -> bool {
        self.files.contains_key(path)
    }

    /// Reads the tarball again, handing each of the `wanted` files' bytes to `use_file`.
    pub fn for_each_file(
        &self,
        wanted: &HashSet<String>,
        mut use_file: impl FnMut(&str, Vec<u8>) -> Result<(), String>,
    ) -> Result<(), String> {
        for_each_entry(&self.tarball, |path, entry| {
            let Some(relative) = path.strip_prefix(&self.prefix) else { return Ok(()) };
            if !wanted.contains(relative) {
                return Ok(());
            }
            let mut bytes = Vec::new();
            entry.read_to_end(&mut bytes).map_err(|e| format!("cannot read {path}: {e}"))?;
            use_file(relative, bytes)
        })
    }
}

/// The entries under `prefix`, by their paths below it.
fn strip<T>(map: BTreeMap<String, T>, prefix: &str) -> BTreeMap<String, T> {
    map.into_iter()
        .filter_map(|(path, value)| path.strip_prefix(prefix).map(|p| (p.to_owned(), value)))
        .collect()
}

type Entry<'a> = tar::Entry<'a, GzDecoder<std::fs::File>>;

/// Calls `f` with each regular file of the tarball and its path (`./` stripped).
fn for_each_entry(
    tarball: &Path,
    mut f: impl FnMut(String, &mut Entry<'_>) -> Result<(), String>,
) -> Result<(), String> {
    let file = std::fs::File::open(tarball).map_err(|e| format!("cannot open {}: {e}", tarball.display()))?;
    let mut archive = tar::Archive::new(GzDecoder::new(file));
    let not_tar = |e: std::io::Error| format!("{} is not a gzipped tar file: {e}", tarball.display());
    for entry in archive.entries().map_err(not_tar)? {
        let mut entry = entry.map_err(not_tar)?;
        if !entry.header().entry_type().is_file() {
            continue;
        }
        let path = entry.path().map_err(not_tar)?.to_string_lossy().trim_start_matches("./").to_owned();
        f(path, &mut entry)?;
    }
    Ok(())
}
