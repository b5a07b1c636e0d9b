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
import { axe, screenshot, useSite, watchProblems } from './harness.mjs';

const tid = (id) => `[data-testid="${id}"]`;
const site = useSite();

const PAGES = [
  ['idempotence', '#idempotence', tid('playground')],
  ['transactions', '#transactions', tid('page-transactions')],
];

async function open(page, hash, ready, query = '') {
  await page.goto(`${site.server.url}${query}${hash}`, { waitUntil: 'load' });
  await page.locator(ready).waitFor({ state: 'visible', timeout: 120_000 });
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
        for (const id of ['lesson-file-button', 'lesson-select']) {
          const box = await page.locator(tid(id)).boundingBox();
          assert.ok(box.x >= card.x - 0.5 && box.x + box.width <= card.x + card.width + 0.5, `${id} fits its card at ${width}px`);
        }
        const selectCut = await page.locator(tid('lesson-select')).evaluate((s) => s.scrollWidth - s.clientWidth);
        assert.ok(selectCut <= 2, `the lesson select is cut by ${selectCut}px`);
        // A table that scrolls sideways keeps its caption inside its box, where it wraps.
        const captionsOut = await page.evaluate(() => [...document.querySelectorAll('.scroll-x caption, .log-scroll caption')]
          .filter((c) => c.getBoundingClientRect().width > 0)
          .filter((c) => c.getBoundingClientRect().right > c.closest('.scroll-x, .log-scroll').getBoundingClientRect().right + 1)
          .map((c) => c.innerText.slice(0, 40)));
        assert.deepEqual(captionsOut, [], `captions out of their box at ${width}px`);
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

// Screen readers hear each event once: the visible list is not live; a visually hidden
// live region holds only the narration of the last click (src/view/announce.rs), and a
// verdict is in one live region only (the narration), never read twice.
test('the live region holds only the last click’s narration; a verdict is announced once', { timeout: 120_000 }, async () => {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const problems = watchProblems(page);
  const live = page.locator(`${tid('events-live')} p`);
  const newest = (n) =>
    page.locator(`${tid('events')} .event-text`).evaluateAll((els, k) => els.slice(0, k).map((e) => e.textContent).reverse(), n);
  // The list is windowed: a long one renders only the items near where it is scrolled,
  // and each says how many there are (`aria-setsize`).
  const count = () =>
    page.locator(`${tid('events')} li.event`).evaluateAll((els) => Number(els[0]?.getAttribute('aria-setsize') ?? els.length));
  try {
    await open(page, '#idempotence', tid('playground'));
    assert.equal(await live.count(), 0, 'loading the page announces nothing');
    // Nothing else is live: not the list, the verdict or the coordinator's state.
    const liveRegions = () =>
      page.evaluate(() =>
        [...document.querySelectorAll('[aria-live]:not([aria-live="off"]), [role="status"], [role="log"], [role="alert"]')].map(
          (e) => e.dataset.testid || e.className,
        ),
      );
    assert.ok(!(await liveRegions()).includes('events'), 'the visible list is not live');
    assert.equal(await page.locator(`${tid('events')}[aria-live], ${tid('verdict')}[role], ${tid('verdict')}[aria-live]`).count(), 0);

    await page.locator(tid('records')).fill('a, b');
    await page.locator(tid('send')).click();
    await page.locator(`${tid('verdict')}[data-verdict="APPEND"]`).waitFor();
    await page.waitForTimeout(300);
    const first = await live.allTextContents();
    assert.ok(first.length > 0, 'the click is announced');
    assert.deepEqual(first, await newest(first.length), 'the newest events, oldest first');
    const total1 = await count();
    assert.ok(first.length < total1, `only this click: ${first.length} of ${total1} events`);
    assert.ok(first.some((l) => l.includes('APPEND')), first.join('\n'));

    await page.locator(tid('drop-ack')).click();
    await page.waitForTimeout(300);
    const before = await count();
    await page.locator(tid('records')).fill('c');
    await page.locator(tid('send')).click();
    await page.locator(`${tid('verdict')}[data-verdict="DUPLICATE"]`).waitFor({ timeout: 20_000 });
    await page.waitForTimeout(300);
    const second = await live.allTextContents();
    const total2 = await count();
    assert.deepEqual(second, await newest(second.length));
    assert.equal(total2 - before, second.length, 'exactly the events this click added');
    assert.ok(!second.some((l) => first.includes(l) && l.includes('APPEND')), 'the first click is not read again');
    // The verdict word is in one live region: the narration's.
    const saying = await page.evaluate(() =>
      [...document.querySelectorAll('[aria-live]:not([aria-live="off"]), [role="status"], [role="log"], [role="alert"]')]
        .filter((e) => e.textContent.includes('DUPLICATE'))
        .map((e) => e.dataset.testid),
    );
    assert.deepEqual(saying, ['events-live'], 'DUPLICATE is announced by one region');

    // Stepping back in time empties it (the time-travel position says where one is).
    await page.keyboard.press('ArrowLeft');
    await page.waitForTimeout(500);
    assert.equal(await live.count(), 0, 'a step back announces no events');
    assert.deepEqual(problems, []);
  } finally {
    await page.close();
  }
});

// The pictures have text alternatives in the page's language (src/view/alt.rs).
test('the state diagram, the offset strip and the timeline say in words what they show', { timeout: 120_000 }, async () => {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    await open(page, '#transactions', tid('page-transactions'));
    for (const id of ['txn-init', 'txn-begin', 'txn-send']) await page.locator(tid(id)).click();
    await page.locator(tid('coordinator-state')).first().and(page.locator('[data-state="Ongoing"]')).waitFor();
    const diagram = await page.locator(tid('coordinator-diagram')).first().getAttribute('aria-label');
    assert.match(diagram, /in Ongoing\. Its previous state was Empty\. From here it may move to PrepareCommit, PrepareAbort/);
    assert.equal(await page.locator(tid('txn-strip')).getAttribute('aria-hidden'), 'true');
    const strip = await page.locator(tid('txn-strip-alt')).textContent();
    const [lso, hw, leo] = await Promise.all(['txn-lso', 'txn-hw', 'txn-leo'].map((i) => page.locator(tid(i)).innerText()));
    assert.ok(strip.includes(`LSO at offset ${lso}, HW at ${hw}, LEO at ${leo}`), strip);
    assert.match(strip, /open \(no marker yet\)/);
    const timeline = await page.locator(tid('timeline-alt')).textContent();
    assert.match(timeline, /^The diagram shows the newest \d+ of \d+ messages between .*The newest: /);
    // Every table says what it is and which cells are headers.
    const bare = await page.evaluate(() =>
      [...document.querySelectorAll('table')].filter((t) => !t.querySelector('caption') || t.querySelector('th:not([scope])')).length,
    );
    assert.equal(bare, 0, 'tables without a caption or with a header cell without scope');
  } finally {
    await page.close();
  }
});

