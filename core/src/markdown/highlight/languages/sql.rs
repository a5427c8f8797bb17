//! SQL, as Pygments' `SqlLexer` (`sql`) tokenizes it: ANSI keywords and data types in any
//! case, from Pygments' own word lists (`data/sql_words.rs`).

use super::super::super::data::sql_words::{SQL_DATATYPES, SQL_KEYWORDS};
use super::super::engine::{Grammar, State, r};
use super::super::token::Token::*;

pub(in super::super) static SQL: Grammar = Grammar::new(&[
    State {
        name: "root",
        rules: &[&[
            r(r"\s+", Whitespace),
            r(r"--.*\n?", CommentSingle),
            r(r"/\*", CommentMultiline).push(&["multiline-comments"]),
            r(SQL_KEYWORDS, Keyword),
            r(SQL_DATATYPES, NameBuiltin),
            r(r"[+*/<>=~!@#%^&|`?-]", Operator),
            r("[0-9]+", NumberInteger),
            r("'(?:''|[^'])*'", StringSingle),
            r(r#""(?:""|[^"])*""#, StringSymbol),
            r(r"(?i)[a-z_][\w$]*", Name),
            r(r"[;:()\[\],.]", Punctuation),
        ]],
    },
    State {
        name: "multiline-comments",
        rules: &[&[
            r(r"/\*", CommentMultiline).push(&["multiline-comments"]),
            r(r"\*/", CommentMultiline).pop(),
            r("[^/*]+", CommentMultiline),
            r("[/*]", CommentMultiline),
        ]],
    },
]);
