//! How far Confab's highlighter agrees with Pygments, the highlighter of Zulip's server: the
//! corpus under `tests/corpus/highlighting/<language>/` is lexed by both, and each character
//! counts as agreeing when both give it the same short CSS class (Pygments' nearest standard
//! token type: `nf`, `s2`, `""` for plain text). Whitespace characters are not counted: Pygments
//! calls them `Text` or `Whitespace` by lexer and by position, and neither is coloured.
//!
//! Depends on core, serde_json and std only (the benchmark and the test share it).

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::{Value, json};

/// A code block of the corpus.
#[derive(Debug, Clone)]
pub struct Snippet {
    /// The fence language: the corpus directory's name, a Pygments alias.
    pub language: String,
    /// The file's name.
    pub name: String,
    pub code: String,
}

/// A list of `(class, text)` tokens.
pub type Tokens = Vec<(String, String)>;

/// The corpus directory of the workspace.
pub fn corpus_dir(workspace: &Path) -> PathBuf {
    workspace.join("tests/corpus/highlighting")
}

/// Every snippet, by language then file name.
pub fn corpus(dir: &Path) -> Vec<Snippet> {
    let mut languages: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("the corpus directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    languages.sort();
    let mut snippets = Vec::new();
    for language_dir in languages {
        let language = language_dir.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_owned();
        let mut files: Vec<PathBuf> = std::fs::read_dir(&language_dir)
            .expect("a language directory")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file())
            .collect();
        files.sort();
        for file in files {
            let code = std::fs::read_to_string(&file).expect("a UTF-8 snippet");
            let name = file.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_owned();
            snippets.push(Snippet { language: language.clone(), name, code: normalize(&code) });
        }
    }
    snippets
}

/// The code as both lexers take it: no carriage returns, no leading or trailing newlines, one
/// final newline.
fn normalize(code: &str) -> String {
    format!("{}\n", code.replace("\r\n", "\n").trim_matches('\n'))
}

