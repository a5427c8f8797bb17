//! Copying files durably: each file synced after its copy, each directory once its entries are
//! in, so a backup (or a restore) that reports success survives a power cut.

use std::path::Path;

use super::Progress;

/// What a tree copy moved.
#[derive(Debug, Default, Clone, Copy)]
pub struct Copied {
    pub files: u64,
    pub bytes: u64,
}

/// Copies the tree at `from` into `to` (created), leaving out the top-level entries named in
/// `skip`. A file that disappears during the walk is left out: nothing recorded names it.
pub fn copy_tree(from: &Path, to: &Path, skip: &[&str], progress: &mut Progress) -> Result<Copied, String> {
    let mut copied = Copied::default();
    if from.is_dir() {
        copy_dir(from, to, skip, &mut copied, progress)?;
    }
    Ok(copied)
}

fn copy_dir(
    from: &Path,
    to: &Path,
    skip: &[&str],
    copied: &mut Copied,
    progress: &mut Progress,
) -> Result<(), String> {
    let failed = |path: &Path, e: std::io::Error| format!("{}: {e}", path.display());
    std::fs::create_dir_all(to).map_err(|e| failed(to, e))?;
    for entry in std::fs::read_dir(from).map_err(|e| failed(from, e))? {
        let entry = entry.map_err(|e| failed(from, e))?;
        let name = entry.file_name();
        if name.to_str().is_some_and(|name| skip.contains(&name)) {
            continue;
        }
        let (source, target) = (entry.path(), to.join(&name));
        let kind = match entry.file_type() {
            Ok(kind) => kind,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(failed(&source, e)),
        };
        if kind.is_dir() {
            copy_dir(&source, &target, &[], copied, progress)?;
        } else if kind.is_file() {
            match copy_file(&source, &target) {
                Ok(bytes) => {
                    copied.files += 1;
                    copied.bytes += bytes;
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => return Err(failed(&source, e)),
            }
            let Copied { files, bytes } = *copied;
            progress.count(|| format!("  {files} files ({bytes} bytes) so far"))?;
        }
    }
    sync_dir(to)
}

/// Copies one file and syncs the copy; returns its size.
pub fn copy_file(from: &Path, to: &Path) -> std::io::Result<u64> {
    let bytes = std::fs::copy(from, to)?;
    std::fs::File::open(to)?.sync_all()?;
    Ok(bytes)
}

/// Makes a directory's entries durable.
pub fn sync_dir(dir: &Path) -> Result<(), String> {
    std::fs::File::open(dir).and_then(|d| d.sync_all()).map_err(|e| format!("{}: {e}", dir.display()))
}

/// Creates a directory only its owner may enter (a backup holds API keys and password hashes).
pub fn create_private_dir(dir: &Path) -> Result<(), String> {
    let mut builder = std::fs::DirBuilder::new();
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))
}