// 200% zoom of a 1280 px window is a 640 px viewport at twice the pixels; reduced motion
// stops every transition and animation.
for (const [name, hash, ready] of PAGES) {
  test(`the ${name} page at 200% zoom: no sideways scroll, every control reachable; reduced motion`, { timeout: 120_000 }, async () => {
    const page = await site.browser.newPage({ viewport: { width: 640, height: 400 }, deviceScaleFactor: 2, reducedMotion: 'reduce' });
    try {
      await open(page, hash, ready);
      await work(page, name);
      assert.ok((await overflow(page)) <= 0, `${name} at 200% scrolls sideways by ${await overflow(page)}px`);
      const outside = await page.evaluate(() =>
        [...document.querySelectorAll('main button, main input, main select, main a[href], main summary')]
          // The page tabs' row scrolls sideways below 900 px: a tab is scrolled in when
          // focused (learner.test.mjs checks each at 360 and 760 px).
          .filter((e) => e.getClientRects().length && !e.closest('.scroll-x, .tl-scroll, .log-scroll, .page-nav ul, .visually-hidden'))
          .filter((e) => {
            const r = e.getBoundingClientRect();
            return r.left < -0.5 || r.right > document.documentElement.clientWidth + 0.5;
          })
          .map((e) => e.dataset.testid || e.outerHTML.slice(0, 80)),
      );
      assert.deepEqual(outside, [], 'controls outside the viewport');
      await screenshot(page, `zoom200-${name}`, { fullPage: true });
      const moving = await page.evaluate(() => {
        const secs = (v) => Math.max(...v.split(',').map((s) => parseFloat(s) * (s.trim().endsWith('ms') ? 0.001 : 1)));
        return [...document.querySelectorAll('*')]
          .filter((e) => {
            const s = getComputedStyle(e);
            return secs(s.transitionDuration) > 0.001 || (s.animationName !== 'none' && secs(s.animationDuration) > 0.001);
          })
          .map((e) => e.className || e.tagName);
      });
      assert.deepEqual(moving, [], 'transitions or animations under prefers-reduced-motion');
    } finally {
      await page.close();
    }
  });
}

