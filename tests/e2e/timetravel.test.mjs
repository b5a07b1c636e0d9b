// Time travel on the idempotence page: every action is recorded; ← / → step back and
// forward (replayed exactly), a click on the timeline jumps, a new action after
// stepping back drops the future, space plays, `?` lists the shortcuts, and no key
// fires while the learner types.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { screenshot, useSite, watchProblems } from './harness.mjs';

const PLAYGROUND = '#app [data-testid="playground"]';
const tid = (id) => `[data-testid="${id}"]`;

const site = useSite();

/** Sends `records`; waits until the timeline says it is after action `n` of `n`. */
async function send(page, records, n) {
  await page.locator(tid('records')).fill(records);
  await page.locator(tid('send')).click();
  await page.locator(tid('tt-position')).filter({ hasText: `After action ${n} of ${n}:` }).waitFor();
}

async function leo(page) {
  return Number(await page.locator(tid('leo')).innerText());
}

/** Presses a key with the focus on nothing in particular (the page body). */
async function key(page, k) {
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press(k);
}

for (const { width, height } of [
  { width: 1280, height: 800 },
  { width: 760, height: 1000 },
]) {
  test(`time travel: back, forward, jump, fork, play (${width}×${height})`, { timeout: 120_000 }, async () => {
    const page = await site.browser.newPage({ viewport: { width, height } });
    const problems = watchProblems(page);
    try {
      await page.goto(site.server.url, { waitUntil: 'load' });
      await page.locator(PLAYGROUND).waitFor({ state: 'visible', timeout: 60_000 });
      assert.match(await page.locator(tid('time-travel')).innerText(), /recorded here/);

      await send(page, 'a', 1);
      await send(page, 'b', 2);
      await send(page, 'c', 3);
      assert.equal(await leo(page), 3);
      const list = await page.locator(tid('tt-list')).innerText();
      assert.match(list, /producer producer-1 send orders-0 c; producer producer-1 flush/);
      assert.match(await page.locator(tid('tt-position')).innerText(), /After action 3 of 3/);

      // ← twice: the world after the first send (replayed from a fresh world).
      await key(page, 'ArrowLeft');
      await key(page, 'ArrowLeft');
      await page.locator(tid('tt-position')).filter({ hasText: 'After action 1 of 3' }).waitFor();
      assert.equal(await leo(page), 1);
      assert.match(await page.locator(tid('tt-branch')).innerText(), /2 later actions/);

      // Keys do nothing while typing.
      await page.locator(tid('records')).focus();
      await page.keyboard.press('ArrowRight');
      assert.equal(await leo(page), 1);

      // → twice: back where we were.
      await key(page, 'ArrowRight');
      await key(page, 'ArrowRight');
      await page.locator(tid('tt-position')).filter({ hasText: 'After action 3 of 3' }).waitFor();
      assert.equal(await leo(page), 3);

      // Jump on the timeline, then a new action forks.
      await page.locator(tid('tt-item-1')).click();
      await page.locator(tid('tt-position')).filter({ hasText: 'After action 1 of 3' }).waitFor();
      if (width === 1280) await screenshot(page, 'timetravel-back-1280');
      else await screenshot(page, 'timetravel-back-760');
      await send(page, 'x', 2);
      assert.match(await page.locator(tid('tt-forked')).innerText(), /2 later actions were dropped/);
      assert.equal(await page.locator(`${tid('tt-list')} li`).count(), 3, 'start + 2 actions');
      assert.equal(await leo(page), 2);

      // Space plays from the start, one step a second, and stops at the end.
      await page.locator(tid('tt-item-0')).click();
      assert.equal(await leo(page), 0);
      await key(page, ' ');
      await page.locator(tid('tt-play')).filter({ hasText: 'Pause' }).waitFor();
      await page.locator(tid('tt-position')).filter({ hasText: 'After action 2 of 2' }).waitFor({ timeout: 10_000 });
      await page.locator(tid('tt-play')).filter({ hasText: 'Play' }).waitFor({ timeout: 5_000 });
      assert.equal(await leo(page), 2);

      // ? lists the shortcuts; Esc closes the sheet.
      await key(page, '?');
      const sheet = page.locator(tid('shortcuts'));
      await sheet.waitFor();
      assert.match(await sheet.innerText(), /Play or pause/);
      await screenshot(page, `timetravel-shortcuts-${width}`);
      await page.keyboard.press('Escape');
      await sheet.waitFor({ state: 'detached' });

      assert.deepEqual(problems, [], `console errors or failed requests:\n${problems.join('\n')}`);
    } finally {
      await page.close();
    }
  });
}

