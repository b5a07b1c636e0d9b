// The idempotent producer, end to end in the built site: a lost ack makes producer-1
// retry the same batch (same producer id, epoch and sequence); the broker answers
// DUPLICATE with the original offsets and writes nothing, so the log holds the batch
// once and the LEO is what one normal send would leave.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { screenshot, useSite, watchProblems } from './harness.mjs';

const PLAYGROUND = '#app [data-testid="playground"]';
const tid = (id) => `[data-testid="${id}"]`;

const site = useSite();

/** Types `records` and clicks Send; waits until the verdict box says `verdict`. */
async function send(page, records, verdict) {
  await page.locator(tid('records')).fill(records);
  await page.locator(tid('send')).click();
  await page.locator(`${tid('verdict')}[data-verdict="${verdict}"]`).waitFor({ timeout: 20_000 });
}

async function leo(page) {
  return Number(await page.locator(tid('leo')).innerText());
}

/** Rows of the log table that are batches (not segment headers or the LEO row). */
async function batchRows(page) {
  return page.locator(`${tid('log')} tbody tr:not(.segment-row)`).allInnerTexts();
}

for (const { width, height } of [
  { width: 1280, height: 800 },
  { width: 760, height: 1000 },
]) {
  test(`a lost ack is retried and deduplicated (${width}×${height})`, { timeout: 120_000 }, async () => {
    const page = await site.browser.newPage({ viewport: { width, height } });
    const problems = watchProblems(page);
    try {
      await page.goto(site.server.url, { waitUntil: 'load' });
      await page.locator(PLAYGROUND).waitFor({ state: 'visible', timeout: 60_000 });

      // A normal send: appended at offsets 0..1.
      await send(page, 'a, b', 'APPEND');
      assert.equal(await leo(page), 2);
      assert.equal((await batchRows(page)).length, 1);

      // The ack of the next send is lost: the producer times out and retries.
      await page.locator(tid('drop-ack')).click();
      await send(page, 'c', 'DUPLICATE');

      const verdict = await page.locator(tid('verdict')).innerText();
      assert.match(verdict, /DUPLICATE/);
      assert.match(verdict, /original offsets 2\.\.2/);
      // Written once: the same LEO as one normal send of one record (2 + 1).
      assert.equal(await leo(page), 3);
      assert.equal(await page.locator(tid('hw')).innerText(), '3');
      const rows = await batchRows(page);
      assert.equal(rows.length, 2, `log rows:\n${rows.join('\n')}`);
      assert.equal(rows.filter((r) => /\bc\b/.test(r)).length, 1, 'the retried batch is in the log once');

      // The story is narrated: response lost, timeout, retry, duplicate, acknowledged.
      const events = await page.locator(tid('events')).innerText();
      for (const needle of [/lost the Produce response/, /request\.timeout\.ms/, /retry #1 of seq 2\.\.2/, /DUPLICATE seq 2\.\.2/, /acknowledged at baseOffset=2/]) {
        assert.match(events, needle);
      }
      // The window slot that matched is marked.
      assert.match(await page.locator(tid('window')).innerText(), /DUPLICATE/);

      await screenshot(page, `idempotence-${width}`);
      assert.deepEqual(problems, [], `problems:\n${problems.join('\n')}`);
    } finally {
      await page.close();
    }
  });
}

test('bad input is refused at the field and sends nothing', { timeout: 90_000 }, async () => {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    await page.goto(site.server.url, { waitUntil: 'load' });
    await page.locator(PLAYGROUND).waitFor({ state: 'visible', timeout: 60_000 });
    await page.locator(tid('records')).fill('   ');
    await page.locator(tid('send')).click();
    const input = page.locator(tid('records'));
    // Yew renders after the click's task: wait for the field to be marked (a render that
    // never marks it fails here by the timeout).
    await page.locator(`${tid('records')}[aria-invalid="true"]`).waitFor({ timeout: 10_000 });
    assert.equal(await input.getAttribute('aria-invalid'), 'true');
    const described = await input.getAttribute('aria-describedby');
    assert.ok(described?.includes('records-error'));
    assert.match(await page.locator('#records-error').innerText(), /Enter a value/);
    assert.equal(await leo(page), 0);

    for (const [field, value, message] of [
      ['raw-pid', '-5', /0 or more/],
      ['raw-epoch', 'abc', /whole number/],
      ['raw-seq', '', /Enter a value/],
    ]) {
      await page.locator(tid(field)).fill(value);
      await page.locator(tid('raw-send')).click();
      await page.locator(`${tid(field)}[aria-invalid="true"]`).waitFor({ timeout: 10_000 });
      assert.equal(await page.locator(tid(field)).getAttribute('aria-invalid'), 'true');
      assert.match(await page.locator(`#${field}-error`).innerText(), message);
    }
    assert.equal(await leo(page), 0);
  } finally {
    await page.close();
  }
});

