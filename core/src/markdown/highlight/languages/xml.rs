//! XML, as Pygments' `XmlLexer` (`xml`) tokenizes it: text between tags is plain.

use super::super::engine::{Grammar, State, r};
use super::super::token::Token::*;

pub(in super::super) static XML: Grammar = Grammar::new(&[
    State {
        name: "root",
        rules: &[&[
            r(r"[^<&\s]+", Text),
            r(r"[^<&\S]+", Whitespace),
            r(r"&\S*?;", NameEntity),
            r(r"(?s)<!\[CDATA\[.*?\]\]>", CommentPreproc),
            r(r"(?s)<!--.*?-->", CommentMultiline),
            r(r"(?s)<\?.*?\?>", CommentPreproc),
            r("<![^>]*>", CommentPreproc),
            r(r"<\s*[\w:.-]+", NameTag).push(&["tag"]),
            r(r"<\s*/\s*[\w:.-]+\s*>", NameTag),
        ]],
    },
    State {
        name: "tag",
        rules: &[&[
            r(r"\s+", Whitespace),
            r(r"[\w.:-]+\s*=", NameAttribute).push(&["attr"]),
            r(r"/?\s*>", NameTag).pop(),
        ]],
    },
    State {
        name: "attr",
        rules: &[&[
            r(r"\s+", Whitespace),
            r(r#"(?s)".*?""#, String).pop(),
            r(r"(?s)'.*?'", String).pop(),
            r(r"[^\s>]+", String).pop(),
        ]],
    },
]);
