// Acceptance 3 of the web client: a search narrow from the search bar, unread counts that fall
// as messages are read, every view a URL, and the back button.
import assert from "node:assert/strict";
import { test } from "node:test";
import { logIn, messageWithText, newPage, users } from "./browser_support.mjs";

const channelLink = (page) =>
  page.getByRole("navigation", { name: "Views and channels" }).getByRole("link", { name: /^#?general/ }).first();

async function unreadOf(link) {
  const badge = link.locator(".unread-count");
  return (await badge.count()) === 0 ? 0 : Number((await badge.textContent()).replace(/\D/g, ""));
}

test("search narrows, unread counts fall as messages are read, and back returns", async () => {
  const { page, context } = await newPage();
  await logIn(page, users.a);
  // The Rust test had Bob post 3 messages to general > alpha and 2 to general > beta.
  await page.waitForFunction(() => document.querySelector(".left-sidebar .unread-count"));
  const general = channelLink(page);
  assert.equal(await unreadOf(general), 5);

  await page.goto(`${page.url().split("#")[0]}#recent`);
  await page.getByRole("heading", { name: /Recent conversations/ }).waitFor();

  const search = page.getByRole("combobox", { name: "Search messages" });
  await page.keyboard.press("/");
  await assert.doesNotReject(search.evaluate((element) => element === document.activeElement || Promise.reject(new Error("not focused"))));
  await search.fill("topic:alpha");
  await page.getByRole("option").first().waitFor();
  await search.press("Enter");
  await page.waitForURL(/#narrow\/.*topic\/alpha/);
  await messageWithText(page, "alpha 3").waitFor();
  assert.equal(await messageWithText(page, "beta").count(), 0);
  assert.equal(await search.inputValue(), "topic:alpha");

  // Reading the alpha messages takes them off general's count.
  await page.waitForFunction(() => {
    const badge = [...document.querySelectorAll(".left-sidebar a")].find((a) => a.textContent.includes("general"))?.querySelector(".unread-count");
    return badge && badge.textContent.replace(/\D/g, "") === "2";
  });

  // Free text and an operator together.
  await search.fill("sender:bob@example.com beta");
  await search.press("Enter");
  await page.waitForURL(/#narrow\/sender\/.*search\/beta/);
  await messageWithText(page, "beta 1").waitFor();

  await page.goBack();
  await page.waitForURL(/topic\/alpha/);
  await messageWithText(page, "alpha 1").waitFor();
  await page.goBack();
  await page.waitForURL(/#recent/);
  await page.getByRole("heading", { name: /Recent conversations/ }).waitFor();

  await context.close();
});
