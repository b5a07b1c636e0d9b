// Frame times while the page animates, with 10,000 batches in the transactions page's
// partition: the learner's recorded clicks are played back by Play (one step a second,
// each step's new messages travelling along their arrows), under Chromium's tracing.
// Prints the frames' figures (never asserts a time: the machine is shared); asserts
// only what the played steps must show.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, watchProblems } from './harness.mjs';

const tid = (id) => `[data-testid="${id}"]`;
const site = useSite();

const quantile = (xs, q) =>
  xs.length === 0 ? NaN : [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))];
const fmt = (xs) =>
  `n ${xs.length}, p50 ${quantile(xs, 0.5).toFixed(1)} ms, p95 ${quantile(xs, 0.95).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms`;

/**
 * The renderer's main-thread figures from a trace: the interval from one frame's start
 * (`BeginMainFrame`) to the next (16.7 ms when no frame is missed), the main thread's
 * busy time in each interval (scripts, style, layout and paint of that frame), and each
 * task's duration (a task over 16 ms holds back the next frame).
 */
function mainThread(trace) {
  const events = trace.traceEvents ?? [];
  const names = new Map();
  for (const e of events) {
    if (e.ph === 'M' && e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args?.name);
  }
  // The page's renderer: the main thread with the most frames.
  const frames = new Map();
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    if (e.name === 'WebFrameWidgetImpl::BeginMainFrame' && names.get(key) === 'CrRendererMain') {
      frames.set(key, [...(frames.get(key) ?? []), e.ts]);
    }
  }
  const [main, unsorted] = [...frames.entries()].sort((a, b) => b[1].length - a[1].length)[0] ?? ['', []];
  const starts = [...unsorted].sort((a, b) => a - b);
  // Top-level tasks only (a task's own trace events nest inside it).
  const tasks = [];
  for (const e of events
    .filter((e) => `${e.pid}:${e.tid}` === main && e.ph === 'X' && e.dur && e.name === 'ThreadControllerImpl::RunTask')
    .sort((a, b) => a.ts - b.ts)) {
    const last = tasks[tasks.length - 1];
    if (!last || e.ts >= last.ts + last.dur) tasks.push(e);
  }
  const work = [];
  for (let i = 0; i + 1 < starts.length; i++) {
    const [from, to] = [starts[i], starts[i + 1]];
    let busy = 0;
    for (const t of tasks) {
      const [a, b] = [Math.max(t.ts, from), Math.min(t.ts + t.dur, to)];
      if (b > a) busy += b - a;
    }
    work.push(busy / 1000);
  }
  const gaps = starts.slice(1).map((t, i) => (t - starts[i]) / 1000);
  return { tasks: tasks.map((t) => t.dur / 1000), work, gaps };
}

test('frames while Play animates the recorded steps on a 10,000-batch partition', { timeout: 300_000 }, async () => {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const problems = watchProblems(page);
  try {
    await page.goto(`${site.server.url}?bench=10000#transactions`, { waitUntil: 'load' });
    await page.locator(tid('page-transactions')).waitFor({ state: 'visible', timeout: 120_000 });
    await page.waitForFunction(() => window.__eosWarm === 'done', null, { timeout: 60_000 });
    // The learner's clicks, recorded: two transactions, one committed, one aborted.
    const steps = ['txn-init', 'txn-begin', 'txn-send', 'txn-commit', 'txn-begin', 'txn-send', 'txn-send', 'txn-abort'];
    for (const id of steps) await page.locator(tid(id)).click();
    const lso = await page.locator(tid('txn-lso')).innerText();
    // Back to the fresh page (one replay from the start), then Play.
    await page.locator(tid('tt-slider')).fill('0');
    await page.locator(`${tid('tt-back')}:disabled`).waitFor({ timeout: 120_000 });
    // Frame starts as the page sees them too (requestAnimationFrame's intervals).
    await page.evaluate(() => {
      window.__eosFrames = [];
      const tick = (t) => {
        window.__eosFrames.push(t);
        if (window.__eosFrames.length < 100_000) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    await site.browser.startTracing(page, {
      categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel', 'blink'],
    });
    const t0 = Date.now();
    await page.locator(tid('tt-play')).click();
    await page.locator(`${tid('tt-play')}[aria-pressed="false"]`).waitFor({ timeout: 120_000 });
    // The last step's messages finish travelling.
    await page.waitForTimeout(1500);
    const playMs = Date.now() - t0;
    const trace = JSON.parse((await site.browser.stopTracing()).toString());
    if (process.env.EOS_TRACE_OUT) (await import("node:fs")).writeFileSync(process.env.EOS_TRACE_OUT, JSON.stringify(trace));
    const raf = await page.evaluate(() => window.__eosFrames.slice(1).map((t, i) => t - window.__eosFrames[i]));
    const { tasks, work, gaps } = mainThread(trace);
    console.log(
      `10,000-batch partition, Play over ${steps.length} recorded steps (${playMs} ms):\n` +
        `  frames, main-thread work each (Chromium trace): ${fmt(work)}\n` +
        `  frames, interval between frame starts (trace): ${fmt(gaps)}\n` +
        `  frames, requestAnimationFrame intervals (page): ${fmt(raf)}\n` +
        `  main-thread tasks (trace): ${fmt(tasks)}, over 16 ms: ${tasks.filter((d) => d > 16).length}`,
    );
    assert.ok(work.length > 0, 'the trace holds the page’s frames');
    // Play ended where the clicks did.
    assert.equal(await page.locator(tid('txn-lso')).innerText(), lso);
    assert.equal(await page.locator(tid('tt-forward')).isDisabled(), true);
    assert.deepEqual(problems, [], `problems:\n${problems.join('\n')}`);
  } finally {
    await page.close();
  }
});
