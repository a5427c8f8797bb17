// Renders each Markdown source of a JSON array (stdin) with confab-web, the core compiled to
// WebAssembly, and prints the HTML as a JSON array. Usage: node render.cjs PKG_DIR < corpus.json
const path = require("node:path");
const web = require(path.resolve(process.argv[2], "confab_web.js"));

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const sources = JSON.parse(input);
  process.stdout.write(JSON.stringify(sources.map((source) => web.renderMarkdown(source))));
});
