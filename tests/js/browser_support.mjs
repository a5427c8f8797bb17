// What the browser tests of the web client share: Debian's Chromium driven by playwright-core
// (browser downloads are impossible here), the server and users the Rust test made, logging
// in through the login page, axe-core, and screenshots.
import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { after } from "node:test";
import { fileURLToPath } from "node:url";
import { launchChromium } from "./chromium.mjs";

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));

export const site = process.env.CONFAB_SITE;
export const users = JSON.parse(process.env.CONFAB_USERS ?? "{}");
export const screenshotDir = process.env.CONFAB_SCREENSHOTS ?? join(here, "../../target/www-screenshots");

/** Long enough that a slow CI machine never fails a correct client; nothing here is a speed test. */
export const PATIENCE_MS = 20_000;


let browser;
// Registered here, at the file's top level: an `after` called inside a test would close the
// browser when that test ends.
after(() => browser?.close());

/** The shared browser, closed when the file's tests end. */
export async function launch() {
  browser ??= await launchChromium();
  return browser;
}

/** A fresh browser profile (its own storage, service worker and IndexedDB) with a page. */
export async function newPage(options = {}) {
  const context = await (await launch()).newContext({ viewport: { width: 1280, height: 800 }, ...options });
  context.setDefaultTimeout(PATIENCE_MS);
  const page = await context.newPage();
  page.on("pageerror", (error) => console.error(`page error: ${error.message}`));
  return { context, page };
}

/** Logs in through /login/ and waits for the signed-in page. */
export async function logIn(page, user) {
  await page.goto(`${site}/login/`);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Log in" }).click();
  await page.getByRole("navigation", { name: "Views and channels" }).waitFor();
}

/** The message list's rows whose text contains `text`. */
export function messageWithText(page, text) {
  return page.locator("#message-list article.message").filter({ hasText: text });
}

/** Sends a message from the open compose box (opening it if needed). */
export async function send(page, text) {
  const box = page.getByRole("combobox", { name: "Message text" });
  if (!(await box.isVisible())) await page.getByRole("button", { name: /new message|Message this conversation/ }).click();
  await box.fill(text);
  await page.getByRole("button", { name: "Send", exact: true }).click();
}

/** axe-core's violations on the page with one of these impacts. The page's context must be
 * opened with `bypassCSP: true`: the client's Content-Security-Policy refuses injected scripts. */
export async function axeViolations(page, impacts = ["critical"]) {
  await page.addScriptTag({ path: require.resolve("axe-core/axe.min.js") });
  const result = await page.evaluate(async () => await globalThis.axe.run(document, { resultTypes: ["violations"] }));
  return result.violations.filter((violation) => impacts.includes(violation.impact));
}

export async function screenshot(page, name) {
  mkdirSync(screenshotDir, { recursive: true });
  const path = join(screenshotDir, `${name}.png`);
  await page.screenshot({ path });
  return path;
}

/** Milliseconds from `since` until `locator` is visible (the figure is printed, not asserted). */
export async function visibleAfter(locator, since) {
  await locator.first().waitFor({ state: "visible" });
  return Date.now() - since;
}
