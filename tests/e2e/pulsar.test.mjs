// The Pulsar site (dist/pulsar/, its own entry): the main page links to it, it loads
// its own wasm, and a learner can play the data-flow lesson to the commit and read the
// step numbers, the maxReadPosition pointer and the differences table.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { axe, screenshot, useSite, watchProblems } from './harness.mjs';

const site = useSite({ base: '/course/eos/' });

test('the Pulsar site plays the data-flow lesson to the commit', { timeout: 120_000 }, async () => {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const problems = watchProblems(page);
  try {
    await page.goto(site.server.url, { waitUntil: 'load' });
    const link = page.locator('[data-testid="nav-pulsar"]');
    await link.waitFor({ state: 'visible', timeout: 30_000 });
    await link.click();
    await page.locator('[data-testid="pulsar-next"]').waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await page.title(), /Pulsar/);

    const next = page.locator('[data-testid="pulsar-next"]');
    for (let i = 0; i < 200 && (await next.isEnabled()); i++) {
      await next.click();
    }
    const out = await page.locator('[data-testid="pulsar-partition-output-partition-0"]').innerText();
    assert.match(out, /maxReadPosition 3:2/);
    assert.match(out, /commit marker/);
    const timeline = await page.locator('[data-testid="pulsar-timeline"]').innerText();
    assert.match(timeline, /\[4\.3\.3\]/);
    const diffs = await page.locator('[data-testid="pulsar-differences"]').innerText();
    assert.match(diffs, /maxReadPosition/);

    await screenshot(page, 'pulsar-1280');
    assert.deepEqual(problems, [], `problems while loading:\n${problems.join('\n')}`);
  } finally {
    await page.close();
  }
});

// The Pulsar and chaos pages pick their first language as the main page does
// (www/first-language.js): a Thai browser sees the status line in Thai while the wasm
// loads, its catalog is preloaded beside English's and fetched once, and the first
// render is Thai.
test('a Thai browser gets the Pulsar and chaos pages in Thai from the first paint', { timeout: 120_000 }, async () => {
  const context = await site.browser.newContext({ locale: 'th-TH', viewport: { width: 1280, height: 800 } });
  try {
    for (const [dir, status, heading] of [
      ['pulsar/', /กำลังโหลดสนามทดลอง transaction ของ Pulsar/, /transaction ของ Pulsar/],
      ['chaos/', /กำลังโหลดการค้นหาตัวอย่างค้าน/, /การค้นหาตัวอย่างค้าน/],
    ]) {
      // Without its wasm the page stays at its status line.
      const loading = await context.newPage();
      await loading.route('**/*_bg.wasm', (route) => route.abort());
      await loading.goto(`${site.server.url}${dir}`, { waitUntil: 'load' });
      assert.equal(await loading.locator('html').getAttribute('lang'), 'th', dir);
      assert.equal(await loading.locator('html').getAttribute('data-shell'), null, dir);
      assert.match(await loading.locator('#app .app-loading').innerText(), status);
      await loading.close();

      const page = await context.newPage();
      const problems = watchProblems(page);
      const before = site.server.requests.length;
      await page.goto(`${site.server.url}${dir}`, { waitUntil: 'load' });
      await page.locator('#app h1').first().waitFor({ timeout: 60_000 });
      assert.match(await page.locator('#app h1').first().innerText(), heading);
      const fetched = site.server.requests.slice(before).filter((r) => r.endsWith(`/${dir}i18n/th.txt`));
      assert.equal(fetched.length, 1, `${dir}i18n/th.txt fetched ${fetched.length} times`);
      assert.deepEqual(problems, [], `${dir}: ${problems.join('\n')}`);
      await page.close();
    }
  } finally {
    await context.close();
  }
});

// The lesson player as a learner meets it: a course link opens a lesson, Play steps on
// by itself (and stops at a question or the end), a question answers back, and every
// panel fits a 360 px phone — a wide table scrolls inside its own focusable region
// instead of being cut off by its panel.

const tid = (id) => `[data-testid="${id}"]`;
const step = async (page) => Number((await page.locator(tid('pulsar-step')).innerText()).match(/(\d+) \/ \d+/)[1]);

async function openLesson(page, query = '') {
  await page.goto(`${site.server.url}pulsar/?lesson=pulsar-tc-crash${query}`, { waitUntil: 'load' });
  await page.locator(tid('pulsar-next')).waitFor({ state: 'visible', timeout: 60_000 });
}

