//! One grammar per language, each written to tokenize as the Pygments lexer of the same name.
//! The languages are the most used ones of the Stack Overflow Developer Survey 2024
//! ("Programming, scripting, and markup languages"), then the formats most pasted in chat
//! (ARCHITECTURE.md lists them).

use super::engine::Grammar;

mod bash;
mod c_family;
mod csharp;
mod css;
mod diff;
mod docker;
mod go;
mod haskell;
mod html;
mod ini;
mod java;
mod javascript;
mod json;
mod kotlin;
mod lua;
mod markdown;
mod perl;
mod php;
mod python;
mod r;
mod ruby;
mod rust;
mod scala;
mod sql;
mod swift;
mod toml;
mod xml;
mod yaml;

/// Each grammar by the Pygments lexer name (`data-code-language`) it stands in for.
pub(super) static GRAMMARS: &[(&str, &Grammar)] = &[
    ("Bash", &bash::BASH),
    ("C", &c_family::C),
    ("C++", &c_family::CPP),
    ("C#", &csharp::CSHARP),
    ("CSS", &css::CSS),
    ("Diff", &diff::DIFF),
    ("Docker", &docker::DOCKER),
    ("Go", &go::GO),
    ("Haskell", &haskell::HASKELL),
    ("HTML", &html::HTML),
    ("INI", &ini::INI),
    ("Java", &java::JAVA),
    ("JavaScript", &javascript::JAVASCRIPT),
    ("JSON", &json::JSON),
    ("Kotlin", &kotlin::KOTLIN),
    ("Lua", &lua::LUA),
    ("Markdown", &markdown::MARKDOWN),
    ("Perl", &perl::PERL),
    ("PHP", &php::PHP),
    ("Python", &python::PYTHON),
    ("S", &r::R),
    ("Ruby", &ruby::RUBY),
    ("Rust", &rust::RUST),
    ("Scala", &scala::SCALA),
    ("SQL", &sql::SQL),
    ("Swift", &swift::SWIFT),
    ("TOML", &toml::TOML),
    ("XML", &xml::XML),
    ("YAML", &yaml::YAML),
    ("TypeScript", &javascript::TYPESCRIPT),
];

/// The grammar for a Pygments lexer name.
pub(super) fn grammar(lexer_name: &str) -> Option<&'static Grammar> {
    GRAMMARS.iter().find(|(name, _)| *name == lexer_name).map(|(_, grammar)| *grammar)
}

/// The grammar for a language as a fence names it (`py`, `c++`): Pygments' lexer for that
/// alias, as Zulip finds it.
pub(super) fn by_alias(alias: &str) -> Option<&'static Grammar> {
    let alias = alias.trim().to_lowercase();
    let names = super::super::data::lexers::LEXER_NAMES;
    let index = names.binary_search_by(|(known, _)| (*known).cmp(alias.as_str())).ok()?;
    grammar(names[index].1)
}
