//! The same rules in the browser: confab-core compiled to WebAssembly (through confab-web and
//! wasm-bindgen, in the npm package's Node build) renders every Markdown golden case and the render corpus, in one
//! organization, to exactly the HTML and facts the native build does.

use std::io::Write;
use std::process::{Command, Stdio};

use confab_core::markdown::{self, OrganizationSnapshot};

/// Every Markdown source we have: the golden cases of confab-core and the render corpus.
fn corpus(root: &std::path::Path) -> Vec<String> {
    let golden = std::fs::read_to_string(root.join("core/tests/markdown/cases.jsonl")).expect("golden cases");
    let mut sources: Vec<String> = golden
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let case: serde_json::Value = serde_json::from_str(line).expect("a case is JSON");
            case["input"].as_str().expect("a case has an input").to_owned()
        })
        .collect();
    let extra = std::fs::read_to_string(root.join("tests/data/render_corpus.json")).expect("corpus");
    sources.extend(serde_json::from_str::<Vec<String>>(&extra).expect("corpus is a JSON array of strings"));
    sources
}

#[test]
fn wasm_and_native_render_identical_html_and_facts() {
    let root = confab_tests::workspace_root();
    let sources = corpus(&root);
    let organization_json =
        std::fs::read_to_string(root.join("tests/data/organization.json")).expect("organization fixture");
    let organization: OrganizationSnapshot = serde_json::from_str(&organization_json).expect("snapshot");
    let native: Vec<serde_json::Value> = sources
        .iter()
        .map(|s| serde_json::to_value(markdown::render(s, &organization)).expect("rendering serializes"))
        .collect();

    let pkg = confab_tests::web::package();
    let mut node = Command::new("node")
        .arg(root.join("tests/js/render.cjs"))
        .arg(&pkg)
        .arg(root.join("tests/data/organization.json"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("node runs");
    let input = serde_json::to_vec(&sources).expect("sources serialize");
    node.stdin.take().expect("stdin").write_all(&input).expect("corpus written");
    let output = node.wait_with_output().expect("node finishes");
    assert!(output.status.success(), "node failed:\n{}", String::from_utf8_lossy(&output.stderr));
    let wasm: Vec<serde_json::Value> =
        serde_json::from_slice(&output.stdout).expect("node prints a JSON array");

    assert!(sources.len() > 300, "the corpus covers every golden case");
    assert_eq!(wasm.len(), sources.len());
    for ((source, native), wasm) in sources.iter().zip(&native).zip(&wasm) {
        assert_eq!(native, wasm, "renderings differ for {source:?}");
    }
}