// Every view a learner meets, as they meet it: the course home, the glossary open, a
// lesson mid-way with a question answered, free play with a challenge solved, the
// transactions page on three brokers, the Pulsar lesson view at a question, the
// comparison, and the chaos page. axe-core finds nothing in light and dark at 1280 and
// 360 px; each is also photographed at 1280×800, 760 and 360 px, light and dark
// (target/screenshots/tour-VIEW-WIDTH-SCHEME.png), to be looked at.
const VIEWS = [
  // [name, where, ready: brings the view about once, show: what to look at, at each width]
  ['home', '', async (page) => {
    await page.locator(tid('course-start')).waitFor({ timeout: 120_000 });
  }, null],
  ['glossary', '', async (page) => {
    await page.locator(`${tid('glossary')} summary`).click();
  }, `${tid('glossary')} summary`],
  ['lesson', '?lesson=idempotence', async (page) => {
    const next = page.locator(tid('lesson-next'));
    await page.locator(`${tid('lesson-next')}:enabled`).waitFor({ timeout: 120_000 });
    for (let i = 0; i < 30 && (await page.locator('fieldset[data-question]').count()) === 0; i++) await next.click();
    await page.locator('fieldset[data-question] input[type=radio]').first().check();
    await page.locator('fieldset[data-question] [data-feedback]').first().waitFor();
  }, 'fieldset[data-question]'],
  ['free-play', '#idempotence', async (page) => {
    await page.locator(tid('send')).waitFor({ timeout: 120_000 });
    await page.locator(tid('send')).click();
    await page.locator(tid('drop-ack')).click();
    await page.locator(tid('send')).click();
    await page.locator('[data-challenge="duplicate"][data-solved="true"]').waitFor({ timeout: 20_000 });
  }, tid('challenges')],
  ['transactions', '#transactions', async (page) => {
    await page.locator(tid('cluster-size')).waitFor({ timeout: 120_000 });
    await page.locator(tid('cluster-size')).selectOption('3');
    for (const id of ['txn-init', 'txn-begin', 'txn-send', 'txn-commit']) await page.locator(tid(id)).click();
  }, tid('replicas-view')],
  ['pulsar-lesson', 'pulsar/?lesson=pulsar-transactions', async (page) => {
    const next = page.locator(tid('pulsar-next'));
    await next.waitFor({ timeout: 120_000 });
    for (let i = 0; i < 30 && (await page.locator('fieldset[data-question]').count()) === 0; i++) await next.click();
    await page.locator('fieldset[data-question] input[type=radio]').first().check();
    await page.locator('fieldset[data-question] [data-feedback]').first().waitFor();
  }, 'fieldset[data-question]'],
  ['compare', 'pulsar/#compare', async (page) => {
    await page.locator(`${tid('nav-compare')}[aria-current="page"]`).waitFor({ timeout: 120_000 });
  }, null],
  ['chaos', 'chaos/', async (page) => {
    await page.locator(tid('chaos-start')).waitFor({ timeout: 120_000 });
  }, tid('challenges')],
];

test('axe and a screenshot tour: every view at 1280, 760 and 360 px, light and dark', { timeout: 300_000 }, async () => {
  for (const [name, where, ready, show] of VIEWS) {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const problems = watchProblems(page);
    try {
      await page.goto(`${site.server.url}${where}`, { waitUntil: 'load' });
      await ready(page);
      for (const width of [1280, 760, 360]) {
        await page.setViewportSize({ width, height: 800 });
        if (show) await page.locator(show).first().evaluate((e) => e.scrollIntoView({ block: 'center' }));
        for (const scheme of ['light', 'dark']) {
          await page.emulateMedia({ colorScheme: scheme });
          // Some backgrounds fade (0.3 s): test the colours they end with.
          await page.waitForTimeout(400);
          if (width !== 760) assert.deepEqual(await axe(page), [], `${name} at ${width} px, ${scheme}`);
          await screenshot(page, `tour-${name}-${width}-${scheme}`);
        }
      }
      assert.deepEqual(problems, [], `${name}: ${problems.join('\n')}`);
    } finally {
      await context.close();
    }
  }
});
