// What a new learner meets, found by touring the built site as one:
// - Next brings the step it ran into view, its heading and narration above the dock fixed
//   to the window's bottom, even when the reader was down at the questions: Kafka's
//   player (a step that replaces the world, with its note, too) and the Pulsar player,
//   at 1280×800, 760×900 and 360×780; the Pulsar step counter and its headings agree;
// - a question passed by the timeline is "not answered", never wrong: the score says
//   answered and right out of asked;
// - the course home shows the tools for course authors, a line each, in the language;
// - the transactions page steps the clock by 10 s, so a transaction past its timeout is
//   seen before the coordinator's check aborts it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, watchProblems } from './harness.mjs';

const tid = (id) => `[data-testid="${id}"]`;
const site = useSite();

const SIZES = [
  [1280, 800],
  [760, 900],
  [360, 780],
];

async function newPage(width, height) {
  const context = await site.browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  return { page, context, problems: watchProblems(page) };
}

/** The element's top is in the window, with `room` px of it above the dock (if any);
 * asked again for up to 2 s, while the step renders. */
async function topInView(page, selector, room = 60) {
  let seen;
  for (let i = 0; i < 20; i++) {
    seen = await where(page, selector, room);
    if (seen.ok) return seen;
    await page.waitForTimeout(100);
  }
  return seen;
}

function where(page, selector, room) {
  return page.evaluate(
    ([selector, room]) => {
      const el = document.querySelector(selector);
      const dock = document.querySelector('.lesson-dock');
      const bottom = dock ? dock.getBoundingClientRect().top : window.innerHeight;
      const top = el.getBoundingClientRect().top;
      return { ok: top >= 0 && top + room <= bottom, top, bottom };
    },
    [selector, room],
  );
}

/** Scrolls to the page's end, where the questions and the panels are. */
const toEnd = (page) => page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));

