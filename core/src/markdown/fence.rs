//! Fenced blocks (Zulip's `fenced_code.py`): ```` ``` ```` or `~~~` fences of three or more,
//! with an optional language and, for spoilers, a header. Code and math become finished HTML
//! kept in the [`HtmlStash`]; quotes become `> ` lines and spoilers HTML frames around their
//! Markdown content, both rendered with the rest of the message.
//!
//! Code has Zulip's frame (`<div class="codehilite" data-code-language="…"><pre><span></span>
//! <code>…</code></pre></div>`) with the language canonicalized to its Pygments lexer name, and
//! is highlighted (`highlight/`) when we have a grammar for the language.

use std::sync::LazyLock;

use regex::Regex;

use super::data::lexers::LEXER_NAMES;
use super::highlight;
use super::math::{self, MathRenderer};

/// A fence line: the fence, an optional `{.lang}`-style language and a header.
pub(crate) static FENCE_RE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(?P<fence>~{3,}|`{3,}) *(?:\{?\.?(?P<lang>[a-zA-Z0-9_+,\-./#]+) *(?P<header>[^ ~`][^~`]*)?\}?)?$",
    )
    .expect("static regex")
});

/// The first character of the private-use plane that marks stashed HTML in the text.
const MARKER_BASE: u32 = 0x10_0000;
const MARKER_LIMIT: usize = 0xFFFE;

/// Fences nested deeper than this are taken as text: each quote level repeats every line it
/// holds, so unbounded nesting would make the text grow quadratically.
const MAX_NESTING: usize = 32;

/// Finished HTML taken out of the text and put back after rendering. Each entry is represented
/// in the text by one private-use character (input containing such characters is cleaned
/// first, so they cannot be forged).
#[derive(Debug, Default)]
pub(crate) struct HtmlStash {
    items: Vec<String>,
}

impl HtmlStash {
    /// Stores `html` and returns the marker that stands for it (empty when the stash is full,
    /// which needs tens of thousands of fenced blocks).
    pub(crate) fn store(&mut self, html: String) -> String {
        if self.items.len() >= MARKER_LIMIT {
            return String::new();
        }
        self.items.push(html);
        let index = (self.items.len() - 1) as u32;
        char::from_u32(MARKER_BASE + index).map(String::from).unwrap_or_default()
    }

    pub(crate) fn get(&self, marker: char) -> Option<&str> {
        let index = (marker as u32).checked_sub(MARKER_BASE)? as usize;
        self.items.get(index).map(String::as_str)
    }

    pub(crate) fn is_marker(c: char) -> bool {
        (MARKER_BASE..MARKER_BASE + MARKER_LIMIT as u32).contains(&(c as u32))
    }
}

enum Kind {
    Outer,
    Code { lang: Option<String> },
    Quote,
    Spoiler { header: Option<String> },
    Math,
}

struct Handler {
    kind: Kind,
    fence: String,
    lines: Vec<String>,
}

/// Runs the fenced-block preprocessor over normalized lines.
pub(crate) fn fenced_blocks(
    lines: Vec<String>,
    default_language: Option<&str>,
    math_renderer: Option<&dyn MathRenderer>,
    stash: &mut HtmlStash,
) -> Vec<String> {
    let mut handlers = vec![Handler { kind: Kind::Outer, fence: String::new(), lines: Vec::new() }];
    for line in lines {
        let Some(top) = handlers.last_mut() else { break };
        match top.kind {
            Kind::Outer => open_or_push(&mut handlers, line, default_language),
            Kind::Code { .. } | Kind::Math => {
                if line.trim_end() == top.fence {
                    close(&mut handlers, math_renderer, stash);
                } else {
                    top.lines.push(line.trim_end().to_owned());
                }
            }
            Kind::Quote => {
                if line.trim_end() == top.fence {
                    close(&mut handlers, math_renderer, stash);
                } else {
                    open_or_push(&mut handlers, line, default_language);
                }
            }
            Kind::Spoiler { .. } => {
                if line.trim_end() == top.fence {
                    close(&mut handlers, math_renderer, stash);
                } else {
                    // Zulip does not apply the default language inside spoilers.
                    open_or_push(&mut handlers, line, None);
                }
            }
        }
    }
    while handlers.len() > 1 {
        close(&mut handlers, math_renderer, stash);
    }
    let mut output = handlers.pop().map(|h| h.lines).unwrap_or_default();
    if output.len() > 2 && !output[output.len() - 2].is_empty() {
        output.push(String::new());
    }
    output
}

/// A line inside the outer text, a quote or a spoiler: opens a fence or is kept.
fn open_or_push(handlers: &mut Vec<Handler>, line: String, default_language: Option<&str>) {
    let m = if handlers.len() > MAX_NESTING { None } else { FENCE_RE.captures(&line) };
    let Some(m) = m else {
        if let Some(top) = handlers.last_mut() {
            top.lines.push(line);
        }
        return;
    };
    let fence = m.name("fence").map_or("", |f| f.as_str()).to_owned();
    let lang = m.name("lang").map(|l| l.as_str()).or(default_language).map(str::to_lowercase);
    let header = m.name("header").map(|h| h.as_str().to_owned());
    let kind = match lang.as_deref() {
        Some("quote" | "quoted") => Kind::Quote,
        Some("math") => Kind::Math,
        Some("spoiler") => Kind::Spoiler { header },
        _ => Kind::Code { lang },
    };
    handlers.push(Handler { kind, fence, lines: Vec::new() });
}

/// Closes the innermost fence: its output goes to the enclosing handler's lines.
fn close(handlers: &mut Vec<Handler>, math_renderer: Option<&dyn MathRenderer>, stash: &mut HtmlStash) {
    let Some(handler) = handlers.pop() else { return };
    let Some(parent) = handlers.last_mut() else { return };
    if handler.lines.is_empty() {
        return;
    }
    let text = handler.lines.join("\n");
    let formatted = match handler.kind {
        Kind::Outer => text,
        Kind::Code { lang } => stash.store(code_block_html(lang.as_deref(), &text, false)),
        Kind::Math => stash.store(math::block_html(&text, math_renderer)),
        Kind::Quote => text.split('\n').map(|line| format!("> {line}")).collect::<Vec<_>>().join("\n"),
        Kind::Spoiler { header } => {
            let mut parts =
                vec![stash.store("<div class=\"spoiler-block\"><div class=\"spoiler-header\">".to_owned())];
            parts.extend(header);
            parts.push(stash.store("</div><div class=\"spoiler-content\" aria-hidden=\"true\">".to_owned()));
            parts.push(text);
            parts.push(stash.store("</div></div>".to_owned()));
            parts.join("\n\n")
        }
    };
    parent.lines.push(String::new());
    parent.lines.extend(formatted.split('\n').map(str::to_owned));
    parent.lines.push(String::new());
}

/// The Pygments name Zulip records for a language: the lexer's name for a known alias, else
/// the language as written (lowercased).
pub(crate) fn code_language_name(lang: &str) -> &str {
    match LEXER_NAMES.binary_search_by(|(alias, _)| (*alias).cmp(lang)) {
        Ok(i) => LEXER_NAMES[i].1,
        Err(_) => lang,
    }
}

/// Zulip's code block frame around the code, highlighted when there is a grammar for its
/// language. With a language, Zulip re-serializes Pygments' output through lxml, which leaves
/// quotes unescaped; without one it does not. `indented` blocks are Python-Markdown's, whose
/// language line is taken out of the code (see [`header_language`]).
pub(crate) fn code_block_html(lang: Option<&str>, text: &str, indented: bool) -> String {
    let mut source = text.trim_matches('\n');
    let mut html = String::from("<div class=\"codehilite\"");
    if let Some(lang) = lang {
        html.push_str(" data-code-language=\"");
        super::tree::escape_attribute(&mut html, code_language_name(lang));
        html.push('"');
    }
    html.push_str("><pre><span></span><code>");
    let header = match lang {
        Some(_) => None,
        None => header_language(source, indented),
    };
    if let Some((_, rest)) = header {
        source = rest.trim_matches('\n');
    }
    let lexer =
        lang.or(header.map(|(lang, _)| lang)).map(|lang| code_language_name(&lang.to_lowercase()).to_owned());
    let code = format!("{source}\n");
    let quotes = lang.is_none();
    if !lexer.is_some_and(|lexer| highlight::highlight_into(&mut html, &lexer, &code, quotes)) {
        highlight::escape(&mut html, &code, quotes);
    }
    html.push_str("</code></pre></div>");
    html
}

/// The language a block without one names on its first line, as Python-Markdown's CodeHilite
/// reads it: `:::lang` or a shebang (`#!lang`, `#!/usr/bin/env lang`), with the code that is
/// highlighted. Zulip keeps that line in fenced blocks; Python-Markdown drops it from indented
/// ones unless it is a shebang with a path.
fn header_language(source: &str, indented: bool) -> Option<(&str, &str)> {
    let (first, rest) = source.split_once('\n').unwrap_or((source, ""));
    let m = HEADER_RE.captures(first)?;
    let lang = m.name("lang").map_or("", |l| l.as_str());
    let keep_line = !indented || m.name("path").is_some();
    Some((lang, if keep_line { source } else { rest }))
}

/// Python-Markdown's CodeHilite header: colons or a shebang, an optional path, a language.
static HEADER_RE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^(?::::*|(?P<shebang>#!))(?P<path>(?:/\w+)*[/ ])?(?P<lang>[\w#.+-]*)"#)
        .expect("static regex")
});

#[cfg(test)]
mod tests {
    use super::*;

    fn run(input: &[&str]) -> (Vec<String>, HtmlStash) {
        let mut stash = HtmlStash::default();
        let out = fenced_blocks(input.iter().map(|s| (*s).to_owned()).collect(), None, None, &mut stash);
        (out, stash)
    }

    #[test]
    fn quotes_become_quoted_lines() {
        let (out, _) = run(&["~~~ quote", "hi", "bye", "", ""]);
        assert_eq!(out, ["", "> hi", "> bye", "> ", "> ", "", ""]);
    }

    #[test]
    fn code_inside_a_quote_is_stashed() {
        let (out, stash) = run(&["```quote", "hi", "``` py", "x = 1", "```", "```"]);
        let marker = out[3].strip_prefix("> ").and_then(|m| m.chars().next()).expect("marker");
        assert_eq!(out[..3], ["", "> hi", "> "]);
        assert_eq!(
            stash.get(marker),
            Some(
                "<div class=\"codehilite\" data-code-language=\"Python\"><pre><span></span><code>\
                 <span class=\"n\">x</span> <span class=\"o\">=</span> <span class=\"mi\">1</span>\n</code></pre></div>"
            )
        );
    }

    #[test]
    fn fence_lines_are_recognised_as_zulip_does() {
        let lang =
            |line: &str| FENCE_RE.captures(line).map(|m| m.name("lang").map(|l| l.as_str().to_owned()));
        assert_eq!(lang("```"), Some(None));
        assert_eq!(lang("~~~~.python "), Some(Some("python".to_owned())));
        assert_eq!(lang("```{.js}"), Some(Some("js".to_owned())));
        assert_eq!(lang("``` one ```"), None);
        assert_eq!(lang("``"), None);
        let header =
            FENCE_RE.captures("```spoiler Open me").and_then(|m| m.name("header")).map(|h| h.as_str());
        assert_eq!(header, Some("Open me"));
    }

    #[test]
    fn a_first_line_can_name_the_language() {
        // Fenced without a language: Zulip keeps the shebang line and highlights by it, with
        // Pygments' escaping (no lxml pass without a language).
        assert_eq!(
            code_block_html(None, "#!/usr/bin/env python3\nprint('x')", false),
            "<div class=\"codehilite\"><pre><span></span><code><span class=\"ch\">#!/usr/bin/env python3</span>\n\
             <span class=\"nb\">print</span><span class=\"p\">(</span><span class=\"s1\">&#39;x&#39;</span>\
             <span class=\"p\">)</span>\n</code></pre></div>"
        );
        // Indented: Python-Markdown takes a `:::lang` line out.
        assert_eq!(
            code_block_html(None, ":::python\nx = 1", true),
            "<div class=\"codehilite\"><pre><span></span><code><span class=\"n\">x</span> \
             <span class=\"o\">=</span> <span class=\"mi\">1</span>\n</code></pre></div>"
        );
        // An unknown language leaves the code as it was.
        assert_eq!(
            code_block_html(None, ":::nosuchlanguage\nx", false),
            "<div class=\"codehilite\"><pre><span></span><code>:::nosuchlanguage\nx\n</code></pre></div>"
        );
    }

    #[test]
    fn languages_are_canonicalized() {
        assert_eq!(code_language_name("js"), "JavaScript");
        assert_eq!(code_language_name("py2"), "Python 2.x");
        assert_eq!(code_language_name("inventedlanguage"), "inventedlanguage");
    }
}
