//! Dockerfiles, as Pygments' `DockerLexer` (`docker`, `dockerfile`) tokenizes them: the
//! instructions' shell commands are Bash, exec forms JSON.

use super::super::engine::{Grammar, Part, State, g, parts, using};
use super::super::token::Token::*;
use super::{bash::BASH, json::JSON};

pub(in super::super) static DOCKER: Grammar = Grammar::new(&[State {
    name: "root",
    rules: &[&[
        super::super::engine::r("#.*", Comment),
        g(
            r"(?i)(FROM)([ \t]*)(\S*)([ \t]*)(?:(AS)([ \t]*)(\S*))?",
            &[Keyword, Whitespace, String, Whitespace, Keyword, Whitespace, String],
        ),
        parts(
            r"(?i)(ONBUILD)(\s+)((?:\s*\\?\s*))",
            &[Part::Token(Keyword), Part::Token(Whitespace), Part::Using(&BASH)],
        ),
        parts(
            r"(?i)(HEALTHCHECK)(\s+)((?:(?:\s*\\?\s*)--\w+=\w+(?:\s*\\?\s*))*)",
            &[Part::Token(Keyword), Part::Token(Whitespace), Part::Using(&BASH)],
        ),
        parts(
            r"(?i)(VOLUME|ENTRYPOINT|CMD|SHELL)(\s+)((?:\s*\\?\s*))(\[.*?\])",
            &[Part::Token(Keyword), Part::Token(Whitespace), Part::Using(&BASH), Part::Using(&JSON)],
        ),
        parts(
            r"(?i)(LABEL|ENV|ARG)(\s+)((?:(?:\s*\\?\s*)\w+=\w+(?:\s*\\?\s*))*)",
            &[Part::Token(Keyword), Part::Token(Whitespace), Part::Using(&BASH)],
        ),
        g(
            r"(?i)((?:MAINTAINER|EXPOSE|WORKDIR|USER|STOPSIGNAL)|VOLUME)\b(\s+)(.*)",
            &[Keyword, Whitespace, String],
        ),
        g(r"(?i)((?:RUN|CMD|ENTRYPOINT|ENV|ARG|LABEL|ADD|COPY))(\s+)", &[Keyword, Whitespace]),
        using(r"(?i)(?:.*\\\n)*.+", &BASH),
    ]],
}]);
