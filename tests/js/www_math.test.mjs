// Math in the browser renders to the server's bytes. A page loads confab-web's `web` build and
// the `katex` npm package the web client bundles (www/node_modules, pinned to the server's
// KaTeX release) and renders each source with `renderMessage`; the server renders the same
// sources as messages; the two HTML strings must be equal byte for byte. Then the web client
// itself shows a math message with KaTeX's stylesheet and fonts, and its compose preview (the
// engine, with the bundled KaTeX) equals the message the server sent. KaTeX's fonts, fetched
// when math is first shown, stay in the service worker's cache for use offline.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { logIn, messageWithText, newPage, screenshot, site, users } from "./browser_support.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const engine = join(process.env.CONFAB_WEB_PACKAGE, "web");

const SOURCES = [
  "$$x^2$$",
  "intro text\n$$p+q =4$$\n$$x+y=z$$\nhello world",
  "I *think* $$e^{i\\pi} = -1$$ is the **coolest** thing since $$x^2 + y^2 = z^2$$.",
  "$$\\frac{a}{b} \\cdot \\sqrt[3]{\\alpha_1^{2}} \\le \\sum_{i=0}^{\\infty} \\binom{n}{k}$$",
  "$$\\text{naïve café} \\mathbb{R} \\to \\mathcal{L}$$",
  "```math\n\\int_0^1 f(x)\\,dx = \\lim_{n\\to\\infty} \\sum_{k=1}^n \\frac{1}{n} f\\left(\\frac{k}{n}\\right)\n```",
  "```math\na + b = 33\n\n\n\n\n\n\n\nd+x = 44\n```",
  "```math\n\\begin{pmatrix} 1 & 0 \\\\ 0 & 1 \\end{pmatrix} \\quad \\begin{aligned} a &= b \\\\ c &= d \\end{aligned}\n```",
  "```math\n\\color{red} x \\overbrace{a+b}^{n} \\xrightarrow{f} \\underline{y} \\not= \\mathrm{z}\n```",
  // What KaTeX rejects: a tex-error on both sides.
  "broken $$\\frac{1}{$$ and $$\\nosuchmacro<b>$$",
  "```math\nx^2\n\n\\begin{matrix} a \\end{pmatrix}\n```",
];

/** The server's rendering of each source, sent to general as alice. */
async function serverRenderings(user) {
  const headers = { Authorization: `Basic ${btoa(`${user.email}:${user.apiKey}`)}` };
  const rendered = [];
  for (const content of SOURCES) {
    const body = new URLSearchParams({ type: "stream", to: "general", topic: "math parity", content });
    const sent = await (await fetch(`${site}/api/v1/messages`, { method: "POST", headers, body })).json();
    assert.equal(sent.result, "success", JSON.stringify(sent));
    const read = await (await fetch(`${site}/api/v1/messages/${sent.id}`, { headers })).json();
    rendered.push(read.message.content);
  }
  return rendered;
}

/** A page of its own origin holding the engine and www's KaTeX, as local files. */
async function enginePage() {
  const { page } = await newPage();
  const files = {
    "/confab_web.js": [join(engine, "confab_web.js"), "text/javascript"],
    "/confab_web_bg.wasm": [join(engine, "confab_web_bg.wasm"), "application/wasm"],
    "/katex.mjs": [join(root, "www/node_modules/katex/dist/katex.mjs"), "text/javascript"],
  };
  await page.route("http://engine.test/**", (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === "/") return route.fulfill({ contentType: "text/html", body: "<!doctype html><title>engine</title>" });
    const [file, contentType] = files[path] ?? [];
    return file ? route.fulfill({ contentType, body: readFileSync(file) }) : route.fulfill({ status: 404 });
  });
  await page.goto("http://engine.test/");
  await page.evaluate(async () => {
    const web = await import("/confab_web.js");
    const { default: katex } = await import("/katex.mjs");
    await web.default({ module_or_path: "/confab_web_bg.wasm" });
    web.useKatex(katex);
    window.renderHtml = (source) => web.renderMessage(source, {}).html;
  });
  return page;
}

