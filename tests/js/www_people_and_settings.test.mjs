// The web client's compose details, drafts, deletion, channel browser and profile: an
// @-mention completed from the engine, a preview identical to what the server renders, a draft
// kept and restored, a message deleted for both people, a channel created and left, and a new
// name and status that the other person sees, and a new password.
import assert from "node:assert/strict";
import { test } from "node:test";
import { logIn, messageWithText, newPage, site, users } from "./browser_support.mjs";

const sidebar = (page) => page.getByRole("navigation", { name: "Views and channels" });
const people = (page) => page.getByRole("complementary", { name: "People" });

test("mentions, preview, drafts, deletion, channels and profile", async () => {
  const alice = await newPage();
  const bob = await newPage();
  await logIn(alice.page, users.a);
  await logIn(bob.page, users.b);
  await bob.page.goto(`${site}/#feed`);

  // An @-mention completed from the engine, and a preview exactly as the server renders it.
  await alice.page.goto(`${site}/#narrow/channel/general`);
  await alice.page.getByRole("heading", { name: "#general", exact: true }).waitFor();
  await alice.page.keyboard.press("c");
  await alice.page.getByRole("combobox", { name: "Topic" }).fill("details");
  const text = alice.page.getByRole("combobox", { name: "Message text" });
  await text.pressSequentially("**Hello** @Bo");
  await alice.page.getByRole("option", { name: /Bob/ }).waitFor();
  await text.press("Enter");
  assert.match(await text.inputValue(), /^\*\*Hello\*\* @\*\*Bob\|\d+\*\* $/);
  await text.pressSequentially("see `code`");
  await alice.page.getByRole("button", { name: "Preview" }).click();
  const preview = await alice.page.getByLabel("Preview").innerHTML();
  await alice.page.getByRole("button", { name: "Edit", exact: true }).click();
  await text.press("Control+Enter");
  const sent = messageWithText(bob.page, "Hello").locator(".message-content");
  await sent.waitFor();
  // The reader's page adds its own touches (own mention, times); the server's HTML is the same.
  const serverHtml = await sent.evaluate((element) => element.innerHTML.replace(/ user-mention-me/g, ""));
  assert.equal(serverHtml, preview);
  await messageWithText(bob.page, "Hello").locator(".user-mention-me").waitFor();

  // A draft: written (the compose box stays open after sending), put away with Esc, found in
  // Drafts, restored into the compose box.
  await alice.page.getByRole("combobox", { name: "Topic" }).fill("later");
  await text.fill("An idea for later");
  await alice.page.keyboard.press("Escape");
  await text.waitFor({ state: "detached" });
  await sidebar(alice.page).getByRole("link", { name: "Drafts" }).click();
  await alice.page.getByRole("button", { name: /Restore draft.*later/ }).click();
  await alice.page.waitForFunction(() => document.querySelector(".compose textarea")?.value === "An idea for later");
  assert.equal(await alice.page.getByRole("combobox", { name: "Topic" }).inputValue(), "later");
  await alice.page.keyboard.press("Escape");

  // Deleting a message removes it for both.
  await alice.page.goto(`${site}/#narrow/channel/general/topic/details`);
  const mine = messageWithText(alice.page, "Hello").first();
  await mine.hover();
  await mine.getByRole("button", { name: "More actions" }).click();
  await alice.page.getByRole("menuitem", { name: "Delete message" }).click();
  await alice.page.getByRole("dialog", { name: "Delete message?" }).getByRole("button", { name: "Delete" }).click();
  await messageWithText(alice.page, "Hello").waitFor({ state: "detached" });
  await messageWithText(bob.page, "Hello").waitFor({ state: "detached" });

  // The channel browser: create a channel, find it in the sidebar, then leave it.
  await alice.page.goto(`${site}/#channels/subscribed`);
  await alice.page.getByRole("button", { name: "Create channel" }).click();
  const form = alice.page.locator("#create-channel");
  await form.getByLabel("Name").fill("design-review");
  await form.getByLabel("Description").fill("Critiques, kindly");
  await form.getByRole("button", { name: "Create" }).click();
  await sidebar(alice.page).getByRole("link", { name: /design-review/ }).waitFor();
  await alice.page.getByRole("button", { name: "Unsubscribe from design-review" }).click();
  await sidebar(alice.page).getByRole("link", { name: /design-review/ }).waitFor({ state: "detached" });

  // A new name and a status, which Bob sees in the people list.
  await alice.page.goto(`${site}/#settings/profile`);
  await alice.page.getByLabel("Name", { exact: true }).fill("Alice Liddell");
  await alice.page.getByRole("button", { name: "Save name" }).click();
  await alice.page.getByLabel("Status message").fill("Down the rabbit hole");
  await alice.page.getByRole("button", { name: "Save status" }).click();
  await people(bob.page).getByText("Alice Liddell").waitFor();
  await people(bob.page).getByText("Down the rabbit hole").waitFor();

  // A new password, checked against the old one; the next login takes it.
  await alice.page.getByLabel("Current password").fill("not my password");
  await alice.page.getByLabel("New password").fill("through the looking glass");
  await alice.page.getByRole("button", { name: "Change password" }).click();
  await alice.page.getByRole("alert").filter({ hasText: "Wrong password!" }).waitFor();
  await alice.page.getByLabel("Current password").fill(users.a.password);
  await alice.page.getByRole("button", { name: "Change password" }).click();
  await alice.page.getByText("Password changed.").waitFor();
  const login = await fetch(`${site}/api/v1/fetch_api_key`, {
    method: "POST",
    body: new URLSearchParams({ username: users.a.email, password: "through the looking glass" }),
  });
  assert.equal((await login.json()).result, "success");

  await alice.context.close();
  await bob.context.close();
});