/** What sticks out of its panel: every element past a panel's edges that is not inside
 * a region that scrolls (a `.scroll-x`, a `pre`, the timeline) or visually hidden. */
const clipped = (page) =>
  page.evaluate(() => {
    const out = [];
    for (const panel of document.querySelectorAll('.panel')) {
      const box = panel.getBoundingClientRect();
      for (const el of panel.querySelectorAll('*')) {
        if (el.closest('.visually-hidden') || el.parentElement.closest('.scroll-x, pre, .event-list')) continue;
        const r = el.getBoundingClientRect();
        if (r.width > 0 && (r.right > box.right + 0.5 || r.left < box.left - 0.5)) {
          out.push(`${el.tagName.toLowerCase()}${el.dataset.testid ? `[${el.dataset.testid}]` : ''} by ${Math.round(r.right - box.right)} px`);
        }
      }
    }
    return out;
  });

test('?lesson= opens a Pulsar lesson; Play steps on and stops, Pause holds', { timeout: 120_000 }, async () => {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const problems = watchProblems(page);
  try {
    await openLesson(page);
    assert.match(await page.locator(tid('pulsar-lesson-title')).innerText(), /coordinator crash/i);
    const selected = await page.locator(tid('pulsar-lesson-select')).evaluate((s) => s.selectedOptions[0].textContent);
    assert.equal(selected, await page.locator(tid('pulsar-lesson-title')).innerText());
    assert.equal(await step(page), 0);

    // The Speed select, labelled, with the five speeds.
    const speed = page.getByRole('combobox', { name: 'Speed' });
    assert.deepEqual(await speed.locator('option').allInnerTexts(), ['0.5×', '1×', '1.5×', '2×', '4×']);
    await speed.selectOption('400');

    const play = page.getByRole('button', { name: 'Play' });
    await play.click();
    await page.getByRole('button', { name: 'Pause' }).waitFor();
    await page.waitForFunction(() => /step [1-9]/.test(document.querySelector('[data-testid="pulsar-step"]').textContent), null, { timeout: 20_000 });
    // Autoplay stops by itself: at a question it has not seen answered, or at the end.
    await page.locator(`${tid('pulsar-play')}[data-playing="false"]`).waitFor({ timeout: 60_000 });
    const stopped = await step(page);
    const total = Number((await page.locator(tid('pulsar-step')).innerText()).match(/\/ (\d+)/)[1]);
    assert.ok(stopped >= 1, `Play advanced to step ${stopped}`);
    assert.ok(stopped === total || (await page.locator('fieldset[data-question]').count()) > 0, `stopped at ${stopped} of ${total}: neither a question nor the end`);
    await play.waitFor();

    // Pause holds the step.
    if (stopped < total) {
      await play.click();
      await page.getByRole('button', { name: 'Pause' }).click();
      const held = await step(page);
      await page.waitForTimeout(1_500);
      assert.equal(await step(page), held, 'Pause holds the step');
    }
    assert.deepEqual(problems, [], problems.join('\n'));
  } finally {
    await page.close();
  }
});

test('a Pulsar lesson question answers back; no blank lists, no bare -1 positions', { timeout: 120_000 }, async () => {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const problems = watchProblems(page);
  try {
    await openLesson(page);
    const next = page.locator(tid('pulsar-next'));
    let explained = false;
    for (let i = 0; i < 50 && (await page.locator('fieldset[data-question]').count()) === 0 && (await next.isEnabled()); i++) {
      await next.click();
      // A position before a ledger's first entry says so, wherever the panels show it.
      // (What a step printed is the CLI's transcript, in Pulsar's own notation.)
      const shown = await page.evaluate(() =>
        [...document.querySelectorAll('.panel')].map((p) => {
          const copy = p.cloneNode(true);
          copy.querySelectorAll('pre').forEach((e) => e.remove());
          return copy.textContent;
        }),
      );
      for (const text of shown) {
        for (const m of text.matchAll(/\d+:-1(.{0,40})/gs)) {
          assert.match(m[1], /^ \(before the first entry of ledger \d+\)/, `a bare ${m[0]}`);
          explained = true;
        }
      }
      // Empty lists say "none": no empty cell, no empty definition.
      const blank = await page.evaluate(() =>
        [...document.querySelectorAll('.panel dd, [data-testid="pulsar-subscriptions"] td.mono')].filter((e) => !e.textContent.trim()).length,
      );
      assert.equal(blank, 0, 'a blank list');
    }
    assert.ok(explained, 'the lesson shows a position before the first entry (3:-1)');
    assert.match(await page.locator('.panel dd').first().innerText(), /\S/);
    const question = page.locator('fieldset[data-question]').first();
    await question.waitFor();
    await question.locator('label').first().click();
    const feedback = question.locator('[data-feedback][data-correct]');
    await feedback.waitFor();
    assert.match(await feedback.getAttribute('data-correct'), /^(true|false)$/);
    assert.match(await feedback.innerText(), /^(Right\.|Not quite\.)/);
    assert.deepEqual(problems, [], problems.join('\n'));
  } finally {
    await page.close();
  }
});

