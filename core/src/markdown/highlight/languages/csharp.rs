//! C#, as Pygments' `CSharpLexer` (`csharp`, `c#`) tokenizes it at its default Unicode level:
//! a name followed by `(` after a type at the start of a line is a function.

use super::super::engine::{Grammar, Part, State, default, g, parts, r};
use super::super::token::Token::*;

pub(in super::super) static CSHARP: Grammar = Grammar::new(&[
    State {
        name: "root",
        rules: &[&[
            r(r"(?:[0-9]+\.[0-9]+(?:[eE][+-]?[0-9]+)?[fFdDmM]?)|(?:\.[0-9]+(?:[eE][+-]?[0-9]+)?[fFdDmM]?)|(?:[0-9]+(?:[eE][+-]?[0-9]+)[fFdDmM]?)|(?:[0-9]+[fFdDmM])", NumberFloat),
            r(r"0[xX][0-9a-fA-F]+(?:(?:[uU][lL]?)|[lL][uU]?)?", NumberHex),
            r(r"0[bB][01]+(?:(?:[uU][lL]?)|[lL][uU]?)?", NumberBin),
            r(r"[0-9]+(?:(?:[uU][lL]?)|[lL][uU]?)?", NumberInteger),
            parts(
                r"^([ \t]*)((?:@?[_\p{Lu}\p{Ll}\p{Lt}\p{Lm}\p{Nl}][\p{Lu}\p{Ll}\p{Lt}\p{Lm}\p{Nl}\p{Nd}\p{Pc}\p{Cf}\p{Mn}\p{Mc}]*(?:\[\])?\s+)+?)(@?[_\p{Lu}\p{Ll}\p{Lt}\p{Lm}\p{Nl}][\p{Lu}\p{Ll}\p{Lt}\p{Lm}\p{Nl}\p{Nd}\p{Pc}\p{Cf}\p{Mn}\p{Mc}]*)(\s*)(\()",
                &[Part::Token(Whitespace), Part::Using(&CSHARP), Part::Token(NameFunction), Part::Token(Whitespace), Part::Token(Punctuation)],
            ),
            g(r"(?s)^(\s*)(\[.*?\])", &[Whitespace, NameAttribute]),
            r(r"[^\S\n]+", Whitespace),
            g(r"(\\)(\n)", &[Text, Whitespace]),
            r(r"(?s)//.*?\n", CommentSingle),
            r(r"(?s)/[*].*?[*]/", CommentMultiline),
            r(r"\n", Whitespace),
            r(r">>>=|>>=|<<=|<=|>=|\+=|-=|\*=|/=|%=|&=|\|=|\^=|\?\?=|=>|\?\?|\?\.|!=|==|&&|\|\||>>>|>>|<<|\+\+|--|[-+*/%&|^<>?!~=]", Operator),
            r(r"[()\[\];:,.]", Punctuation),
            r("[{}]", Punctuation),
            r(r#"(?s)\$*"{3,}.*?"{3,}"#, String),
            r(r#"(?:\$@|@\$)"(?:""|[^"])*""#, String),
            r(r#"@"(?:""|[^"])*""#, String),
            r(r#"\$?"(?:\\\\|\\[^\\]|[^"\\\n])*["\n]"#, String),
            r(r"'\\.'|'[^\\]'", StringChar),
            r(r"[0-9]+(?:\.[0-9]*)?(?:[eE][+-][0-9]+)?[flFLdD]?|0[xX][0-9a-fA-F]+[Ll]?", Number),
            g(r"(?s)(#)([ \t]*)(if|endif|else|elif|define|undef|line|error|warning|region|endregion|pragma)\b(.*?)(\n)", &[CommentPreproc, Whitespace, CommentPreproc, CommentPreproc, Whitespace]),
            g(r"\b(extern)(\s+)(alias)\b", &[Keyword, Whitespace, Keyword]),
            r(r"(?:abstract|as|async|await|base|break|by|case|catch|checked|const|continue|default|delegate|do|else|enum|event|explicit|extern|false|finally|fixed|for|foreach|goto|if|implicit|in|interface|internal|is|let|lock|new|null|on|operator|out|override|params|private|protected|public|readonly|ref|return|sealed|sizeof|stackalloc|static|switch|this|throw|true|try|typeof|unchecked|unsafe|virtual|void|while|get|set|partial|yield|add|remove|value|alias|ascending|descending|from|group|into|orderby|select|thenby|where|join|equals|record|allows|and|init|managed|nameof|nint|not|notnull|nuint|or|scoped|unmanaged|when|with)\b", Keyword),
            g(r"(file)(\s+)(record|class|abstract|enum|new|sealed|static)\b", &[Keyword, Whitespace, Keyword]),
            g(r"(global)(::)", &[Keyword, Punctuation]),
            r(r"(?:bool|byte|char|decimal|double|dynamic|float|int|long|object|sbyte|short|string|uint|ulong|ushort|var)\b\??", KeywordType),
            g(r"(class|struct|union)(\s+)", &[Keyword, Whitespace]).push(&["class"]),
            g(r"(namespace|using)(\s+)", &[Keyword, Whitespace]).push(&["namespace"]),
            r(IDENT, Name),
        ]],
    },
    State { name: "class", rules: &[&[r(IDENT, NameClass).pop(), default().pop()]] },
    State {
        name: "namespace",
        rules: &[&[
            default().before(r"\(").pop(),
            r(r"(?:@?[_\p{Lu}\p{Ll}\p{Lt}\p{Lm}\p{Nl}][\p{Lu}\p{Ll}\p{Lt}\p{Lm}\p{Nl}\p{Nd}\p{Pc}\p{Cf}\p{Mn}\p{Mc}]*|\.)+", NameNamespace).pop(),
        ]],
    },
]);

const IDENT: &str =
    r"@?[_\p{Lu}\p{Ll}\p{Lt}\p{Lm}\p{Nl}][\p{Lu}\p{Ll}\p{Lt}\p{Lm}\p{Nl}\p{Nd}\p{Pc}\p{Cf}\p{Mn}\p{Mc}]*";
