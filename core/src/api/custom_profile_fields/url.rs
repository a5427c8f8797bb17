//! Whether text is a URL as Django's `URLValidator` (which Zulip's `check_url` uses) decides:
//! scheme http, https, ftp or ftps; optional `user:password@`; a host that is an IPv4 address,
//! a bracketed IPv6 address, `localhost` or a domain name whose last label is alphabetic (or
//! punycode); an optional port; then anything without whitespace.

use core::net::{Ipv4Addr, Ipv6Addr};

/// Django's `URLValidator.max_length`.
const MAX_URL_LENGTH: usize = 2048;

const SCHEMES: [&str; 4] = ["http", "https", "ftp", "ftps"];

pub fn is_url(text: &str) -> bool {
    if text.chars().count() > MAX_URL_LENGTH || text.contains(['\t', '\r', '\n']) {
        return false;
    }
    let Some((scheme, rest)) = text.split_once("://") else { return false };
    if !SCHEMES.contains(&scheme.to_ascii_lowercase().as_str()) {
        return false;
    }
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, resource) = rest.split_at(end);
    if resource.chars().any(char::is_whitespace) {
        return false;
    }
    let host_port = match authority.split_once('@') {
        Some((userinfo, host_port)) => {
            let (user, password) = userinfo.split_once(':').unwrap_or((userinfo, ""));
            let bad = |c: char| c.is_whitespace() || matches!(c, ':' | '@' | '/');
            if user.is_empty() || user.chars().any(bad) || password.chars().any(bad) {
                return false;
            }
            host_port
        }
        None => authority,
    };
    let (host, port) = split_port(host_port);
    if let Some(port) = port
        && (port.is_empty() || port.len() > 5 || !port.bytes().all(|b| b.is_ascii_digit()))
    {
        return false;
    }
    if port.and_then(|p| p.parse::<u32>().ok()).is_some_and(|p| p > 65535) {
        return false;
    }
    is_host(host)
}

/// Splits `host:port`, leaving the colons of a bracketed IPv6 address alone.
fn split_port(host_port: &str) -> (&str, Option<&str>) {
    let search_from = if host_port.starts_with('[') { host_port.find(']').unwrap_or(0) } else { 0 };
    match host_port[search_from..].rfind(':') {
        Some(at) => (&host_port[..search_from + at], Some(&host_port[search_from + at + 1..])),
        None => (host_port, None),
    }
}

fn is_host(host: &str) -> bool {
    if let Some(inner) = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        return inner.parse::<Ipv6Addr>().is_ok();
    }
    if host.eq_ignore_ascii_case("localhost") {
        return true;
    }
    // Django's IPv4 pattern has no leading zeros; std's parser refuses them too.
    if host.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return host.parse::<Ipv4Addr>().is_ok();
    }
    is_domain(host)
}

/// Letters (any beyond Latin-1 punctuation counts, as Django's `\u00a1-\uffff`) and digits.
fn label_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || ('\u{a1}'..='\u{ffff}').contains(&c)
}

fn is_domain(host: &str) -> bool {
    let host = host.strip_suffix('.').unwrap_or(host);
    let labels: Vec<&str> = host.split('.').collect();
    let Some((tld, names)) = labels.split_last() else { return false };
    if names.is_empty() {
        return false;
    }
    let name_ok = |label: &&str| {
        let n = label.chars().count();
        (1..=63).contains(&n)
            && !label.starts_with('-')
            && !label.ends_with('-')
            && label.chars().all(|c| label_char(c) || c == '-')
    };
    names.iter().all(name_ok) && is_tld(tld)
}

fn is_tld(tld: &str) -> bool {
    let lower = tld.to_lowercase();
    if let Some(code) = lower.strip_prefix("xn--") {
        return (1..=59).contains(&code.len()) && code.bytes().all(|b| b.is_ascii_alphanumeric());
    }
    let n = tld.chars().count();
    (2..=63).contains(&n)
        && !tld.starts_with('-')
        && !tld.ends_with('-')
        && tld.chars().all(|c| c.is_ascii_alphabetic() || c == '-' || ('\u{a1}'..='\u{ffff}').contains(&c))
}

#[cfg(test)]
mod tests {
    use super::is_url;

    #[test]
    fn urls_as_django_decides() {
        for good in [
            "https://zulip.com",
            "http://example.com/path?q=1#frag",
            "ftp://user:pass@files.example.org:21/a",
            "http://localhost:9991",
            "http://127.0.0.1/",
            "http://[::1]:80/",
            "https://bücher.example/",
            "https://xn--bcher-kva.example",
        ] {
            assert!(is_url(good), "{good}");
        }
        for bad in [
            "zulip.com",
            "javascript:alert(1)",
            "mailto:a@b.co",
            "http://example",
            "http://exa mple.com",
            "http://example.com/a b",
            "http://-bad.com",
            "http://example.c0m",
            "http://999.1.1.1",
            "http://example.com:99999",
            "gopher://example.com",
        ] {
            assert!(!is_url(bad), "{bad}");
        }
    }
}
