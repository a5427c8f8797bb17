//! HTML, as Pygments' `HtmlLexer` (`html`) tokenizes it: tags and attributes, with the
//! contents of `<script>` lexed as JavaScript and of `<style>` as CSS.

use std::ops::Range;

use super::super::engine::{Grammar, State, g, r, using};
use super::super::token::Token::*;
use super::css::CSS;
use super::javascript::JAVASCRIPT;

pub(in super::super) static HTML: Grammar = Grammar::new(&[
    State {
        name: "root",
        rules: &[&[
            r("[^<&]+", Text),
            r(r"&\S*?;", NameEntity),
            r(r"(?is)<!\[CDATA\[.*?\]\]>", CommentPreproc),
            r(r"(?s)<!--.*?-->", CommentMultiline),
            r(r"(?s)<\?.*?\?>", CommentPreproc),
            r("<![^>]*>", CommentPreproc),
            g(r"(?i)(<)(\s*)(script)(\s*)", &[Punctuation, Text, NameTag, Text])
                .push(&["script-content", "tag"]),
            g(r"(?i)(<)(\s*)(style)(\s*)", &[Punctuation, Text, NameTag, Text])
                .push(&["style-content", "tag"]),
            g(r"(<)(\s*)([\w:.-]+)", &[Punctuation, Text, NameTag]).push(&["tag"]),
            g(
                r"(<)(\s*)(/)(\s*)([\w:.-]+)(\s*)(>)",
                &[Punctuation, Text, Punctuation, Text, NameTag, Text, Punctuation],
            ),
        ]],
    },
    State {
        name: "tag",
        rules: &[&[
            r(r"\s+", Text),
            g(r"([\w:-]+\s*)(=)(\s*)", &[NameAttribute, Operator, Text]).push(&["attr"]),
            r(r"[\w:-]+", NameAttribute),
            g(r"(/?)(\s*)(>)", &[Punctuation, Text, Punctuation]).pop(),
        ]],
    },
    State {
        name: "script-content",
        rules: &[&[
            g(
                r"(?i)(<)(\s*)(/)(\s*)(script)(\s*)(>)",
                &[Punctuation, Text, Punctuation, Text, NameTag, Text, Punctuation],
            )
            .pop(),
            using(r"(?s).", &JAVASCRIPT).extended(until_script_end),
            using(r"(?s).+?\n", &JAVASCRIPT).pop(),
            using(r"(?s).+", &JAVASCRIPT).pop(),
        ]],
    },
    State {
        name: "style-content",
        rules: &[&[
            g(
                r"(?i)(<)(\s*)(/)(\s*)(style)(\s*)(>)",
                &[Punctuation, Text, Punctuation, Text, NameTag, Text, Punctuation],
            )
            .pop(),
            using(r"(?s).", &CSS).extended(until_style_end),
            using(r"(?s).+?\n", &CSS).pop(),
            using(r"(?s).+", &CSS).pop(),
        ]],
    },
    State {
        name: "attr",
        rules: &[&[
            r(r#"(?s)".*?""#, String).pop(),
            r(r"(?s)'.*?'", String).pop(),
            r(r"[^\s>]+", String).pop(),
        ]],
    },
]);

fn until_script_end(text: &str, found: Range<usize>) -> Option<usize> {
    until_closing_tag(text, found.start, "script")
}

fn until_style_end(text: &str, found: Range<usize>) -> Option<usize> {
    until_closing_tag(text, found.start, "style")
}

/// Where the first `</name>` after `from` (spaces allowed around `/` and before `>`, any
/// case) begins, if it does after `from`.
fn until_closing_tag(text: &str, from: usize, name: &str) -> Option<usize> {
    let mut at = from + 1;
    while let Some(i) = text[at..].find('<') {
        let start = at + i;
        let rest = text[start + 1..].trim_start().strip_prefix('/').map(str::trim_start);
        if let Some(rest) = rest
            && rest.len() >= name.len()
            && rest.is_char_boundary(name.len())
            && rest[..name.len()].eq_ignore_ascii_case(name)
            && rest[name.len()..].trim_start().starts_with('>')
        {
            return Some(start);
        }
        at = start + 1;
    }
    None
}