for (const lang of ['ko', 'th']) {
  test(`the Pulsar panels' new words in ${lang}: "none" and the -1 position`, { timeout: 120_000 }, async () => {
    const page = await site.browser.newPage({ viewport: { width: 760, height: 800 } });
    try {
      await openLesson(page, `&lang=${lang}`);
      await page.locator(`html[lang="${lang}"]`).waitFor();
      for (let i = 0; i < 2; i++) await page.locator(tid('pulsar-next')).click();
      const out = await page.locator(tid('pulsar-partition-output-partition-0')).innerText();
      const [none, before] = lang === 'ko' ? ['없음', 'ledger 3의 첫 엔트리 앞'] : ['ไม่มี', 'ก่อน entry แรกของ ledger 3'];
      assert.ok(out.includes(`3:-1 (${before})`), out);
      assert.ok(out.includes(none), out);
      assert.match(await page.locator(tid('pulsar-play')).innerText(), lang === 'ko' ? /재생/ : /เล่น/);
    } finally {
      await page.close();
    }
  });
}

test('at 360 px nothing is cut off: the subscriptions table scrolls in its own region', { timeout: 120_000 }, async () => {
  const page = await site.browser.newPage({ viewport: { width: 360, height: 800 } });
  try {
    await openLesson(page);
    for (let i = 0; i < 2; i++) await page.locator(tid('pulsar-next')).click();
    const table = page.locator(tid('pulsar-subscriptions'));
    await table.waitFor();
    const region = page.locator(`.scroll-x:has(${tid('pulsar-subscriptions')})`);
    assert.equal(await region.getAttribute('tabindex'), '0');
    assert.equal(await region.getAttribute('role'), 'region');
    assert.ok((await region.getAttribute('aria-label'))?.length > 0, 'the region has a name');
    const sizes = await region.evaluate((r) => ({ scroll: r.scrollWidth, client: r.clientWidth }));
    assert.ok(sizes.scroll > sizes.client, `the table is wider than 360 px and scrolls: ${JSON.stringify(sizes)}`);
    // The region sits inside its panel; scrolled to its end, the table's last column is in view.
    const panel = await page.locator('section[aria-labelledby="pulsar-subscriptions"]').boundingBox();
    const box = await region.boundingBox();
    assert.ok(box.x >= panel.x && box.x + box.width <= panel.x + panel.width + 0.5, 'the region fits its panel');
    await region.focus();
    await page.keyboard.press('End');
    await region.evaluate((r) => { r.scrollLeft = r.scrollWidth; });
    const last = await table.locator('thead th').last().boundingBox();
    assert.ok(last.x + last.width <= box.x + box.width + 1, 'the last column can be scrolled into view');
    assert.deepEqual(await clipped(page), [], 'content cut off by its panel');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'pulsar-lessons-360', { fullPage: true });
  } finally {
    await page.close();
  }
});

// axe-core on the lessons view: light and dark, at 1280, 760 and 360 px, with the
// panels full and a question shown and answered.
test('axe: no violations on the Pulsar lessons view, light and dark, 1280/760/360 px', { timeout: 180_000 }, async () => {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const problems = watchProblems(page);
  try {
    await openLesson(page);
    const next = page.locator(tid('pulsar-next'));
    for (let i = 0; i < 50 && (await page.locator('fieldset[data-question]').count()) === 0 && (await next.isEnabled()); i++) {
      await next.click();
    }
    await page.locator('fieldset[data-question] label').first().click();
    await page.locator('[data-feedback]').first().waitFor();
    for (const width of [1280, 760, 360]) {
      await page.setViewportSize({ width, height: 800 });
      for (const scheme of ['light', 'dark']) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.waitForTimeout(400);
        assert.deepEqual(await axe(page), [], `axe at ${width} px, ${scheme}`);
      }
      await page.emulateMedia({ colorScheme: 'light' });
      assert.deepEqual(await clipped(page), [], `content cut off by its panel at ${width} px`);
      await screenshot(page, `pulsar-lessons-axe-${width}`, { fullPage: width !== 1280 });
    }
    assert.deepEqual(problems, [], problems.join('\n'));
  } finally {
    await page.close();
  }
});

