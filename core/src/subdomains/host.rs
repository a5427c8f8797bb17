//! The server's external host, and what a request's `Host` header says about organizations.
//!
//! The rule is Zulip's `get_subdomain`: with `HOST` the external host, a `Host` of `HOST` is
//! the root (the organization whose subdomain is empty) and `SUB.HOST` is organization `SUB`.
//! Hosts compare case-insensitively. When `HOST` names no port, any port in the header is
//! ignored (a client may leave out a default port, and a proxy may add one); when it names
//! one, the header must carry the same port. `www.HOST` is the root too (Zulip's default
//! `ROOT_SUBDOMAIN_ALIASES`; `www` is reserved, so no organization can take it).
//!
//! Where Zulip's rule sends every other host to the root (Django's `ALLOWED_HOSTS` refuses
//! them before that), here a host that is neither `HOST` nor under it names no organization,
//! and answers as a subdomain without one does.

/// Subdomains that mean the root, as in Zulip's default settings.
pub const ROOT_SUBDOMAIN_ALIASES: &[&str] = &["www"];

/// Where clients reach the server: the scheme and the external host (`--external-host`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Site {
    scheme: &'static str,
    /// Lower-cased, as it is compared; may end in `:port`.
    host: String,
    has_port: bool,
}

impl Site {
    /// The site for an external host such as `chat.example.com` or `127.0.0.1:9991`, reached
    /// over `scheme` (`http` or `https`). Refuses anything that is not a bare host and port.
    pub fn new(scheme: &str, external_host: &str) -> Result<Site, String> {
        let scheme = match scheme.to_ascii_lowercase().as_str() {
            "http" => "http",
            "https" => "https",
            other => return Err(format!("unknown scheme '{other}' (http or https)")),
        };
        let host = external_host.trim().to_ascii_lowercase();
        if host.is_empty() {
            return Err("the external host is empty".to_owned());
        }
        if host.contains("://") {
            return Err(format!("'{external_host}' has a scheme; give the host alone (example.com:9991)"));
        }
        if host.chars().any(|c| c.is_whitespace() || matches!(c, '/' | '?' | '#' | '@' | '\\')) {
            return Err(format!("'{external_host}' is not a host name (example.com:9991)"));
        }
        let (name, port) = split_port(&host);
        if name.is_empty() || (host.contains(':') && !name.starts_with('[') && port.is_none()) {
            return Err(format!("'{external_host}' is not a host name with an optional port"));
        }
        let has_port = port.is_some();
        Ok(Site { scheme, host, has_port })
    }

    /// The external host, lower-cased.
    pub fn host(&self) -> &str {
        &self.host
    }

    /// The URL of the root: `scheme://HOST`.
    pub fn root_url(&self) -> String {
        format!("{}://{}", self.scheme, self.host)
    }

    /// An organization's URL (Zulip's `Realm.url`): the root's for the empty subdomain,
    /// `scheme://SUB.HOST` otherwise.
    pub fn realm_url(&self, subdomain: &str) -> String {
        if subdomain.is_empty() {
            self.root_url()
        } else {
            format!("{}://{subdomain}.{}", self.scheme, self.host)
        }
    }

    /// The subdomain a request's `Host` header names: `Some("")` for the root, `Some(sub)` for
    /// `sub.HOST`, `None` for a host that is neither. A request without a `Host` (HTTP/1.0)
    /// belongs to the root, as it did before there were several organizations.
    pub fn subdomain_of(&self, host_header: Option<&str>) -> Option<String> {
        let Some(header) = host_header else { return Some(String::new()) };
        let header = header.trim().to_ascii_lowercase();
        let header = if self.has_port { header.as_str() } else { split_port(&header).0 };
        if header == self.host {
            return Some(String::new());
        }
        let subdomain = header.strip_suffix(self.host.as_str())?.strip_suffix('.')?;
        if subdomain.is_empty() {
            return None;
        }
        if ROOT_SUBDOMAIN_ALIASES.contains(&subdomain) {
            return Some(String::new());
        }
        Some(subdomain.to_owned())
    }
}

/// Splits `host[:port]` (with IPv6 literals in brackets); the port only when it is all digits.
fn split_port(host: &str) -> (&str, Option<&str>) {
    let name_end = if host.starts_with('[') { host.find(']').map_or(host.len(), |i| i + 1) } else { 0 };
    match host[name_end..].rfind(':').map(|i| i + name_end) {
        Some(colon) => {
            let port = &host[colon + 1..];
            if !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()) {
                (&host[..colon], Some(port))
            } else {
                (host, None)
            }
        }
        None => (host, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(host: &str) -> Site {
        Site::new("http", host).expect("a valid host")
    }

    #[test]
    fn the_external_host_is_the_root_and_its_subdomains_are_organizations() {
        let site = site("chat.example.com");
        let cases: &[(Option<&str>, Option<&str>)] = &[
            (Some("chat.example.com"), Some("")),
            (Some("CHAT.Example.COM"), Some("")),
            (Some("chat.example.com:8080"), Some("")),
            (Some("www.chat.example.com"), Some("")),
            (Some("lear.chat.example.com"), Some("lear")),
            (Some("Lear.Chat.Example.Com:443"), Some("lear")),
            (Some("a.b.chat.example.com"), Some("a.b")),
            (Some(".chat.example.com"), None),
            (Some("chat.example.com.evil.org"), None),
            (Some("xchat.example.com"), None),
            (Some("example.com"), None),
            (Some("127.0.0.1:9991"), None),
            (None, Some("")),
        ];
        for (header, expected) in cases {
            assert_eq!(site.subdomain_of(*header).as_deref(), *expected, "Host: {header:?}");
        }
    }

    #[test]
    fn a_port_in_the_external_host_must_be_matched() {
        let site = site("confab.test:9991");
        assert_eq!(site.subdomain_of(Some("confab.test:9991")).as_deref(), Some(""));
        assert_eq!(site.subdomain_of(Some("lear.confab.test:9991")).as_deref(), Some("lear"));
        assert_eq!(site.subdomain_of(Some("confab.test")), None);
        assert_eq!(site.subdomain_of(Some("lear.confab.test:9992")), None);
    }

    #[test]
    fn urls_put_the_subdomain_in_front_of_the_host() {
        let site = Site::new("https", "Chat.Example.com").expect("valid");
        assert_eq!(site.root_url(), "https://chat.example.com");
        assert_eq!(site.realm_url(""), "https://chat.example.com");
        assert_eq!(site.realm_url("lear"), "https://lear.chat.example.com");
        assert_eq!(self::site("127.0.0.1:9991").realm_url(""), "http://127.0.0.1:9991");
        assert_eq!(self::site("[::1]:9991").subdomain_of(Some("[::1]:9991")).as_deref(), Some(""));
    }

    #[test]
    fn external_hosts_are_bare_hosts() {
        for bad in
            ["", " ", "http://chat.example.com", "chat.example.com/zulip", "a b", "host:port", "user@host"]
        {
            assert!(Site::new("http", bad).is_err(), "{bad:?} was accepted");
        }
        assert!(Site::new("ftp", "chat.example.com").is_err());
        assert!(Site::new("HTTPS", "chat.example.com").is_ok());
    }
}
