//! TOML, as Pygments' `TOMLLexer` (`toml`) tokenizes it.

use super::super::engine::{Grammar, Rule, State, default, g, r};
use super::super::token::Token::*;

pub(in super::super) static TOML: Grammar = Grammar::new(&[
    State {
        name: "root",
        rules: &[
            &[r(r"\s+", Whitespace), r("#.*", CommentSingle)],
            KEY,
            &[
                g(r"(=)(\s*)", &[Operator, Whitespace]).push(&["value"]),
                r(r"\[\[?", Keyword).push(&["table-key"]),
            ],
        ],
    },
    State {
        name: "table-key",
        rules: &[&[
            r("[A-Za-z0-9_-]+", Keyword),
            r("\"", StringDouble).push(&["basic-string"]),
            r("'", StringSingle).push(&["literal-string"]),
            r(r"\.", Keyword),
            r(r"\]\]?", Keyword).pop(),
            r(r"[ \t]+", Whitespace),
        ]],
    },
    State {
        name: "value",
        rules: &[&[
            r(
                r"\d\d\d\d-\d\d-\d\d(?:[Tt ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:[Zz]|[+-]\d\d:\d\d)?)?",
                LiteralDate,
            )
            .pop(),
            r(r"\d\d:\d\d(?::\d\d(?:\.\d+)?)?", LiteralDate).pop(),
            r(r"[+-]?\d[0-9_]*[eE][+-]?\d[0-9_]*", NumberFloat).pop(),
            r(r"[+-]?\d[0-9_]*\.\d[0-9_]*(?:[eE][+-]?\d[0-9_]*)?", NumberFloat).pop(),
            r("[+-]?(?:inf|nan)", NumberFloat).pop(),
            r("-?0b[01_]+", NumberBin).pop(),
            r("-?0o[0-7_]+", NumberOct).pop(),
            r("-?0x[0-9a-fA-F_]+", NumberHex).pop(),
            r("[+-]?[0-9_]+", NumberInteger).pop(),
            r("\"\"\"", StringDouble).pop_to(1, "multiline-basic-string"),
            r("\"", StringDouble).pop_to(1, "basic-string"),
            r("'''", StringSingle).pop_to(1, "multiline-literal-string"),
            r("'", StringSingle).pop_to(1, "literal-string"),
            r("true|false", KeywordConstant).pop(),
            r(r"\[", Punctuation).pop_to(1, "array"),
            r(r"\{", Punctuation).pop_to(1, "inline-table"),
        ]],
    },
    State {
        name: "array",
        rules: &[&[
            r(r"\s+", Whitespace),
            r("#.*", CommentSingle),
            r(",", Punctuation),
            r(r"\]", Punctuation).pop(),
            default().push(&["value"]),
        ]],
    },
    State {
        name: "inline-table",
        rules: &[
            &[r(r"\s+", Whitespace), r("#.*", CommentSingle)],
            KEY,
            &[
                g(r"(=)(\s*)", &[Punctuation, Whitespace]).push(&["value"]),
                r(",", Punctuation),
                r(r"\}", Punctuation).pop(),
            ],
        ],
    },
    State {
        name: "basic-string",
        rules: &[&[r("\"", StringDouble).pop()], ESCAPES, &[r(r#"[^"\\]+"#, StringDouble)]],
    },
    State { name: "literal-string", rules: &[&[r(".*?'", StringSingle).pop()]] },
    State {
        name: "multiline-basic-string",
        rules: &[
            &[r("\"\"\"", StringDouble).pop(), g(r"(\\)(\n)", &[StringEscape, Whitespace])],
            ESCAPES,
            &[r(r#"[^"\\]+"#, StringDouble), r("\"", StringDouble)],
        ],
    },
    State {
        name: "multiline-literal-string",
        rules: &[&[r("'''", StringSingle).pop(), r("[^']+", StringSingle), r("'", StringSingle)]],
    },
]);

static KEY: &[Rule] = &[
    r("[A-Za-z0-9_-]+", Name),
    r("\"", StringDouble).push(&["basic-string"]),
    r("'", StringSingle).push(&["literal-string"]),
    r(r"\.", Punctuation),
];

static ESCAPES: &[Rule] =
    &[r(r"\\x[0-9a-fA-F]{2}|\\u[0-9a-fA-F]{4}|\\U[0-9a-fA-F]{8}", StringEscape), r(r"\\.", StringEscape)];
