// The browser client's first render on a large organization, in Debian's Chromium driven by
// playwright-core; run by `cargo bench -p confab-tests --bench www_first_render`, which seeds
// the organization, starts the server and passes it here. Prints figures, asserts nothing.
//
// - register as the client's engine asks it: time and response size (plain and gzipped);
// - cold: a fresh browser profile opens /login/, logs in through the form, and the first
//   message row (`[data-message-id]`) appears; timed from navigation (the login form's
//   appearance, and the time from the click on "Log in", given apart);
// - warm: the same profile navigates to / again, with the service worker's shell and the
//   IndexedDB snapshot; timed from navigation to the first message row;
// - where the time goes: the median runs' requests and long tasks, and main-thread CPU by code
//   (engine WebAssembly, client JavaScript, browser) from a separate run under the profiler;
// - the app shell's transfer size: what the cold page's shell requests carried on the wire, and
//   each asset fetched again with `Accept-Encoding: gzip`.
import http from "node:http";
import zlib from "node:zlib";
import { launchChromium } from "./chromium.mjs";

const site = process.env.CONFAB_SITE;
const email = process.env.CONFAB_EMAIL;
const password = process.env.CONFAB_PASSWORD;
const apiKey = process.env.CONFAB_API_KEY;
const registerParams = JSON.parse(process.env.CONFAB_REGISTER_PARAMS ?? "[]");
const runs = Number(process.env.CONFAB_BENCH_RUNS ?? "5");

/** Long enough for any client; a run that takes longer is reported as failed. */
const PATIENCE_MS = 120_000;


/** Runs in the page before its own scripts: notes when the login form and the first message
 * row appear, and the main thread's long tasks. Times are `performance.now()`, milliseconds
 * from the navigation's start. */
function observePage() {
  const marks = (globalThis.__confabBench = { longTasks: [] });
  const check = () => {
    if (marks.loginForm === undefined && document.querySelector('input[type="password"]')) {
      marks.loginForm = performance.now();
    }
    if (marks.app === undefined && document.querySelector("#message-list, nav")) {
      marks.app = performance.now();
    }
    if (marks.firstMessage === undefined && document.querySelector("[data-message-id]")) {
      marks.firstMessage = performance.now();
      marks.rows = document.querySelectorAll("[data-message-id]").length;
    }
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true });
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) marks.longTasks.push([entry.startTime, entry.duration]);
    }).observe({ type: "longtask", buffered: true });
  } catch {
    // No long-task timing in this browser: the breakdown goes without it.
  }
}

/** What the page noted, and its resource timings. */
async function pageTimings(page) {
  return page.evaluate(() => ({
    marks: globalThis.__confabBench,
    resources: performance.getEntriesByType("resource").map((r) => ({
      name: r.name,
      start: r.startTime,
      responseStart: r.responseStart,
      end: r.responseEnd,
      encoded: r.encodedBodySize,
      decoded: r.decodedBodySize,
      transfer: r.transferSize,
    })),
    navigation: performance.getEntriesByType("navigation").map((n) => ({ end: n.responseEnd, domContentLoaded: n.domContentLoadedEventEnd }))[0],
  }));
}

async function waitForFirstMessage(page) {
  await page.waitForFunction(() => globalThis.__confabBench?.firstMessage !== undefined, null, { timeout: PATIENCE_MS, polling: 50 });
}

const isShell = (url) => {
  const { origin, pathname } = new URL(url);
  return origin === new URL(site).origin && (pathname === "/" || pathname === "/login/" || pathname === "/sw.js" || pathname.startsWith("/static/"));
};

const apiPath = (url) => {
  const { origin, pathname } = new URL(url);
  return origin === new URL(site).origin && pathname.startsWith("/api/") ? pathname : undefined;
};

/** The API requests a page made before `until`, in order: path, start, end. */
function apiRequests(resources, until) {
  return resources
    .filter((r) => apiPath(r.name) && r.start <= until)
    .map((r) => ({ path: apiPath(r.name), start: r.start, end: r.end, bytes: r.decoded }));
}

/** The time the main thread spent in long tasks within [from, to]. */
function busy(longTasks, from, to) {
  let total = 0;
  for (const [start, duration] of longTasks ?? []) {
    total += Math.max(0, Math.min(start + duration, to) - Math.max(start, from));
  }
  return total;
}

