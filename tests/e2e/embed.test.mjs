// Embedding: the sample course page (embed-demo.html) loads two compact playgrounds in
// iframes (one plain, one made by embed.js from data attributes); the host script steps
// one through its whole lesson with the postMessage API and receives eos:ready, eos:state
// after every step, eos:resize, and eos:complete. The same page in Korean and Thai
// (embed-demo.ko.html, embed-demo.th.html). And embed.js on another origin.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { axe, screenshot, startServer, useSite, watchProblems } from './harness.mjs';
import { englishTextNodes } from './english.mjs';

const tid = (id) => `[data-testid="${id}"]`;

const site = useSite();

const messages = (page, name) => page.evaluate((n) => window.eosMessages[n], name);

test('the demo page drives an embedded lesson to the end', { timeout: 180_000 }, async () => {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const problems = watchProblems(page);
  const warnings = [];
  page.on('console', (m) => {
    if (m.type() === 'warning') warnings.push(m.text());
  });
  try {
    await page.goto(`${site.server.url}embed-demo.html`, { waitUntil: 'load' });
    // Both frames load and say ready.
    for (const name of ['idem', 'fence']) {
      await page.waitForFunction((n) => window.eosMessages[n].some((m) => m.type === 'eos:ready'), name, { timeout: 60_000 });
    }
    const ready = (await messages(page, 'fence')).find((m) => m.type === 'eos:ready');
    assert.equal(ready.version, 1);
    assert.equal(ready.lesson, 'fencing');
    assert.equal(ready.step, 0);
    assert.ok(ready.steps > 3);
    // Compact view: no page tabs or site header, only the chosen panels.
    const frame = page.frameLocator(tid('frame-idem'));
    await frame.locator(tid('embed')).waitFor();
    assert.equal(await frame.locator('.page-nav').count(), 0);
    assert.equal(await frame.locator('h1').count(), 0);
    assert.equal(await frame.locator(tid('lesson-progress')).count(), 1);
    // Resizes arrive in both forms.
    await page.waitForFunction(() => window.eosMessages.idem.some((m) => m.type === 'eos:resize' && m.height > 0));
    await page.waitForFunction(() => window.eosMessages.idem.some((m) => m.subject === 'lti.frameResize'));

    // Step the idempotence lesson to its end with the host's "Next step" button.
    const steps = (await messages(page, 'idem')).find((m) => m.type === 'eos:ready').steps;
    const next = page.locator('[data-host="idem"] button[data-cmd="next"]');
    let answered = false;
    for (let i = 1; i <= steps; i++) {
      // The first question the lesson asks is answered in the frame (the first choice).
      if (!answered && (await frame.locator('fieldset[data-question]').count()) > 0) {
        await frame.locator('fieldset[data-question] input[type=radio]').first().check();
        await frame.locator('fieldset[data-question] [data-feedback]').first().waitFor();
        answered = true;
      }
      await next.click();
      await page.waitForFunction(
        (s) => window.eosMessages.idem.some((m) => m.type === 'eos:state' && m.step === s),
        i,
        { timeout: 20_000 },
      );
    }
    await page.waitForFunction(() => window.eosMessages.idem.some((m) => m.type === 'eos:complete'));
    const complete = (await messages(page, 'idem')).find((m) => m.type === 'eos:complete');
    // Each answer is posted, and the score comes with eos:complete.
    const answers = (await messages(page, 'idem')).filter((m) => m.type === 'eos:answered');
    assert.equal(answers.length, 1);
    assert.equal(answers[0].lesson, 'idempotence');
    assert.equal(typeof answers[0].question, 'number');
    assert.equal(typeof answers[0].correct, 'boolean');
    assert.ok(complete.score.total >= 3, JSON.stringify(complete));
    assert.equal(complete.score.correct, answers[0].correct ? 1 : 0);
    assert.deepEqual({ ...complete, score: undefined }, { type: 'eos:complete', lesson: 'idempotence', steps, score: undefined });
    const states = (await messages(page, 'idem')).filter((m) => m.type === 'eos:state');
    assert.ok(states.some((m) => m.verdict === 'DUPLICATE'), 'a DUPLICATE verdict on the way');
    assert.ok(states.every((m) => m.lastEvent === null || typeof m.lastEvent === 'string'));
    assert.equal(typeof states.at(-1).lastEvent, 'string', 'the last narrated event');
    await page.locator(tid('status-idem')).filter({ hasText: 'Lesson complete' }).waitFor();
    await page.evaluate(() => document.getElementById('idempotence').scrollIntoView());
    await screenshot(page, 'embed-demo-1280');

    // Back one step replays the lesson: state says step steps-1.
    await page.locator('[data-host="idem"] button[data-cmd="prev"]').click();
    await page.waitForFunction(
      (s) => window.eosMessages.idem.filter((m) => m.type === 'eos:state').at(-1).step === s,
      steps - 1,
    );

    // Hostile messages are ignored with a console warning; a bad scenario is answered.
    const fence = page.frames().find((f) => f.url().includes('lesson=fencing'));
    await page.evaluate(() => {
      const w = document.querySelector('#fence iframe').contentWindow;
      w.postMessage('not an object', '*');
      w.postMessage({ type: 'eos:explode' }, '*');
      w.postMessage({ type: 'eos:load', scenario: 'x'.repeat(70 * 1024) }, '*');
      w.postMessage({ type: 'eos:load', scenario: 'topic create t\nproducer p frobnicate' }, '*');
    });
    await page.waitForFunction(() => window.eosMessages.fence.some((m) => m.type === 'eos:error'));
    const error = (await messages(page, 'fence')).find((m) => m.type === 'eos:error');
    assert.match(error.message, /^line 2, column \d+:/);
    assert.ok(fence, 'the fencing frame');
    const ignored = warnings.filter((w) => w.includes('ignored a message'));
    assert.ok(ignored.length >= 3, `console warnings:\n${warnings.join('\n')}`);

    // A course column ~760 px wide.
    await page.setViewportSize({ width: 760, height: 1000 });
    await page.locator('#fencing').scrollIntoViewIfNeeded();
    await screenshot(page, 'embed-demo-760');
    assert.deepEqual(problems, [], `console errors or failed requests:\n${problems.join('\n')}`);
  } finally {
    await page.close();
  }
});

