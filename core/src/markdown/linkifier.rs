//! Linkifiers: an organization's patterns (regular expressions with named groups) and RFC 6570
//! URL templates. A match must start the text or follow whitespace or one of `'"(,:<`, and must
//! not be followed by a letter or digit, as in Zulip. Patterns use the `regex` crate's syntax
//! (RE2's family, as Zulip uses RE2); matching takes linear time.

use std::collections::{BTreeSet, HashMap};
use std::sync::{LazyLock, Mutex};

use iri_string::template::UriTemplateStr;
use regex::{Captures, Regex, RegexBuilder};

use super::context::{Linkifier, TopicLink};
use super::inline::find_url;
use super::url::{SplitUrl, urlsplit, urlunsplit};

const BEFORE: &str = "linkifier_before_match";
const ACTUAL: &str = "linkifier_actual_match";
const AFTER: &str = "linkifier_after_match";

/// Bounds on a compiled pattern, so one linkifier cannot take unbounded memory.
const SIZE_LIMIT: usize = 1 << 20;

/// Parses a URL template. Percent signs are checked first: iri-string 0.7 panics on a `%`
/// whose next two bytes split a multi-byte character.
fn parse_template(template: &str) -> Option<&UriTemplateStr> {
    let bytes = template.as_bytes();
    let well_formed = bytes.iter().enumerate().filter(|(_, b)| **b == b'%').all(|(i, _)| {
        bytes.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
            && bytes.get(i + 2).is_some_and(u8::is_ascii_hexdigit)
    });
    if well_formed { UriTemplateStr::new(template).ok() } else { None }
}

fn build(pattern: &str) -> Result<Regex, regex::Error> {
    RegexBuilder::new(pattern).size_limit(SIZE_LIMIT).dfa_size_limit(SIZE_LIMIT).build()
}

/// A linkifier ready to run.
#[derive(Clone, Debug)]
pub(crate) struct CompiledLinkifier {
    pub(crate) regex: Regex,
    template: String,
}

impl CompiledLinkifier {
    /// Compiles a stored linkifier; `None` for one that no longer compiles (skipped, as Zulip
    /// skips it).
    pub(crate) fn new(linkifier: &Linkifier) -> Option<CompiledLinkifier> {
        parse_template(&linkifier.url_template)?;
        let wrapped = format!(
            r#"(?P<{BEFORE}>^|\s|\x{{85}}|\pZ|['"\(,:<])(?P<{ACTUAL}>{})(?P<{AFTER}>$|[^\pL\pN])"#,
            linkifier.pattern
        );
        Some(CompiledLinkifier { regex: build(&wrapped).ok()?, template: linkifier.url_template.clone() })
    }

    /// The template expanded with the match's named groups.
    pub(crate) fn url(&self, captures: &Captures<'_>) -> Option<String> {
        let value = |name: &str| -> Option<&str> { captures.name(name).map(|m| m.as_str()) };
        expand(&self.template, &value)
    }

    /// The text a match links (its byte range).
    pub(crate) fn actual(captures: &Captures<'_>) -> Option<(usize, usize)> {
        captures.name(ACTUAL).map(|m| (m.start(), m.end()))
    }
}

/// Compiled linkifiers by pattern and template. Every message rendered or shown (for its
/// `topic_links`) runs the organization's linkifiers, and compiling a regex costs far more than
/// running it; a `Regex` clone shares the compiled program.
static COMPILED: LazyLock<Mutex<CompiledCache>> = LazyLock::new(|| Mutex::new(HashMap::new()));

/// `(pattern, url_template)` to its compiled form (`None`: it does not compile).
type CompiledCache = HashMap<(String, String), Option<CompiledLinkifier>>;

/// How many linkifiers the cache keeps before it starts over.
const COMPILED_CACHE_SIZE: usize = 512;

