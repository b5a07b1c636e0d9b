// The lesson editor (dist/editor/, www/editor.html) and the limits page (limits.html):
// an author types a lesson, sees its mistake with the line it is on, fixes it, plays it
// beside the text, plays it to the line the caret is on, downloads it, and the embed API's eos:load plays the downloaded file;
// "Copy link" opens it in the main page's lesson player, whose end links to the limits
// page. axe-core finds nothing on either page; screenshots at 1280, 760 and 360 px.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { axe, screenshot, useSite, watchProblems } from './harness.mjs';

const tid = (id) => `[data-testid="${id}"]`;
const site = useSite();

/** An author's lesson: two headings, a question with its choices in three languages. */
const LESSON = `## Two sends
## [ko] 두 번의 전송
## [th] การส่งสองครั้ง
> An idempotent producer sends two batches.
>
> [ko] 멱등 프로듀서가 배치 두 개를 보냅니다.
>
> [th] idempotent producer ส่ง batch สองชุด
cluster brokers=1
topic create t partitions=1
producer p create enable.idempotence=true
producer p send t-0 a
producer p flush

## The second batch
## [ko] 두 번째 배치
## [th] batch ที่สอง
? At which offset does the second batch start?
? [ko] 두 번째 배치는 어느 오프셋에서 시작할까요?
? [th] batch ที่สองเริ่มที่ offset ไหน
?+ 1 | The first batch holds offset 0.
?+ [ko] 1 | 첫 배치가 오프셋 0을 차지합니다.
?+ [th] 1 | batch แรกอยู่ที่ offset 0
?- 0 | Offset 0 is taken by the first batch.
?- [ko] 0 | 오프셋 0은 첫 배치의 것입니다.
?- [th] 0 | offset 0 เป็นของ batch แรก
?= baseOffset: 1
producer p send t-0 b
producer p flush
print dump-log t-0 fields=baseOffset,lastOffset
`;

/** The same lesson with a typo on line 11 (`creat`). */
const BROKEN = LESSON.replace('producer p create', 'producer p creat');