test('the lesson player steps through the idempotence lesson, and Prev replays', { timeout: 90_000 }, async () => {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const problems = watchProblems(page);
  try {
    await page.goto(site.server.url, { waitUntil: 'load' });
    await page.locator(PLAYGROUND).waitFor({ state: 'visible', timeout: 60_000 });
    const select = page.locator(tid('lesson-select'));
    // Each lesson once by its file's name, then its title (never the name twice, as a
    // title that starts with the name would give).
    for (const text of await select.locator('option[value]:not([value=""]):not([value="custom"])').allInnerTexts()) {
      const name = text.split(':')[0];
      assert.ok(!text.toLowerCase().includes(`${name}: ${name}:`.toLowerCase()), text);
      assert.match(name, /^[a-z0-9-]+$/i, text);
    }
    const value = await select.locator('option', { hasText: 'idempotence' }).first().getAttribute('value');
    await select.selectOption(value);
    assert.match(await page.locator(tid('showing')).innerText(), /lesson/i);

    // Step until the broker has answered DUPLICATE for "the same batch again".
    let steps = 0;
    while (steps < 30) {
      await page.locator(tid('lesson-next')).click();
      steps += 1;
      if ((await page.locator(tid('verdict')).getAttribute('data-verdict')) === 'DUPLICATE') break;
    }
    assert.match(await page.locator(tid('lesson-step')).innerText(), /baseOffset=0/);
    const leo = await page.locator(tid('leo')).innerText();

    // The next raw produce skips sequences: OUT_OF_ORDER, expected vs got.
    await page.locator(tid('lesson-next')).click();
    await page.locator(`${tid('verdict')}[data-verdict="OUT_OF_ORDER_SEQUENCE_NUMBER"]`).waitFor();
    assert.match(await page.locator(tid('lesson-output')).innerText(), /error=OUT_OF_ORDER_SEQUENCE_NUMBER/);
    assert.match(await page.locator(tid('verdict')).innerText(), /Expected sequence 3, got 5\.\.5/);
    assert.equal(await page.locator(tid('leo')).innerText(), leo, 'nothing written');

    // Prev replays the lesson on a fresh world up to the step before.
    await page.locator(tid('lesson-prev')).click();
    await page.locator(`${tid('verdict')}[data-verdict="DUPLICATE"]`).waitFor();
    assert.match(await page.locator(tid('lesson-progress')).innerText(), new RegExp(`Step ${steps} of`));

    // Back to the playground: its own world is untouched.
    await select.selectOption('');
    assert.equal(await page.locator(tid('leo')).innerText(), '0');
    assert.deepEqual(problems, []);
  } finally {
    await page.close();
  }
});

test('a crash restart shows how the window was rebuilt', { timeout: 90_000 }, async () => {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    await page.goto(site.server.url, { waitUntil: 'load' });
    await page.locator(PLAYGROUND).waitFor({ state: 'visible', timeout: 60_000 });
    await send(page, 'a', 'APPEND');
    await page.locator(tid('restart-crash')).click();
    const report = await page.locator(tid('recovery')).innerText();
    assert.match(report, /Crashed/);
    assert.match(report, /No snapshot: rebuilt from 1 batch/);
    assert.match(report, /\[0\.\.0\]/);
    // Under the rebuilt window, what it came from and what "0 (0)" means.
    assert.match(await page.locator(`.scroll-x + ${tid('window-recovered')}`).innerText(), /epoch in brackets/);
    await page.locator(tid('restart-clean')).click();
    assert.match(await page.locator(tid('recovery')).innerText(), /Loaded snapshot at offset 1/);
  } finally {
    await page.close();
  }
});

test('step by step: Send only accumulates, Step and Run deliver', { timeout: 90_000 }, async () => {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    await page.goto(site.server.url, { waitUntil: 'load' });
    await page.locator(PLAYGROUND).waitFor({ state: 'visible', timeout: 60_000 });
    await page.locator(tid('step-mode')).check();
    await page.locator(tid('records')).fill('x, y');
    await page.locator(tid('send')).click();
    assert.equal(await leo(page), 0);
    assert.match(await page.locator(tid('events')).innerText(), /waits in the accumulator/);
    await page.locator(tid('step')).click();
    assert.equal(await leo(page), 0, 'one step is not enough for a whole produce');
    await page.locator(tid('run')).click();
    await page.locator(`${tid('verdict')}[data-verdict="APPEND"]`).waitFor();
    assert.equal(await leo(page), 2);
  } finally {
    await page.close();
  }
});
