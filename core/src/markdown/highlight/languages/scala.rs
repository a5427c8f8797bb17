//! Scala, as Pygments' `ScalaLexer` (`scala`) tokenizes it: declarations name their function,
//! class or object; capitalized names are classes; `s"..."` strings interpolate.
//!
//! Pygments' look-behinds become functions that look at the text before a match. Its operator
//! characters include Unicode's math and other symbols; before `!`, `&&` and `||` only ASCII
//! ones are checked here.

use std::ops::Range;

use super::super::engine::{Grammar, Rule, State, default, g, r};
use super::super::token::Token::*;

/// Scala's identifier pieces (macros, to build patterns with `concat!`).
macro_rules! letter {
    () => {
        r"[_$\p{Ll}\p{Lu}\p{Lo}\p{Nl}\p{Lt}]"
    };
}
macro_rules! opchar {
    () => {
        r"[!#%&*\-/:?@^\p{Sm}\p{So}]"
    };
}
/// A name, which may end in `_` and operator characters (`unary_!`).
macro_rules! idrest {
    () => {
        concat!(
            "(?:(?:",
            letter!(),
            r"(?:",
            letter!(),
            "|[0-9])*_|_)",
            opchar!(),
            "+|",
            letter!(),
            "(?:",
            letter!(),
            "|[0-9])*)"
        )
    };
}
macro_rules! id_upper {
    () => {
        concat!(
            "(?:[\\p{Lu}\\p{Lt}](?:",
            letter!(),
            "|[0-9])*_",
            opchar!(),
            "+|[\\p{Lu}\\p{Lt}](?:",
            letter!(),
            "|[0-9])*)"
        )
    };
}
macro_rules! plain_id {
    () => {
        concat!("(?:", idrest!(), "|", opchar!(), "+)")
    };
}
macro_rules! any_id {
    () => {
        concat!("(?:", plain_id!(), "|`[^`]+`)")
    };
}

pub(in super::super) static SCALA: Grammar = Grammar::new(&[
    State { name: "root", rules: &[ROOT] },
    State {
        name: "comment",
        rules: &[&[
            r("[^/*]+", CommentMultiline),
            r(r"/\*", CommentMultiline).push(&["comment"]),
            r(r"\*/", CommentMultiline).pop(),
            r("[*/]", CommentMultiline),
        ]],
    },
    State {
        name: "import-path",
        rules: &[
            &[default().extended(after_statement_end).pop()],
            COMMENTS,
            &[r(r"\b(?:given)\b", Keyword)],
            QUALIFIED_NAME,
            &[r(r"\{", Punctuation).push(&["import-path-curly-brace"])],
        ],
    },
    State {
        name: "import-path-curly-brace",
        rules: &[
            &[r(r"\s+", Whitespace)],
            COMMENTS,
            &[
                r(r"\b(?:given)\b", Keyword),
                r("=>", Operator),
                r(r"\}", Punctuation).pop(),
                r(",", Punctuation),
                r(r"[\[\]]", Punctuation),
            ],
            QUALIFIED_NAME,
        ],
    },
    State {
        name: "package",
        rules: &[
            &[default().extended(after_statement_end).pop(), r(":", Punctuation).pop()],
            COMMENTS,
            QUALIFIED_NAME,
        ],
    },
    State {
        name: "interpolated-string-triple",
        rules: &[&[r("\"\"\"", String).not_before("\"").pop(), r("\"", String)], INTERPOLATED],
    },
    State { name: "interpolated-string", rules: &[&[r("\"", String).pop()], INTERPOLATED] },
    State {
        name: "interpolated-string-brace",
        rules: &[
            &[
                r(r"\}", StringInterpol).pop(),
                r(r"\{", Punctuation).push(&["interpolated-string-nested-brace"]),
            ],
            ROOT,
        ],
    },
    State {
        name: "interpolated-string-nested-brace",
        rules: &[
            &[r(r"\{", Punctuation).push(&["interpolated-string-nested-brace"]), r(r"\}", Punctuation).pop()],
            ROOT,
        ],
    },
]);

