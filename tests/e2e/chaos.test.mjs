// The chaos site (dist/chaos/, its own entry with a Web Worker): the main page links to
// it; with `dedup=1` switched on (NOT KAFKA, a red badge) a search finds `duplicate`
// in many seeds within a bounded time while the page stays responsive, and lists it
// once: one entry per anomaly with its count, the shortest counterexample and the other
// seeds folded. Its replay link opens the main playground's lesson player on the
// replay's last step, a narrated `check` that prints the verdict (in English, and in
// Korean with ?lang=ko). axe-core finds no violations. The schedules/s the page
// measured are printed (not asserted).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { axe, screenshot, useSite, watchProblems } from './harness.mjs';

const site = useSite({ base: '/course/eos/' });
const tid = (id) => `[data-testid="${id}"]`;

const overflow = (page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

test('the chaos page groups the duplicates dedup=1 finds and replays the shortest to its check', { timeout: 300_000 }, async () => {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const problems = watchProblems(page);
  try {
    await page.goto(site.server.url, { waitUntil: 'load' });
    const nav = page.locator(tid('nav-chaos'));
    await nav.waitFor({ state: 'visible', timeout: 60_000 });
    await nav.click();
    await page.locator(tid('chaos-start')).waitFor({ state: 'visible', timeout: 60_000 });
    assert.match(await page.title(), /Chaos/);
    assert.equal(await page.locator(tid('not-kafka')).count(), 0, 'every switch starts off');
    assert.deepEqual(await axe(page), [], 'chaos page, before a run');
    // The break-it module's "Try it": open until the checker finds an anomaly.
    const goal = page.locator('[data-testid="challenges"] [data-challenge="anomaly"]');
    assert.equal(await goal.getAttribute('data-solved'), 'false');

    await page.locator(tid('switch-dedup-1')).check();
    await page.locator(tid('not-kafka')).waitFor({ state: 'visible' });
    // Seeds 2..31 of 20 steps: 14 of them show a duplicate, seed 2 only with the switch
    // on (as in tests/checker.rs). Seed 1 would first shrink a day of lost answers (an
    // open finding there), slow in any build.
    await page.locator(tid('chaos-first')).fill('2');
    await page.locator(tid('chaos-runs')).fill('30');
    await page.locator(tid('chaos-steps')).fill('20');
    await page.locator(tid('chaos-start')).click();

    // Responsive while the worker runs: a click on the page is answered at once.
    await page.locator(tid('chaos-stop')).waitFor({ state: 'visible' });
    const t0 = Date.now();
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
    const frameMs = Date.now() - t0;

    const finding = page.locator(`${tid('chaos-finding')}[data-anomaly="duplicate"]`);
    await finding.waitFor({ state: 'visible', timeout: 180_000 });
    assert.equal(await goal.getAttribute('data-solved'), 'true', 'a finding solves the chaos goal');

    // Let the run finish, then read the page's own figure.
    await page.waitForFunction(
      () => /done$/.test(document.querySelector('[data-testid="chaos-status"]')?.textContent ?? ''),
      null,
      { timeout: 240_000 },
    );
    const status = await page.locator(tid('chaos-status')).innerText();
    const rate = status.match(/(\d+) schedules\/s/)?.[1];
    console.log(`chaos-page: ${status} (a frame during the run took ${frameMs} ms)`);
    console.log(`chaos-page schedules/s: ${rate}`);
    assert.match(status, /^30 of 30 schedules/);
    assert.equal(await page.locator(tid('chaos-stop')).isDisabled(), true);

    // One entry per anomaly, each with its count; the counts add up to what was found.
    const entries = await page.locator(tid('chaos-finding')).evaluateAll((els) =>
      els.map((e) => ({
        anomaly: e.dataset.anomaly,
        count: Number(e.dataset.count),
        heading: e.querySelector('[data-testid="chaos-anomaly"]').textContent,
        others: e.querySelector('[data-testid="chaos-other-seeds"] p')?.textContent ?? '',
      })),
    );
    const found = Number(status.match(/(\d+) found/)?.[1]);
    assert.equal(new Set(entries.map((e) => e.anomaly)).size, entries.length, 'one entry per anomaly');
    assert.equal(entries.reduce((n, e) => n + e.count, 0), found);
    const dup = entries.find((e) => e.anomaly === 'duplicate');
    assert.equal(dup.count, 14, JSON.stringify(entries));
    assert.equal(dup.heading, `duplicate × ${dup.count}`);
    // The other seeds, folded: every seed but the shortest one's, as numbers and runs.
    const shortestSeed = Number(await finding.locator(tid('chaos-shortest')).getAttribute('data-seed'));
    const seeds = dup.others.split(', ').flatMap((r) => {
      const [a, b = a] = r.split('–').map(Number);
      return Array.from({ length: b - a + 1 }, (_, i) => a + i);
    });
    assert.equal(seeds.length, dup.count - 1, dup.others);
    assert.ok(!seeds.includes(shortestSeed) && seeds.every((s) => s >= 2 && s < 32), dup.others);
    assert.equal(await finding.locator(`${tid('chaos-other-seeds')}[open]`).count(), 0, 'folded');
    assert.equal(await finding.locator(tid('chaos-replay')).count(), 1, 'one replay link');
    const text = await finding.innerText();
    assert.match(text, /one sent value sits at more offsets than it was sent/);
    assert.match(text, new RegExp(`Shortest counterexample: seed ${shortestSeed}, \\d+ scenario steps`));
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    console.log(`chaos-page: ${found} found, ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}, page ${height} px high`);
    assert.ok(height < 3000, `the page is ${height} px high`);
    assert.deepEqual(await axe(page), [], 'chaos page, with counterexamples');

    await screenshot(page, 'chaos-1280', { fullPage: true });
    await finding.locator(`${tid('chaos-other-seeds')} summary`).click();
    await screenshot(page, 'chaos-1280-seeds', { fullPage: true });
    assert.deepEqual(await axe(page), [], 'chaos page, other seeds open');
    for (const [width, name] of [[760, 'chaos-760'], [360, 'chaos-360']]) {
      await page.setViewportSize({ width, height: 900 });
      assert.ok((await overflow(page)) <= 0, `no sideways scroll at ${width} px`);
      await screenshot(page, name);
    }
    await page.setViewportSize({ width: 1280, height: 800 });

    // The replay link opens the main playground on the replay's last step: the `check`,
    // titled and narrated, printing the duplicate the search found.
    const witness = text.match(/duplicate (\S+) values=(\S+) offsets=(\S+)/);
    assert.ok(witness, text);
    const [, tp, values] = witness;
    const value = values.split(',')[0];
    const href = await finding.locator(tid('chaos-replay')).evaluate((a) => a.href);
    await finding.locator(tid('chaos-replay')).click();
    await page.locator(tid('page-transactions')).waitFor({ state: 'visible', timeout: 60_000 });
    const step = page.locator(tid('lesson-step'));
    await step.waitFor({ state: 'visible', timeout: 30_000 });
    await page.locator(tid('lesson-finished')).waitFor({ timeout: 30_000 });
    const progress = (await page.locator(tid('lesson-progress')).innerText()).match(/Step (\d+) of (\d+)/);
    assert.ok(progress && progress[1] === progress[2], `on the last step: ${progress}`);
    assert.equal(await step.locator('h3').innerText(), 'What the checker found: duplicate');
    const why = await step.locator('.lesson-why').innerText();
    assert.match(why, /Read the line that starts with duplicate: one sent value sits at more offsets/);
    assert.ok(why.includes(`values=${values}`), why);
    const output = await step.locator(tid('lesson-output')).innerText();
    assert.ok(output.includes(`duplicate ${tp} values=${values} `), output);
    assert.equal(await step.locator(tid('lesson-error')).count(), 0);
    // The partition shown is the one written last: the second copy's.
    const shown = await page.locator(tid('page-transactions')).innerText();
    const copies = shown.split(/[^A-Za-z0-9]+/).filter((w) => w === value).length;
    assert.ok(copies >= 2, `the page shows ${value} at least twice:\n${shown}`);
    await screenshot(page, 'chaos-replay-1280');

    // The same replay in Korean: the step's title and narration are in the link too.
    await page.goto(href.replace('index.html#', 'index.html?lang=ko#'), { waitUntil: 'load' });
    const ko = page.locator(tid('lesson-step'));
    await ko.locator('h3').waitFor({ timeout: 60_000 });
    await page.waitForFunction(() => document.documentElement.lang === 'ko', null, { timeout: 30_000 });
    assert.equal(await ko.locator('h3').innerText(), '체커가 찾은 것: duplicate');
    assert.match(await ko.locator('.lesson-why').innerText(), /duplicate로 시작하는 줄을 읽으십시오/);
    await screenshot(page, 'chaos-replay-ko-1280');
    assert.deepEqual(problems, [], `problems:\n${problems.join('\n')}`);
  } finally {
    await page.close();
  }
});

test('Stop ends the worker and the page says so', { timeout: 120_000 }, async () => {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const problems = watchProblems(page);
  try {
    await page.goto(`${site.server.url}chaos/index.html?lang=ko`, { waitUntil: 'load' });
    await page.locator(tid('chaos-start')).waitFor({ state: 'visible', timeout: 60_000 });
    await page.waitForFunction(() => document.documentElement.lang === 'ko', null, { timeout: 30_000 });
    await page.locator(tid('chaos-runs')).fill('100000');
    await page.locator(tid('chaos-start')).click();
    await page.waitForFunction(
      () => Number(document.querySelector('[data-testid="chaos-progress"]')?.value ?? 0) > 0,
      null,
      { timeout: 60_000 },
    );
    // 15 s: the browser's optimising tier compiles the hot code during the first
    // seconds, and a 3 s run measured that warm-up more than the worker (409/s for
    // one build that ran 664–845/s over 15 s, 2026-12-03).
    await page.waitForTimeout(15_000);
    await page.locator(tid('chaos-stop')).click();
    const stopped = await page.locator(tid('chaos-status')).innerText();
    // No switch on, nothing found, nothing shrunk: the worker's own schedules/s.
    console.log(`chaos-page, no switches (Kafka), 50 steps: ${stopped}`);
    assert.match(stopped, /중지됨$/);
    await page.waitForTimeout(500);
    assert.equal(await page.locator(tid('chaos-status')).innerText(), stopped, 'no report after Stop');
    assert.equal(await page.locator(tid('chaos-start')).isEnabled(), true);
    await page.locator(tid('chaos-first')).fill('x');
    await page.locator(tid('chaos-start')).click();
    assert.match(await page.locator(tid('chaos-status')).innerText(), /정수/);
    await screenshot(page, 'chaos-ko-stopped');
    assert.deepEqual(problems, [], `problems:\n${problems.join('\n')}`);
  } finally {
    await page.close();
  }
});
