// Small screens and assistive technology, on both pages:
// - axe-core (npm `axe-core`, injected into the page) finds no violations in light and
//   dark mode, nor with the shortcut sheet open;
// - the shortcut sheet is modal: Tab stays inside, Esc closes it, focus comes back;
// - a skip link leads past the controls;
// - at 360 px nothing scrolls sideways; at 1280 px the lesson card's file input and
//   select fit and the `__transaction_state` table shows all its columns;
// - screenshots at 1280×800, 760 and 360 px of both pages (target/screenshots/).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { screenshot, useSite, watchProblems } from './harness.mjs';

const tid = (id) => `[data-testid="${id}"]`;
const site = useSite();
const require = createRequire(import.meta.url);
const AXE = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');

const PAGES = [
  ['idempotence', '#idempotence', tid('playground')],
  ['transactions', '#transactions', tid('page-transactions')],
];

async function open(page, hash, ready, query = '') {
  await page.goto(`${site.server.url}${query}${hash}`, { waitUntil: 'load' });
  await page.locator(ready).waitFor({ state: 'visible', timeout: 120_000 });
}

/** Runs axe-core in the page; returns the violations, one line each. */
async function axe(page) {
  if (!(await page.evaluate(() => typeof window.axe !== 'undefined'))) {
    await page.addScriptTag({ content: AXE });
  }
  const result = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map(
      (v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`,
    );
  });
  return result;
}

const overflow = (page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** A few clicks so the tables have rows. */
async function work(page, name) {
  if (name === 'idempotence') {
    await page.locator(tid('send')).click();
    await page.locator(tid('send')).click();
  } else {
    for (const id of ['txn-init', 'txn-begin', 'txn-send', 'txn-abort', 'txn-begin', 'txn-send', 'txn-commit']) {
      await page.locator(tid(id)).click();
    }
    await page.locator(tid('poll-rc')).click();
  }
}

for (const [name, hash, ready] of PAGES) {
  test(`axe: no violations on the ${name} page, light and dark, sheet open`, { timeout: 180_000 }, async () => {
    const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
    const problems = watchProblems(page);
    try {
      await open(page, hash, ready);
      await work(page, name);
      for (const scheme of ['light', 'dark']) {
        await page.emulateMedia({ colorScheme: scheme });
        // Some backgrounds fade (0.3 s): test the colours they end with.
        await page.waitForTimeout(600);
        assert.deepEqual(await axe(page), [], `${name}, ${scheme}`);
      }
      await page.emulateMedia({ colorScheme: 'light' });
      await page.waitForTimeout(600);
      // The shortcut sheet: modal, Tab stays inside, Esc closes, focus returns.
      await page.locator(tid('txn-init')).or(page.locator(tid('send'))).first().focus();
      const before = await page.evaluate(() => document.activeElement?.dataset.testid);
      await page.keyboard.press('?');
      await page.locator(tid('shortcuts')).waitFor();
      assert.deepEqual(await axe(page), [], `${name}, sheet open`);
      for (let i = 0; i < 5; i++) {
        await page.keyboard.press('Tab');
        assert.equal(
          await page.evaluate(() => !!document.activeElement?.closest('[data-testid="shortcuts"]')),
          true,
          'Tab stays inside the sheet',
        );
      }
      await page.keyboard.press('Shift+Tab');
      assert.equal(await page.evaluate(() => !!document.activeElement?.closest('[data-testid="shortcuts"]')), true);
      await page.keyboard.press('Escape');
      await page.locator(tid('shortcuts')).waitFor({ state: 'detached' });
      assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), before, 'focus came back');

      // The skip link is the first stop and leads past the controls.
      await page.evaluate(() => {
        // Start the Tab order at the top of the document.
        document.body.tabIndex = -1;
        document.body.focus();
        document.body.removeAttribute('tabindex');
      });
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement?.className), 'skip-link');
      await page.keyboard.press('Enter');
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'main');
      assert.equal(await page.evaluate(() => location.hash.startsWith('#main')), false, 'the fragment still names the page');
      assert.deepEqual(problems, []);
    } finally {
      await page.close();
    }
  });
}

for (const [name, hash, ready] of PAGES) {
  for (const { width, height } of [
    { width: 1280, height: 800 },
    { width: 760, height: 1000 },
    { width: 360, height: 800 },
  ]) {
    test(`the ${name} page fits ${width} px`, { timeout: 120_000 }, async () => {
      const page = await site.browser.newPage({ viewport: { width, height } });
      try {
        await open(page, hash, ready);
        await work(page, name);
        await page.evaluate(() => window.scrollTo(0, 0));
        await screenshot(page, `learner-${name}-${width}`, { fullPage: width !== 1280 });
        if (width === 1280) {
          await page.emulateMedia({ colorScheme: 'dark' });
          await screenshot(page, `learner-${name}-${width}-dark`);
          await page.emulateMedia({ colorScheme: 'light' });
        }
        assert.ok((await overflow(page)) <= 0, `${name} at ${width}px scrolls sideways by ${await overflow(page)}px`);
        // The lesson card's controls fit inside it.
        const card = await page.locator('.lesson-panel').boundingBox();
        for (const id of ['lesson-file', 'lesson-select']) {
          const box = await page.locator(tid(id)).boundingBox();
          assert.ok(box.x >= card.x - 0.5 && box.x + box.width <= card.x + card.width + 0.5, `${id} fits its card at ${width}px`);
        }
        const selectCut = await page.locator(tid('lesson-select')).evaluate((s) => s.scrollWidth - s.clientWidth);
        assert.ok(selectCut <= 2, `the lesson select is cut by ${selectCut}px`);
        if (name === 'transactions' && width === 1280) {
          const cut = await page.locator(tid('txn-state-log')).evaluate((t) => {
            const scroller = t.closest('.scroll-x') ?? t.parentElement;
            return scroller.scrollWidth - scroller.clientWidth;
          });
          assert.ok(cut <= 0, `__transaction_state hides ${cut}px of columns`);
        }
      } finally {
        await page.close();
      }
    });
  }
}

// Every lesson can be played without a mouse, in every language: from the address bar
// to the last step with Tab and Enter only; the step text is in the page's language.
for (const [lang, script] of [['ko', /[\uac00-\ud7a3]/], ['th', /[\u0e00-\u0e7f]/]]) {
  test(`keyboard alone plays a lesson to its end (${lang})`, { timeout: 180_000 }, async () => {
    const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
    const problems = watchProblems(page);
    try {
      await open(page, '#idempotence', tid('lesson-next'), `?lesson=dedup-window&lang=${lang}`);
      await page.locator(`html[lang="${lang}"]`).waitFor();
      const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid'));
      for (let i = 0; i < 120 && (await focused()) !== 'lesson-next'; i++) {
        await page.keyboard.press('Tab');
      }
      assert.equal(await focused(), 'lesson-next', 'Tab reaches the Next button');
      const next = page.locator(tid('lesson-next'));
      let presses = 0;
      while (!(await next.isDisabled()) && presses < 200) {
        await page.keyboard.press('Enter');
        presses++;
      }
      assert.ok(await next.isDisabled(), `the lesson ended after ${presses} presses`);
      assert.equal(await page.locator(tid('lesson-error')).count(), 0, 'no step refused');
      const [done, total] = (await page.locator(tid('lesson-progress')).innerText()).match(/\d+/g).map(Number);
      assert.equal(done, total, 'the progress says the last step');
      assert.match(await page.locator(tid('lesson-step')).innerText(), script, `the step speaks ${lang}`);
      assert.deepEqual(problems, []);
    } finally {
      await page.close();
    }
  });
}
