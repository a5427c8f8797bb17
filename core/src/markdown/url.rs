//! URL handling for links: Zulip's `sanitize_url` (only safe schemes; no scheme means `http://`
//! or `mailto:`), built on Python's `urlsplit`/`urlunsplit` semantics, and the rewriting of links
//! to the organization itself into relative ones.

/// Schemes a link may use: Zulip's list (http, https, ftp, file and the HTML standard's
/// safelisted schemes). Anything else (`javascript:`, `data:`, ...) is not linked.
const ALLOWED_SCHEMES: &[&str] = &[
    "http",
    "https",
    "ftp",
    "file",
    "bitcoin",
    "geo",
    "im",
    "irc",
    "ircs",
    "magnet",
    "mailto",
    "matrix",
    "mms",
    "news",
    "nntp",
    "openpgp4fpr",
    "sip",
    "sms",
    "smsto",
    "ssh",
    "tel",
    "urn",
    "webcal",
    "wtai",
    "xmpp",
];

/// Schemes Python's `urlunsplit` writes with `//` even without a host.
const USES_NETLOC: &[&str] = &[
    "",
    "ftp",
    "http",
    "gopher",
    "nntp",
    "telnet",
    "imap",
    "wais",
    "file",
    "mms",
    "https",
    "shttp",
    "snews",
    "prospero",
    "rtsp",
    "rtsps",
    "rtspu",
    "rsync",
    "svn",
    "svn+ssh",
    "sftp",
    "nfs",
    "git",
    "git+ssh",
    "ws",
    "wss",
    "itms-services",
];

/// The five parts of a URL, as Python's `urlsplit` returns them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct SplitUrl {
    pub(crate) scheme: String,
    pub(crate) netloc: String,
    pub(crate) path: String,
    pub(crate) query: String,
    pub(crate) fragment: String,
}

/// Python's `urllib.parse.urlsplit`. Fails, as Python does, on unbalanced IPv6 brackets.
pub(crate) fn urlsplit(url: &str) -> Result<SplitUrl, ()> {
    let url: String = url
        .trim_start_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\r' | '\n'))
        .collect();
    let mut parts = SplitUrl::default();
    let mut rest = url.as_str();
    if let Some(colon) = rest.find(':') {
        let candidate = &rest[..colon];
        let valid = candidate.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && candidate.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
        if valid {
            parts.scheme = candidate.to_ascii_lowercase();
            rest = &rest[colon + 1..];
        }
    }
    if let Some(after) = rest.strip_prefix("//") {
        let end = after.find(['/', '?', '#']).unwrap_or(after.len());
        parts.netloc = after[..end].to_owned();
        rest = &after[end..];
        if parts.netloc.contains('[') != parts.netloc.contains(']') {
            return Err(());
        }
    }
    if let Some((before, fragment)) = rest.split_once('#') {
        parts.fragment = fragment.to_owned();
        rest = before;
    }
    if let Some((before, query)) = rest.split_once('?') {
        parts.query = query.to_owned();
        rest = before;
    }
    parts.path = rest.to_owned();
    Ok(parts)
}

/// Python's `urllib.parse.urlunsplit`.
pub(crate) fn urlunsplit(parts: &SplitUrl) -> String {
    let mut url = parts.path.clone();
    if !parts.netloc.is_empty() {
        if !url.is_empty() && !url.starts_with('/') {
            url.insert(0, '/');
        }
        url = format!("//{}{url}", parts.netloc);
    } else if url.starts_with("//")
        || (!parts.scheme.is_empty()
            && USES_NETLOC.contains(&parts.scheme.as_str())
            && (url.is_empty() || url.starts_with('/')))
    {
        url = format!("//{url}");
    }
    if !parts.scheme.is_empty() {
        url = format!("{}:{url}", parts.scheme);
    }
    if !parts.query.is_empty() {
        url.push('?');
        url.push_str(&parts.query);
    }
    if !parts.fragment.is_empty() {
        url.push('#');
        url.push_str(&parts.fragment);
    }
    url
}

