//! The server's control socket, `DIR/control/socket`: how `confab backup` asks a running server
//! for a backup (the server holds its database's lock, and only it sees the batches its
//! write-ahead log holds).
//!
//! A Unix domain socket in a directory only the server's user may enter (0700; the socket
//! itself 0600): the filesystem's permissions are the authorization, as for a database's local
//! socket. Backups are never offered over HTTP, so no remote caller can make the server write
//! to a path. One request per connection, a JSON line (`{"backup_to": "/absolute/path"}`); the
//! answer is JSON lines, `{"progress": ...}` while the backup runs, then `{"done": ...}` or
//! `{"error": ...}`. A client that goes away stops its backup (which removes what it wrote).

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt};
use tokio::net::{UnixListener, UnixStream};

use super::{Progress, make_backup};
use crate::store::Store;
use crate::uploads::FileStore;

/// The control directory, and the socket in it.
const CONTROL_DIR: &str = "control";
const SOCKET_FILE: &str = "socket";

/// A request is one short line, sent at once.
const MAX_REQUEST_BYTES: u64 = 64 * 1024;
const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

pub fn socket_path(data_dir: &Path) -> PathBuf {
    data_dir.join(CONTROL_DIR).join(SOCKET_FILE)
}

#[derive(Serialize, Deserialize)]
struct Request {
    backup_to: PathBuf,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Reply {
    Progress(String),
    Done(String),
    Error(String),
}

/// The listening socket of a running server.
pub struct ControlSocket {
    path: PathBuf,
    accept: tokio::task::JoinHandle<()>,
    shared: Arc<Shared>,
}

struct Shared {
    store: Arc<Store>,
    files: Arc<FileStore>,
    data_dir: PathBuf,
    /// Held while a backup runs: one at a time.
    running: tokio::sync::Mutex<()>,
    /// Set when the server stops: a running backup ends at its next report.
    stopping: Arc<AtomicBool>,
}

/// Listens on `DIR/control/socket`. A server that cannot (a data directory path too long for
/// a socket's name, say) runs without it and says so: backups then need it stopped.
pub fn listen(data_dir: &Path, store: Arc<Store>, files: Arc<FileStore>) -> Option<ControlSocket> {
    let path = socket_path(data_dir);
    let listener = match bind(&path) {
        Ok(listener) => listener,
        Err(e) => {
            tracing::warn!(
                "no control socket at {} ({e}): `confab backup` cannot reach this server",
                path.display()
            );
            return None;
        }
    };
    let shared = Arc::new(Shared {
        store,
        files,
        data_dir: data_dir.to_owned(),
        running: tokio::sync::Mutex::new(()),
        stopping: Arc::default(),
    });
    let accept = tokio::spawn(accept_loop(listener, shared.clone()));
    Some(ControlSocket { path, accept, shared })
}

fn bind(path: &Path) -> std::io::Result<UnixListener> {
    use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
    let dir = path.parent().ok_or_else(|| std::io::Error::other("no directory"))?;
    match std::fs::DirBuilder::new().mode(0o700).create(dir) {
        Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => return Err(e),
        _ => std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?,
    }
    // Left by a server that crashed: this one holds the database's lock, so no other serves here.
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
        _ => {}
    }
    let listener = UnixListener::bind(path)?;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))?;
    Ok(listener)
}

impl ControlSocket {
    /// Stops listening, ends a running backup (it removes what it wrote) and waits for it, so
    /// that nothing holds the store any more.
    pub async fn stop(self) {
        self.shared.stopping.store(true, Ordering::Relaxed);
        self.accept.abort();
        let _ = self.accept.await;
        drop(self.shared.running.lock().await);
        let _ = std::fs::remove_file(&self.path);
    }
}