test('an author types a lesson, fixes its mistake, plays, downloads and loads it with eos:load', { timeout: 240_000 }, async () => {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  const problems = watchProblems(page);
  try {
    await page.goto(`${site.server.url}editor/`, { waitUntil: 'load' });
    const text = page.locator(tid('editor-text'));
    await text.waitFor({ timeout: 120_000 });
    // The example it starts with parses and plays.
    await page.locator(tid('editor-status')).waitFor();
    await page.locator(tid('lesson-progress')).waitFor();

    // A mistake: the parser's line, at once, and its line number marked.
    await text.fill(BROKEN);
    await page.locator(tid('editor-error')).waitFor();
    assert.match(await page.locator(tid('editor-error')).innerText(), /^line 11, column \d+: /);
    assert.equal((await page.locator(`${tid('editor-gutter')} .bad`).innerText()).trim(), '11');
    assert.equal(await page.locator(tid('editor-copy-link')).isDisabled(), true);
    await screenshot(page, 'editor-error-1280');

    // Fixed: the error goes and the player plays the lesson, step by step.
    await text.fill(LESSON);
    await page.locator(tid('editor-error')).waitFor({ state: 'detached' });
    await page.locator(tid('editor-status')).waitFor();
    // The player replays a text once typing pauses (300 ms): wait for this text's steps,
    // not the example's still on screen.
    await page.locator(tid('editor-steps')).filter({ hasText: 'The second batch' }).waitFor();
    await page.waitForFunction(() =>
      /^Step 0 of \d+$/.test(document.querySelector('[data-testid="lesson-progress"]')?.textContent ?? ''),
    );
    const steps = Number((await page.locator(tid('lesson-progress')).innerText()).split(' of ')[1]);
    assert.ok(steps >= 2, `${steps} steps`);
    assert.equal(await page.locator(`${tid('editor-steps')} li`).count(), steps);
    for (let i = 1; i <= steps; i++) {
      await page.locator(tid('lesson-next')).click();
      await page.locator(tid('lesson-progress')).filter({ hasText: `Step ${i} of ${steps}` }).waitFor();
    }
    assert.match(await page.locator(tid('lesson-output')).innerText(), /baseOffset: 1 lastOffset: 1/);
    await page.locator(tid('lesson-finished')).waitFor();
    // Play to the cursor: the caret on a step's line plays the world up to that step,
    // by the button or by Ctrl+Enter in the text.
    const caretOn = (line) =>
      text.evaluate((area, n) => {
        const at = area.value.split('\n').slice(0, n - 1).join('\n').length + (n > 1 ? 1 : 0);
        area.focus();
        area.setSelectionRange(at + 2, at + 2);
      }, line);
    const lines = LESSON.split('\n');
    await caretOn(lines.indexOf('producer p send t-0 a') + 1);
    await page.locator(tid('editor-play-to-cursor')).click();
    await page.locator(tid('lesson-progress')).filter({ hasText: `Step 1 of ${steps}` }).waitFor();
    await caretOn(lines.indexOf('print dump-log t-0 fields=baseOffset,lastOffset') + 1);
    await text.press('Control+Enter');
    await page.locator(tid('lesson-progress')).filter({ hasText: `Step ${steps} of ${steps}` }).waitFor();
    assert.match(await page.locator(tid('lesson-output')).innerText(), /baseOffset: 1 lastOffset: 1/);
    // Above the first step: the world as the lesson starts.
    await caretOn(1);
    await text.press('Control+Enter');
    await page.locator(tid('lesson-progress')).filter({ hasText: `Step 0 of ${steps}` }).waitFor();
    assert.equal(await text.inputValue(), LESSON, 'the shortcut leaves the text as it is');

    // Any step of the list: the player goes there.
    await page.locator(tid('editor-step-1')).click();
    await page.locator(tid('lesson-progress')).filter({ hasText: `Step 1 of ${steps}` }).waitFor();
    await screenshot(page, 'editor-1280');

    // Download .eos: the text as typed.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator(tid('editor-download')).click(),
    ]);
    assert.equal(download.suggestedFilename(), 'lesson.eos');
    const saved = await readFile(await download.path(), 'utf8');
    assert.equal(saved, LESSON);

    // Copy link: the main page's lesson player opens the lesson at the author's step.
    await page.locator(tid('editor-copy-link')).click();
    const link = await page.locator(tid('share-link')).inputValue();
    assert.match(link, /\/index\.html#1\./);

    // The embed API's eos:load plays the downloaded file to its end.
    await page.goto(`${site.server.url}embed-demo.html`, { waitUntil: 'load' });
    await page.waitForFunction(() => window.eosMessages.fence.some((m) => m.type === 'eos:ready'), null, { timeout: 60_000 });
    await page.evaluate((scenario) => {
      document.querySelector('#fence iframe').contentWindow.postMessage({ type: 'eos:load', scenario }, '*');
    }, saved);
    await page.waitForFunction(() => window.eosMessages.fence.some((m) => m.type === 'eos:state' && m.lesson === null));
    await page.evaluate((to) => {
      document.querySelector('#fence iframe').contentWindow.postMessage({ type: 'eos:step', to }, '*');
    }, steps);
    await page.waitForFunction(() => window.eosMessages.fence.some((m) => m.type === 'eos:complete' && m.lesson === null));
    const received = await page.evaluate(() => window.eosMessages.fence);
    assert.deepEqual(received.filter((m) => m.type === 'eos:error'), []);
    const complete = received.find((m) => m.type === 'eos:complete');
    assert.equal(complete.steps, steps);
    assert.deepEqual(complete.score, { correct: 0, total: 1 });

    // The link in the main page: the same lesson in the same player; its end leads to
    // the limits page.
    await page.goto(link, { waitUntil: 'load' });
    await page.locator(tid('lesson-progress')).filter({ hasText: `Step 1 of ${steps}` }).waitFor({ timeout: 120_000 });
    for (let i = 2; i <= steps; i++) {
      await page.locator(tid('lesson-next')).click();
    }
    await page.locator(tid('lesson-finished')).waitFor();
    await page.locator(tid('lesson-limits')).click();
    await page.waitForURL(/limits\.html/);
    await page.locator(tid('limits-title')).waitFor();
    assert.equal(await page.locator(tid('limits-title')).innerText(), 'What this playground does not model');
    assert.match(await page.locator(tid('limits-versions')).innerText(), /Kafka 4\.0.*Pulsar 3\.x/);
    assert.ok((await page.locator('[data-item]').count()) >= 10);
    assert.deepEqual(problems, [], `console errors or failed requests:\n${problems.join('\n')}`);
  } finally {
    await page.close();
  }
});