test("the engine with www's KaTeX renders math to the server's bytes", async () => {
  const server = await serverRenderings(users.a);
  const page = await enginePage();
  const browser = await page.evaluate((sources) => sources.map((s) => window.renderHtml(s)), SOURCES);
  // All but the rejected inline math hold KaTeX; the last block holds both.
  assert.equal(server.filter((html) => html.includes('<span class="katex">')).length, SOURCES.length - 1);
  assert.match(server.at(-2), /^<p>broken <span class="tex-error">/);
  assert.match(server.at(-1), /<\/span>\n\n<span class="tex-error">/);
  for (const [i, source] of SOURCES.entries()) {
    assert.equal(browser[i], server[i], `renderings differ for ${JSON.stringify(source)}`);
  }
  // Another KaTeX release would render other bytes: the engine refuses it.
  const refusal = await page.evaluate(async () => {
    const web = await import("/confab_web.js");
    try {
      web.useKatex({ version: "0.16.9", renderToString: () => "" });
    } catch (error) {
      return String(error.message ?? error);
    }
  });
  assert.match(refusal, /KaTeX 0\.16\.4, as the server does; this page has KaTeX 0\.16\.9/);
});

test("the web client shows math with KaTeX's fonts and previews it as the server renders it", async () => {
  const { page } = await newPage();
  await logIn(page, users.a);
  await page.goto(`${site}/#narrow/channel/general`);
  await page.getByRole("heading", { name: "#general", exact: true }).waitFor().catch(async (error) => {
    await screenshot(page, "math-failure");
    throw error;
  });
  await page.keyboard.press("c");
  await page.getByRole("combobox", { name: "Topic" }).fill("math shown");
  const text = page.getByRole("combobox", { name: "Message text" });
  await text.fill("Shown: $$\\sum_{k=1}^n k = \\frac{n(n+1)}{2}$$");
  await page.getByRole("button", { name: "Preview" }).click();
  const preview = await page.getByLabel("Preview").innerHTML();
  assert.match(preview, /<span class="katex">/);
  await page.getByRole("button", { name: "Edit", exact: true }).click();
  await text.press("Control+Enter");
  const shown = messageWithText(page, "Shown:").locator(".message-content");
  await shown.locator(".katex-html").waitFor();
  assert.equal(await shown.innerHTML(), preview);
  // Fonts first, then the element: the message shown at once is replaced by the server's copy
  // when its event comes, and a replaced element has no computed style.
  const loaded = await page.evaluate(async () => {
    await document.fonts.ready;
    return document.fonts.check("1em KaTeX_Main");
  });
  const family = await shown.locator(".katex").first().evaluate((element) => getComputedStyle(element).fontFamily);
  assert.match(family, /KaTeX_Main/);
  assert.ok(loaded, "KaTeX_Main is loaded from the bundled woff2");
  // The MathML is for screen readers only: KaTeX's stylesheet hides it.
  assert.equal(await shown.locator(".katex-mathml").first().evaluate((e) => getComputedStyle(e).position), "absolute");
  await shown.scrollIntoViewIfNeeded();
  await screenshot(page, "math");
});

test("KaTeX's fonts, once shown, are kept for use offline", async () => {
  const { page, context } = await newPage();
  await logIn(page, users.b);
  // The service worker takes the page over as it activates (`clients.claim`).
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await page.goto(`${site}/#narrow/channel/general`);
  const math = messageWithText(page, "Shown:").locator(".katex-html").first();
  await math.waitFor();
  await math.evaluate(() => document.fonts.ready);
  const kept = await page.waitForFunction(async () => {
    for (const key of await caches.keys()) {
      const cache = await caches.open(key);
      const font = (await cache.keys()).find((request) => request.url.endsWith(".woff2"));
      if (font) return font.url;
    }
    return null;
  });
  const fontUrl = await kept.jsonValue();
  assert.match(fontUrl, /\/static\/assets\/KaTeX_[A-Za-z0-9_-]+\.woff2$/);
  await context.setOffline(true);
  const offline = await page.evaluate(async (url) => {
    const response = await fetch(url);
    return { status: response.status, bytes: (await response.arrayBuffer()).byteLength };
  }, fontUrl);
  assert.equal(offline.status, 200);
  assert.ok(offline.bytes > 1000, `a whole font offline (${offline.bytes} bytes)`);
  await context.close();
});
