//! Builds the browser client (`www/`) into `OUT_DIR/www` and writes `OUT_DIR/www_assets.rs`,
//! the table of its files that `http/routes/web_client.rs` embeds, so that `cargo build` (and
//! `cargo install`) alone gives a binary that serves a working client.
//!
//! The client needs confab-web's `web` build (the engine). `CONFAB_WEB_PACKAGE` names a built
//! package (`scripts/build-web-package`: its `web/` directory is used); without it the engine is
//! built here: a nested cargo build of confab-web for wasm32 in a target directory of its own,
//! then wasm-bindgen as a library. Then `npm ci` (when `www/node_modules` is older than the lock
//! file) and `node www/build.mjs`. The built files are not committed anywhere.

use std::env;
use std::ffi::OsStr;
use std::fmt::Write as _;
use std::fs::{self, File};
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::process::Command;

/// What a machine without Node.js is told.
const NEEDS_NODE: &str = "building Confab's browser client (www/) needs Node.js 18 or later and npm \
     on PATH: install them (https://nodejs.org, or e.g. `apt-get install nodejs npm`), then build again";

fn main() {
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let root = manifest.parent().expect("host-native/ is inside the workspace").to_owned();
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let www = root.join("www");
    for input in ["src", "static", "build.mjs", "package.json", "package-lock.json", "tsconfig.json"] {
        rerun_if_changed(&www.join(input));
    }
    println!("cargo::rerun-if-env-changed=CONFAB_WEB_PACKAGE");

    let engine = match env::var_os("CONFAB_WEB_PACKAGE").filter(|p| !p.is_empty()) {
        // Relative to the workspace's root, as scripts/test and the tests read it.
        Some(package) => {
            let web = root.join(package).join("web");
            rerun_if_changed(&web.join("confab_web_bg.wasm"));
            rerun_if_changed(&web.join("confab_web.js"));
            web
        }
        None => build_engine(&root, &out),
    };
    let site = out.join("www");
    build_client(&www, &engine, &site);
    write_table(&site, &out);
}

fn rerun_if_changed(path: &Path) {
    println!("cargo::rerun-if-changed={}", path.display());
}

