//! Java, as Pygments' `JavaLexer` (`java`) tokenizes it: a name followed by `(` after a type
//! is a function, a name after `.` an attribute.

use super::super::engine::{Grammar, Part, State, g, parts, r};
use super::super::token::Token::*;

pub(in super::super) static JAVA: Grammar = Grammar::new(&[
    State {
        name: "root",
        rules: &[&[
            parts(
                r"(^\s*)((?:(?:public|private|protected|static|strictfp)(?:\s+))*)(record)\b",
                &[Part::Token(Whitespace), Part::Using(&JAVA), Part::Token(KeywordDeclaration)],
            )
            .push(&["class"]),
            r(r"[^\S\n]+", Whitespace),
            g(r"(//.*?)(\n)", &[CommentSingle, Whitespace]),
            r(r"(?s)/\*.*?\*/", CommentMultiline),
            r(
                r"(?:assert|break|case|catch|continue|default|do|else|finally|for|if|goto|instanceof|new|return|switch|this|throw|try|while)\b",
                Keyword,
            ),
            parts(
                r"((?:(?:[^\W\d]|\$)[\w.\[\]$<>?]*\s+)+?)((?:[^\W\d]|\$)[\w$]*)(\s*)(\()",
                &[
                    Part::Using(&JAVA),
                    Part::Token(NameFunction),
                    Part::Token(Whitespace),
                    Part::Token(Punctuation),
                ],
            ),
            r(r"@[^\W\d][\w.]*", NameDecorator),
            r(
                r"(?:abstract|const|enum|exports|extends|final|implements|native|non-sealed|open|opens|permits|private|protected|provides|public|requires|sealed|static|strictfp|super|synchronized|throws|to|transient|transitive|uses|volatile|with|yield)\b",
                KeywordDeclaration,
            ),
            r(r"(?:boolean|byte|char|double|float|int|long|short|void)\b", KeywordType),
            g(r"(package)(\s+)", &[KeywordNamespace, Whitespace]).push(&["import"]),
            r(r"(?:true|false|null)\b", KeywordConstant),
            r(r"(?:class|interface)\b", KeywordDeclaration).push(&["class"]),
            r(r"module\b", KeywordDeclaration).push(&["class"]),
            g(r"(var)(\s+)", &[KeywordDeclaration, Whitespace]).push(&["var"]),
            g(r"(import(?:\s+(?:static|module))?)(\s+)", &[KeywordNamespace, Whitespace]).push(&["import"]),
            r("\"\"\"\n", String).push(&["multiline_string"]),
            r("\"", String).push(&["string"]),
            r(r"'\\.'|'[^\\]'|'\\u[0-9a-fA-F]{4}'", StringChar),
            g(r"(\.)((?:[^\W\d]|\$)[\w$]*)", &[Punctuation, NameAttribute]),
            g(r"^(\s*)(default)(:)", &[Whitespace, Keyword, Punctuation]),
            g(r"^(\s*)((?:[^\W\d]|\$)[\w$]*)(:)", &[Whitespace, NameLabel, Punctuation]),
            r(r"(?:[^\W\d]|\$)[\w$]*", Name),
            r(
                r"(?:[0-9][0-9_]*\.(?:[0-9][0-9_]*)?|\.[0-9][0-9_]*)(?:[eE][+\-]?[0-9][0-9_]*)?[fFdD]?|[0-9][eE][+\-]?[0-9][0-9_]*[fFdD]?|[0-9](?:[eE][+\-]?[0-9][0-9_]*)?[fFdD]|0[xX](?:[0-9a-fA-F][0-9a-fA-F_]*\.?|(?:[0-9a-fA-F][0-9a-fA-F_]*)?\.[0-9a-fA-F][0-9a-fA-F_]*)[pP][+\-]?[0-9][0-9_]*[fFdD]?",
                NumberFloat,
            ),
            r("0[xX][0-9a-fA-F][0-9a-fA-F_]*[lL]?", NumberHex),
            r("0[bB][01][01_]*[lL]?", NumberBin),
            r("0[0-7_]+[lL]?", NumberOct),
            r("0|[1-9][0-9_]*[lL]?", NumberInteger),
            r(r"[~^*!%&\[\]<>|+=/?-]", Operator),
            r(r"[{}();:.,]", Punctuation),
            r(r"\n", Whitespace),
        ]],
    },
    State { name: "class", rules: &[&[r(r"\s+", Text), r(r"(?:[^\W\d]|\$)[\w$]*", NameClass).pop()]] },
    State { name: "var", rules: &[&[r(r"(?:[^\W\d]|\$)[\w$]*", Name).pop()]] },
    State { name: "import", rules: &[&[r(r"[\w.]+\*?", NameNamespace).pop()]] },
    State { name: "multiline_string", rules: &[&[r("\"\"\"", String).pop(), r("\"", String)], STRING] },
    State { name: "string", rules: &[STRING] },
]);

static STRING: &[super::super::engine::Rule] = &[
    r(r#"[^\\"]+"#, String),
    r(r"\\\\", String),
    r(r#"\\""#, String),
    r(r"\\", String),
    r("\"", String).pop(),
];
