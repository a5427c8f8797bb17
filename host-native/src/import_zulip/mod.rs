//! `confab import-zulip EXPORT.tar.gz`: an organization from the export Zulip's
//! `manage.py export` writes (`zerver/lib/export.py`; Zulip's own reader is
//! `zerver/lib/import_realm.py`), into a stopped server's data directory.
//!
//! The steps, each shown on standard error:
//! 1. `archive`: the tarball's JSON files and the names of the others.
//! 2. `export`: everything parsed and checked (the Zulip version, every reference, every file
//!    named); a problem refuses the import before anything is written.
//! 3. The subdomain must be free; then the files (uploads, avatars, custom emoji) are kept
//!    under new names, before any record names them, as uploads are.
//! 4. `plan`: the rows as `Change`s with new ids, applied by the writer's own code in
//!    transactions of a thousand changes. The organization is written deactivated and
//!    activated by the last commit, so an import stopped half-way (a full disk, a kill) leaves
//!    no organization anyone can use, and says so.

mod archive;
mod export;
mod files;
mod format;
mod plan;
mod rewrite;
mod settings;

use std::collections::HashSet;
use std::path::PathBuf;

use confab_core::ids::{IdKind, RealmId};
use confab_core::store::{Change, Store as _};
use confab_core::{ApiError, Outcome};

use crate::secrets;
use crate::uploads::FileStore;
use crate::writer::run_now;

/// `confab import-zulip`'s arguments.
#[derive(clap::Args, Debug)]
pub struct ImportArgs {
    /// The `.tar.gz` Zulip's `manage.py export` wrote.
    pub export: PathBuf,
    /// The data directory to import into; its server must be stopped.
    #[arg(long, default_value = "./confab-data")]
    pub data_dir: PathBuf,
    /// The new organization's subdomain (empty for the root); by default the exported one's.
    #[arg(long)]
    pub subdomain: Option<String>,
}

/// Changes per transaction.
const BATCH: usize = 1000;

pub fn import_zulip(args: ImportArgs) -> Result<(), String> {
    let refused = |e: String| format!("cannot import {}: {e}", args.export.display());
    progress(&format!("reading {}", args.export.display()));
    let mut contents = archive::Contents::read(&args.export).map_err(refused)?;
    let export = export::Export::read(&contents).map_err(refused)?;
    contents.forget_json();
    let exported = &export.realm.zerver_realm[0];
    let subdomain = args.subdomain.clone().unwrap_or_else(|| exported.string_id.clone());
    progress(&format!(
        "the export of '{}' (Zulip {}) is complete: {} users, {} messages",
        exported.name,
        export.zulip_version,
        export.user_rows().count(),
        export.message_rows().count()
    ));

    let advice = || "Stop the server and run this again; organizations are imported offline.".to_owned();
    check_subdomain_read_only(&args.data_dir, &subdomain, advice).map_err(refused)?;
    let location = crate::offline::Location { data_dir: &args.data_dir, database: None };
    let store = crate::offline::open(&location, advice)?;
    let realm_id = store
        .read(|tables| {
            confab_core::subdomains::check_subdomain_available(tables, &subdomain)?;
            Ok(RealmId(tables.next_id(IdKind::Realm)?))
        })
        .map_err(|e| refused(taken(&subdomain, e)))?;

    let files = FileStore::new(&args.data_dir);
    let kept = files::keep_files(&contents, &export, &files, realm_id)?;
    let new_secret = |id: u64| secrets::new_api_key().map(|key| (id, key)).map_err(|e| e.to_string());
    let secrets = plan::Secrets {
        api_keys: export.user_rows().map(|u| new_secret(u.id)).collect::<Result<_, _>>()?,
        service_tokens: export
            .realm
            .zerver_service
            .iter()
            .map(|s| new_secret(s.user_profile))
            .collect::<Result<_, _>>()?,
    };
    let plan = store
        .read(|tables| plan::plan(tables, &export, &subdomain, &kept, &secrets))
        .map_err(|e| refused(taken(&subdomain, e)))?;

    let (name, counts) = write(&store, plan, &subdomain)?;
    summary(&name, realm_id, &subdomain, &counts, &args.data_dir);
    Ok(())
}

/// Applies the plan's phases in transactions of [`BATCH`] changes, then activates the
/// organization; returns its name and what was imported.
fn write(
    store: &crate::store::Store,
    plan: plan::Plan,
    subdomain: &str,
) -> Result<(String, plan::Counts), String> {
    let stopped = |e: ApiError| {
        format!(
            "the import stopped part-way: {}\nThe organization '{subdomain}' is left deactivated. \
             Restore the data directory from a backup made before the import, then import again.",
            e.msg
        )
    };
    let unrendered = std::sync::Arc::new(plan.unrendered);
    for phase in plan.phases {
        let total = phase.changes.len();
        let mut done = 0;
        let mut changes = phase.changes.into_iter().peekable();
        while changes.peek().is_some() {
            let mut batch: Vec<Change> = changes.by_ref().take(BATCH).collect();
            done += batch.len();
            let (realm, unrendered) = (plan.realm.clone(), unrendered.clone());
            run_now(
                store,
                Box::new(move |tables| {
                    render_missing(tables, &realm, &unrendered, &mut batch)?;
                    Ok(Outcome { changes: batch, ..Outcome::default() })
                }),
            )
            .map_err(stopped)?;
            progress(&format!("{} {done}/{total}", phase.name));
        }
    }
    let realm = plan.realm;
    let name = realm.name.clone();
    run_now(
        store,
        Box::new(move |_| Ok(Outcome { changes: vec![Change::PutRealm(realm)], ..Outcome::default() })),
    )
    .map_err(stopped)?;
    Ok((name, plan.counts))
}