static COMMENTS: &[Rule] = &[r(r"//.*?\n", CommentSingle), r(r"/\*", CommentMultiline).push(&["comment"])];

static QUALIFIED_NAME: &[Rule] = &[
    r(id_upper!(), NameClass),
    g(concat!("(", any_id!(), r")(\.)"), &[NameNamespace, Punctuation]),
    r(r"\.", Punctuation),
    r(any_id!(), Name),
    r(r"[^\S\n]+", Whitespace),
];

static INTERPOLATED: &[Rule] = &[
    r(r#"[^"$\\]+"#, String),
    r(r"\$\$", StringEscape),
    g(
        concat!(
            r"(\$)(",
            r"[_\p{Ll}\p{Lu}\p{Lo}\p{Nl}\p{Lt}](?:[_\p{Ll}\p{Lu}\p{Lo}\p{Nl}\p{Lt}]|[0-9])*",
            ")"
        ),
        &[StringInterpol, Name],
    ),
    r(r"\$\{", StringInterpol).push(&["interpolated-string-brace"]),
    r(r"(?s)\\.", String),
];

static ROOT: &[Rule] = &[
    r(r"\s+", Whitespace),
    r(r"//.*?\n", CommentSingle),
    r(r"/\*", CommentMultiline).push(&["comment"]),
    r(r"^#!([^\n]*)$", CommentHashbang),
    g(r"\b(import)(\s+)", &[Keyword, Whitespace]).push(&["import-path"]),
    g(r"\b(export)(\s+)(given)(\s+)", &[Keyword, Whitespace, Keyword, Whitespace]).push(&["import-path"]),
    g(r"\b(export)(\s+)", &[Keyword, Whitespace]).push(&["import-path"]),
    r(
        r"\b(?:private|protected|synchronized|@volatile|abstract|final|lazy|sealed|implicit|override|@transient|@native)\b",
        Keyword,
    ),
    r(r"\b(?:transparent|opaque|infix|open|inline)\b", Keyword)
        .before(r"[a-z\s]*\b(?:def|val|var|given|type|class|trait|object|enum)\b"),
    r(concat!("@", idrest!()), NameDecorator),
    g(r"(\()(\s*)(using)(\s)", &[Punctuation, Whitespace, Keyword, Whitespace]),
    g(concat!(r"\b(def)\b(\s*)(", any_id!(), ")?"), &[Keyword, Whitespace, NameFunction]),
    g(concat!(r"\b(trait)\b(\s*)(", any_id!(), ")?"), &[Keyword, Whitespace, NameClass]),
    g(
        concat!(r"\b(?:(case)(\s+))?(class|object|enum)\b(\s*)(", any_id!(), ")?"),
        &[Keyword, Whitespace, Keyword, Whitespace, NameClass],
    ),
    g(concat!(r"\b(type)\b(\s*)(", any_id!(), ")?"), &[Keyword, Whitespace, NameClass]).not_after("."),
    r(r"\b(?:val|var)\b", KeywordDeclaration),
    g(
        concat!(r"\b(package)(\s+)(object)\b(\s*)(", any_id!(), ")?"),
        &[Keyword, Whitespace, Keyword, Whitespace, NameNamespace],
    ),
    g(r"\b(package)(\s+)", &[Keyword, Whitespace]).push(&["package"]),
    g(concat!(r"\b(given)\b(\s*)(", id_upper!(), ")"), &[Keyword, Whitespace, NameClass]),
    g(concat!(r"\b(given)\b(\s*)(", any_id!(), ")?"), &[Keyword, Whitespace, Name]),
    g(
        concat!(r"\b(extends|with|derives)\b(\s*)(", id_upper!(), "|`[^`]+`)?"),
        &[Keyword, Whitespace, NameClass],
    ),
    g(r"\b(extension)(\s+)", &[Keyword, Whitespace]).before(r"[\[(]"),
    g(r"\b(end)(\s+)(if|while|for|match|new|extension|val|var)\b", &[Keyword, Whitespace, Keyword]),
    g(concat!(r"\b(end)(\s+)(", id_upper!(), ")"), &[Keyword, Whitespace, NameClass]).before(r"\s*(?://|$)"),
    g(concat!(r"\b(end)(\s+)(`[^`]+`|", plain_id!(), ")?"), &[Keyword, Whitespace, NameNamespace])
        .before(r"\s*(?://|$)"),
    r(r"\b(?:this|super)\b", NameBuiltinPseudo),
    r(r"(?:true|false|null)\b", KeywordConstant),
    r("0[xX][0-9a-fA-F_]*", NumberHex),
    r(r"(?:[0-9][0-9_]*\.[0-9][0-9_]*|\.[0-9][0-9_]*)(?:[eE][+-]?[0-9][0-9_]*)?[fFdD]?", NumberFloat),
    r(r"[0-9]+(?:[eE][+-]?[0-9]+)?[fFdD]", NumberFloat),
    r(r"[0-9]+[eE][+-]?[0-9]+[fFdD]?", NumberFloat),
    r("[0-9]+[lL]", NumberIntegerLong),
    r("[0-9]+", NumberInteger),
    r(r#"(?s)""".*?"""+"#, String),
    r(r#"(?s)"(?:\\\\|\\"|[^"])*""#, String),
    g(r"(')(\\.)(')", &[StringChar, StringEscape, StringChar]),
    r(r"'[^\\]'|'\\u[0-9a-fA-F]{4}'", StringChar),
    r("[fs]\"\"\"", String).push(&["interpolated-string-triple"]),
    r("[fs]\"", String).push(&["interpolated-string"]),
    r(r#"raw"(?:\\\\|\\"|[^"])*""#, String),
    r(concat!("'", plain_id!()), StringSymbol).not_before("'"),
    g(r"(\.)(type)\b", &[Punctuation, Keyword]),
    r(r"\b(?:inline)", Keyword).before(concat!(r"\s+(?:", plain_id!(), r"|`[^`]+`)\s*:")),
    r(r"['$]\{", Punctuation).not_before("'"),
    r(r"'\[", Punctuation).not_before("'"),
    r(
        r"\b(?:new|return|throw|classOf|isInstanceOf|asInstanceOf|else|if|then|do|while|for|yield|match|case|catch|finally|try)\b",
        Keyword,
    ),
    g(concat!("(", opchar!(), r"{2,})(\s+)"), &[Operator, Whitespace]),
    r("/", Operator).not_before("[/*]"),
    r(r"<%<|=:=|<:<|<%|>:|<:|==|!=|<=|>=|<>|<-|->|=>|[=<>←→⇒?@|\-+*%~\\]", Operator),
    r(r"!|&&|\|\|", Operator).extended(not_among_operators),
    r(r"[{}()\[\];,.]", Punctuation),
    r(":", Punctuation).not_after(":").not_before(":"),
    r(id_upper!(), NameClass),
    r(any_id!(), Name),
];

/// Ends an import or package clause: right after a newline, `;` or `:`.
fn after_statement_end(text: &str, found: Range<usize>) -> Option<usize> {
    text[..found.start].ends_with(['\n', ';', ':']).then_some(found.end)
}

/// `!`, `&&` and `||` alone, not inside a longer operator.
fn not_among_operators(text: &str, found: Range<usize>) -> Option<usize> {
    let operator = |c: char| "!#%&*-/:?@^+<=>|~\\".contains(c);
    let before = text[..found.start].chars().next_back().is_some_and(operator);
    let after = text[found.end..].chars().next().is_some_and(operator);
    (!before && !after).then_some(found.end)
}
