//! Organization data exports, made off the request path: a task that wakes when an export is
//! asked for (and once at startup, so an export a stop interrupted is made again), claims it
//! (servers sharing a database each find it; one claim wins under the writer's lock), reads the
//! data on a snapshot (`api::realm_export::export_files`), writes it as a `.tar.gz` of JSON
//! files into the uploads, and records the outcome through the writer. Anything that goes wrong,
//! a panic included, ends the export with its `failed_timestamp` rather than ending the server.

use std::io::Write;
use std::sync::Arc;

use confab_core::api::realm_export::{
    RealmExport, claim_realm_export, export_files, finish_realm_export, pending_exports, stored_export,
};
use confab_core::store::Store as _;
use confab_core::subdomains::Site;
use flate2::Compression;
use flate2::write::GzEncoder;
use tokio::sync::Notify;

use crate::store::Store;
use crate::uploads::FileStore;
use crate::writer::Writer;

/// Wakes the export task. Cheap to clone.
#[derive(Clone, Default)]
pub struct Exports {
    wake: Arc<Notify>,
}

impl Exports {
    /// An export was asked for.
    pub fn wake(&self) {
        // Kept as a permit while the task is busy, so no request goes unnoticed.
        self.wake.notify_one();
    }

    /// Makes exports for ever, one at a time. On a database other servers share, it also
    /// looks again every [`SHARED_RECHECK`]: an export asked for through another server, whose
    /// server died while making it, is made here once that claim expires.
    pub async fn run(self, store: Arc<Store>, writer: Writer, site: Arc<Site>, files: Arc<FileStore>) {
        loop {
            let reader = store.clone();
            match tokio::task::spawn_blocking(move || reader.read(pending_exports)).await {
                Ok(Ok(pending)) => {
                    for export in pending {
                        // Alone on its store, a server claims nothing: an export it was making
                        // when it stopped is its own to make again at once.
                        if !store.shares_events() || claim(&store, &writer, &export).await {
                            make(&store, &writer, &site, &files, export).await;
                        }
                    }
                }
                Ok(Err(e)) => tracing::error!("cannot read the pending exports: {e}"),
                Err(e) => tracing::error!("reading the pending exports failed: {e}"),
            }
            if store.shares_events() {
                tokio::select! {
                    () = self.wake.notified() => {}
                    () = tokio::time::sleep(SHARED_RECHECK) => {}
                }
            } else {
                self.wake.notified().await;
            }
        }
    }
}

/// How often a server on a shared database looks for exports no live server is making.
const SHARED_RECHECK: std::time::Duration = std::time::Duration::from_secs(600);

/// Claims the export for this attempt (`claim_realm_export`, under the writer's lock): true
/// when this server is to make it, false when another server is making it or it is done.
async fn claim(store: &Arc<Store>, writer: &Writer, export: &RealmExport) -> bool {
    let token = match crate::secrets::random_alphanumeric(24) {
        Ok(token) => token,
        Err(e) => {
            tracing::error!("cannot claim export {}: {e}", export.id);
            return false;
        }
    };
    let (asked, claiming, now) = (export.clone(), token.clone(), crate::http::now());
    let claimed =
        writer.submit(Box::new(move |tables| claim_realm_export(tables, &asked, &claiming, now))).await;
    if let Err(e) = claimed {
        tracing::error!("cannot claim export {}: {e}", export.id);
        return false;
    }
    let (reader, asked) = (store.clone(), export.clone());
    match tokio::task::spawn_blocking(move || reader.read(|t| stored_export(t, &asked))).await {
        Ok(Ok(stored)) => stored.is_some_and(|stored| stored.claimed_by(&token)),
        Ok(Err(e)) => {
            tracing::error!("cannot read export {}: {e}", export.id);
            false
        }
        Err(e) => {
            tracing::error!("reading export {} failed: {e}", export.id);
            false
        }
    }
}

async fn make(
    store: &Arc<Store>,
    writer: &Writer,
    site: &Arc<Site>,
    files: &Arc<FileStore>,
    export: RealmExport,
) {
    let (store, files, asked) = (store.clone(), files.clone(), export.clone());
    let made = match tokio::task::spawn_blocking(move || write_export(&store, &files, &asked)).await {
        Ok(Ok(path_id)) => Some(path_id),
        Ok(Err(e)) => {
            tracing::error!("export {} failed: {e}", export.id);
            None
        }
        Err(e) => {
            tracing::error!("export {} failed: {e}", export.id);
            None
        }
    };
    let site = site.clone();
    let now = crate::http::now();
    let recorded = writer
        .submit(Box::new(move |tables| {
            let realm = tables.realm(export.realm_id)?;
            let url = site.realm_url(&realm.map(|r| r.subdomain).unwrap_or_default());
            finish_realm_export(tables, &url, &export, made, now)
        }))
        .await;
    if let Err(e) = recorded {
        tracing::error!("recording an export's outcome failed: {e}");
    }
}

/// The export's files as a gzipped tar under the uploads; answers its path id.
fn write_export(store: &Store, files: &FileStore, export: &RealmExport) -> Result<String, String> {
    let contents = store.read(|t| export_files(t, export)).map_err(|e| e.to_string())?;
    let folder = format!("realm-export-{}", export.id);
    let mut archive = tar::Builder::new(GzEncoder::new(Vec::new(), Compression::default()));
    for (name, value) in contents {
        let bytes = serde_json::to_vec_pretty(&value).map_err(|e| e.to_string())?;
        let mut header = tar::Header::new_gnu();
        header.set_size(bytes.len() as u64);
        header.set_mode(0o644);
        header.set_mtime(u64::try_from(export.export_time).unwrap_or(0));
        archive
            .append_data(&mut header, format!("{folder}/{name}"), bytes.as_slice())
            .map_err(|e| e.to_string())?;
    }
    let mut gzip = archive.into_inner().map_err(|e| e.to_string())?;
    gzip.flush().map_err(|e| e.to_string())?;
    let bytes = gzip.finish().map_err(|e| e.to_string())?;
    // Unguessable, as every upload's path: the file is served to administrators only, but its
    // name should not say that an export exists.
    let random = crate::secrets::random_alphanumeric(24).map_err(|e| e.to_string())?;
    let path_id = format!("exports/{}/{random}/{folder}.tar.gz", export.realm_id);
    files.keep_bytes(&path_id, &bytes).map_err(|e| e.to_string())?;
    Ok(path_id)
}
