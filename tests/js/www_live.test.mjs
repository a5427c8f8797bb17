// Acceptance 1 of the web client: two people in two browsers chat in a channel topic and in a
// direct conversation, react and edit, and each sees the other's actions live. How long each
// took to show is printed (the goal is under a second); the test waits patiently.
import assert from "node:assert/strict";
import { test } from "node:test";
import { logIn, messageWithText, newPage, send, users, visibleAfter } from "./browser_support.mjs";

const latencies = [];
function noteLatency(what, ms) {
  latencies.push(ms);
  console.log(`live: ${what} showed on the other side after ${ms} ms`);
}

test("two people chat, react and edit, and each sees the other live", async () => {
  const alice = await newPage();
  const bob = await newPage();
  await logIn(alice.page, users.a);
  await logIn(bob.page, users.b);
  await bob.page.getByRole("link", { name: "Combined feed" }).click();

  // Alice starts a topic in #general; Bob, on the combined feed, sees it come in.
  await alice.page.getByRole("link", { name: /^#?general/ }).first().click();
  await alice.page.getByRole("button", { name: "Start a new message" }).click();
  await alice.page.getByRole("combobox", { name: "Topic" }).fill("lunch");
  let sent = Date.now();
  await send(alice.page, "Pizza at **noon**?");
  noteLatency("a channel message", await visibleAfter(messageWithText(bob.page, "Pizza at noon?"), sent));
  await assert.doesNotReject(messageWithText(alice.page, "Pizza at noon?").getByText("Sending…").waitFor({ state: "detached" }));

  // Bob reacts with 👍 from the emoji picker; Alice sees the reaction.
  const bobsCopy = messageWithText(bob.page, "Pizza at noon?");
  await bobsCopy.hover();
  await bobsCopy.getByRole("button", { name: "Add reaction" }).click();
  await bob.page.getByRole("searchbox", { name: "Search emoji" }).fill("+1");
  sent = Date.now();
  await bob.page.getByRole("searchbox", { name: "Search emoji" }).press("Enter");
  const reaction = messageWithText(alice.page, "Pizza at noon?").getByRole("button", { name: /^\+1: Bob/ });
  noteLatency("a reaction", await visibleAfter(reaction, sent));
  assert.equal((await reaction.textContent()).replace(/\D/g, ""), "1");

  // Alice edits her message; Bob sees the new text.
  const alicesCopy = messageWithText(alice.page, "Pizza at noon?");
  await alicesCopy.hover();
  await alicesCopy.getByRole("button", { name: "More actions" }).click();
  await alice.page.getByRole("menuitem", { name: "Edit message" }).click();
  const editor = alice.page.getByRole("textbox", { name: "Message text" }).last();
  await editor.waitFor();
  await assert.doesNotReject(async () => {
    for (let i = 0; i < 200 && (await editor.inputValue()) === ""; i++) await alice.page.waitForTimeout(25);
  });
  await editor.fill("Pizza at **one** instead?");
  sent = Date.now();
  await alice.page.getByRole("button", { name: "Save" }).click();
  noteLatency("an edit", await visibleAfter(messageWithText(bob.page, "Pizza at one instead?"), sent));
  await messageWithText(bob.page, "Pizza at one instead?").getByText("(edited)").waitFor();

  // Bob writes to Alice directly; she sees it and answers; he sees the answer.
  await bob.page.getByRole("button", { name: "New direct message" }).click();
  await bob.page.getByRole("combobox", { name: "People" }).fill("Alice");
  await bob.page.getByRole("option", { name: /Alice/ }).first().click();
  sent = Date.now();
  await send(bob.page, "Are you coming to the demo?");
  // Alice is in #general: the conversation shows up in her sidebar, unread.
  const conversation = alice.page.getByRole("navigation", { name: "Views and channels" }).getByRole("link", { name: /Bob.*1 unread/ });
  noteLatency("a direct message", await visibleAfter(conversation, sent));
  await conversation.click();
  await messageWithText(alice.page, "Are you coming to the demo?").waitFor();
  await alice.page.getByRole("button", { name: "Message this conversation" }).click();
  sent = Date.now();
  await send(alice.page, "Yes, see you there");
  noteLatency("a direct reply", await visibleAfter(messageWithText(bob.page, "Yes, see you there"), sent));

  console.log(`live: slowest ${Math.max(...latencies)} ms over ${latencies.length} actions`);
  await alice.context.close();
  await bob.context.close();
});
