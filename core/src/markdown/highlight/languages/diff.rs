//! Unified and context diffs, as Pygments' `DiffLexer` (`diff`, `udiff`) tokenizes them: one
//! token per line.

use super::super::engine::{Grammar, State, g};
use super::super::token::Token::*;

pub(in super::super) static DIFF: Grammar = Grammar::new(&[State {
    name: "root",
    rules: &[&[
        g(r"( )(.*)(\n)", &[Whitespace, Text, Whitespace]),
        g(r"(!.*|---)(\n)", &[GenericStrong, Whitespace]),
        g(r"((?:< |-).*)(\n)", &[GenericDeleted, Whitespace]),
        g(r"((?:> |\+).*)(\n)", &[GenericInserted, Whitespace]),
        g(r"(@.*|\d(?:,\d+)?(?:a|c|d)\d+(?:,\d+)?)(\n)", &[GenericSubheading, Whitespace]),
        g(r"((?:[Ii]ndex|diff).*)(\n)", &[GenericHeading, Whitespace]),
        g(r"(=.*)(\n)", &[GenericHeading, Whitespace]),
        g(r"(.*)(\n)", &[Text, Whitespace]),
    ]],
}]);