// Free play (`#play`): the dock's buttons write the script; the two Pulsar challenges
// turn solved when the engine's world shows their goal, not before; axe finds nothing,
// light and dark, at 1280, 760 and 360 px.
test('Pulsar free play: the challenges are solved by what the engine does, axe clean', { timeout: 180_000 }, async () => {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const problems = watchProblems(page);
  const solved = (id) => page.locator(`[data-challenge="${id}"]`).getAttribute('data-solved');
  const click = (id) => page.locator(tid(id)).click();
  try {
    await page.goto(`${site.server.url}pulsar/#play`, { waitUntil: 'load' });
    await page.locator(tid('play-new-txn')).waitFor({ state: 'visible', timeout: 60_000 });
    assert.equal(await solved('pulsar-stuck-read'), 'false');
    assert.equal(await solved('pulsar-ack-survives'), 'false');
    assert.equal(await page.locator(tid('pulsar-buffer-state')).innerText(), 'NoSnapshot');
    // An open transaction, then a plain message behind it.
    await click('play-new-txn');
    await click('play-send-txn');
    assert.equal(await page.locator(tid('pulsar-buffer-state')).innerText(), 'Ready');
    assert.equal(await solved('pulsar-stuck-read'), 'false', 'nothing waits behind it yet');
    await click('play-send-plain');
    await click('play-receive');
    assert.equal(await solved('pulsar-stuck-read'), 'true');
    assert.match(await page.locator(tid('pulsar-play-printed')).innerText(), /c got nothing/);
    await page.locator('[data-challenge="pulsar-ack-survives"] summary').click();
    assert.match(await page.locator('[data-challenge="pulsar-ack-survives"] details p').innerText(), /Unload/);
    // Commit: m1 is delivered; ack it in a new transaction, commit, reload the topic.
    await click('play-commit');
    await click('play-receive');
    await click('play-new-txn');
    await click('play-ack-txn');
    await click('play-commit');
    assert.equal(await solved('pulsar-ack-survives'), 'false', 'not before a reload');
    await click('play-unload');
    await click('play-receive');
    assert.equal(await solved('pulsar-ack-survives'), 'true');
    const printed = await page.locator(tid('pulsar-play-printed')).innerText();
    assert.match(printed, /c got nothing$/, 'the committed ack is not delivered again');
    assert.match(await page.locator(tid('pulsar-timeline')).innerText(), /pending-ack log/);
    for (const width of [1280, 760, 360]) {
      await page.setViewportSize({ width, height: 800 });
      for (const scheme of ['light', 'dark']) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.waitForTimeout(300);
        assert.deepEqual(await axe(page), [], `axe at ${width} px, ${scheme}`);
      }
      await page.emulateMedia({ colorScheme: 'light' });
      assert.deepEqual(await clipped(page), [], `content cut off by its panel at ${width} px`);
      await screenshot(page, `pulsar-play-${width}`, { fullPage: width !== 1280 });
    }
    // Reset starts again.
    await click('play-reset');
    assert.equal(await solved('pulsar-ack-survives'), 'false');
    assert.deepEqual(problems, [], problems.join('\n'));
  } finally {
    await page.close();
  }
});