test("Next brings the Kafka step's heading and narration into view, at three widths", { timeout: 300_000 }, async () => {
  for (const [width, height] of SIZES) {
    const { page, context, problems } = await newPage(width, height);
    try {
      // late-endtxn replaces its world half-way (a second `cluster` line): the note
      // that says so is the step's first line.
      await page.goto(`${site.server.url}?lesson=late-endtxn`, { waitUntil: 'load' });
      const next = page.locator(`${tid('lesson-next')}:enabled`);
      await next.waitFor({ timeout: 120_000 });
      let sawNewWorld = false;
      for (let i = 0; i < 60 && (await next.count()) > 0; i++) {
        // The reader answers the questions, down the page, then presses Next.
        const asked = page.locator('fieldset[data-question] input[type=radio]');
        if ((await asked.count()) > 0) await asked.first().check();
        await toEnd(page);
        await next.click();
        const step = await topInView(page, tid('lesson-step'));
        assert.ok(step.ok, `${width}px, step ${i + 1}: the step's top at ${step.top}, the dock at ${step.bottom}`);
        if ((await page.locator(tid('lesson-new-world')).count()) > 0) {
          sawNewWorld = true;
          const note = await topInView(page, tid('lesson-new-world'), 20);
          assert.ok(note.ok, `${width}px: the new-world note at ${note.top}, the dock at ${note.bottom}`);
        }
        if (await page.locator('.lesson-step .step-title').count()) {
          const heading = await topInView(page, '.lesson-step .step-title', 20);
          assert.ok(heading.ok, `${width}px, step ${i + 1}: the heading at ${heading.top}`);
        }
      }
      assert.ok(sawNewWorld, 'the lesson replaced its world once');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  }
});

test('Next brings the Pulsar step into view; its counter and headings agree', { timeout: 300_000 }, async () => {
  for (const [width, height] of SIZES) {
    const { page, context, problems } = await newPage(width, height);
    try {
      await page.goto(`${site.server.url}pulsar/?lesson=pulsar-transactions`, { waitUntil: 'load' });
      const next = page.locator(tid('pulsar-next'));
      await next.waitFor({ timeout: 120_000 });
      for (let i = 0; i < 30 && (await next.isEnabled()); i++) {
        await toEnd(page);
        await next.click();
        const step = await topInView(page, tid('pulsar-step-text'));
        assert.ok(step.ok, `${width}px, step ${i + 1}: the step's top at ${step.top}, the dock at ${step.bottom}`);
        // "Step 3 / 9" and a heading without a number of its own.
        assert.match(await page.locator(tid('pulsar-step')).innerText(), new RegExp(` ${i + 1} / \\d+$`));
        const heading = await page.locator(`${tid('pulsar-step-text')} h3`).allInnerTexts();
        for (const h of heading) assert.doesNotMatch(h, /^\d+\./, `a heading numbered apart from the counter: ${h}`);
      }
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  }
});

test('a question the timeline skipped is not answered, not wrong', { timeout: 120_000 }, async () => {
  const { page, context, problems } = await newPage(1280, 800);
  try {
    await page.goto(`${site.server.url}?lesson=idempotence`, { waitUntil: 'load' });
    const next = page.locator(`${tid('lesson-next')}:enabled`);
    await next.waitFor({ timeout: 120_000 });
    // Next until the first question; answer it with its right choice, then jump to the end.
    for (let i = 0; i < 30 && (await page.locator('fieldset[data-question]').count()) === 0; i++) await next.click();
    const question = page.locator('fieldset[data-question]').first();
    const choices = question.locator('input[type=radio]');
    for (let c = 0; c < (await choices.count()); c++) {
      await choices.nth(c).check();
      if ((await question.locator('[data-feedback]').getAttribute('data-correct')) === 'true') break;
    }
    const slider = page.locator(tid('lesson-timeline'));
    await slider.fill(await slider.getAttribute('max'));
    const score = await page.locator(tid('lesson-score')).innerText();
    const [, answered, asked, right] = score.match(/You answered (\d+) of (\d+) questions, (\d+) of them right/) ?? [];
    assert.equal(answered, '1', score);
    assert.equal(right, '1', score);
    assert.ok(Number(asked) >= 3, score);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the course home shows the tools for course authors, a line each', { timeout: 120_000 }, async () => {
  for (const [lang, heading] of [['en', 'Tools for course authors'], ['th', 'เครื่องมือสำหรับผู้เขียนคอร์ส']]) {
    const { page, context, problems } = await newPage(1280, 800);
    try {
      await page.goto(`${site.server.url}?lang=${lang}`, { waitUntil: 'load' });
      const tools = page.locator(tid('course-tools'));
      await tools.waitFor({ timeout: 120_000 });
      assert.equal(await tools.locator('h3').innerText(), heading);
      const suffix = lang === 'en' ? '' : `?lang=${lang}`;
      for (const [id, href] of [['course-editor', 'editor/'], ['course-files', 'files/'], ['course-limits', 'limits.html']]) {
        const link = tools.locator(tid(id));
        assert.equal(await link.getAttribute('href'), href + suffix);
        const line = await link.locator('xpath=following-sibling::p').innerText();
        assert.ok(line.length > 30, `${id}: ${line}`);
      }
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  }
});

test('the clock steps by 10 s: a transaction past its timeout is seen before the abort', { timeout: 120_000 }, async () => {
  const { page, context, problems } = await newPage(1280, 800);
  try {
    await page.goto(`${site.server.url}#transactions`, { waitUntil: 'load' });
    await page.locator('#app [data-testid="page-transactions"]').waitFor({ state: 'visible', timeout: 120_000 });
    for (const id of ['txn-init', 'txn-begin', 'txn-send']) await page.locator(tid(id)).click();
    const late = page.locator(tid('coordinator-late'));
    for (let i = 0; i < 8 && (await late.count()) === 0; i++) await page.locator(tid('txn-advance-step')).click();
    assert.equal(await late.getAttribute('data-aborted'), 'false', await late.innerText());
    assert.equal(await page.locator(`${tid('coordinator-state')}[data-state="Ongoing"]`).count(), 1);
    await page.locator(tid('txn-advance-step')).click();
    await page.locator(`${tid('coordinator-late')}[data-aborted="true"]`).waitFor({ timeout: 10_000 });
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
