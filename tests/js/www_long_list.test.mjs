// The message list keeps only the rows near the viewport in the DOM: with 10,000 messages
// loaded, scrolling from the oldest to the newest and back draws a bounded number of rows.
import assert from "node:assert/strict";
import { test } from "node:test";
import { logIn, messageWithText, newPage, site, users } from "./browser_support.mjs";

const TOTAL = Number(process.env.CONFAB_LONG_LIST ?? "10000");
const MOST_ROWS = 250;

test(`a list of ${TOTAL} messages keeps only the visible rows in the DOM`, async () => {
  const { page, context } = await newPage();
  await logIn(page, users.a);
  // Every message is unread: the view opens at the first one.
  await page.goto(`${site}/#narrow/channel/general/topic/long`);
  await messageWithText(page, "long message n1.").waitFor();

  // Scroll to the end; newer history loads as the bottom comes near.
  const list = page.locator("#message-list");
  const rows = page.locator("#message-list article.message");
  let most = 0;
  // Bounded by time only for a failing run: a slower store pages more slowly, not wrongly.
  const giveUpAt = Date.now() + 10 * 60_000;
  while (Date.now() < giveUpAt && (await messageWithText(page, `long message n${TOTAL}.`).count()) === 0) {
    await list.evaluate((element) => (element.scrollTop = element.scrollHeight));
    await page.waitForTimeout(20);
    most = Math.max(most, await rows.count());
  }
  await messageWithText(page, `long message n${TOTAL}.`).waitFor();
  const height = await list.evaluate((element) => element.scrollHeight);
  console.log(`long list: ${TOTAL} messages, ${height} px tall, at most ${most} message rows in the DOM`);
  assert.ok(most < MOST_ROWS, `${most} rows were in the DOM at once`);

  // And back to the top, through every row: still bounded, and the oldest is there.
  await list.evaluate((element) => (element.scrollTop = 0));
  await messageWithText(page, "long message n1.").waitFor();
  assert.ok((await rows.count()) < MOST_ROWS);
  await context.close();
});
