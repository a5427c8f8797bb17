//! The zuliprc: the file the Zulip clients (the Python client, `zulip-send`, zulip-terminal)
//! read their server's URL and their credentials from. The first start writes the owner's to
//! `DIR/zuliprc`; `confab zuliprc` writes one for any user; and each start puts the right site
//! back into `DIR/zuliprc` when the server now answers elsewhere (`--external-host` changed),
//! since the Python client fails with a bare `AssertionError` against the wrong site.

use std::path::Path;

use confab_core::store::Store as _;
use confab_core::subdomains::Site;
use confab_core::{ApiError, ApiResult};

use crate::bootstrap::write_private_file;
use crate::store::{ReadTables, Store};

/// Its name in the data directory.
pub const FILE_NAME: &str = "zuliprc";

/// What a zuliprc says: the `[api]` section's three keys.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Zuliprc {
    pub email: String,
    pub key: String,
    pub site: String,
}

impl Zuliprc {
    /// The file's text, as the Python client's `configparser` reads it.
    pub fn text(&self) -> String {
        format!("[api]\nemail={}\nkey={}\nsite={}\n", self.email, self.key, self.site)
    }

    /// Writes it, readable by its owner alone (mode 600, as zulip-terminal insists).
    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        write_private_file(path, self.text().as_bytes())
    }

    /// The `[api]` section's email, key and site, if it has all three.
    pub fn parse(text: &str) -> Option<Zuliprc> {
        let (mut email, mut key, mut site) = (None, None, None);
        for (name, value) in api_entries(text) {
            match name.to_ascii_lowercase().as_str() {
                "email" => email = Some(value.to_owned()),
                "key" => key = Some(value.to_owned()),
                "site" => site = Some(value.to_owned()),
                _ => {}
            }
        }
        Some(Zuliprc { email: email?, key: key?, site: site? })
    }
}

/// The `name = value` lines of the `[api]` section (`configparser` takes `=` or `:`).
fn api_entries(text: &str) -> impl Iterator<Item = (&str, &str)> {
    let mut in_api = false;
    text.lines().filter_map(move |line| {
        let line = line.trim();
        if line.starts_with('[') {
            in_api = line == "[api]";
            return None;
        }
        if !in_api || line.starts_with(['#', ';']) {
            return None;
        }
        let split = line.find(['=', ':'])?;
        Some((line[..split].trim(), line[split + 1..].trim()))
    })
}

/// The text with the `[api]` section's site replaced, every other line kept as it was.
fn with_site(text: &str, site: &str) -> String {
    let mut in_api = false;
    let mut out = String::with_capacity(text.len() + site.len());
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            in_api = trimmed == "[api]";
        }
        let is_site = in_api
            && trimmed
                .find(['=', ':'])
                .is_some_and(|split| trimmed[..split].trim().eq_ignore_ascii_case("site"));
        if is_site {
            out.push_str(&format!("site={site}"));
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

/// The URL of the organization whose account these credentials open, if any.
pub fn site_of_account(
    tables: &ReadTables,
    site: &Site,
    email: &str,
    key: &str,
) -> ApiResult<Option<String>> {
    for realm in tables.realms()? {
        let Some(id) = tables.user_by_delivery_email(realm.id, email)? else { continue };
        let Some(credentials) = tables.credentials(id)? else { continue };
        if credentials.api_key == key {
            return Ok(Some(site.realm_url(&realm.subdomain)));
        }
    }
    Ok(None)
}

/// What a start did about the data directory's zuliprc.
#[derive(Debug, PartialEq, Eq)]
pub enum Checked {
    /// None there, or its site is right.
    Fine,
    /// Its site was `from`; it is now `to`.
    SiteChanged { from: String, to: String },
    /// Its credentials open no account here, so which site it should name is unknown.
    NoAccount,
}

/// Puts the right site into `path` when its credentials open an account of another URL than
/// the zuliprc names (the server now answers at another external host, scheme or port).
pub fn refresh_site(path: &Path, store: &Store, site: &Site) -> Result<Checked, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Checked::Fine),
        Err(e) => return Err(e.to_string()),
    };
    let Some(current) = Zuliprc::parse(&text) else { return Ok(Checked::NoAccount) };
    let wanted = store
        .read(|tables| site_of_account(tables, site, &current.email, &current.key))
        .map_err(|e: ApiError| e.msg)?;
    let Some(wanted) = wanted else { return Ok(Checked::NoAccount) };
    if current.site.trim_end_matches('/').eq_ignore_ascii_case(&wanted) {
        return Ok(Checked::Fine);
    }
    write_private_file(path, with_site(&text, &wanted).as_bytes()).map_err(|e| e.to_string())?;
    Ok(Checked::SiteChanged { from: current.site, to: wanted })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_api_section_is_read_as_configparser_reads_it() {
        let text = "[other]\nsite=http://elsewhere\n[api]\n# a comment\nemail = ada@example.com\nkey: abc\nSite=http://chat.example.com/\n";
        let parsed = Zuliprc::parse(text).expect("all three keys");
        assert_eq!(parsed.email, "ada@example.com");
        assert_eq!(parsed.key, "abc");
        assert_eq!(parsed.site, "http://chat.example.com/");
        assert_eq!(Zuliprc::parse("[api]\nemail=a\nkey=b\n"), None);
    }

    #[test]
    fn only_the_api_site_changes() {
        let text =
            "[other]\nsite=http://elsewhere\n[api]\nemail=a@b.c\nsite = http://127.0.0.1:9991\nkey=k\n";
        assert_eq!(
            with_site(text, "https://chat.example.com"),
            "[other]\nsite=http://elsewhere\n[api]\nemail=a@b.c\nsite=https://chat.example.com\nkey=k\n"
        );
    }

    #[test]
    fn what_is_written_reads_back() {
        let rc = Zuliprc { email: "a@b.c".into(), key: "k".into(), site: "http://x".into() };
        assert_eq!(Zuliprc::parse(&rc.text()), Some(rc));
    }
}
