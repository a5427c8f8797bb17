// The message list keeps only the rows near the viewport in the DOM: with 10,000 messages
// loaded, scrolling from the newest to the oldest and back draws a bounded number of rows.
import assert from "node:assert/strict";
import { test } from "node:test";
import { logIn, messageWithText, newPage, site, users } from "./browser_support.mjs";

const TOTAL = Number(process.env.CONFAB_LONG_LIST ?? "10000");

test(`a list of ${TOTAL} messages keeps only the visible rows in the DOM`, async () => {
  const { page, context } = await newPage();
  await logIn(page, users.a);
  await page.goto(`${site}/#narrow/channel/general/topic/long`);
  await messageWithText(page, `long message n${TOTAL}.`).waitFor();

  // Scroll to the top until the oldest message is in (history loads as the top comes near).
  const list = page.locator("#message-list");
  let most = 0;
  for (let round = 0; round < 400; round++) {
    await list.evaluate((element) => (element.scrollTop = 0));
    await page.waitForTimeout(30);
    most = Math.max(most, await page.locator("#message-list article.message").count());
    if ((await messageWithText(page, "long message n1.").count()) > 0) break;
  }
  await messageWithText(page, "long message n1.").waitFor();
  const loaded = await page.evaluate(() => document.querySelector("#message-list").scrollHeight);
  console.log(`long list: scroll height ${loaded} px, at most ${most} message rows in the DOM`);
  assert.ok(most < 250, `${most} rows were in the DOM at once`);

  // And back down to the newest, through every row.
  await list.evaluate((element) => (element.scrollTop = element.scrollHeight));
  await messageWithText(page, `long message n${TOTAL}.`).waitFor();
  assert.ok((await page.locator("#message-list article.message").count()) < 250);
  await context.close();
});
