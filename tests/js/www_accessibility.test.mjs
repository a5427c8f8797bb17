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

test("the login page leads to the server's password reset page", async () => {
  const { page, context } = await newPage({ bypassCSP: true });
  await page.goto(`${site}/login/`);
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await page.getByRole("heading", { name: "Reset your password" }).waitFor();
  const violations = await axeViolations(page);
  assert.equal(violations.length, 0, `password reset page:\n${describe(violations)}`);
  await page.getByLabel("Email").fill(users.a.email);
  await page.getByRole("button", { name: "Send the link" }).click();
  await page.getByRole("heading", { name: "Check your email" }).waitFor();
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
