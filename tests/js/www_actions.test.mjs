// The web client's compose and message actions, as two people use them: typing notices sent
// and shown, an upload by file picker, star, quote and reply, edit history, and resolving a
// topic; keyboard shortcuts for composing and closing.
import assert from "node:assert/strict";
import { test } from "node:test";
import { logIn, messageWithText, newPage, send, users } from "./browser_support.mjs";

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==",
  "base64",
);

async function openTopic(page, topic) {
  await page.getByRole("navigation", { name: "Views and channels" }).getByRole("link", { name: /^#?general/ }).first().click();
  await page.getByRole("heading", { name: "#general", exact: true }).waitFor();
  await page.keyboard.press("c");
  await page.getByRole("combobox", { name: "Topic" }).fill(topic);
}

/** Opens the menu of the first message containing `text` and picks `item`. */
async function messageMenu(page, text, item) {
  const message = messageWithText(page, text).first();
  await message.hover();
  await message.getByRole("button", { name: "More actions" }).click();
  await page.getByRole("menuitem", { name: item }).click();
}

test("compose and message actions between two people", async () => {
  const alice = await newPage();
  const bob = await newPage();
  await logIn(alice.page, users.a);
  await logIn(bob.page, users.b);
  await openTopic(alice.page, "actions");
  await send(alice.page, "Starting the actions topic");
  await bob.page.goto(`${bob.page.url().split("#")[0]}#narrow/channel/general/topic/actions`);
  await messageWithText(bob.page, "Starting the actions topic").waitFor();

  // Typing notices: Bob types in the topic, Alice sees it; sending ends it.
  await bob.page.getByRole("button", { name: "Start a new message" }).click();
  await bob.page.getByRole("combobox", { name: "Message text" }).pressSequentially("On my way");
  await alice.page.getByText("Bob is typing…").waitFor();
  await bob.page.getByRole("button", { name: "Send", exact: true }).click();
  await alice.page.getByText("Bob is typing…").waitFor({ state: "detached" });
  await messageWithText(alice.page, "On my way").waitFor();

  // An upload from the file picker becomes a link in the text, and the message carries it.
  await alice.page.locator(".compose input[type=file]").setInputFiles({ name: "dot.png", mimeType: "image/png", buffer: PNG });
  const text = alice.page.getByRole("combobox", { name: "Message text" });
  await alice.page.waitForFunction(() => /\[dot\.png\]\(\/user_uploads\//.test(document.querySelector(".compose textarea")?.value ?? ""));
  assert.match(await text.inputValue(), /\[dot\.png\]\(\/user_uploads\/[^)]+\)/);
  await alice.page.getByRole("button", { name: "Send", exact: true }).click();
  await messageWithText(bob.page, "dot.png").locator("a[href^='/user_uploads/']").first().waitFor();

  // Star: the mark shows, and the message is in Starred messages.
  const onMyWay = messageWithText(alice.page, "On my way");
  await onMyWay.hover();
  await onMyWay.getByRole("button", { name: "Star", exact: true }).click();
  await onMyWay.getByLabel("Starred").waitFor();
  await alice.page.getByRole("link", { name: "Starred messages" }).click();
  await messageWithText(alice.page, "On my way").waitFor();
  await alice.page.goBack();

  // Quote and reply: the compose box gets the quote, and the reply shows it quoted.
  await messageMenu(alice.page, "On my way", "Quote and reply");
  await alice.page.waitForFunction(() => (document.querySelector(".compose textarea")?.value ?? "").includes("```quote"));
  await text.press("End");
  await text.pressSequentially("Great!");
  await alice.page.keyboard.press("Control+Enter");
  await messageWithText(bob.page, "Great!").locator("blockquote").filter({ hasText: "On my way" }).waitFor();

  // Bob edits his message; Alice reads its history.
  await messageMenu(bob.page, "On my way", "Edit message");
  const editor = bob.page.getByRole("dialog", { name: "Edit message" }).getByRole("textbox", { name: "Message text" });
  await bob.page.waitForFunction(() => document.querySelector("dialog textarea")?.value === "On my way");
  await editor.fill("On my way, 5 minutes");
  await bob.page.getByRole("button", { name: "Save" }).click();
  await messageWithText(alice.page, "On my way, 5 minutes").getByText("(edited)").waitFor();
  await messageMenu(alice.page, "On my way, 5 minutes", "Edit history");
  const history = alice.page.getByRole("dialog", { name: "Message edit history" });
  await history.getByText("Original").waitFor();
  await history.locator(".rendered_markdown").filter({ hasText: /^On my way$/ }).waitFor();
  await history.locator(".rendered_markdown").filter({ hasText: "On my way, 5 minutes" }).waitFor();
  await alice.page.keyboard.press("Escape");

  // Alice marks the topic resolved; Bob's view follows it to "✔ actions".
  await messageMenu(alice.page, "Starting the actions topic", "Mark as resolved");
  await bob.page.getByRole("heading", { name: /✔ actions/ }).first().waitFor();

  // Escape closes the compose box.
  await alice.page.keyboard.press("c");
  await alice.page.getByRole("combobox", { name: "Message text" }).waitFor();
  await alice.page.keyboard.press("Escape");
  await alice.page.getByRole("combobox", { name: "Message text" }).waitFor({ state: "detached" });

  await alice.context.close();
  await bob.context.close();
});