test('a copied link opens the same view in a fresh page; a bad link says why', { timeout: 120_000 }, async () => {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const problems = watchProblems(page);
  let other;
  try {
    await page.goto(site.server.url, { waitUntil: 'load' });
    await page.locator(PLAYGROUND).waitFor({ state: 'visible', timeout: 60_000 });
    await send(page, 'a, b', 1);
    await page.locator(tid('drop-ack')).click();
    await send(page, 'c', 3);
    await send(page, 'd', 4);
    await key(page, 'ArrowLeft');
    await page.locator(tid('tt-position')).filter({ hasText: 'After action 3 of 4' }).waitFor();
    // Open the second batch's header bytes: the link carries the open batch too.
    await page.locator(`${tid('log')} button[aria-expanded]`).nth(1).click();
    const bytes = await page.locator(tid('header-bytes')).innerText();
    const log = await page.locator(tid('log')).innerText();
    const events = await page.locator(tid('events')).innerText();

    await page.locator(tid('copy-link')).click();
    const link = await page.locator(tid('share-link')).inputValue();
    assert.match(link, /#1\./);
    assert.equal(await page.evaluate(() => location.href), link, 'the address bar has the link');
    await page.locator(tid('share-status')).filter({ hasText: /copied|Ctrl\+C/ }).waitFor();
    await screenshot(page, 'share-link-1280');

    other = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
    const otherProblems = watchProblems(other);
    await other.goto(link, { waitUntil: 'load' });
    await other.locator(PLAYGROUND).waitFor({ state: 'visible', timeout: 60_000 });
    await other.locator(tid('tt-position')).filter({ hasText: 'After action 3 of 4' }).waitFor();
    assert.equal(await other.locator(tid('log')).innerText(), log);
    assert.equal(await other.locator(tid('events')).innerText(), events);
    assert.equal(await other.locator(tid('header-bytes')).innerText(), bytes);
    assert.equal(await other.locator(tid('link-error')).count(), 0);
    assert.deepEqual(otherProblems, []);

    // A cut link: a message naming what is wrong, and the fresh playground.
    await other.goto(`${site.server.url}#${link.split('#')[1].slice(0, 30)}`, { waitUntil: 'load' });
    await other.reload({ waitUntil: 'load' });
    const error = other.locator(tid('link-error'));
    await error.waitFor({ timeout: 60_000 });
    assert.match(await error.innerText(), /could not be opened: the link is (truncated|damaged)/);
    assert.match(await other.locator(tid('time-travel')).innerText(), /recorded here/);
    assert.equal(await leo(other), 0);
    await screenshot(other, 'share-bad-link-1280');

    assert.deepEqual(problems, [], `console errors or failed requests:\n${problems.join('\n')}`);
  } finally {
    await other?.close();
    await page.close();
  }
});

// The main page is built without the invariant checker (feature `checker`, to keep its
// wasm small): a link whose scenario has a `check` step is refused with the reason and
// the line, and the page stays a fresh playground. The link holds
//   cluster brokers=1 / topic create t partitions=1 / check
// (made with `eos link --make`).
test('a link with a `check` step says this page has no checker', { timeout: 120_000 }, async () => {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const problems = watchProblems(page);
  try {
    const link =
      '#1.QznRBAAwCmlkZW1wbwB0ZW5jZQpsZQBzc29uCmNsdQBzdGVyIGJybwBrZXJzPTEKdABvcGljIGNyZQBhdGUgdCBwYYBydGl0aW9uAbEAY2hlY2sK';
    await page.goto(`${site.server.url}${link}`, { waitUntil: 'load' });
    await page.locator(PLAYGROUND).waitFor({ state: 'visible', timeout: 60_000 });
    const error = page.locator(tid('link-error'));
    await error.waitFor({ timeout: 60_000 });
    assert.match(await error.innerText(), /line 3.*no invariant checker \(feature `checker`\)/);
    assert.match(await page.locator(tid('time-travel')).innerText(), /recorded here/);
    assert.equal(await leo(page), 0);
    assert.deepEqual(problems, [], `console errors or failed requests:\n${problems.join('\n')}`);
  } finally {
    await page.close();
  }
});

test("an author's lesson file: line-numbered errors, then it plays (picker and drop)", { timeout: 120_000 }, async () => {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const problems = watchProblems(page);
  try {
    await page.goto(site.server.url, { waitUntil: 'load' });
    await page.locator(PLAYGROUND).waitFor({ state: 'visible', timeout: 60_000 });
    const file = (name, text) => ({ name, mimeType: 'text/plain', buffer: Buffer.from(text) });

    await page.locator(tid('lesson-file')).setInputFiles(file('broken.eos', 'topic create t\nproducer p frobnicate\n'));
    const error = page.locator(tid('lesson-file-error'));
    await error.waitFor();
    assert.match(await error.innerText(), /broken\.eos: line 2, column \d+:/);
    assert.match(await page.locator(tid('showing')).innerText(), /your playground/);

    const lesson = '## Start\n> A topic and a producer.\ntopic create mine\nproducer p create\nproducer p send mine-0 hello\nproducer p flush\n';
    await page.locator(tid('lesson-file')).setInputFiles(file('mine.eos', lesson));
    // One `## Start` block: its four lines are one player step (scenario/player.rs).
    await page.locator(tid('lesson-progress')).filter({ hasText: 'Step 0 of 1' }).waitFor();
    assert.equal(await error.count(), 0);
    await page.locator(tid('lesson-next')).click();
    await page.locator(tid('lesson-progress')).filter({ hasText: 'Step 1 of 1' }).waitFor();
    assert.match(await page.locator(tid('events')).innerText(), /APPEND/);
    await screenshot(page, 'lesson-file-1280');

    // Drag and drop onto the lesson panel.
    await page.evaluate((text) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], 'dropped.eos', { type: 'text/plain' }));
      const zone = document.querySelector('[data-testid="lesson-drop"]');
      zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
      zone.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, 'topic create dropped\n');
    await page.locator(tid('lesson-progress')).filter({ hasText: 'Step 0 of 1' }).waitFor();
    assert.match(await page.locator(tid('lesson-select')).innerText(), /dropped\.eos/);
    assert.deepEqual(problems, [], `console errors or failed requests:\n${problems.join('\n')}`);
  } finally {
    await page.close();
  }
});