async function coldThenWarm(browser) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  context.setDefaultTimeout(PATIENCE_MS);
  await context.addInitScript(observePage);
  const page = await context.newPage();
  page.on("pageerror", (error) => console.error(`page error: ${error.message}`));
  const shell = [];
  page.on("requestfinished", async (request) => {
    if (!isShell(request.url())) return;
    const response = await request.response();
    const sizes = await request.sizes().catch(() => undefined);
    shell.push({
      url: request.url(),
      type: request.resourceType(),
      encoding: (await response?.headerValue("content-encoding")) ?? "",
      body: sizes?.responseBodySize ?? 0,
      headers: sizes?.responseHeadersSize ?? 0,
    });
  });

  // Cold: navigation, the login form, the click, the first message row.
  await page.goto(`${site}/login/`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  const clickedAt = await page.evaluate(() => performance.now());
  await page.getByRole("button", { name: "Log in" }).click();
  await waitForFirstMessage(page);
  const cold = await pageTimings(page);
  cold.clickedAt = clickedAt;

  // Let the session settle and its snapshot be written, as a user's first visit would.
  await page.waitForLoadState("networkidle").catch(() => undefined);
  await page.waitForTimeout(2_000);
  const shellRequests = [...shell];
  // The requests still in flight at the first render (register) have their timings now.
  cold.settled = (await pageTimings(page)).resources;
  const snapshot = await page.evaluate(readSnapshot);

  // Warm: a new navigation to the app in the same profile.
  await page.goto(`${site}/`);
  await waitForFirstMessage(page);
  const warm = await pageTimings(page);
  const controlled = await page.evaluate(() => Boolean(navigator.serviceWorker?.controller));
  await context.close();
  return { cold, warm, controlled, shellRequests, snapshot };
}

/** In the page: the saved session's size and how long IndexedDB takes to read it (as
 * `www/src/session/persist.ts` stores it). */
async function readSnapshot() {
  const started = performance.now();
  const database = await new Promise((resolve, reject) => {
    const request = indexedDB.open("confab");
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const value = await new Promise((resolve, reject) => {
    const request = database.transaction("session").objectStore("session").get("current");
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  database.close();
  return { bytes: value?.byteLength ?? 0, readMs: performance.now() - started };
}

/** Main-thread CPU time from navigation to the first message row, by whose code ran: the
 * engine's WebAssembly, the client's JavaScript, garbage collection, the browser's own work.
 * Built-ins (JSON.parse, DOM calls) count for the code that called them. A separate run, as
 * the profiler slows the page. */
async function profiled(context, page, navigate) {
  const cdp = await context.newCDPSession(page);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 250 });
  await cdp.send("Profiler.start");
  await navigate();
  await waitForFirstMessage(page);
  const { profile } = await cdp.send("Profiler.stop");
  await cdp.detach();
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const category = (id) => {
    for (let node = byId.get(id); node; node = byId.get(parent.get(node.id))) {
      const { url, functionName } = node.callFrame;
      if (url.startsWith("wasm://") || url.endsWith(".wasm") || functionName.startsWith("$") || functionName.includes("wasm-function")) {
        return "engine (wasm)";
      }
      if (url.includes("/static/assets/")) return "client JavaScript";
      if (url.includes("sw.js")) return "service worker";
      if (functionName === "(garbage collector)") return "garbage collection";
      if (functionName === "(idle)") return "idle";
      if (functionName === "(program)") return "browser (program)";
      if (url) return "other scripts";
    }
    return "browser (program)";
  };
  const totals = new Map();
  profile.samples.forEach((id, i) => {
    const micros = profile.timeDeltas[i + 1] ?? 0;
    totals.set(category(id), (totals.get(category(id)) ?? 0) + micros / 1000);
  });
  return [...totals.entries()].sort((a, b) => b[1] - a[1]);
}

async function profileColdAndWarm(browser) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  context.setDefaultTimeout(PATIENCE_MS);
  await context.addInitScript(observePage);
  const page = await context.newPage();
  await page.goto(`${site}/login/`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  const cold = await profiled(context, page, () => page.getByRole("button", { name: "Log in" }).click());
  await page.waitForLoadState("networkidle").catch(() => undefined);
  await page.waitForTimeout(2_000);
  const warm = await profiled(context, page, () => page.goto(`${site}/`));
  await context.close();
  return { cold, warm };
}

/** Register as the engine asks it, over Node's fetch: time to the whole body, and sizes. */
async function register() {
  const started = performance.now();
  const response = await fetch(`${site}/api/v1/register`, {
    method: "POST",
    headers: { authorization: `Basic ${Buffer.from(`${email}:${apiKey}`).toString("base64")}`, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(registerParams).toString(),
  });
  const body = Buffer.from(await response.arrayBuffer());
  const ms = performance.now() - started;
  if (!response.ok) throw new Error(`register answered ${response.status}: ${body.toString().slice(0, 200)}`);
  const state = JSON.parse(body);
  await fetch(`${site}/api/v1/events?queue_id=${encodeURIComponent(state.queue_id)}`, {
    method: "DELETE",
    headers: { authorization: `Basic ${Buffer.from(`${email}:${apiKey}`).toString("base64")}` },
  });
  const parts = Object.entries(state)
    .map(([key, value]) => [key, JSON.stringify(value).length])
    .sort((a, b) => b[1] - a[1])
    .slice(0, 6);
  return { ms, bytes: body.length, gzipped: zlib.gzipSync(body).length, encoding: response.headers.get("content-encoding"), parts };
}

/** One asset fetched with `Accept-Encoding: gzip`, its bytes counted as they came. */
function fetchGzip(url) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { "accept-encoding": "gzip" } }, (response) => {
        const chunks = [];
        response.on("data", (chunk) => chunks.push(chunk));
        response.on("end", () => {
          const body = Buffer.concat(chunks);
          const encoding = response.headers["content-encoding"] ?? "";
          const plain = encoding === "gzip" ? zlib.gunzipSync(body) : body;
          resolve({ url, status: response.statusCode, encoding, wire: body.length, plain: plain.length, gzipped: zlib.gzipSync(plain, { level: 9 }).length });
        });
      })
      .on("error", reject);
  });
}

