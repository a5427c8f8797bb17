//! The highlighter against Pygments (installed from PyPI into the test environment) over the
//! corpus under `tests/corpus/highlighting/`: the share of characters given the same class
//! must not fall below what it reached (`cargo bench -p confab-tests --bench highlighting`
//! prints the table; `confab_tests::highlighting` has the counting rule).

use confab_tests::highlighting::{
    agreement, confab_tokens, corpus, corpus_dir, differences, pygments_tokens, table,
};
use confab_tests::{python, workspace_root};

/// The overall agreement reached when the grammars were written, less a margin for an
/// intended change in one grammar; a lower figure means a grammar regressed.
const OVERALL_FLOOR: f64 = 99.0;
/// No language of the corpus may fall below this.
const LANGUAGE_FLOOR: f64 = 95.0;

#[test]
fn agreement_with_pygments_holds() {
    let workspace = workspace_root();
    let snippets = corpus(&corpus_dir(&workspace));
    assert!(!snippets.is_empty(), "the corpus is empty");
    let (version, tokens) = pygments_tokens(&python::python(), &workspace, &snippets);
    let (per_language, overall) = agreement(&snippets, &tokens);
    eprintln!("Pygments {version}\n{}", table(&per_language, &overall));
    // Where a snippet disagrees, the first differences, to read when a floor fails.
    for (snippet, theirs) in snippets.iter().zip(&tokens) {
        for difference in differences(&confab_tokens(snippet), theirs).iter().take(12) {
            eprintln!("{}/{} {difference}", snippet.language, snippet.name);
        }
    }
    for language in &per_language {
        assert!(
            language.percent() >= LANGUAGE_FLOOR,
            "{} agrees on {:.1} % of characters (floor {LANGUAGE_FLOOR} %)",
            language.language,
            language.percent()
        );
    }
    assert!(
        overall.percent() >= OVERALL_FLOOR,
        "overall agreement {:.1} % is below {OVERALL_FLOOR} %",
        overall.percent()
    );
}

/// Every language of the corpus is one the highlighter has a grammar for.
#[test]
fn every_corpus_language_is_highlighted() {
    for snippet in corpus(&corpus_dir(&workspace_root())) {
        assert!(
            confab_core::markdown::code_tokens(&snippet.language, &snippet.code).is_some(),
            "no grammar for {}",
            snippet.language
        );
    }
}
