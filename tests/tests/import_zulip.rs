//! `confab import-zulip`: an organization exported in Zulip's format (written by
//! `tests/python/zulip_export.py`) is imported into a data directory, served, and read back
//! with the Python `zulip` client (`tests/python/imported_organization.py`); `confab verify`
//! finds every index and reference of the import in order. A broken export,
//! one from an unsupported Zulip version, and a second import of the same organization are
//! refused with a clear message, having written nothing.

use std::path::Path;
use std::process::{Command, Output};

use confab_tests::TestServer;
use confab_tests::python::run_script;

const BINARY: &str = env!("CARGO_BIN_EXE_confab-under-test");

fn confab(args: &[&std::ffi::OsStr]) -> Output {
    let output = Command::new(BINARY).args(args).output().expect("the confab binary runs");
    eprintln!("--- confab stderr ---\n{}", text(&output.stderr));
    output
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Writes the fixture, broken in the named way or whole.
fn export(dir: &Path, breaking: Option<&str>) -> std::path::PathBuf {
    let path = dir.join(format!("{}.tar.gz", breaking.unwrap_or("export")));
    let mut args = vec![path.to_str().expect("a UTF-8 path")];
    args.extend(breaking);
    let output = run_script("zulip_export.py", &args);
    assert!(output.status.success(), "the fixture is written");
    path
}

/// Imports into `data_dir` at the root.
fn import(export: &Path, data_dir: &Path) -> Output {
    confab(&[
        "import-zulip".as_ref(),
        export.as_os_str(),
        "--data-dir".as_ref(),
        data_dir.as_os_str(),
        "--subdomain".as_ref(),
        "".as_ref(),
    ])
}

/// Every file under a directory with its size: what "unchanged" is compared by.
fn listing(dir: &Path) -> Vec<(String, u64)> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_owned()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).expect("a readable directory") {
            let entry = entry.expect("an entry");
            let meta = entry.metadata().expect("its metadata");
            if meta.is_dir() {
                pending.push(entry.path());
            } else {
                files.push((entry.path().display().to_string(), meta.len()));
            }
        }
    }
    files.sort();
    files
}

#[test]
fn an_imported_organization_reads_back_through_the_python_client() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let data_dir = dir.path().join("data");
    let fixture = export(dir.path(), None);

    let imported = import(&fixture, &data_dir);
    assert!(imported.status.success(), "the import succeeds: {}", text(&imported.stderr));
    let summary = text(&imported.stdout);
    for line in [
        "1 organization",
        "4 users",
        "2 channels",
        "5 subscriptions",
        "5 messages",
        "2 reactions",
        "1 user groups",
        "1 custom emoji",
        "2 uploads",
        "1 avatars",
    ] {
        assert!(summary.contains(line), "the summary counts {line}: {summary}");
    }
    let progress = text(&imported.stderr);
    assert!(progress.contains("messages 5/5"), "progress is shown per phase: {progress}");
    let verified = confab(&["verify".as_ref(), data_dir.as_os_str()]);
    assert!(
        verified.status.success(),
        "every record, index, reference and file of the import checks out: {}",
        text(&verified.stdout)
    );

    // Bob's export had no password: his new API key is what `confab zuliprc` gives.
    let bob_rc = dir.path().join("bob.zuliprc");
    let rc = confab(&[
        "zuliprc".as_ref(),
        "--data-dir".as_ref(),
        data_dir.as_os_str(),
        "--email".as_ref(),
        "bob@acme.example".as_ref(),
        "--subdomain".as_ref(),
        "".as_ref(),
        "--output".as_ref(),
        bob_rc.as_os_str(),
    ]);
    assert!(rc.status.success(), "Bob's zuliprc is written");

    let mut server = TestServer::spawn(Path::new(BINARY), &data_dir, "127.0.0.1:0", &[]);
    assert!(server.owner.is_none(), "the server makes no organization of its own beside the imported one");
    let output =
        run_script("imported_organization.py", &[&server.base_url, bob_rc.to_str().expect("a UTF-8 path")]);
    assert!(output.status.success(), "every check passes: {}", text(&output.stdout));

    let beside = import(&fixture, &data_dir);
    assert!(
        text(&beside.stderr).contains("a Confab server is running on"),
        "an import beside a running server is refused: {}",
        text(&beside.stderr)
    );

    server.terminate();
    let before = listing(&data_dir);
    let again = import(&fixture, &data_dir);
    assert!(!again.status.success(), "a second import of the same subdomain is refused");
    assert!(
        text(&again.stderr)
            .contains("an organization already lives at the root; choose one with --subdomain"),
        "{}",
        text(&again.stderr)
    );
    assert_eq!(listing(&data_dir), before, "the refused import wrote no file");
}