test('the limits page follows the language; the course and the panels link to it, the course to the editor', { timeout: 120_000 }, async () => {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const problems = watchProblems(page);
  try {
    await page.goto(`${site.server.url}?lang=ko`, { waitUntil: 'load' });
    const limits = page.locator(tid('course-limits'));
    await limits.waitFor({ timeout: 120_000 });
    assert.equal(await limits.getAttribute('href'), 'limits.html?lang=ko');
    assert.equal(await page.locator(tid('course-editor')).getAttribute('href'), 'editor/?lang=ko');
    // A panel's help: the limits page at the panel's part of the list.
    assert.equal(
      await page.locator('.producer-panel .limits-help a').getAttribute('href'),
      'limits.html?lang=ko#producer',
    );
    await limits.click();
    await page.locator(tid('limits-title')).waitFor();
    assert.equal(await page.locator(tid('limits-title')).innerText(), '이 플레이그라운드가 모델링하지 않는 것');
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'ko');
    await page.goto(`${site.server.url}limits.html?lang=th#storage`, { waitUntil: 'load' });
    await page.locator(tid('limits-title')).waitFor();
    assert.equal(await page.locator('#storage').innerText(), 'ที่เก็บข้อมูล');
    // Above each group's list, its summary for a learner, in the page's language.
    const groups = await page.locator('h2[id]').count();
    assert.equal(await page.locator('[data-summary]').count(), groups);
    assert.match(await page.locator('[data-summary="storage"]').innerText(), /broker/);
    assert.equal(
      await page.locator('#storage + [data-summary="storage"] + details[data-details="storage"] > ul[data-group="storage"]').count(),
      1,
      'the summary sits between the heading and its folded list',
    );
    // The group a link names is unfolded; the others stay folded, their count in words.
    assert.equal(await page.locator('details[data-details="storage"]').evaluate((d) => d.open), true);
    assert.equal(await page.locator('details[data-details="producer"]').evaluate((d) => d.open), false);
    assert.match(await page.locator('details[data-details="producer"] > summary').innerText(), /รายละเอียด \(\d+ ข้อ\)/);
    // Headings in words: a source path goes to a code line under its heading.
    assert.equal(await page.locator('#pulsar').innerText(), 'Pulsar');
    assert.equal(await page.locator('h2 code').count(), 0);
    assert.equal(await page.locator('#pulsar + [data-source="pulsar"] code').innerText(), 'src/pulsar/');
    // Every item of the English page is there in Thai too, in the same order.
    const th = await page.locator('[data-item]').evaluateAll((l) => l.map((e) => e.dataset.item));
    await page.goto(`${site.server.url}limits.html?lang=en`, { waitUntil: 'load' });
    await page.locator(tid('limits-title')).waitFor();
    const en = await page.locator('[data-item]').evaluateAll((l) => l.map((e) => e.dataset.item));
    assert.deepEqual(th, en);
    assert.deepEqual(problems, [], `console errors or failed requests:\n${problems.join('\n')}`);
  } finally {
    await page.close();
  }
});

for (const [name, path, ready] of [
  ['editor', 'editor/', tid('lesson-progress')],
  ['limits', 'limits.html', tid('limits-title')],
]) {
  test(`axe: no violations on the ${name} page, light and dark; screenshots at 1280, 760 and 360 px`, { timeout: 180_000 }, async () => {
    const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
    const problems = watchProblems(page);
    try {
      await page.goto(`${site.server.url}${path}`, { waitUntil: 'load' });
      await page.locator(ready).waitFor({ timeout: 120_000 });
      for (const scheme of ['light', 'dark']) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.waitForTimeout(600);
        assert.deepEqual(await axe(page), [], `${name}, ${scheme}`);
      }
      await page.emulateMedia({ colorScheme: 'light' });
      for (const width of [1280, 760, 360]) {
        await page.setViewportSize({ width, height: 800 });
        await page.waitForTimeout(300);
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        assert.ok(overflow <= 0, `${name} at ${width} px scrolls sideways by ${overflow} px`);
        await screenshot(page, `${name}-${width}`);
      }
      assert.deepEqual(problems, [], `console errors or failed requests:\n${problems.join('\n')}`);
    } finally {
      await page.close();
    }
  });
}
