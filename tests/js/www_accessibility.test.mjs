// Acceptance 4 and 5 of the web client: axe-core finds no critical violations on the main
// views, and the run saves screenshots of the main view in the light and dark themes.
import assert from "node:assert/strict";
import { test } from "node:test";
import { axeViolations, logIn, messageWithText, newPage, screenshot, site, users } from "./browser_support.mjs";

const VIEWS = ["#feed", "#inbox", "#recent", "#drafts", "#channels/subscribed", "#settings/profile", "#narrow/is/starred"];

function describe(violations) {
  return violations.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`).join("\n");
}

test("the login page and the main views have no critical accessibility violations", async () => {
  const { page, context } = await newPage({ bypassCSP: true });
  await page.goto(`${site}/login/`);
  await page.getByLabel("Email").waitFor();
  let violations = await axeViolations(page);
  assert.equal(violations.length, 0, `login page:\n${describe(violations)}`);

  await logIn(page, users.a);
  for (const view of VIEWS) {
    await page.goto(`${site}/${view}`);
    // Each view opens with its heading (a long-poll never lets the network go idle).
    await page.getByRole("main").getByRole("heading", { level: 1 }).first().waitFor();
    violations = await axeViolations(page);
    assert.equal(violations.length, 0, `${view}:\n${describe(violations)}`);
    await screenshot(page, `view-${view.replace(/\W+/g, "-").replace(/^-|-$/g, "")}`);
  }
  await context.close();
});

test("screenshots of the main view in the light and dark themes", async () => {
  for (const colorScheme of ["light", "dark"]) {
    const { page, context } = await newPage({ colorScheme });
    await logIn(page, users.a);
    await page.goto(`${site}/#narrow/channel/general`);
    await messageWithText(page, "Welcome").first().waitFor().catch(() => undefined);
    await page.locator("#message-list article.message").first().waitFor();
    const path = await screenshot(page, `main-${colorScheme}`);
    console.log(`screenshot: ${path}`);
    await context.close();
  }
});