pub(crate) fn compile_all(linkifiers: &[Linkifier]) -> Vec<CompiledLinkifier> {
    let mut cache = COMPILED.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if cache.len() > COMPILED_CACHE_SIZE {
        cache.clear();
    }
    linkifiers
        .iter()
        .filter_map(|l| {
            cache
                .entry((l.pattern.clone(), l.url_template.clone()))
                .or_insert_with(|| CompiledLinkifier::new(l))
                .clone()
        })
        .collect()
}

/// RFC 6570 (level 4) expansion of a template that [`parse_template`] accepted, with string
/// values. Written here rather than taken from iri-string, whose expansion (0.7) panics on
/// non-ASCII values in `{+var}` and `{#var}`.
fn expand<'v>(template: &str, value: &dyn Fn(&str) -> Option<&'v str>) -> Option<String> {
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let close = open + rest[open..].find('}')?;
        expand_expression(&rest[open + 1..close], value, &mut out);
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    Some(out)
}

fn expand_expression<'v>(expression: &str, value: &dyn Fn(&str) -> Option<&'v str>, out: &mut String) {
    let (operator, list) = match expression.chars().next() {
        Some(c @ ('+' | '#' | '.' | '/' | ';' | '?' | '&')) => (Some(c), &expression[1..]),
        _ => (None, expression),
    };
    // (first, separator, named, if empty, reserved characters allowed)
    let (first, separator, named, if_empty, reserved) = match operator {
        None => ("", ",", false, "", false),
        Some('+') => ("", ",", false, "", true),
        Some('#') => ("#", ",", false, "", true),
        Some('.') => (".", ".", false, "", false),
        Some('/') => ("/", "/", false, "", false),
        Some(';') => (";", ";", true, "", false),
        Some('?') => ("?", "&", true, "=", false),
        _ => ("&", "&", true, "=", false),
    };
    let mut defined = 0;
    for spec in list.split(',') {
        let (name, limit) = match spec.split_once(':') {
            Some((name, digits)) => (name, digits.parse::<usize>().ok()),
            None => (spec.trim_end_matches('*'), None),
        };
        let Some(text) = value(name) else { continue };
        out.push_str(if defined == 0 { first } else { separator });
        defined += 1;
        if named {
            out.push_str(name);
            if text.is_empty() {
                out.push_str(if_empty);
                continue;
            }
            out.push('=');
        }
        let text = match limit {
            Some(n) => text.char_indices().nth(n).map_or(text, |(i, _)| &text[..i]),
            None => text,
        };
        percent_encode(text, reserved, out);
    }
}