test('embed.js on a page of another origin: data attributes become the frame, the host may command it', { timeout: 120_000 }, async () => {
  // A course page served by a second server: another port, so another origin.
  const dir = await mkdtemp(path.join(os.tmpdir(), 'eos-course-'));
  await writeFile(
    path.join(dir, 'index.html'),
    `<!DOCTYPE html><html lang="en"><head><title>Course</title><link rel="icon" href="data:,"></head><body>
      <div id="p" data-eos-playground data-lesson="transactions" data-step="2" data-panels="lesson,log" data-height="500"></div>
      <script src="${site.server.url}embed.js" defer></script>
      <script type="module">
        window.got = [];
        window.addEventListener('message', (e) => {
          if (e.source === document.querySelector('#p iframe').contentWindow) window.got.push(e.data);
        });
      </script></body></html>`,
  );
  const courseServer = await startServer(dir);
  const page = await site.browser.newPage({ viewport: { width: 760, height: 1000 } });
  const problems = watchProblems(page);
  try {
    await page.goto(courseServer.url, { waitUntil: 'load' });
    const src = new URL(await page.locator('#p iframe').getAttribute('src'));
    assert.equal(src.origin + src.pathname, new URL('index.html', site.server.url).href);
    assert.equal(src.searchParams.get('embed'), '1');
    assert.equal(src.searchParams.get('lesson'), 'transactions');
    assert.equal(src.searchParams.get('step'), '2');
    assert.equal(src.searchParams.get('panels'), 'lesson,log');
    const origin = new URL(courseServer.url).origin;
    assert.notEqual(origin, new URL(site.server.url).origin);
    assert.equal(src.searchParams.get('origins'), origin, 'the course page may command it');
    await page.waitForFunction(() => window.got.some((m) => m.type === 'eos:ready'), null, { timeout: 60_000 });
    const ready = (await page.evaluate(() => window.got)).find((m) => m.type === 'eos:ready');
    assert.equal(ready.lesson, 'transactions');
    assert.equal(ready.step, 2);
    // A command from the course page's origin is carried out.
    await page.evaluate(() =>
      document.querySelector('#p iframe').contentWindow.postMessage({ type: 'eos:step', direction: 'next' }, '*'),
    );
    await page.waitForFunction(() => window.got.some((m) => m.type === 'eos:state' && m.step === 3));
    // The frame follows eos:resize.
    await page.waitForFunction(() => document.querySelector('#p iframe').style.height !== '');
    const h = await page.evaluate(() => document.querySelector('#p iframe').getBoundingClientRect().height);
    assert.ok(h > 100, `height ${h}`);
    await screenshot(page, 'embed-js-760');
    assert.deepEqual(problems, [], `console errors or failed requests:\n${problems.join('\n')}`);
  } finally {
    await page.close();
    await courseServer.close();
    await rm(dir, { recursive: true, force: true });
  }
});