const median = (values) => {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)] : NaN;
};
const ms = (v) => `${Math.round(v)} ms`;
const kb = (v) => `${(v / 1024).toFixed(1)} KB`;
const all = (values) => `[${values.map((v) => Math.round(v)).join(", ")}]`;

async function main() {
  const registers = [];
  for (let i = 0; i < runs; i++) registers.push(await register());
  const reg = registers[registers.length - 1];
  console.log(`register: median ${ms(median(registers.map((r) => r.ms)))} ${all(registers.map((r) => r.ms))}; response ${kb(reg.bytes)} (${kb(reg.gzipped)} if gzipped; sent with content-encoding ${reg.encoding ?? "none"})`);
  console.log(`register's largest parts: ${reg.parts.map(([k, n]) => `${k} ${kb(n)}`).join(", ")}`);

  const browser = await launchChromium();
  const results = [];
  for (let i = 0; i < runs; i++) {
    results.push(await coldThenWarm(browser));
    const { cold, warm } = results[i];
    console.log(`run ${i + 1}: cold ${ms(cold.marks.firstMessage)} (form at ${ms(cold.marks.loginForm)}, click to rows ${ms(cold.marks.firstMessage - cold.clickedAt)}), warm ${ms(warm.marks.firstMessage)}`);
  }
  const profile = await profileColdAndWarm(browser);
  await browser.close();

  const cold = results.map((r) => r.cold);
  const warm = results.map((r) => r.warm);
  const coldTotal = cold.map((c) => c.marks.firstMessage);
  const form = cold.map((c) => c.marks.loginForm);
  const afterClick = cold.map((c) => c.marks.firstMessage - c.clickedAt);
  // Navigation to rows without the time spent on the login page (a returning user's cold start).
  const coldNoTyping = cold.map((c) => c.marks.loginForm + (c.marks.firstMessage - c.clickedAt));
  console.log(`\nfirst rendered message list, median of ${runs} (goal: under 1 s):`);
  console.log(`  cold, navigation to rows, login form time excluded: ${ms(median(coldNoTyping))} ${all(coldNoTyping)}`);
  console.log(`    navigation to login form (shell, WebAssembly, boot): ${ms(median(form))} ${all(form)}`);
  console.log(`    "Log in" clicked to rows: ${ms(median(afterClick))} ${all(afterClick)}`);
  console.log(`    as measured, typing included: ${ms(median(coldTotal))}`);
  const warmTotal = warm.map((w) => w.marks.firstMessage);
  console.log(`  warm (service worker, IndexedDB snapshot), navigation to rows: ${ms(median(warmTotal))} ${all(warmTotal)}`);
  console.log(`    page controlled by the service worker: ${results.map((r) => r.controlled).join(", ")}; rows drawn: ${warm[0].marks.rows}`);

  // Where the cold time after the click goes (the median run's requests).
  const order = afterClick.map((v, i) => [v, i]).sort((a, b) => a[0] - b[0]);
  const mid = cold[order[Math.floor(order.length / 2)][1]];
  console.log(`\ncold breakdown (median run, ms from navigation; click at ${ms(mid.clickedAt)}, rows at ${ms(mid.marks.firstMessage)}):`);
  for (const r of mid.resources.filter((r) => isShell(r.name))) {
    console.log(`  shell ${new URL(r.name).pathname}: ${ms(r.start)} → ${ms(r.end)}`);
  }
  for (const r of apiRequests(mid.resources, mid.marks.firstMessage)) {
    console.log(`  ${r.path}: ${ms(r.start)} → ${ms(r.end)} (${ms(r.end - r.start)}, ${kb(r.bytes)})`);
  }
  console.log(`  main thread in long tasks: before the form ${ms(busy(mid.marks.longTasks, 0, mid.marks.loginForm))}, click to rows ${ms(busy(mid.marks.longTasks, mid.clickedAt, mid.marks.firstMessage))}`);
  const lastApi = Math.max(mid.clickedAt, ...apiRequests(mid.resources, mid.marks.firstMessage).map((r) => r.end));
  console.log(`  last API answer before the rows to the rows: ${ms(mid.marks.firstMessage - lastApi)}`);
  const registered = (mid.settled ?? []).find((r) => apiPath(r.name) === "/api/v1/register");
  if (registered) {
    console.log(`  /api/v1/register: ${ms(registered.start)} → ${ms(registered.end)} (${ms(registered.end - registered.start)}, ${kb(registered.decoded)}), ${registered.end > mid.marks.firstMessage ? "after" : "before"} the rows`);
  }
  const snapshot = results[order[Math.floor(order.length / 2)][1]].snapshot;
  console.log(`  the saved session (IndexedDB): ${kb(snapshot.bytes)}, read back in ${ms(snapshot.readMs)}`);
  const midWarm = warm[order[Math.floor(order.length / 2)][1]];
  const tasks = (marks, until) =>
    marks.longTasks
      .filter(([start]) => start < until)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 4)
      .map(([start, duration]) => `${ms(duration)} at ${ms(start)}`)
      .join(", ");
  console.log(`warm breakdown (same run, ms from navigation): app drawn at ${ms(midWarm.marks.app)}, rows at ${ms(midWarm.marks.firstMessage)}`);
  for (const r of midWarm.resources.filter((r) => isShell(r.name))) {
    console.log(`  shell ${new URL(r.name).pathname}: ${ms(r.start)} → ${ms(r.end)}`);
  }
  for (const r of apiRequests(midWarm.resources, midWarm.marks.firstMessage)) {
    console.log(`  ${r.path}: ${ms(r.start)} → ${ms(r.end)} (${ms(r.end - r.start)}, ${kb(r.bytes)})`);
  }
  console.log(`  main thread in long tasks before the rows: ${ms(busy(midWarm.marks.longTasks, 0, midWarm.marks.firstMessage))}; longest: ${tasks(midWarm.marks, midWarm.marks.firstMessage)}`);
  console.log(`  cold, for comparison: app drawn at ${ms(mid.marks.app)}; longest tasks: ${tasks(mid.marks, mid.marks.firstMessage)}`);

  const cpu = (entries) => entries.filter(([, v]) => v >= 1).map(([k, v]) => `${k} ${ms(v)}`).join(", ");
  console.log(`main-thread CPU by code (a separate, profiled run): cold, "Log in" to rows: ${cpu(profile.cold)}`);
  console.log(`  warm, navigation to rows: ${cpu(profile.warm)}`);

  // The app shell's transfer size (goal: under 1.5 MB gzipped, WebAssembly included): each
  // asset once, as first received (later uses come from the browser's cache).
  const seen = new Set();
  const shell = results[0].shellRequests.filter((r) => r.body >= 0 && !seen.has(r.url) && seen.add(r.url));
  console.log(`\napp shell as the cold page received it (body bytes on the wire, headers apart):`);
  let wire = 0;
  let headers = 0;
  for (const r of shell) {
    wire += r.body;
    headers += r.headers;
    console.log(`  ${new URL(r.url).pathname} (${r.type}, ${r.encoding || "identity"}): ${kb(r.body)}`);
  }
  console.log(`  total: ${kb(wire)} bodies + ${kb(headers)} headers = ${kb(wire + headers)}`);
  // The service worker's script is fetched by the browser itself, not the page.
  const urls = [...new Set([...shell.map((r) => r.url), `${site}/sw.js`])];
  const direct = await Promise.all(urls.map(fetchGzip));
  console.log(`app shell fetched directly with Accept-Encoding: gzip:`);
  for (const d of direct) {
    console.log(`  ${new URL(d.url).pathname}: ${d.status}, ${d.encoding || "identity"}, ${kb(d.wire)} on the wire (${kb(d.plain)} plain, ${kb(d.gzipped)} at gzip -9)`);
  }
  const sum = (key) => direct.reduce((total, d) => total + d[key], 0);
  console.log(`  total: ${kb(sum("wire"))} on the wire, ${kb(sum("plain"))} plain (goal: under 1.5 MB gzipped)`);
}

await main();
