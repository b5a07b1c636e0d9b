// Faults in the transactions page, end to end in the built site:
// - pause after each click, Step a Produce onto the wire, click it on the timeline: a
//   menu of buttons (focus moves in, Esc closes it and gives focus back); delay it,
//   duplicate it (the copy is a duplicate batch: appended once), drop the next one (the
//   retry lands once);
// - cut a link and heal it from the faults in force;
// - the hanging-transaction lesson: transaction.version 1 without verification in the
//   rules panel, the stuck LSO with find-hanging reporting the transaction, and the LSO
//   moving on after `abort`; then the lesson's second world (transaction.version 2),
//   where nothing hangs, and Back across the boundary to the first world;
// - axe-core finds no violations with the menu open and a fault in force, nor in the
//   lesson; screenshots of the new controls at 1280×800, 760 and 360 px.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { SCREENSHOT_DIR, axe, screenshot, useSite, watchProblems } from './harness.mjs';

const PAGE = '#app [data-testid="page-transactions"]';
const tid = (id) => `[data-testid="${id}"]`;
const site = useSite();

async function open(page, query = '') {
  await page.goto(`${site.server.url}${query}#transactions`, { waitUntil: 'load' });
  await page.locator(PAGE).waitFor({ state: 'visible', timeout: 120_000 });
}

const num = async (page, id) => Number(await page.locator(tid(id)).innerText());
const clicks = async (page, ...ids) => {
  for (const id of ids) await page.locator(tid(id)).click();
};

/** Paused: send `records`, then Step until its Produce request is on the wire. */
async function produceOnTheWire(page, records) {
  await page.locator(tid('txn-records')).fill(records);
  await clicks(page, 'txn-send');
  const produce = page.locator('.msg-button', { hasText: 'Produce request' });
  for (let i = 0; i < 6 && (await produce.count()) === 0; i++) {
    await clicks(page, 'net-step');
  }
  assert.equal(await produce.count(), 1, 'Step put one Produce request on the wire');
  return produce;
}