/// Zulip's `sanitize_url`: `None` when the link must not be made (unsafe scheme), an empty
/// string when the URL cannot be parsed at all.
pub(crate) fn sanitize_url(url: &str) -> Option<String> {
    sanitize(url, 0)
}

fn sanitize(url: &str, depth: u8) -> Option<String> {
    let Ok(mut parts) = urlsplit(&url.replace(' ', "%20")) else { return Some(String::new()) };
    if parts.scheme.is_empty() && parts.netloc.is_empty() && parts.path.contains('@') {
        parts.scheme = "mailto".to_owned();
    } else if parts.scheme.is_empty() && parts.netloc.is_empty() && parts.path.starts_with('/') {
        return Some(urlunsplit(&parts));
    } else if parts.scheme.is_empty()
        && parts.netloc.is_empty()
        && parts.path.is_empty()
        && parts.query.is_empty()
        && !parts.fragment.is_empty()
    {
        return Some(urlunsplit(&SplitUrl { fragment: parts.fragment, ..SplitUrl::default() }));
    }
    if parts.scheme.is_empty() {
        // Assume http://; once only (the prefixed URL always has a scheme).
        return if depth == 0 { sanitize(&format!("http://{url}"), 1) } else { None };
    }
    if !ALLOWED_SCHEMES.contains(&parts.scheme.as_str()) {
        return None;
    }
    Some(urlunsplit(&parts))
}

/// Links to the organization's own views (`#...`) and uploads become relative, so they open in
/// the current window (Zulip's `rewrite_local_links_to_relative`).
pub(crate) fn rewrite_local_links(realm_url: &str, link: String) -> String {
    if realm_url.is_empty() {
        return link;
    }
    let prefix = format!("{realm_url}/");
    match link.strip_prefix(&prefix) {
        Some(rest) if rest.starts_with('#') || rest.starts_with("user_uploads/") => rest.to_owned(),
        _ => link,
    }
}

/// The host (with port) of the organization's URL, as Zulip's `realm.host`.
pub(crate) fn realm_host(realm_url: &str) -> String {
    urlsplit(realm_url).map(|p| p.netloc).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sanitizing_follows_zulip() {
        let s = |u: &str| sanitize_url(u);
        assert_eq!(s("https://example.com/a b"), Some("https://example.com/a%20b".into()));
        assert_eq!(s("example.com"), Some("http://example.com".into()));
        assert_eq!(s("a@b.com"), Some("mailto:a@b.com".into()));
        assert_eq!(s("/user_uploads/1/x.png"), Some("/user_uploads/1/x.png".into()));
        assert_eq!(s("#narrow/channel/1-a"), Some("#narrow/channel/1-a".into()));
        assert_eq!(s("javascript:alert(1)"), None);
        assert_eq!(s("JavaScript://x.com"), None);
        assert_eq!(s("data:text/html,x"), None);
        assert_eq!(s("tel:+14155551234"), Some("tel:+14155551234".into()));
        assert_eq!(s("HTTP://X.com/?"), Some("http://X.com/".into()));
        assert_eq!(s("http://[::1"), Some(String::new()));
    }

    #[test]
    fn local_links_become_relative() {
        let realm = "http://zulip.example";
        assert_eq!(rewrite_local_links(realm, "http://zulip.example/#narrow/x".into()), "#narrow/x");
        assert_eq!(
            rewrite_local_links(realm, "http://zulip.example/user_uploads/1/a.txt".into()),
            "user_uploads/1/a.txt"
        );
        assert_eq!(rewrite_local_links(realm, "http://zulip.example/x:y".into()), "http://zulip.example/x:y");
        assert_eq!(realm_host("http://127.0.0.1:9991"), "127.0.0.1:9991");
    }
}