// The site's wasm has no lesson texts: a lesson's file is fetched when it is shown, once.
// While it is on its way the player shows the lesson's title and the main page's
// "Loading the lesson…" with nothing to press; a file that does not come says so, here
// on the comparison view (its story, kafka-vs-pulsar, refused by the route below).
test('a Pulsar lesson still loading says so, then plays; a file that fails says so', { timeout: 180_000 }, async () => {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const problems = watchProblems(page);
  let release;
  const held = new Promise((resolve) => {
    release = resolve;
  });
  await page.route('**/pulsar/static/lessons/pulsar-tc-crash.eos', async (route) => {
    await held;
    await route.continue();
  });
  await page.route('**/pulsar/static/lessons/kafka-vs-pulsar.eos', (route) => route.abort());
  try {
    const before = site.server.requests.length;
    await page.goto(`${site.server.url}pulsar/?lesson=pulsar-tc-crash`, { waitUntil: 'load' });
    await page.locator(tid('lesson-loading')).waitFor({ timeout: 60_000 });
    assert.match(await page.locator(tid('pulsar-lesson-title')).innerText(), /coordinator crash/i);
    assert.equal(await page.locator(tid('lesson-loading')).innerText(), 'Loading the lesson…');
    assert.equal(await page.locator(tid('pulsar-next')).count(), 0, 'nothing to press while loading');
    assert.equal(await page.locator(tid('pulsar-timeline')).count(), 0, 'no world while loading');
    release();
    await page.locator(tid('pulsar-next')).waitFor({ state: 'visible', timeout: 60_000 });
    assert.equal(await page.locator(tid('lesson-loading')).count(), 0);
    assert.equal(await step(page), 0);
    await page.locator(tid('pulsar-next')).click();
    assert.equal(await step(page), 1);
    const lessons = site.server.requests.slice(before).filter((r) => r.includes('/static/lessons/'));
    assert.deepEqual(lessons.map((r) => r.replace(/.*\/static\/lessons\//, '')), ['pulsar-tc-crash.eos']);

    await page.locator(tid('nav-compare')).click();
    await page.locator(tid('lesson-file-failed')).waitFor({ timeout: 60_000 });
    assert.match(
      await page.locator(tid('lesson-file-failed')).innerText(),
      /^The lesson file static\/lessons\/kafka-vs-pulsar\.eos could not be loaded\./,
    );
    assert.equal(await page.locator(tid('compare-next')).count(), 0);
    // The refused request, and the console's word on it, are the only problems.
    assert.ok(problems.some((p) => p.includes('kafka-vs-pulsar.eos')), problems.join('\n'));
    assert.deepEqual(
      problems.filter((p) => !p.includes('kafka-vs-pulsar.eos') && p !== 'console error: Failed to load resource: net::ERR_FAILED'),
      [],
    );
  } finally {
    release();
    await page.close();
  }
});

// A lesson opens on its introduction (the first step's title and words, as on the main
// page), and the lesson picked is in the address with the page's language: a reload
// opens it again, at its beginning.
test('a Pulsar lesson opens on its introduction; the lesson picked stays in the address', { timeout: 120_000 }, async () => {
  const page = await site.browser.newPage({ viewport: { width: 360, height: 740 } });
  const problems = watchProblems(page);
  try {
    await openLesson(page, '&lang=en&step=2');
    await page.locator(tid('pulsar-lesson-select')).selectOption({ index: 0 });
    await page.waitForFunction(() => /[?&]lesson=pulsar-transactions(&|$)/.test(location.search));
    const url = new URL(page.url());
    assert.equal(url.searchParams.get('lang'), 'en', 'the language kept');
    assert.equal(url.searchParams.get('step'), null, 'a lesson picked starts at its beginning');
    assert.equal(await step(page), 0);
    const intro = page.locator(tid('pulsar-step-text'));
    assert.match(await intro.locator('h3').innerText(), /A Pulsar cluster with one transaction coordinator/);
    assert.match(await intro.innerText(), /An input topic already holds two messages/);
    assert.equal(await page.locator(tid('pulsar-printed')).count(), 0, 'nothing printed before the first step');
    // The introduction is in the first screen, above the dock.
    const [box, dock] = await Promise.all([intro.locator('p').first().boundingBox(), page.locator('.lesson-dock').boundingBox()]);
    assert.ok(box.y + 20 < dock.y, `the introduction at y=${box.y}, the dock at y=${dock.y}`);

    await page.reload({ waitUntil: 'load' });
    await page.locator(tid('pulsar-next')).waitFor({ state: 'visible', timeout: 60_000 });
    const selected = await page.locator(tid('pulsar-lesson-select')).evaluate((s) => s.selectedOptions[0].textContent);
    assert.equal(await page.locator(tid('pulsar-lesson-title')).innerText(), selected);
    assert.match(selected, /step by step/i);
    assert.deepEqual(problems, [], problems.join('\n'));
  } finally {
    await page.close();
  }
});