async fn accept_loop(listener: UnixListener, shared: Arc<Shared>) {
    loop {
        match listener.accept().await {
            Ok((stream, _)) => {
                tokio::spawn(answer(stream, shared.clone()));
            }
            Err(e) => {
                tracing::warn!("control socket: {e}");
                // Out of descriptors, say: give the server a moment rather than spin.
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
}

async fn answer(stream: UnixStream, shared: Arc<Shared>) {
    let (read, mut write) = stream.into_split();
    let mut line = String::new();
    let mut reader = tokio::io::BufReader::new(read.take(MAX_REQUEST_BYTES));
    let read = tokio::time::timeout(REQUEST_TIMEOUT, reader.read_line(&mut line)).await;
    let reply = match read {
        Ok(Ok(_)) => match serde_json::from_str::<Request>(&line) {
            Ok(request) => backup(request, &shared, &mut write).await,
            Err(e) => Reply::Error(format!("not a request: {e}")),
        },
        Ok(Err(e)) => Reply::Error(format!("reading the request: {e}")),
        Err(_) => Reply::Error("no request within 10 seconds".to_owned()),
    };
    let _ = send(&mut write, &reply).await;
}

async fn backup(
    request: Request,
    shared: &Arc<Shared>,
    write: &mut tokio::net::unix::OwnedWriteHalf,
) -> Reply {
    let to = request.backup_to;
    if !to.is_absolute() {
        return Reply::Error(format!("{}: the backup's path must be absolute", to.display()));
    }
    let Ok(_running) = shared.running.try_lock() else {
        return Reply::Error("a backup is running already; try again when it is done".to_owned());
    };
    let (lines, mut received) = tokio::sync::mpsc::unbounded_channel::<String>();
    let sink = move |line: &str| lines.send(line.to_owned()).map_err(|_| "the client went away".to_owned());
    let mut progress = Progress::new(Box::new(sink)).stopping_on(shared.stopping.clone());
    let (store, files, data_dir) = (shared.store.clone(), shared.files.clone(), shared.data_dir.clone());
    let target = to.clone();
    tracing::info!("backup to {}: started", to.display());
    let task =
        tokio::task::spawn_blocking(move || make_backup(&store, &files, &data_dir, &target, &mut progress));
    while let Some(line) = received.recv().await {
        if send(write, &Reply::Progress(line)).await.is_err() {
            // Dropping the receiver fails the backup's next report: it stops and cleans up.
            break;
        }
    }
    drop(received);
    match task.await {
        Ok(Ok(manifest)) => {
            let summary = format!("backup written to {}: {}", to.display(), manifest.summary());
            tracing::info!("{summary}");
            Reply::Done(summary)
        }
        Ok(Err(e)) => {
            tracing::warn!("backup to {} failed: {e}", to.display());
            Reply::Error(e)
        }
        Err(e) => Reply::Error(format!("the backup failed: {e}")),
    }
}

async fn send(write: &mut tokio::net::unix::OwnedWriteHalf, reply: &Reply) -> std::io::Result<()> {
    let mut line = serde_json::to_vec(reply).map_err(std::io::Error::other)?;
    line.push(b'\n');
    write.write_all(&line).await
}

/// Whether a server answers on `DIR`'s control socket.
pub fn server_answers(data_dir: &Path) -> bool {
    std::os::unix::net::UnixStream::connect(socket_path(data_dir)).is_ok()
}

/// Asks the server running on `data_dir` for a backup to `to` (absolute), passing its progress
/// on. `Ok(None)` when no server listens there.
pub fn ask_for_backup(data_dir: &Path, to: &Path, progress: &mut Progress) -> Result<Option<String>, String> {
    let path = socket_path(data_dir);
    let stream = match std::os::unix::net::UnixStream::connect(&path) {
        Ok(stream) => stream,
        Err(e)
            if matches!(e.kind(), std::io::ErrorKind::NotFound | std::io::ErrorKind::ConnectionRefused) =>
        {
            return Ok(None);
        }
        Err(e) => return Err(format!("cannot reach the server at {}: {e}", path.display())),
    };
    let mut request = serde_json::to_vec(&Request { backup_to: to.to_owned() }).map_err(|e| e.to_string())?;
    request.push(b'\n');
    (&stream).write_all(&request).map_err(|e| format!("asking the server: {e}"))?;
    for line in std::io::BufReader::new(&stream).lines() {
        let line = line.map_err(|e| format!("reading the server's answer: {e}"))?;
        match serde_json::from_str::<Reply>(&line) {
            Ok(Reply::Progress(text)) => progress.stage(&text)?,
            Ok(Reply::Done(summary)) => return Ok(Some(summary)),
            Ok(Reply::Error(e)) => return Err(e),
            Err(e) => return Err(format!("the server answered something else: {e}")),
        }
    }
    Err("the server closed the connection before the backup was done (was it stopped?)".to_owned())
}
