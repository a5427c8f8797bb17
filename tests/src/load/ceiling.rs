//! What this machine allows, measured in the same run as the figures they bound: a bare HTTP
//! server (hyper, as the real server uses it) under the same load generator, and raw redb
//! transactions on the same disk. Neither does any of Confab's work; a figure's share of its
//! ceiling holds on a noisy shared machine where absolute times do not.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use redb::{Database, TableDefinition};

/// A hello-world HTTP/1.1 server with keep-alive, on its own two-thread runtime (as the real
/// server's): it reads each request's body whole and answers `200` with a JSON body of the
/// size set by [`BareHttp::reply_with`], so that it moves as many bytes as the endpoint it
/// stands in for.
pub struct BareHttp {
    pub address: SocketAddr,
    reply_bytes: Arc<AtomicUsize>,
    runtime: Option<tokio::runtime::Runtime>,
}

impl BareHttp {
    pub fn start() -> BareHttp {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("bare-http")
            .enable_all()
            .build()
            .expect("the bare server's runtime");
        let reply_bytes = Arc::new(AtomicUsize::new(64));
        let listener =
            runtime.block_on(tokio::net::TcpListener::bind("127.0.0.1:0")).expect("the bare server binds");
        let address = listener.local_addr().expect("a bound address");
        let size = reply_bytes.clone();
        runtime.spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let _ = stream.set_nodelay(true);
                let size = size.clone();
                tokio::spawn(async move {
                    let service =
                        hyper::service::service_fn(move |request: hyper::Request<hyper::body::Incoming>| {
                            let size = size.load(Ordering::Relaxed);
                            async move {
                                let _ = request.into_body().collect().await;
                                Ok::<_, Infallible>(
                                    hyper::Response::builder()
                                        .header("content-type", "application/json")
                                        .body(Full::new(json_of_size(size)))
                                        .unwrap_or_default(),
                                )
                            }
                        });
                    let io = hyper_util::rt::TokioIo::new(stream);
                    let _ = hyper::server::conn::http1::Builder::new().serve_connection(io, service).await;
                });
            }
        });
        BareHttp { address, reply_bytes, runtime: Some(runtime) }
    }

    /// Answers from now on carry `bytes` bytes.
    pub fn reply_with(&self, bytes: usize) {
        self.reply_bytes.store(bytes, Ordering::Relaxed);
    }
}

impl Drop for BareHttp {
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

/// `{"result":"success","msg":"","pad":"xxx…"}` of about `size` bytes.
fn json_of_size(size: usize) -> Bytes {
    let frame = r#"{"result":"success","msg":"","pad":""}"#;
    let pad = size.saturating_sub(frame.len());
    Bytes::from(format!(r#"{{"result":"success","msg":"","pad":"{}"}}"#, "x".repeat(pad)))
}

/// What the raw group-commit loop did.
#[derive(Debug, Clone, Copy)]
pub struct RedbLoop {
    pub rows_per_second: f64,
    pub commits_per_second: f64,
    pub commit_p50: Duration,
    pub commit_p99: Duration,
}

const ROWS: TableDefinition<u64, &[u8]> = TableDefinition::new("rows");
const FLAGS: TableDefinition<(u64, u64), u32> = TableDefinition::new("flags");

/// A writer's loop with nothing but storage in it: `group` inserts of `record_bytes` each per
/// write transaction (as `group` writers' commands would be batched), one durable commit each,
/// for `duration`, on a new database in `dir`.
pub fn redb_group_commit(dir: &Path, group: usize, record_bytes: usize, duration: Duration) -> RedbLoop {
    let db = Database::create(dir.join("group-commit.redb")).expect("a scratch database");
    let record = vec![b'm'; record_bytes];
    let started = Instant::now();
    let (mut key, mut commits) = (0u64, Vec::new());
    while started.elapsed() < duration {
        let at = Instant::now();
        let txn = db.begin_write().expect("a write transaction");
        {
            let mut table = txn.open_table(ROWS).expect("the table");
            for _ in 0..group {
                key += 1;
                table.insert(key, record.as_slice()).expect("an insert");
            }
        }
        txn.commit().expect("a durable commit");
        commits.push(at.elapsed());
    }
    let seconds = started.elapsed().as_secs_f64();
    drop(db);
    let _ = std::fs::remove_file(dir.join("group-commit.redb"));
    RedbLoop {
        rows_per_second: key as f64 / seconds,
        commits_per_second: commits.len() as f64 / seconds,
        commit_p50: super::quantile(&commits, 0.5).unwrap_or_default(),
        commit_p99: super::quantile(&commits, 0.99).unwrap_or_default(),
    }
}

/// Rewrites `rows` existing per-user flag rows (as marking that many messages read does) in
/// one transaction and commits it; the time of that transaction and commit.
pub fn redb_bulk_update(dir: &Path, rows: u64) -> Duration {
    let path = dir.join("bulk-update.redb");
    let db = Database::create(&path).expect("a scratch database");
    let txn = db.begin_write().expect("a write transaction");
    {
        let mut table = txn.open_table(FLAGS).expect("the table");
        for id in 0..rows {
            table.insert((7, id), 0).expect("an insert");
        }
    }
    txn.commit().expect("a commit");
    let started = Instant::now();
    let txn = db.begin_write().expect("a write transaction");
    {
        let mut table = txn.open_table(FLAGS).expect("the table");
        for id in 0..rows {
            table.insert((7, id), 1).expect("an update");
        }
    }
    txn.commit().expect("a durable commit");
    let took = started.elapsed();
    drop(db);
    let _ = std::fs::remove_file(&path);
    took
}
