// Builds the browser client into one directory that `confab serve` embeds:
//   index.html           the app shell, served at / and /login/
//   sw.js                the service worker (caches the shell for offline starts)
//   static/assets/*      content-hashed script, styles (with KaTeX's fonts) and the engine's WebAssembly
//   static/icon.svg
// Served as: / and /login/ -> index.html, /sw.js, /static/* -> static/*.
//
//   node build.mjs --engine DIR --out DIR
//
// DIR of --engine is confab-web's `web` build (confab_web.js, confab_web_bg.wasm,
// confab_web.d.ts). It is copied to ./engine so that tsc resolves `confab-web` to it.
// The type check runs first: a client with type errors is not built.
import { build } from "esbuild";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const here = dirname(fileURLToPath(import.meta.url));
const { values: args } = parseArgs({
  options: { engine: { type: "string" }, out: { type: "string" }, "skip-typecheck": { type: "boolean" } },
});
if (!args.engine || !args.out) {
  console.error("usage: node build.mjs --engine DIR --out DIR");
  process.exit(2);
}
const engineDir = join(here, "engine");
const out = resolve(args.out);

rmSync(engineDir, { recursive: true, force: true });
mkdirSync(engineDir);
for (const file of ["confab_web.js", "confab_web.d.ts", "confab_web_bg.wasm"]) {
  cpSync(join(resolve(args.engine), file), join(engineDir, file));
}

if (!args["skip-typecheck"]) {
  execFileSync(process.execPath, [join(here, "node_modules/typescript/bin/tsc"), "-p", here], { stdio: "inherit" });
}

rmSync(out, { recursive: true, force: true });
const assets = join(out, "static", "assets");
mkdirSync(assets, { recursive: true });

const hashed = (name, bytes) => {
  const hash = createHash("sha256").update(bytes).digest("hex").slice(0, 12);
  const dot = name.lastIndexOf(".");
  return `${name.slice(0, dot)}-${hash}${name.slice(dot)}`;
};

const wasm = readFileSync(join(engineDir, "confab_web_bg.wasm"));
const wasmName = hashed("confab_web_bg.wasm", wasm);
writeFileSync(join(assets, wasmName), wasm);

const bundle = await build({
  entryPoints: { app: join(here, "src/main.tsx") },
  bundle: true,
  format: "esm",
  target: "es2022",
  minify: true,
  sourcemap: false,
  write: false,
  outdir: assets,
  alias: { "confab-web": join(engineDir, "confab_web.js") },
  define: { ENGINE_WASM_URL: JSON.stringify(`/static/assets/${wasmName}`) },
  jsx: "automatic",
  jsxImportSource: "preact",
  // KaTeX's stylesheet names each font as woff2, woff and ttf: browsers take the woff2, so
  // only those are bundled (as files beside the stylesheet, named by esbuild's own hash).
  loader: { ".css": "css", ".woff2": "file" },
  external: ["*.woff", "*.ttf"],
  assetNames: "[name]-[hash]",
  logLevel: "warning",
});

const shell = { wasm: `/static/assets/${wasmName}` };
for (const file of bundle.outputFiles) {
  const name = file.path.slice(file.path.lastIndexOf("/") + 1);
  if (name.endsWith(".woff2")) {
    // Already content-hashed, and named so in the stylesheet.
    writeFileSync(join(assets, name), file.contents);
    continue;
  }
  const finalName = hashed(name, file.contents);
  writeFileSync(join(assets, finalName), file.contents);
  if (name.endsWith(".js")) shell.script = `/static/assets/${finalName}`;
  if (name.endsWith(".css")) shell.style = `/static/assets/${finalName}`;
}

const version = createHash("sha256").update(JSON.stringify(shell)).digest("hex").slice(0, 12);
const html = readFileSync(join(here, "static/index.html"), "utf8")
  .replaceAll("{{script}}", shell.script)
  .replaceAll("{{style}}", shell.style)
  .replaceAll("{{wasm}}", shell.wasm)
  .replaceAll("{{version}}", version);
writeFileSync(join(out, "index.html"), html);

const worker = readFileSync(join(here, "static/sw.js"), "utf8")
  .replace("SHELL_VERSION", JSON.stringify(version))
  .replace("SHELL_ASSETS", JSON.stringify(["/", shell.script, shell.style, shell.wasm]));
writeFileSync(join(out, "sw.js"), worker);
cpSync(join(here, "static/icon.svg"), join(out, "static", "icon.svg"));

console.log(`www: built ${version} into ${out}`);
