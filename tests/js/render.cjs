// Renders each Markdown source of a JSON array (stdin) with confab-web (the npm package's Node
// build: the core compiled to WebAssembly), in the organization of a snapshot file, and prints
// the renderings (HTML and facts) as a JSON array.
// Usage: node render.cjs PACKAGE_DIR ORGANIZATION_JSON < sources.json
const fs = require("node:fs");
const path = require("node:path");
const web = require(path.resolve(process.argv[2], "node", "confab_web.js"));
const organization = JSON.parse(fs.readFileSync(process.argv[3], "utf8"));

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const sources = JSON.parse(input);
  const renderings = sources.map((source) => web.renderMessage(source, organization));
  process.stdout.write(JSON.stringify(renderings));
});