/// The counts on standard output, and what users do next.
fn summary(name: &str, realm_id: RealmId, subdomain: &str, c: &plan::Counts, data_dir: &std::path::Path) {
    let place = if subdomain.is_empty() { "the root".to_owned() } else { format!("subdomain '{subdomain}'") };
    println!("Imported '{name}' (id {}) at {place}:", realm_id.0);
    for (count, what) in [
        (1, "organization"),
        (c.users, "users"),
        (c.channels, "channels"),
        (c.subscriptions, "subscriptions"),
        (c.messages, "messages"),
        (c.reactions, "reactions"),
        (c.user_groups, "user groups"),
        (c.custom_emoji, "custom emoji"),
        (c.uploads, "uploads"),
        (c.avatars, "avatars"),
    ] {
        println!("  {count:>8} {what}");
    }
    println!(
        "Users have new API keys; they log in with their password where the export had an argon2 \
         hash of it, and otherwise set a new one."
    );
    if c.passwords_dropped > 0 {
        println!(
            "{} passwords were hashed with a scheme other than argon2 and were not kept.",
            c.passwords_dropped
        );
    }
    println!(
        "`confab zuliprc --data-dir {} --subdomain '{subdomain}' --email EMAIL` prints a user's API key.",
        data_dir.display()
    );
}

/// Renders the messages the export left unrendered, with Confab's Markdown as their senders
/// would have it, now that the organization they mention is stored. Content the renderer
/// refuses keeps its plain paragraph, as Zulip's import keeps going past such a message.
fn render_missing(
    tables: &impl confab_core::store::Store,
    realm: &confab_core::model::Realm,
    unrendered: &HashSet<confab_core::ids::MessageId>,
    batch: &mut [Change],
) -> confab_core::ApiResult<()> {
    for change in batch {
        let Change::InsertMessage { message, .. } = change else { continue };
        if !unrendered.contains(&message.id) {
            continue;
        }
        let sender = tables.user(message.sender_id)?.ok_or_else(|| ApiError::internal("sender missing"))?;
        let actor = confab_core::Actor {
            user: sender.clone(),
            realm: realm.clone(),
            client: message.client.clone(),
            // The server's address is not known here: links to it stay absolute.
            realm_url: "http://confab.invalid".to_owned(),
        };
        match confab_core::api::messages::render_message(tables, &actor, &sender, &message.content) {
            Ok(rendering) => {
                message.rendered_content = confab_core::model::StoredHtml::new(&rendering.html);
                message.has_link |= rendering.has_link;
                message.has_image |= rendering.has_image;
                message.has_attachment |= rendering.has_attachment;
            }
            Err(e) => progress(&format!("message {} keeps its text unrendered: {}", message.id.0, e.msg)),
        }
    }
    Ok(())
}

/// Refuses a taken subdomain having opened the database only to read it: opening it to write
/// brings its layout up to date, which changes the file, and a refused import is to leave the
/// data directory as it was. (The writing phase checks again, after any write-ahead log this
/// read does not replay.)
fn check_subdomain_read_only(
    data_dir: &std::path::Path,
    subdomain: &str,
    advice: impl FnOnce() -> String,
) -> Result<(), String> {
    if !data_dir.join(crate::store::DB_FILE).is_file() {
        return Ok(());
    }
    let store = match crate::store::ReadOnlyStore::open(data_dir) {
        Ok(store) => store,
        Err(crate::store::OpenError::InUse) => {
            return Err(format!(
                "a Confab server is running on {}, and only one process may open its database.\n{}",
                data_dir.display(),
                advice()
            ));
        }
        // A file to repair or migrate: the writing open does that, then checks.
        Err(_) => return Ok(()),
    };
    let tables = store.snapshot()?;
    confab_core::subdomains::check_subdomain_available(&tables, subdomain).map_err(|e| taken(subdomain, e))
}

/// Says that the subdomain is taken in words an operator can act on.
fn taken(subdomain: &str, e: ApiError) -> String {
    if subdomain.is_empty() {
        format!("{} (an organization already lives at the root; choose one with --subdomain)", e.msg)
    } else {
        format!("the subdomain '{subdomain}' cannot be used: {} (choose another with --subdomain)", e.msg)
    }
}

fn progress(line: &str) {
    eprintln!("import-zulip: {line}");
}