// The sample course page in Korean and Thai: the same page and script, its words in the
// language, both frames in it (`lang=` on the plain iframe, `data-lang` for embed.js),
// no English outside Kafka's identifiers in the page or its frames, axe-clean.
for (const [lang, script] of [['ko', /[\uac00-\ud7a3]/], ['th', /[\u0e00-\u0e7f]/]]) {
  test(`the demo page in ${lang}: its frames speak ${lang}, no English, axe-clean`, { timeout: 180_000 }, async () => {
    const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
    const problems = watchProblems(page);
    try {
      await page.goto(`${site.server.url}embed-demo.${lang}.html`, { waitUntil: 'load' });
      assert.equal(await page.getAttribute('html', 'lang'), lang);
      for (const name of ['idem', 'fence']) {
        await page.waitForFunction((n) => window.eosMessages[n].some((m) => m.type === 'eos:ready'), name, { timeout: 60_000 });
      }
      assert.equal(await page.locator(tid('frame-fence')).getAttribute('data-lang'), lang);
      const fenceSrc = new URL(await page.locator('#fence iframe').getAttribute('src'));
      assert.equal(fenceSrc.searchParams.get('lang'), lang);
      for (const frame of [tid('frame-idem'), '#fence iframe']) {
        await page.frameLocator(frame).locator(`html[lang="${lang}"]`).waitFor({ timeout: 30_000 });
      }
      await page.locator('[data-host="idem"] button[data-cmd="next"]').click();
      await page.waitForFunction(() => window.eosMessages.idem.some((m) => m.type === 'eos:state' && m.step === 1));
      await page.locator('[data-host="fence"] button[data-cmd="next"]').click();
      await page.waitForFunction(() => window.eosMessages.fence.some((m) => m.type === 'eos:state' && m.step === 1));
      await page.waitForTimeout(500);
      assert.match(await page.locator(tid('status-idem')).innerText(), script);
      assert.deepEqual(await englishTextNodes(page), [], `${lang} demo page: English text`);
      for (const frame of page.frames().filter((f) => f !== page.mainFrame())) {
        assert.deepEqual(await englishTextNodes(frame), [], `${lang} frame ${frame.url()}: English text`);
      }
      assert.deepEqual(await axe(page, { iframes: false }), [], `${lang} demo page: axe`);
      await screenshot(page, `embed-demo-${lang}-1280`, { fullPage: true });
      await page.setViewportSize({ width: 360, height: 800 });
      await page.waitForTimeout(500);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 0, `${lang} demo at 360 px scrolls sideways by ${overflow} px`);
      await screenshot(page, `embed-demo-${lang}-360`, { fullPage: true });
      assert.deepEqual(problems, [], `console errors or failed requests:\n${problems.join('\n')}`);
    } finally {
      await page.close();
    }
  });
}