/// Percent-encodes everything but unreserved characters (and, when `reserved`, reserved
/// characters and existing `%XX` triplets).
fn percent_encode(text: &str, reserved: bool, out: &mut String) {
    let bytes = text.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        let keep = b.is_ascii_alphanumeric()
            || matches!(b, b'-' | b'.' | b'_' | b'~')
            || (reserved && b":/?#[]@!$&'()*+,;=".contains(&b))
            || (reserved
                && b == b'%'
                && bytes.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
                && bytes.get(i + 2).is_some_and(u8::is_ascii_hexdigit));
        if keep {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
}

/// Python's `repr` of a string, as Zulip's messages quote group names.
fn python_repr(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') { '"' } else { '\'' };
    let mut out = String::from(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

/// The reason a pattern does not compile, RE2-style (`Bad regular expression: …`).
fn regex_error(error: &regex::Error) -> String {
    let detail = match error {
        regex::Error::CompiledTooBig(_) => "pattern too large - compile failed".to_owned(),
        other => {
            let text = other.to_string();
            text.lines()
                .rev()
                .find_map(|line| line.trim().strip_prefix("error: "))
                .map_or_else(|| text.trim().to_owned(), str::to_owned)
        }
    };
    format!("Bad regular expression: {detail}")
}

/// Validates a linkifier as Zulip does: the URL template must be a valid RFC 6570 template,
/// the pattern must compile, and the template's variables must be exactly the pattern's named
/// groups. The error texts are Zulip's.
/// The variables of an RFC 6570 URL template, or `None` if it is not one.
pub fn template_variables(url_template: &str) -> Option<BTreeSet<String>> {
    Some(parse_template(url_template)?.variables().map(|v| v.as_str().to_owned()).collect())
}

pub fn validate_linkifier(pattern: &str, url_template: &str) -> Result<(), String> {
    let template = parse_template(url_template).ok_or_else(|| "Invalid URL template.".to_owned())?;
    let regex = build(pattern).map_err(|e| regex_error(&e))?;
    let groups: BTreeSet<&str> = regex.capture_names().flatten().collect();
    let variables: BTreeSet<String> = template.variables().map(|v| v.as_str().to_owned()).collect();
    if let Some(missing) = variables.iter().find(|v| !groups.contains(v.as_str())) {
        return Err(format!(
            "Group {} in URL template is not present in linkifier pattern.",
            python_repr(missing)
        ));
    }
    if let Some(missing) = groups.iter().find(|g| !variables.contains(**g)) {
        return Err(format!(
            "Group {} in linkifier pattern is not present in URL template.",
            python_repr(missing)
        ));
    }
    Ok(())
}

struct TopicMatch {
    url: String,
    text: String,
    /// Start of the match, in characters (the character before the linked text included).
    index: usize,
    /// Length of the linked text, in characters.
    len: usize,
}

/// `topic_links`: linkifier matches in a topic (in linkifier order, then by position) and bare
/// URLs (without a scheme they get `https://`), overlapping ones dropped, sorted by position.
pub fn topic_links(topic: &str, linkifiers: &[Linkifier]) -> Vec<TopicLink> {
    let char_index = |byte: usize| topic[..byte].chars().count();
    let mut matches: Vec<TopicMatch> = Vec::new();
    for linkifier in compile_all(linkifiers) {
        let mut pos = 0;
        while pos < topic.len() {
            let Some(captures) = linkifier.regex.captures_at(topic, pos) else { break };
            let (Some(whole), Some((start, end))) = (captures.get(0), CompiledLinkifier::actual(&captures))
            else {
                break;
            };
            let after = captures.name(AFTER).map_or(0, |m| m.len());
            let next = whole.end() - after;
            // Zulip rewinds past the trailing delimiter; never rewind to where we started.
            pos = if next > pos { next } else { pos + topic[pos..].chars().next().map_or(1, char::len_utf8) };
            if let Some(url) = linkifier.url(&captures) {
                let text = &topic[start..end];
                matches.push(TopicMatch {
                    url,
                    text: text.to_owned(),
                    index: char_index(whole.start()),
                    len: text.chars().count(),
                });
            }
        }
    }
    // Raw URLs, looked for between separators.
    let mut pos = 0;
    while pos < topic.len() {
        let end = topic[pos..].find([' ', '!', ';', ')', ',', '\'', '"']).map_or(topic.len(), |i| pos + i);
        let segment = &topic[pos..end];
        if let Some((s, e)) = find_url(segment) {
            let text = &segment[s..e];
            matches.push(TopicMatch {
                url: with_scheme(text),
                text: text.to_owned(),
                index: char_index(pos),
                len: text.chars().count(),
            });
        }
        pos = end + 1;
    }
    let overlaps = |a: &TopicMatch, b: &TopicMatch| {
        (b.index <= a.index && a.index < b.index + b.len) || (a.index <= b.index && b.index < a.index + a.len)
    };
    let mut applied: Vec<TopicMatch> = Vec::new();
    for current in matches {
        if applied.iter().all(|old| !overlaps(old, &current)) {
            applied.push(current);
        }
    }
    applied.sort_by_key(|m| m.index);
    applied.into_iter().map(|m| TopicLink { text: m.text, url: m.url }).collect()
}

/// A bare URL in a topic made absolute: `https://` when it has no scheme.
fn with_scheme(url: &str) -> String {
    let Ok(mut parts) = urlsplit(url) else { return url.to_owned() };
    if !parts.scheme.is_empty() {
        return url.to_owned();
    }
    if parts.netloc.is_empty() {
        let slash = parts.path.find('/').unwrap_or(parts.path.len());
        let path = parts.path.split_off(slash);
        parts = SplitUrl { netloc: parts.path, path, ..parts };
    }
    parts.scheme = "https".to_owned();
    urlunsplit(&parts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn linkifier(pattern: &str, url_template: &str) -> Linkifier {
        Linkifier { id: 1, pattern: pattern.to_owned(), url_template: url_template.to_owned() }
    }

    #[test]
    fn validation_uses_zulips_messages() {
        assert_eq!(validate_linkifier("#(?P<id>[0-9]+)", "https://t.example/{id}"), Ok(()));
        assert_eq!(
            validate_linkifier("#(?P<id>[0-9]+)", "https://t.example/{id"),
            Err("Invalid URL template.".to_owned())
        );
        assert_eq!(
            validate_linkifier("x", "https://t.example/% \u{80}"),
            Err("Invalid URL template.".to_owned())
        );
        assert_eq!(
            validate_linkifier("#(?P<id>[0-9]+", "https://t.example/{id}"),
            Err("Bad regular expression: unclosed group".to_owned())
        );
        assert_eq!(
            validate_linkifier("#(?P<id>[0-9]+)", "https://t.example/{id}/{x}"),
            Err("Group 'x' in URL template is not present in linkifier pattern.".to_owned())
        );
        assert_eq!(
            validate_linkifier("(?P<a>x)(?P<b>y)", "https://t.example/{a}"),
            Err("Group 'b' in linkifier pattern is not present in URL template.".to_owned())
        );
    }

    #[test]
    fn templates_expand_per_rfc_6570() {
        let values = |name: &str| -> Option<&'static str> {
            match name {
                "var" => Some("value"),
                "hello" => Some("Hello World!"),
                "path" => Some("/foo/bar"),
                "empty" => Some(""),
                "x" => Some("1024"),
                "y" => Some("768"),
                "e" => Some("é"),
                _ => None,
            }
        };
        let e = |t: &str| expand(t, &values).unwrap_or_default();
        assert_eq!(e("{var}"), "value");
        assert_eq!(e("{hello}"), "Hello%20World%21");
        assert_eq!(e("{+hello}"), "Hello%20World!");
        assert_eq!(e("{+path}/here"), "/foo/bar/here");
        assert_eq!(e("{#path}"), "#/foo/bar");
        assert_eq!(e("X{.var}"), "X.value");
        assert_eq!(e("{/var,x}/here"), "/value/1024/here");
        assert_eq!(e("{;x,y,empty}"), ";x=1024;y=768;empty");
        assert_eq!(e("{?x,y,empty}"), "?x=1024&y=768&empty=");
        assert_eq!(e("?fixed=yes{&x}"), "?fixed=yes&x=1024");
        assert_eq!(e("{var:3}"), "val");
        assert_eq!(e("{undef}x{?undef}"), "x");
        assert_eq!(e("{+e}{e}"), "%C3%A9%C3%A9");
    }

    #[test]
    fn topic_links_prefer_earlier_linkifiers() {
        let links = topic_links(
            "http://foo.com a#asd b#bar",
            &[
                linkifier("http", "http://example.com/"),
                linkifier("b#(?P<id>[a-z]+)", "http://example.com/b/{id}"),
                linkifier("a#(?P<aid>[a-z]+) b#(?P<bid>[a-z]+)", "http://example.com/a/{aid}/b/{bid}"),
                linkifier("a#(?P<id>[a-z]+)", "http://example.com/a/{id}"),
            ],
        );
        let texts: Vec<&str> = links.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(texts, ["http", "a#asd", "b#bar"]);
        assert_eq!(links[1].url, "http://example.com/a/asd");
    }

    #[test]
    fn topic_links_find_bare_urls() {
        let links = topic_links("Have you seen github.com/zulip? or https://example.com", &[]);
        assert_eq!(
            links,
            [
                TopicLink { text: "github.com/zulip".into(), url: "https://github.com/zulip".into() },
                TopicLink { text: "https://example.com".into(), url: "https://example.com".into() },
            ]
        );
    }
}
