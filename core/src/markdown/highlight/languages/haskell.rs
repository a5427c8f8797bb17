//! Haskell, as Pygments' `HaskellLexer` (`haskell`, `hs`) tokenizes it: a lowercase name at a
//! line's start is a function (a definition), capitalized names are types, and `->`, `<-`,
//! `::`, `=>`, `=` are operator words.

use super::super::engine::{Grammar, Rule, State, g, r};
use super::super::token::Token::*;

pub(in super::super) static HASKELL: Grammar = Grammar::new(&[
    State {
        name: "root",
        rules: &[&[
            r(r"\s+", Whitespace),
            r(r"--(?:[^!#$%&*+./<=>?@^|_~:\\\n][^\n]*)?$", CommentSingle),
            r(r"\{-", CommentMultiline).push(&["comment"]),
            r(r"\bimport\b", KeywordReserved).push(&["import"]),
            r(r"\bmodule\b", KeywordReserved).push(&["module"]),
            r(r"\berror\b", NameException),
            r(r"\b(?:case|class|data|default|deriving|do|else|family|if|in|infix[lr]?|instance|let|newtype|of|then|type|where|_)\b", KeywordReserved)
                .not_before("'"),
            r(r"'[^\\]'", StringChar),
            r(r"'\\.'", StringChar),
            r(r"^[_\p{Ll}][\w']*", NameFunction),
            r(r"'?[_\p{Ll}][\w']*", Name),
            r(r"(?:'')?\p{Lu}[\w']*", KeywordType),
            r(r"'\p{Lu}[\w']*", KeywordType),
            r(r"'\[[^\]]*\]", KeywordType),
            r(r"'\([^)]*\)", KeywordType),
            r(r"'[:!#$%&*+.\\/<=>?@^|~-]+", KeywordType),
            r(r"\\", NameFunction).not_before(SYMBOL),
            r(r"<-|::|->|=>|=", OperatorWord).not_before(SYMBOL),
            r(r":[:!#$%&*+.\\/<=>?@^|~-]*", KeywordType),
            r(r"[:!#$%&*+.\\/<=>?@^|~-]+", Operator),
            r(r"0[xX]_*[\da-fA-F](?:_*[\da-fA-F])*_*[pP][+-]?\d(?:_*\d)*", NumberFloat),
            r(r"0[xX]_*[\da-fA-F](?:_*[\da-fA-F])*\.[\da-fA-F](?:_*[\da-fA-F])*(?:_*[pP][+-]?\d(?:_*\d)*)?", NumberFloat),
            r(r"\d(?:_*\d)*_*[eE][+-]?\d(?:_*\d)*", NumberFloat),
            r(r"\d(?:_*\d)*\.\d(?:_*\d)*(?:_*[eE][+-]?\d(?:_*\d)*)?", NumberFloat),
            r(r"0[bB]_*[01](?:_*[01])*", NumberBin),
            r(r"0[oO]_*[0-7](?:_*[0-7])*", NumberOct),
            r(r"0[xX]_*[\da-fA-F](?:_*[\da-fA-F])*", NumberHex),
            r(r"\d(?:_*\d)*", NumberInteger),
            r("'", StringChar).push(&["character"]),
            r("\"", String).push(&["string"]),
            r(r"\[\]", KeywordType),
            r(r"\(\)", NameBuiltin),
            r(r"[\]\[(),;`{}]", Punctuation),
        ]],
    },
    State {
        name: "import",
        rules: &[&[
            r(r"\s+", Whitespace),
            r("\"", String).push(&["string"]),
            r(r"\)", Punctuation).pop(),
            r(r"qualified\b", Keyword),
            g(r"(\p{Lu}[\w.]*)(\s+)(as)(\s+)(\p{Lu}[\w.]*)", &[NameNamespace, Whitespace, Keyword, Whitespace, Name]).pop(),
            g(r"(\p{Lu}[\w.]*)(\s+)(hiding)(\s+)(\()", &[NameNamespace, Whitespace, Keyword, Whitespace, Punctuation])
                .push(&["funclist"]),
            g(r"(\p{Lu}[\w.]*)(\s+)(\()", &[NameNamespace, Whitespace, Punctuation]).push(&["funclist"]),
            r(r"[\w.]+", NameNamespace).pop(),
        ]],
    },
    State {
        name: "module",
        rules: &[&[
            r(r"\s+", Whitespace),
            g(r"(\p{Lu}[\w.]*)(\s+)(\()", &[NameNamespace, Whitespace, Punctuation]).push(&["funclist"]),
            r(r"\p{Lu}[\w.]*", NameNamespace).pop(),
        ]],
    },
    State {
        name: "funclist",
        rules: &[&[
            r(r"\s+", Whitespace),
            r(r"\p{Lu}\w*", KeywordType),
            r(r"_[\w']+|\p{Ll}[\w']*", NameFunction),
            r(r"--(?:[^!#$%&*+./<=>?@^|_~:\\\n][^\n]*)?$", CommentSingle),
            r(r"\{-", CommentMultiline).push(&["comment"]),
            r(",", Punctuation),
            r(r"[:!#$%&*+.\\/<=>?@^|~-]+", Operator),
            r(r"\(", Punctuation).push(&["funclist", "funclist"]),
            r(r"\)", Punctuation).pop_n(2),
        ]],
    },
    State {
        name: "comment",
        rules: &[&[
            r(r"[^-{}]+", CommentMultiline),
            r(r"\{-", CommentMultiline).push(&["comment"]),
            r(r"-\}", CommentMultiline).pop(),
            r("[-{}]", CommentMultiline),
        ]],
    },
    State {
        name: "character",
        rules: &[&[r(r"[^\\']'", StringChar).pop(), r(r"\\", StringEscape).push(&["escape"]), r("'", StringChar).pop()]],
    },
    State { name: "string", rules: &[&[r(r#"[^\\"]+"#, String), r(r"\\", StringEscape).push(&["escape"]), r("\"", String).pop()]] },
    State { name: "escape", rules: &[ESCAPE] },
]);

/// Characters of an operator: a reserved symbol followed by one is part of an operator.
const SYMBOL: &str = r"[:!#$%&*+.\\/<=>?@^|~-]";

static ESCAPE: &[Rule] = &[
    r(r#"[abfnrtv"'&\\]"#, StringEscape).pop(),
    r(r"\^[\]\[\p{Lu}@^_]", StringEscape).pop(),
    r(r"NUL|SOH|[SE]TX|EOT|ENQ|ACK|BEL|BS|HT|LF|VT|FF|CR|S[OI]|DLE|DC[1-4]|NAK|SYN|ETB|CAN|EM|SUB|ESC|[FGRU]S|SP|DEL", StringEscape).pop(),
    r("o[0-7]+", StringEscape).pop(),
    r(r"x[\da-fA-F]+", StringEscape).pop(),
    r(r"\d+", StringEscape).pop(),
    g(r"(\s+)(\\)", &[Whitespace, StringEscape]).pop(),
];