test('drop, delay and duplicate a message from the timeline; cut and heal a link', { timeout: 180_000 }, async () => {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const problems = watchProblems(page);
  try {
    await open(page);
    await clicks(page, 'txn-init', 'txn-begin', 'net-pause');
    assert.equal(await page.locator(tid('net-pause')).isChecked(), true);
    let produce = await produceOnTheWire(page, 'a1');
    assert.match(await produce.innerText(), /on its way/);

    // The menu: buttons, focus inside; Esc closes it and focus returns to the message.
    await produce.click();
    const menu = page.locator(tid('tl-menu'));
    await menu.waitFor();
    assert.equal(await produce.getAttribute('aria-expanded'), 'true');
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'tl-strike-drop');
    for (const id of ['tl-strike-drop', 'tl-strike-delay', 'tl-strike-duplicate', 'tl-strike-hold', 'tl-menu-close']) {
      assert.equal(await page.locator(tid(id)).evaluate((e) => e.tagName), 'BUTTON', id);
    }
    // A fault in force too, for axe and the screenshots: cut producer-1 ↔ broker 1.
    await clicks(page, 'net-link-toggle');
    assert.match(await page.locator(tid('net-faults')).innerText(), /fault cut producer-1 broker-1/);
    await produce.click();
    await produce.click();
    await menu.waitFor();
    assert.deepEqual(await axe(page), [], 'menu open, a link cut');
    await screenshot(page, 'faults-menu-1280');
    await page.locator(tid('network-panel')).screenshot({ path: path.join(SCREENSHOT_DIR, 'faults-network-1280.png') });
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    assert.match(await page.evaluate(() => document.activeElement?.id ?? ''), /^tl-msg-\d+$/);
    await clicks(page, 'net-clear-0');
    await page.locator(tid('net-no-faults')).waitFor();

    // Delay by 700 ms, then duplicate the same message: both marks show.
    await produce.click();
    await page.locator(tid('tl-delay-ms')).fill('700');
    await clicks(page, 'tl-strike-delay');
    assert.match(await page.locator(tid('timeline')).innerText(), /Produce request — delayed 700 ms/);
    await produce.click();
    await clicks(page, 'tl-strike-duplicate');
    // The original keeps the mark of the first fault that struck it; the copy is a
    // message of its own, on its way one latency later.
    const copy = page.locator('.msg-button', { hasText: /Produce request \(copy of #\d+\)/ });
    assert.equal(await copy.count(), 1, 'the copy is on the wire too');
    await clicks(page, 'net-run');
    assert.equal(await num(page, 'txn-hw'), 1, 'the copy is a duplicate batch: a1 is written once');
    assert.match(await page.locator('.event-list').innerText(), /duplicates the Produce request/);

    // Drop the next one: lost; the producer times out and sends it again, once.
    produce = await produceOnTheWire(page, 'a2');
    await produce.click();
    await clicks(page, 'tl-strike-drop');
    assert.match(await page.locator(tid('timeline')).innerText(), /Produce request — lost/);
    await clicks(page, 'net-run');
    assert.equal(await num(page, 'txn-hw'), 2, 'the retry of a2 lands once');
    // Each choice was an action: two steps back undo the run and the drop; the
    // timeline list names the drop as a fault step.
    assert.match(await page.locator(tid('tt-list')).innerText(), /fault drop id=\d+/);
    await clicks(page, 'tt-back', 'tt-back');
    assert.equal(await num(page, 'txn-hw'), 1);
    assert.equal(await page.locator('.msg-button', { hasText: 'Produce request' }).count(), 1, 'a2 is on the wire again');
    assert.deepEqual(problems, []);
  } finally {
    await page.close();
  }
});

test('the hanging-transaction lesson: rules in force, the stuck LSO, find-hanging and abort', { timeout: 180_000 }, async () => {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const problems = watchProblems(page);
  try {
    await open(page, '?lesson=hanging-transaction');
    // The lesson's file is fetched when the lesson opens: until it arrives the page shows
    // its own world (transaction.version 2), so wait for the lesson's cluster.
    await page.locator(tid('lesson-progress')).waitFor({ timeout: 60_000 });
    await page.locator(tid('rules-tv')).filter({ hasText: /^1$/ }).waitFor({ timeout: 60_000 });
    assert.equal(await page.locator(tid('rules-tv')).innerText(), '1');
    assert.equal(await page.locator(tid('rules-client-tv')).innerText(), '0');
    assert.equal(await page.locator(tid('rules-verification')).innerText(), 'false');
    assert.match(await page.locator(tid('rules-panel')).innerText(), /a transaction can hang/);
    const next = page.locator(tid('lesson-next'));
    const hanging = page.locator(tid('admin-hanging'));
    let sawOpen = false;
    for (let i = 0; i < 80 && (await hanging.count()) === 0; i++) {
      if ((await page.locator(tid('admin-open-2')).count()) > 0) sawOpen = true;
      await next.click();
    }
    assert.ok(sawOpen, 'the late Produce opened a transaction at offset 2 before it was hanging');
    await hanging.waitFor();
    const [lso, hw] = [await num(page, 'txn-lso'), await num(page, 'txn-hw')];
    assert.equal(lso, 2, 'the LSO sticks at the hanging transaction');
    assert.ok(hw > lso, `HW ${hw} is past the stuck LSO`);
    assert.match(await hanging.innerText(), /holds the LSO at 2/);
    assert.match(await page.locator(tid('admin-producers')).innerText(), /\b2\s*$/m);
    assert.equal(await page.locator(tid('admin-abort-2')).count(), 0, 'the lesson drives; the button pauses');
    assert.deepEqual(await axe(page), [], 'lesson, hanging transaction shown');
    await screenshot(page, 'faults-hanging-1280', { fullPage: true });
    for (let i = 0; i < 10 && (await hanging.count()) > 0; i++) await next.click();
    await page.locator(tid('admin-no-open')).waitFor();
    assert.equal(await num(page, 'txn-lso'), await num(page, 'txn-hw'), 'after abort the LSO moves on');
    // The second world: a `cluster` line starts the same schedule at transaction.version 2.
    const tv = page.locator(tid('rules-tv'));
    for (let i = 0; i < 10 && (await tv.innerText()) !== '2'; i++) await next.click();
    assert.equal(await tv.innerText(), '2', 'the lesson moved to its transaction.version 2 world');
    assert.equal(await page.locator(tid('rules-verification')).innerText(), 'true');
    assert.match(
      await page.locator(tid('lesson-new-world')).innerText(),
      /new cluster/,
      'the player says the world was replaced at the boundary',
    );
    const atBoundary = await page.locator(tid('lesson-progress')).innerText();
    // Back across the boundary: the first world again, as it was.
    await page.locator(tid('lesson-prev')).click();
    await tv.filter({ hasText: /^1$/ }).waitFor();
    await page.locator(tid('admin-no-open')).waitFor();
    assert.equal(await page.locator(tid('lesson-new-world')).count(), 0, 'no new-world note inside the first world');
    await next.click();
    await tv.filter({ hasText: /^2$/ }).waitFor();
    assert.equal(await page.locator(tid('lesson-progress')).innerText(), atBoundary);
    // To the end: the late Produce is refused, nothing opens at offset 2, the LSO follows the HW.
    for (let i = 0; i < 10 && (await next.isEnabled()); i++) {
      assert.equal(await page.locator(tid('admin-open-2')).count(), 0, 'no transaction opens at offset 2 under TV2');
      await next.click();
    }
    await page.locator(tid('lesson-finished')).waitFor();
    assert.equal(await page.locator(tid('admin-hanging')).count(), 0, 'nothing hangs under TV2');
    assert.equal(await num(page, 'txn-lso'), await num(page, 'txn-hw'), 'the LSO follows the HW under TV2');
    assert.deepEqual(await axe(page), [], 'lesson, second world');
    await screenshot(page, 'faults-hanging-tv2-1280', { fullPage: true });
    assert.deepEqual(problems, []);
  } finally {
    await page.close();
  }
});

test('the playground offers transaction.version 1 beside 2; a link keeps the choice', { timeout: 180_000 }, async () => {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const problems = watchProblems(page);
  let other;
  try {
    await open(page);
    assert.equal(await page.locator(tid('rules-tv')).innerText(), '2');
    await page.locator(tid('txn-rules')).selectOption({ index: 2 });
    await page.locator(`${tid('rules-tv')}`).filter({ hasText: /^1$/ }).waitFor();
    assert.equal(await page.locator(tid('rules-verification')).innerText(), 'false');
    assert.match(await page.locator(tid('rules-panel')).innerText(), /a transaction can hang/);
    // A transaction commits under TV1 too (the client adds its partitions itself).
    await clicks(page, 'txn-init', 'txn-begin');
    await page.locator(tid('txn-records')).fill('a1');
    await clicks(page, 'txn-send', 'txn-commit');
    await page.locator(`${tid('coordinator-state')}[data-state="CompleteCommit"]`).waitFor({ timeout: 20_000 });
    assert.deepEqual(await axe(page), [], 'TV1 chosen, a transaction committed');
    await page.locator(tid('copy-link')).click();
    const link = await page.locator(tid('share-link')).inputValue();
    other = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
    await other.goto(link, { waitUntil: 'load' });
    await other.locator(PAGE).waitFor({ state: 'visible', timeout: 60_000 });
    await other.locator(`${tid('coordinator-state')}[data-state="CompleteCommit"]`).waitFor({ timeout: 20_000 });
    assert.equal(await other.locator(tid('rules-tv')).innerText(), '1');
    assert.equal(await other.locator(tid('txn-rules')).inputValue(), '2', 'the link reopens with TV1, no verification');
    assert.deepEqual(problems, []);
  } finally {
    await other?.close();
    await page.close();
  }
});

for (const { width, height } of [
  { width: 760, height: 1000 },
  { width: 360, height: 800 },
]) {
  test(`the fault controls at ${width} px`, { timeout: 120_000 }, async () => {
    const page = await site.browser.newPage({ viewport: { width, height } });
    const problems = watchProblems(page);
    try {
      await open(page);
      await clicks(page, 'txn-init', 'txn-begin', 'net-pause');
      const produce = await produceOnTheWire(page, 'a1');
      await clicks(page, 'net-link-toggle');
      await produce.click();
      await page.locator(tid('tl-menu')).waitFor();
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      assert.ok(overflow <= 0, `nothing scrolls sideways at ${width} px (${overflow} px)`);
      await page.locator(tid('tl-menu')).scrollIntoViewIfNeeded();
      await screenshot(page, `faults-menu-${width}`);
      await page.locator(tid('network-panel')).scrollIntoViewIfNeeded();
      await screenshot(page, `faults-network-${width}`);
      await page.locator(tid('rules-panel')).scrollIntoViewIfNeeded();
      await screenshot(page, `faults-rules-${width}`);
      assert.deepEqual(await axe(page), [], `${width} px`);
      assert.deepEqual(problems, []);
    } finally {
      await page.close();
    }
  });
}
