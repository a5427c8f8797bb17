//! INI files, as Pygments' `IniLexer` (`ini`, `cfg`, `dosini`) tokenizes them.

use super::super::engine::{Grammar, State, g, r};
use super::super::token::Token::*;

pub(in super::super) static INI: Grammar = Grammar::new(&[
    State {
        name: "root",
        rules: &[&[
            r(r"\s+", Whitespace),
            r(r"[;#].*", CommentSingle),
            g(r"(\[.*?\])([ \t]*)$", &[Keyword, Whitespace]),
            g(
                r#"(.*?)([ \t]*)([=:])([ \t]*)(["'])"#,
                &[NameAttribute, Whitespace, Operator, Whitespace, String],
            )
            .push(&["quoted_value"]),
            g(
                r"(.*?)([ \t]*)([=:])([ \t]*)([^;#\n]*)(\\)(\s+)",
                &[NameAttribute, Whitespace, Operator, Whitespace, String, Text, Whitespace],
            )
            .push(&["value"]),
            g(
                r"(.*?)([ \t]*)([=:])([ \t]*)([^ ;#\n]*(?: +[^ ;#\n]+)*)",
                &[NameAttribute, Whitespace, Operator, Whitespace, String],
            ),
            r(r"(.+?)$", NameAttribute),
        ]],
    },
    State {
        name: "quoted_value",
        rules: &[&[
            g(r#"([^"'\n]*)(["'])(\s*)"#, &[String, String, Whitespace]).pop(),
            r(r"[;#].*", CommentSingle),
            r("$", String).pop(),
        ]],
    },
    State {
        name: "value",
        rules: &[&[
            r(r"\s+", Whitespace),
            g(r"(\s*)(.*)(\\)([ \t]*)", &[Whitespace, String, Text, Whitespace]),
            r(".*$", String).pop(),
        ]],
    },
]);
