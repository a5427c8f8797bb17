// Scratch: the highlighting bench's in-process rendering, without the server (not committed).
use confab_core::markdown::{OrganizationSnapshot, render};
use std::hint::black_box;
use std::time::Instant;

fn main() {
    let only: Vec<String> = std::env::args().skip(1).collect();
    let dir = std::path::Path::new("/work/wt-hl/tests/corpus/highlighting");
    let mut langs: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    langs.sort();
    let mut snippets = Vec::new();
    for l in langs {
        let lang = l.file_name().unwrap().to_str().unwrap().to_owned();
        if !only.is_empty() && !only.contains(&lang) {
            continue;
        }
        let mut files: Vec<_> = std::fs::read_dir(&l).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        for f in files {
            let code = std::fs::read_to_string(f).unwrap();
            snippets.push((lang.clone(), format!("{}\n", code.replace("\r\n", "\n").trim_matches('\n'))));
        }
    }
    let messages = |with: bool| -> Vec<String> {
        (0..100)
            .map(|i| {
                let block = |s: &(String, String)| {
                    format!("````{}\n{}````", if with { s.0.as_str() } else { "" }, s.1)
                };
                let a = &snippets[i % snippets.len()];
                let b = &snippets[(i * 7 + 3) % snippets.len()];
                format!(
                    "Here is what I have so far:\n{}\nand the other half:\n{}\nThoughts?",
                    block(a),
                    block(b)
                )
            })
            .collect()
    };
    let org = OrganizationSnapshot::default();
    for (name, msgs) in [("highlighted", messages(true)), ("no language", messages(false))] {
        for m in &msgs {
            black_box(render(m, &org));
        }
        let mut times: Vec<f64> = (0..20)
            .map(|_| {
                let t = Instant::now();
                for m in &msgs {
                    black_box(render(m, &org));
                }
                t.elapsed().as_secs_f64() * 1e6 / 100.0
            })
            .collect();
        times.sort_by(|a, b| a.partial_cmp(b).unwrap());
        println!("{name}: {:.0} µs a message ({} snippets)", times[10], snippets.len());
    }
}
