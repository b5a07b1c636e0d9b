// Frame times while the page animates, with 10,000 batches in the transactions page's
// partition: the learner's recorded clicks are played back by Play (one step a second,
// each step's new messages travelling along their arrows), under Chromium's tracing.
// Prints the frames' figures (never asserts a time: the machine is shared); asserts
// only what the played steps must show.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { topLevelTasks, useSite, watchProblems } from './harness.mjs';

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
  const tasks = topLevelTasks(events, main);
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
  return { tasks: tasks.map((t) => t.dur / 1000), long: tasks.filter((t) => t.dur > 16_000), work, gaps, starts, main, events };
}

/**
 * What each task over 16 ms is: a frame's rendering (the task that updates the
 * lifecycle: style, layout, paint, commit) or a script (a step of Play: the engine,
 * the view models, Yew's diff), with its wall time and its thread time (what the main
 * thread ran; the rest of the wall time other processes held its core).
 */
function longTasks({ long, main, events }) {
  const own = events.filter((e) => `${e.pid}:${e.tid}` === main && e.ph === 'X' && e.dur);
  const kinds = new Map();
  for (const t of long) {
    const inside = own.filter((e) => e.ts >= t.ts && e.ts + e.dur <= t.ts + t.dur);
    const kind = inside.some((e) => e.name === 'WebFrameWidgetImpl::UpdateLifecycle')
      ? 'frame'
      : inside.some((e) => e.name === 'TimerFire' || e.name === 'FunctionCall')
        ? 'script'
        : 'other';
    kinds.set(kind, [...(kinds.get(kind) ?? []), t]);
  }
  return [...kinds.entries()]
    .map(([kind, ts]) => {
      const wall = ts.map((t) => t.dur / 1000);
      const cpu = ts.map((t) => (t.tdur ?? t.dur) / 1000);
      return `${kind} ${ts.length} (wall p50 ${quantile(wall, 0.5).toFixed(1)} ms, thread time p50 ${quantile(cpu, 0.5).toFixed(1)} ms, max ${Math.max(...cpu).toFixed(1)} ms)`;
    })
    .join(', ');
}

/**
 * What a trace event's own time is spent on: script (the wasm: the engine, the view
 * model, Yew's diff and the DOM updates it makes), style, layout, paint (pre-paint,
 * paint, compositing inputs, the commit to the compositor), gc, other.
 */
function phase(name) {
  if (/GC|Sweep|Marking/.test(name)) return 'gc';
  if (/recalcStyle|UpdateLayoutTree|RecalculateStyles|rebuildLayoutTree|updateStyle|StyleEngine|StyleSheet/.test(name)) return 'style';
  if (/performLayout|^Layout$|UpdateLayout$|ShapeText|InlineNode::Collect|LayoutView/.test(name)) return 'layout';
  if (/Paint|CullRect|CompositingInputs|^Commit$|Layerize|UpdateLayer|Composit/.test(name)) return 'paint';
  if (/FunctionCall|TimerFire|EventDispatch|FireAnimationFrame|Microtask|EvaluateScript|SetText|v8\.|V8\.|[Ww]asm|PostMessage/.test(name)) return 'script';
  return 'other';
}

/**
 * Where the main thread's time goes in the frames longer than `over` ms: each trace
 * event's self time (its duration less its children's), summed by phase over those
 * intervals, with the compositor's raster time beside it (software raster, no GPU).
 */
function longFrames({ starts, main, events }, over) {
  const own = events
    .filter((e) => `${e.pid}:${e.tid}` === main && e.ph === 'X' && e.dur)
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  // Self time of each event: its duration less the time of its direct children.
  const self = own.map((e) => e.dur);
  const stack = [];
  own.forEach((e, i) => {
    while (stack.length && own[stack[stack.length - 1]].ts + own[stack[stack.length - 1]].dur <= e.ts) stack.pop();
    if (stack.length) self[stack[stack.length - 1]] -= e.dur;
    stack.push(i);
  });
  const raster = events.filter((e) => e.ph === 'X' && e.dur && e.name === 'RasterTask');
  const sum = { script: 0, style: 0, layout: 0, paint: 0, gc: 0, other: 0, raster: 0, idle: 0 };
  const byName = new Map();
  let n = 0;
  for (let i = 0; i + 1 < starts.length; i++) {
    const [from, to] = [starts[i], starts[i + 1]];
    if ((to - from) / 1000 <= over) continue;
    n += 1;
    let busy = 0;
    own.forEach((e, j) => {
      const [a, b] = [Math.max(e.ts, from), Math.min(e.ts + e.dur, to)];
      if (b <= a || self[j] <= 0) return;
      const t = (self[j] * (b - a)) / e.dur / 1000;
      sum[phase(e.name)] += t;
      busy += t;
      byName.set(e.name, (byName.get(e.name) ?? 0) + t);
    });
    for (const e of raster) {
      const [a, b] = [Math.max(e.ts, from), Math.min(e.ts + e.dur, to)];
      if (b > a) sum.raster += (b - a) / 1000;
    }
    sum.idle += Math.max(0, (to - from) / 1000 - busy);
  }
  const per = (x) => (n ? x / n : 0).toFixed(1);
  const top = [...byName.entries()].sort((a, b) => b[1] - a[1]).slice(0, 8);
  return (
    `${n} frames over ${over} ms, per frame: ` +
    Object.entries(sum).map(([k, v]) => `${k} ${per(v)}`).join(', ') +
    ` ms; most self time: ${top.map(([k, v]) => `${k} ${per(v)}`).join(', ')} ms`
  );
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
    const threads = mainThread(trace);
    const { tasks, work, gaps } = threads;
    console.log(
      `10,000-batch partition, Play over ${steps.length} recorded steps (${playMs} ms):\n` +
        `  frames, main-thread work each (Chromium trace): ${fmt(work)}\n` +
        `  frames, interval between frame starts (trace): ${fmt(gaps)}\n` +
        `  frames, requestAnimationFrame intervals (page): ${fmt(raf)}\n` +
        `  main-thread tasks (trace): ${fmt(tasks)}, over 16 ms: ${tasks.filter((d) => d > 16).length}\n` +
        `  tasks over 16 ms (trace): ${longTasks(threads) || 'none'}\n` +
        `  long frames (trace): ${longFrames(threads, 17.5)}`,
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