#[test]
fn a_broken_or_unsupported_export_is_refused_before_anything_is_written() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for (breaking, message) in [
        (
            "missing-file",
            "the export is broken (1 problem):\n  the file uploads/2/ab/cdEfGhIjKlMnOpQrStUvWx/spec.txt is missing",
        ),
        ("bad-json", "realm.json is not what Zulip writes: EOF while parsing"),
        (
            "old-version",
            "the export was made by Zulip 8.4, and this import reads exports of Zulip 10 to 11: upgrade the \
             Zulip server to one of those and export again",
        ),
        ("dangling-reaction", "a reaction names user 11 and message 999, not both in the export"),
    ] {
        let broken = export(dir.path(), Some(breaking));
        let data_dir = dir.path().join(format!("data-{breaking}"));
        let refused = import(&broken, &data_dir);
        assert!(!refused.status.success(), "{breaking} is refused");
        let stderr = text(&refused.stderr);
        assert!(stderr.contains(&format!("confab: cannot import {}: ", broken.display())), "{stderr}");
        assert!(stderr.contains(message), "{breaking}: {stderr}");
        assert!(!data_dir.exists(), "{breaking}: the data directory was not even created");
    }
    let not_a_tarball = dir.path().join("notes.tar.gz");
    std::fs::write(&not_a_tarball, "just some text").expect("a file");
    let refused = import(&not_a_tarball, &dir.path().join("data-text"));
    assert!(text(&refused.stderr).contains("is not a gzipped tar file"), "{}", text(&refused.stderr));
}

#[test]
fn the_exported_subdomain_is_kept_unless_another_is_named() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let data_dir = dir.path().join("data");
    let fixture = export(dir.path(), None);
    let import_as = |subdomain: Option<&str>| {
        let mut args: Vec<&std::ffi::OsStr> =
            vec!["import-zulip".as_ref(), fixture.as_os_str(), "--data-dir".as_ref(), data_dir.as_os_str()];
        if let Some(subdomain) = subdomain {
            args.push("--subdomain".as_ref());
            args.push(subdomain.as_ref());
        }
        confab(&args)
    };
    let first = import_as(None);
    assert!(first.status.success(), "{}", text(&first.stderr));
    assert!(
        text(&first.stdout).starts_with("Imported 'Acme Corp' (id 1) at subdomain 'anvils':"),
        "{}",
        text(&first.stdout)
    );
    // A second copy beside the first: every id is allocated after the first copy's.
    let second = import_as(Some("forge"));
    assert!(second.status.success(), "{}", text(&second.stderr));
    assert!(
        text(&second.stdout).starts_with("Imported 'Acme Corp' (id 2) at subdomain 'forge':"),
        "{}",
        text(&second.stdout)
    );
    let taken = import_as(None);
    assert!(
        text(&taken.stderr).contains(
            "the subdomain 'anvils' cannot be used: Subdomain already in use. Please choose a different one. \
             (choose another with --subdomain)"
        ),
        "{}",
        text(&taken.stderr)
    );
    let verified = confab(&["verify".as_ref(), data_dir.as_os_str()]);
    assert!(verified.status.success(), "both copies check out: {}", text(&verified.stdout));
}
