//! Markdown, as Pygments' `MarkdownLexer` (`markdown`, `md`) tokenizes it: headings, list
//! markers, quotes, emphasis, links, and fenced code lexed in the fence's language.

use super::super::engine::{Grammar, Part, State, g, parts, r};
use super::super::token::Token::*;

pub(in super::super) static MARKDOWN: Grammar = Grammar::new(&[State {
    name: "root",
    rules: &[
        &[
            g(r"(^#[^#].+)(\n)", &[GenericHeading, Text]),
            g(r"(^#{2,6}[^#].+)(\n)", &[GenericSubheading, Text]),
            g(r"^(.+)(\n)(=+)(\n)", &[GenericHeading, Text, GenericHeading, Text]),
            g(r"^(.+)(\n)(-+)(\n)", &[GenericSubheading, Text, GenericSubheading, Text]),
            parts(
                r"^(\s*)([*-] )(\[[ xX]\])( .+\n)",
                &[Part::Token(Whitespace), Part::Token(Keyword), Part::Token(Keyword), Part::Using(&INLINE)],
            ),
            parts(
                r"^(\s*)([*-])(\s)(.+\n)",
                &[
                    Part::Token(Whitespace),
                    Part::Token(Keyword),
                    Part::Token(Whitespace),
                    Part::Using(&INLINE),
                ],
            ),
            parts(
                r"^(\s*)([0-9]+\.)( .+\n)",
                &[Part::Token(Whitespace), Part::Token(Keyword), Part::Using(&INLINE)],
            ),
            g(r"^(\s*>\s)(.+\n)", &[Keyword, GenericEmph]),
            r(r"(?s)^\s*```\n.*?^\s*```$\n", StringBacktick),
            parts(
                r"(?s)^(\s*```)([\w\-]+)(?:([^\S\n]+)([^\n]*))?(\n)(.*?)(^\s*```$\n)",
                &[
                    Part::Token(StringBacktick),
                    Part::Token(StringBacktick),
                    Part::Token(Whitespace),
                    Part::Token(Text),
                    Part::Token(Whitespace),
                    Part::Language(2),
                    Part::Token(StringBacktick),
                ],
            ),
        ],
        INLINE_RULES,
    ],
}]);

/// A list item's or a paragraph's text.
static INLINE: Grammar = Grammar::new(&[State { name: "root", rules: &[INLINE_RULES] }]);

static INLINE_RULES: &[super::super::engine::Rule] = &[
    r(r"\\.", Text),
    g(r"([^`]?)(`[^`\n]+`)", &[Text, StringBacktick]),
    g(r"([^\*]?)(\*\*\*[^* \n][^*\n]*\*\*\*)", &[Text, GenericEmphStrong]),
    g(r"([^_]?)(___[^_ \n][^_\n]*___)", &[Text, GenericEmphStrong]),
    g(r"([^\*]?)(\*\*[^* \n][^*\n]*\*\*)", &[Text, GenericStrong]),
    g(r"([^_]?)(__[^_ \n][^_\n]*__)", &[Text, GenericStrong]),
    g(r"([^\*]?)(\*[^* \n][^*\n]*\*)", &[Text, GenericEmph]),
    g(r"([^_]?)(_[^_ \n][^_\n]*_)", &[Text, GenericEmph]),
    g(r"([^~]?)(~~[^~ \n][^~\n]*~~)", &[Text, GenericDeleted]),
    r(r"[@#][\w/:-]+", NameEntity),
    g(r"(!?\[)([^\]]+)(\])(\()([^)]+)(\))", &[Text, NameTag, Text, Text, NameAttribute, Text]),
    g(r"(\[)([^\]]+)(\])(\[)([^\]]*)(\])", &[Text, NameTag, Text, Text, NameLabel, Text]),
    g(r"^(\s*\[)([^\]]*)(\]:\s*)(.+)", &[Text, NameLabel, Text, NameAttribute]),
    r(r"[^\\\s]+", Text),
    r(".", Text),
];
