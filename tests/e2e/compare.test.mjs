// The Pulsar site's "Compare with Kafka" view (dist/pulsar/, #compare): reached from the
// site's nav, it steps one story through both engines; the differences table starts
// empty and fills in row by row; axe-core finds no violations (light and dark); nothing
// scrolls sideways at 1280, 760 or 360 px (screenshots of each in target/screenshots/).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { axe, screenshot, useSite, watchProblems } from './harness.mjs';

const tid = (id) => `[data-testid="${id}"]`;
const site = useSite({ base: '/course/eos/' });

const overflow = (page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** The two cells (Kafka, Pulsar) of a differences row. */
const cells = (page, row) => page.locator(`${tid(`compare-row-${row}`)} td`).allInnerTexts();

/** How many cells of the differences table are filled. */
const filled = (page) => page.locator(`${tid('compare-differences')} td.filled`).count();

async function openCompare(page) {
  await page.goto(`${site.server.url}pulsar/index.html`, { waitUntil: 'load' });
  const nav = page.locator(tid('nav-compare'));
  await nav.waitFor({ state: 'visible', timeout: 60_000 });
  await nav.click();
  await page.locator(tid('compare-next')).waitFor({ state: 'visible' });
}

test('the comparison steps both engines and fills the differences table', { timeout: 180_000 }, async () => {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const problems = watchProblems(page);
  try {
    await openCompare(page);
    assert.match(page.url(), /#compare$/);
    assert.equal(await page.locator(tid('nav-compare')).getAttribute('aria-current'), 'page');
    assert.match(await page.locator(tid('compare-step')).innerText(), /^step 0 \/ \d+/);
    assert.equal(await filled(page), 0, 'an empty table before the story');
    assert.match(await page.locator(tid('compare-pulsar')).innerText(), /has not started/);

    // Keyboard only: Tab to Next and press Enter, step by step.
    const next = page.locator(tid('compare-next'));
    const counts = [];
    let filterKafka = null;
    let filterPulsar = null;
    for (let step = 1; step <= 20 && (await next.isEnabled()); step++) {
      await next.focus();
      await page.keyboard.press('Enter');
      await page.locator(tid('compare-step')).filter({ hasText: new RegExp(`^step ${step} /`) }).waitFor();
      counts.push(await filled(page));
      const [k, p] = await cells(page, 'filter');
      if (filterKafka === null && !/not shown yet/.test(k)) filterKafka = step;
      if (filterPulsar === null && !/not shown yet/.test(p)) filterPulsar = step;
      if (step === 2) await screenshot(page, 'compare-1280-step2', { fullPage: true });
    }
    // Next is disabled at the last step: the keyboard's focus went to Back, not to the page.
    await page.waitForFunction(() => document.activeElement?.dataset?.testid === 'compare-back', null, { timeout: 5_000 });
    // The table fills in as the story runs, never emptying, and all of it by the end.
    assert.ok(counts.every((c, i) => i === 0 || c >= counts[i - 1]), `counts ${counts}`);
    assert.ok(counts[1] > 0 && counts[1] < counts.at(-1), `counts ${counts}`);
    assert.equal(counts.at(-1), 16, `every cell filled at the end: ${counts}`);
    // Kafka's consumer drops the aborted record at act 2 on Kafka; Pulsar's dispatcher
    // at act 2 on Pulsar, the step after.
    assert.equal(filterPulsar, filterKafka + 1, `${filterKafka} ${filterPulsar}`);
    const [k, p] = await cells(page, 'filter');
    assert.match(k, /fetched the aborted out-0 offsets 2 and dropped them itself/);
    assert.match(p, /dispatcher of output-partition-0\/downstream leaves out the aborted 3:2/);
    const crash = await cells(page, 'crash');
    assert.match(crash[1], /\(0,2\) COMMITTING/);
    // Both sides, from each engine: the aborted C.
    assert.match(await page.locator(tid('compare-kafka-out-0')).innerText(), /C\s+✗?\s*aborted/);
    assert.match(await page.locator(tid('compare-pulsar-output-partition-0')).innerText(), /C \(0,1\)\s+✗?\s*aborted/);

    // Back: the table as it was one step earlier.
    await page.locator(tid('compare-back')).click();
    assert.equal(await filled(page), counts.at(-2));

    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForTimeout(400);
      assert.deepEqual(await axe(page), [], `axe, ${scheme}`);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.locator(tid('compare-next')).click();

    for (const width of [1280, 760, 360]) {
      await page.setViewportSize({ width, height: 800 });
      await page.waitForTimeout(200);
      assert.ok((await overflow(page)) <= 0, `sideways scroll at ${width} px: ${await overflow(page)} px`);
      // Restart, Back, Next and the step apart: no two side by side touching.
      const touching = await page.locator('.compare-player .player-buttons > *').evaluateAll((els) =>
        els.slice(1).flatMap((el, i) => {
          const [a, b] = [els[i].getBoundingClientRect(), el.getBoundingClientRect()];
          return Math.abs(a.top - b.top) < 4 && b.left - a.right < 4 ? [`${els[i].textContent}|${el.textContent}`] : [];
        }),
      );
      assert.deepEqual(touching, [], `controls touching at ${width} px`);
      await screenshot(page, `compare-${width}`, { fullPage: true });
    }
    assert.deepEqual(await axe(page), [], 'axe at 360 px');
    assert.deepEqual(problems, [], `problems:\n${problems.join('\n')}`);
  } finally {
    await page.close();
  }
});

test('the comparison opens from its link and reads in Korean', { timeout: 120_000 }, async () => {
  const page = await site.browser.newPage({ viewport: { width: 760, height: 800 } });
  const problems = watchProblems(page);
  try {
    await page.goto(`${site.server.url}pulsar/index.html?lang=ko#compare`, { waitUntil: 'load' });
    await page.locator(tid('compare-next')).waitFor({ state: 'visible', timeout: 60_000 });
    await page.locator(tid('compare-differences')).filter({ hasText: '아직 나오지 않았습니다' }).first().waitFor();
    for (let i = 0; i < 5; i++) await page.locator(tid('compare-next')).click();
    const [k, p] = await cells(page, 'filter');
    assert.match(k, /직접 버립니다/);
    assert.match(p, /디스패처/);
    assert.match(await page.locator(tid('nav-compare')).innerText(), /Kafka와 비교/);
    assert.deepEqual(await axe(page), [], 'axe, Korean');
    await screenshot(page, 'compare-760-ko', { fullPage: true });
    assert.deepEqual(problems, [], `problems:\n${problems.join('\n')}`);
  } finally {
    await page.close();
  }
});