/// Builds confab-web for wasm32 and binds it for browsers (`wasm-bindgen --target web`), into
/// `OUT_DIR/engine`.
fn build_engine(root: &Path, out: &Path) -> PathBuf {
    for input in [
        "core/src",
        "core/Cargo.toml",
        "host-web/src",
        "host-web/Cargo.toml",
        "Cargo.toml",
        "Cargo.lock",
        ".cargo/config.toml",
    ] {
        rerun_if_changed(&root.join(input));
    }
    // A target directory of its own, so the nested build never waits on the lock the outer
    // build holds on its profile's directory; one for every outer profile (the engine's is
    // always `wasm-release`).
    let target_dir = target_dir(out).join("www-engine");
    let mut cargo = Command::new(env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    // From the workspace's root, so that `.cargo/config.toml` applies: its wasm32 rustflags keep
    // the `target_features` section that wasm-bindgen reads (the profile strips symbols).
    cargo.current_dir(root).args([
        "build",
        "--package",
        "confab-web",
        "--lib",
        "--target",
        "wasm32-unknown-unknown",
        "--profile",
        "wasm-release",
        "--target-dir",
    ]);
    cargo.arg(&target_dir);
    // The outer build's settings (its target, flags, wrappers such as clippy's) are not the
    // engine's; the toolchain (RUSTUP_*), CARGO_HOME, network settings and the job server are.
    for (name, _) in env::vars_os() {
        if let Some(name) = name.to_str()
            && !inherited_by_nested_cargo(name)
        {
            cargo.env_remove(name);
        }
    }
    run(
        &mut cargo,
        "building confab-web for wasm32-unknown-unknown (the target is listed in rust-toolchain.toml; \
         without rustup, `rustup target add wasm32-unknown-unknown` or your distribution's wasm32 std)",
    );

    let wasm = target_dir.join("wasm32-unknown-unknown/wasm-release/confab_web.wasm");
    // Without the section wasm-bindgen only warns, guesses reference types and misses
    // multivalue: glue unlike the package's (scripts/build-web-package) for the same engine.
    let module = fs::read(&wasm).unwrap_or_else(|e| fail(&format!("reading {}: {e}", wasm.display())));
    if !module.windows(b"target_features".len()).any(|window| window == b"target_features") {
        fail(&format!(
            "{} has no target_features section: the wasm32 rustflags of .cargo/config.toml did not apply",
            wasm.display()
        ));
    }
    let engine = out.join("engine");
    let _ = fs::remove_dir_all(&engine);
    let bound = wasm_bindgen_cli_support::Bindgen::new()
        .input_path(&wasm)
        .web(true)
        .map(|b| b.typescript(true).omit_default_module_path(false).out_name("confab_web").generate(&engine));
    if let Err(e) | Ok(Err(e)) = bound {
        fail(&format!("wasm-bindgen on {}: {e:#}", wasm.display()));
    }
    engine
}

/// Whether the nested cargo keeps this variable of the build script's environment.
fn inherited_by_nested_cargo(name: &str) -> bool {
    if name.starts_with("CARGO") {
        return name == "CARGO_HOME"
            || name == "CARGO_MAKEFLAGS"
            || ["CARGO_NET_", "CARGO_HTTP_", "CARGO_REGISTRIES_", "CARGO_REGISTRY_"]
                .iter()
                .any(|prefix| name.starts_with(prefix));
    }
    !name.starts_with("__CARGO")
        && !matches!(
            name,
            "RUSTFLAGS"
                | "RUSTDOCFLAGS"
                | "RUSTC"
                | "RUSTDOC"
                | "RUSTC_WRAPPER"
                | "RUSTC_WORKSPACE_WRAPPER"
                | "RUSTC_LINKER"
                | "TARGET"
                | "HOST"
                | "OUT_DIR"
                | "PROFILE"
                | "OPT_LEVEL"
                | "DEBUG"
                | "NUM_JOBS"
        )
}

/// The outer build's target directory (the one holding `CACHEDIR.TAG`), or a directory under
/// `OUT_DIR` if there is none.
fn target_dir(out: &Path) -> PathBuf {
    out.ancestors()
        .find(|dir| dir.join("CACHEDIR.TAG").is_file())
        .map_or_else(|| out.join("target"), Path::to_owned)
}

/// Installs the client's npm dependencies when needed and runs `www/build.mjs`.
fn build_client(www: &Path, engine: &Path, site: &Path) {
    check_node();
    // Several builds (profiles, target directories, clippy) may run this at once: `npm ci`
    // replaces node_modules, and build.mjs rewrites www/engine.
    let lock = File::create(www.join(".build.lock"))
        .and_then(|lock| lock.lock().map(|()| lock))
        .unwrap_or_else(|e| fail(&format!("locking www/.build.lock: {e}")));
    // npm writes node_modules/.package-lock.json last; older than the lock file, it is stale.
    let installed = modified(&www.join("node_modules/.package-lock.json"));
    if installed.is_none() || installed < modified(&www.join("package-lock.json")) {
        let npm = if cfg!(windows) { "npm.cmd" } else { "npm" };
        run(
            Command::new(npm).current_dir(www).args(["ci", "--no-audit", "--no-fund", "--loglevel=error"]),
            "npm ci in www/",
        );
    }
    let mut node = Command::new("node");
    node.arg(www.join("build.mjs")).arg("--engine").arg(engine).arg("--out").arg(site);
    run(&mut node, "node www/build.mjs");
    drop(lock);
}

fn check_node() {
    let version = match Command::new("node").arg("--version").output() {
        Ok(output) if output.status.success() => String::from_utf8_lossy(&output.stdout).into_owned(),
        _ => fail(NEEDS_NODE),
    };
    let major = version.trim().trim_start_matches('v').split('.').next().and_then(|m| m.parse::<u32>().ok());
    if major.is_none_or(|major| major < 18) {
        fail(&format!("found Node.js {}; {NEEDS_NODE}", version.trim()));
    }
}

fn modified(path: &Path) -> Option<std::time::SystemTime> {
    fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// Runs a command whose output goes to the build's log (stderr: its stdout could otherwise be
/// read as instructions to cargo), and fails the build if it fails.
fn run(command: &mut Command, what: &str) {
    command.stdout(io::stderr());
    match command.status() {
        Ok(status) if status.success() => {}
        Ok(status) => fail(&format!("{what}: {status}")),
        Err(e) if e.kind() == io::ErrorKind::NotFound && is_node_tool(command.get_program()) => {
            fail(NEEDS_NODE)
        }
        Err(e) => fail(&format!("{what}: {e}")),
    }
}

fn is_node_tool(program: &OsStr) -> bool {
    ["node", "npm", "npm.cmd"].iter().any(|tool| program == *tool)
}

fn fail(message: &str) -> ! {
    eprintln!("error: {message}");
    std::process::exit(1);
}

/// Writes `OUT_DIR/www_assets.rs`: one `WebFile` per built file, sorted by path, with a gzip
/// copy (under `OUT_DIR/www-gzip/`) of those that compress.
fn write_table(site: &Path, out: &Path) {
    let mut files = Vec::new();
    collect(site, &mut files).unwrap_or_else(|e| fail(&format!("reading {}: {e}", site.display())));
    let mut entries: Vec<(String, PathBuf)> = files
        .into_iter()
        .map(|file| {
            let relative = file.strip_prefix(site).expect("collected under the site");
            let parts: Vec<_> = relative.iter().map(|part| part.to_string_lossy()).collect();
            (parts.join("/"), file)
        })
        .collect();
    entries.sort();

    let gzip_dir = out.join("www-gzip");
    let _ = fs::remove_dir_all(&gzip_dir);
    let mut table = String::from("// Generated by host-native/build.rs from the built www/.\n[\n");
    for (path, file) in entries {
        let extension = path.rsplit_once('.').map_or("", |(_, extension)| extension);
        let (content_type, compressible) = content_type(extension);
        let gzip = if compressible {
            let bytes = fs::read(&file).unwrap_or_else(|e| fail(&format!("reading {}: {e}", file.display())));
            let compressed = gzip(&bytes);
            (compressed.len() < bytes.len()).then(|| {
                let target = gzip_dir.join(format!("{path}.gz"));
                fs::create_dir_all(target.parent().expect("a file's directory"))
                    .and_then(|()| fs::write(&target, compressed))
                    .unwrap_or_else(|e| fail(&format!("writing {}: {e}", target.display())));
                target
            })
        } else {
            None
        };
        let gzip =
            gzip.map_or_else(|| "None".to_owned(), |gz| format!("Some(include_bytes!({:?}))", utf8(&gz)));
        let _ = writeln!(
            table,
            "    WebFile {{ path: {path:?}, content_type: {content_type:?}, plain: include_bytes!({:?}), gzip: {gzip} }},",
            utf8(&file)
        );
    }
    table.push_str("]\n");
    let target = out.join("www_assets.rs");
    fs::write(&target, table).unwrap_or_else(|e| fail(&format!("writing {}: {e}", target.display())));
}

fn collect(dir: &Path, files: &mut Vec<PathBuf>) -> io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        if entry.file_type()?.is_dir() {
            collect(&entry.path(), files)?;
        } else {
            files.push(entry.path());
        }
    }
    Ok(())
}

fn utf8(path: &Path) -> &str {
    path.to_str()
        .unwrap_or_else(|| fail(&format!("the build directory's path is not UTF-8: {}", path.display())))
}

/// A file's `Content-Type` by its extension, and whether gzip makes it smaller.
fn content_type(extension: &str) -> (&'static str, bool) {
    match extension {
        "html" => ("text/html; charset=utf-8", true),
        "js" | "mjs" => ("text/javascript", true),
        "css" => ("text/css", true),
        "wasm" => ("application/wasm", true),
        "svg" => ("image/svg+xml", true),
        "json" => ("application/json", true),
        "webmanifest" => ("application/manifest+json", true),
        "txt" => ("text/plain; charset=utf-8", true),
        "png" => ("image/png", false),
        "ico" => ("image/x-icon", false),
        "woff2" => ("font/woff2", false),
        _ => ("application/octet-stream", false),
    }
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(bytes).and_then(|()| encoder.finish()).expect("writing to memory")
}