/// Pygments' tokens for each snippet and its version, from `tests/python/pygments_tokens.py`
/// run by `python`.
pub fn pygments_tokens(python: &Path, workspace: &Path, snippets: &[Snippet]) -> (String, Vec<Tokens>) {
    let input: Vec<Value> =
        snippets.iter().map(|s| json!({"language": s.language, "code": s.code})).collect();
    let mut child = Command::new(python)
        .arg(workspace.join("tests/python/pygments_tokens.py"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python runs");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(Value::Array(input).to_string().as_bytes()).expect("write the snippets");
    drop(stdin);
    let output = child.wait_with_output().expect("pygments_tokens.py finishes");
    assert!(output.status.success(), "pygments_tokens.py failed");
    let answer: Value = serde_json::from_slice(&output.stdout).expect("JSON from pygments_tokens.py");
    let version = answer["version"].as_str().unwrap_or_default().to_owned();
    let tokens = answer["tokens"]
        .as_array()
        .expect("tokens")
        .iter()
        .map(|block| {
            block
                .as_array()
                .expect("a block's tokens")
                .iter()
                .map(|t| {
                    (
                        t[0].as_str().unwrap_or_default().to_owned(),
                        t[1].as_str().unwrap_or_default().to_owned(),
                    )
                })
                .collect()
        })
        .collect();
    (version, tokens)
}

/// Confab's tokens for a snippet (none for a language it does not highlight).
pub fn confab_tokens(snippet: &Snippet) -> Tokens {
    confab_core::markdown::code_tokens(&snippet.language, &snippet.code)
        .unwrap_or_default()
        .into_iter()
        .map(|(class, text)| (class.to_owned(), text))
        .collect()
}

/// Each character's class.
fn classes(tokens: &Tokens) -> Vec<(char, &str)> {
    tokens.iter().flat_map(|(class, text)| text.chars().map(move |c| (c, class.as_str()))).collect()
}

/// Counted characters and those given the same class, for one snippet. When the two token
/// streams do not spell the same text, no character agrees.
pub fn compare(ours: &Tokens, theirs: &Tokens) -> (usize, usize) {
    let ours = classes(ours);
    let theirs = classes(theirs);
    let counted = theirs.iter().filter(|(c, _)| !c.is_whitespace()).count();
    if ours.len() != theirs.len() || ours.iter().zip(&theirs).any(|(a, b)| a.0 != b.0) {
        return (counted, 0);
    }
    let agreeing = ours.iter().zip(&theirs).filter(|(a, b)| !a.0.is_whitespace() && a.1 == b.1).count();
    (counted, agreeing)
}

/// One language's figures.
#[derive(Debug, Clone)]
pub struct Agreement {
    pub language: String,
    pub snippets: usize,
    pub lines: usize,
    pub chars: usize,
    pub agreeing: usize,
}

impl Agreement {
    /// The share of counted characters that agree, in percent.
    pub fn percent(&self) -> f64 {
        if self.chars == 0 { 100.0 } else { 100.0 * self.agreeing as f64 / self.chars as f64 }
    }
}

/// Per language, then the overall figure (all characters of all languages).
pub fn agreement(snippets: &[Snippet], pygments: &[Tokens]) -> (Vec<Agreement>, Agreement) {
    let mut per_language: Vec<Agreement> = Vec::new();
    for (snippet, theirs) in snippets.iter().zip(pygments) {
        let (chars, agreeing) = compare(&confab_tokens(snippet), theirs);
        let lines = snippet.code.lines().count();
        match per_language.last_mut() {
            Some(last) if last.language == snippet.language => {
                last.snippets += 1;
                last.lines += lines;
                last.chars += chars;
                last.agreeing += agreeing;
            }
            _ => per_language.push(Agreement {
                language: snippet.language.clone(),
                snippets: 1,
                lines,
                chars,
                agreeing,
            }),
        }
    }
    let overall = Agreement {
        language: "overall".to_owned(),
        snippets: per_language.iter().map(|a| a.snippets).sum(),
        lines: per_language.iter().map(|a| a.lines).sum(),
        chars: per_language.iter().map(|a| a.chars).sum(),
        agreeing: per_language.iter().map(|a| a.agreeing).sum(),
    };
    (per_language, overall)
}

/// The table the benchmark prints.
pub fn table(per_language: &[Agreement], overall: &Agreement) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "| language | snippets | lines | characters | agreeing |");
    let _ = writeln!(out, "|---|---:|---:|---:|---:|");
    for a in per_language.iter().chain([overall]) {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {:.1} % |",
            a.language,
            a.snippets,
            a.lines,
            a.chars,
            a.percent()
        );
    }
    out
}

/// The tokens where the two disagree, for reading: `line: text ours/theirs`.
pub fn differences(ours: &Tokens, theirs: &Tokens) -> Vec<String> {
    let ours = classes(ours);
    let theirs = classes(theirs);
    if ours.len() != theirs.len() || ours.iter().zip(&theirs).any(|(a, b)| a.0 != b.0) {
        let a: String = ours.iter().map(|c| c.0).collect();
        let b: String = theirs.iter().map(|c| c.0).collect();
        let at = a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count();
        return vec![format!(
            "texts differ at char {at} ({} vs {} chars)",
            a.chars().count(),
            b.chars().count()
        )];
    }
    let mut out = Vec::new();
    let mut line = 1;
    let mut i = 0;
    while i < ours.len() {
        if ours[i].0 == '\n' {
            line += 1;
        }
        if ours[i].1 != theirs[i].1 && !ours[i].0.is_whitespace() {
            let start = i;
            while i < ours.len()
                && ours[i].1 != theirs[i].1
                && ours[i].1 == ours[start].1
                && theirs[i].1 == theirs[start].1
            {
                i += 1;
            }
            let text: String = ours[start..i].iter().map(|c| c.0).collect();
            out.push(format!("{line}: {text:?} ours {:?} pygments {:?}", ours[start].1, theirs[start].1));
            continue;
        }
        i += 1;
    }
    out
}
