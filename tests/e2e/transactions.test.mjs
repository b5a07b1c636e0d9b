// The transactions page, end to end in the built site: a transaction commits (COMMIT
// marker, LSO == HW); with the markers held the coordinator sits in PrepareCommit and the
// LSO stays below the HW until they are released; a second producer with the same
// transactional.id fences the first, whose commit then fails with
// InvalidProducerEpochException. Also: how long a click takes to render with 10,000
// batches in the partition (printed, not asserted).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { REPO_ROOT, screenshot, topLevelTasks, useSite, watchProblems } from './harness.mjs';

const PAGE = '#app [data-testid="page-transactions"]';
const tid = (id) => `[data-testid="${id}"]`;

const site = useSite();

async function open(page, query = '') {
  await page.goto(`${site.server.url}${query}#transactions`, { waitUntil: 'load' });
  await page.locator(PAGE).waitFor({ state: 'visible', timeout: 120_000 });
}

const num = async (page, id) => Number(await page.locator(tid(id)).innerText());

async function coordinatorState(page, state) {
  await page.locator(`${tid('coordinator-state')}[data-state="${state}"]`).waitFor({ timeout: 20_000 });
}

async function clicks(page, ...ids) {
  for (const id of ids) await page.locator(tid(id)).click();
}

for (const { width, height } of [
  { width: 1280, height: 800 },
  { width: 760, height: 1000 },
]) {
  test(`commit, then hold the markers and release them (${width}×${height})`, { timeout: 120_000 }, async () => {
    const page = await site.browser.newPage({ viewport: { width, height } });
    const problems = watchProblems(page);
    try {
      await open(page);
      // The tab is marked as the current page.
      assert.equal(await page.locator(tid('nav-transactions')).getAttribute('aria-current'), 'page');

      // Transaction A: c1, c2, committed → the COMMIT marker takes offset 2.
      await page.locator(tid('txn-records')).fill('c1, c2');
      await clicks(page, 'txn-init', 'txn-begin', 'txn-send');
      assert.equal(await num(page, 'txn-lso'), 0, 'open data holds the LSO at its first offset');
      assert.equal(await num(page, 'txn-hw'), 2);
      await clicks(page, 'txn-commit');
      await coordinatorState(page, 'CompleteCommit');
      assert.match(await page.locator(tid('txn-log')).innerText(), /COMMIT marker/);
      assert.equal(await num(page, 'txn-leo'), 3);
      assert.equal(await num(page, 'txn-lso'), await num(page, 'txn-hw'));

      // Transaction B: a1, aborted → ABORT marker, one .txnindex entry.
      await clicks(page, 'txn-begin');
      await page.locator(tid('txn-records')).fill('a1');
      await clicks(page, 'txn-send', 'txn-abort');
      await coordinatorState(page, 'CompleteAbort');
      assert.match(await page.locator(tid('txn-log')).innerText(), /ABORT marker/);
      assert.match(await page.locator(tid('txn-index')).innerText(), /\b0\s+3\s+4\s+5\b/);

      // Transaction C: c3, committed with the markers held: the producer is told
      // "committed", but the coordinator waits in PrepareCommit and the LSO stays put.
      await clicks(page, 'txn-begin');
      await page.locator(tid('txn-records')).fill('c3');
      await clicks(page, 'txn-send', 'txn-hold-markers', 'txn-commit');
      await coordinatorState(page, 'PrepareCommit');
      assert.match(await page.locator(tid('producer-outcome')).innerText(), /commitTransaction\(\) returned/);
      const [lso, hw] = [await num(page, 'txn-lso'), await num(page, 'txn-hw')];
      assert.equal(lso, 5);
      assert.ok(lso < hw, `LSO ${lso} stays below HW ${hw} while the markers are held`);
      assert.match(await page.locator(tid('txn-lso-note')).innerText(), /held at 5/);
      assert.match(await page.locator(tid('timeline')).innerText(), /WriteTxnMarkers request — held/);
      // read_committed stops at the LSO and skips a1; read_uncommitted sees a1 and c3.
      await clicks(page, 'poll-rc', 'poll-ru');
      const rcHeld = await page.locator(tid('consumer-rc')).innerText();
      assert.doesNotMatch(rcHeld, /c3@5|a1@3/);
      assert.match(rcHeld, /aborted data/, 'the skipped aborted batch is explained');
      assert.match(await page.locator(tid('consumer-ru')).innerText(), /a1@3[\s\S]*c3@5/);
      await page.evaluate(() => window.scrollTo(0, 0));
      const held = await screenshot(page, `transactions-held-${width}`);
      if (width === 1280) {
        await mkdir(path.join(REPO_ROOT, 'docs'), { recursive: true });
        await copyFile(held, path.join(REPO_ROOT, 'docs', 'screenshot-transactions.png'));
      }

      // Release: the COMMIT marker is written, CompleteCommit, LSO catches up with HW.
      await clicks(page, 'txn-release-markers');
      await coordinatorState(page, 'CompleteCommit');
      assert.equal(await num(page, 'txn-lso'), await num(page, 'txn-hw'));
      assert.equal(await num(page, 'txn-lso'), 7);
      await clicks(page, 'poll-rc');
      const rc = await page.locator(tid('consumer-rc')).innerText();
      assert.match(rc, /c3@5/);
      assert.match(rc, /COMMIT marker/, 'the gaps are explained');
      const records = await page.locator(tid('txn-state-log')).innerText();
      assert.equal((records.match(/CompleteCommit/g) || []).length, 2, records);

      // Narrow or wide, nothing scrolls sideways.
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      assert.ok(overflow <= 0, `the page is ${overflow}px wider than the ${width}px viewport`);

      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, `transactions-${width}`);
      await screenshot(page, `transactions-${width}-full`, { fullPage: true });
      assert.deepEqual(problems, [], `problems:\n${problems.join('\n')}`);
    } finally {
      await page.close();
    }
  });
}

test('a second producer with the same transactional.id fences the first', { timeout: 120_000 }, async () => {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const problems = watchProblems(page);
  try {
    await open(page);
    await page.locator(tid('txn-records')).fill('z1');
    await clicks(page, 'txn-init', 'txn-begin', 'txn-send');
    await clicks(page, 'txn-fence');
    await page.locator(tid('txn-producer-2')).waitFor();
    // The coordinator aborted producer-1's open transaction itself: ABORT marker, .txnindex.
    assert.match(await page.locator(tid('txn-log')).innerText(), /ABORT marker/);
    assert.match(await page.locator(tid('txn-index')).innerText(), /\b0\s+0\s+1\s+2\b/);
    assert.match(await page.locator(tid('txn-producer-id-2')).innerText(), /epoch=2/);

    // The zombie wakes up: z2 and commit fail with InvalidProducerEpochException.
    await page.locator(tid('txn-records')).fill('z2');
    await clicks(page, 'txn-send', 'txn-commit');
    const outcome = await page.locator(tid('producer-outcome')).innerText();
    assert.match(outcome, /commitTransaction\(\) threw InvalidProducerEpochException/);
    assert.match(outcome, /Fenced/);
    assert.equal(await page.locator(tid('txn-client-state')).innerText(), 'ABORTABLE_ERROR');
    assert.doesNotMatch(await page.locator(tid('txn-log')).innerText(), /z2/, 'z2 never reached the disk');

    // producer-2 goes on: y1 committed; read_committed sees only y1.
    await page.locator(tid('txn-records-2')).fill('y1');
    await clicks(page, 'txn-begin-2', 'txn-send-2', 'txn-commit-2');
    await coordinatorState(page, 'CompleteCommit');
    await clicks(page, 'poll-rc', 'poll-ru');
    assert.match(await page.locator(tid('consumer-rc')).innerText(), /y1@2/);
    assert.doesNotMatch(await page.locator(tid('consumer-rc')).innerText(), /z1@0/);
    assert.match(await page.locator(tid('consumer-ru')).innerText(), /z1@0/);
    await screenshot(page, 'transactions-fenced-1280', { fullPage: true });
    assert.deepEqual(problems, [], `problems:\n${problems.join('\n')}`);
  } finally {
    await page.close();
  }
});

test('an open transaction past transaction.timeout.ms is aborted by the coordinator', { timeout: 120_000 }, async () => {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const problems = watchProblems(page);
  try {
    await open(page);
    await clicks(page, 'txn-init', 'txn-begin', 'txn-send');
    await coordinatorState(page, 'Ongoing');
    assert.ok((await num(page, 'txn-lso')) < (await num(page, 'txn-hw')));
    await clicks(page, 'txn-advance');
    await coordinatorState(page, 'CompleteAbort');
    assert.equal(await num(page, 'txn-lso'), await num(page, 'txn-hw'));
    assert.match(await page.locator(tid('txn-log')).innerText(), /ABORT marker/);
    assert.match(await page.locator(tid('events')).innerText(), /transaction\.timeout\.ms=60000/);
    // The producer still thinks its transaction is open; its commit is refused.
    await clicks(page, 'txn-commit');
    assert.match(await page.locator(tid('producer-outcome')).innerText(), /commitTransaction\(\) threw/);
    assert.deepEqual(problems, [], `problems:\n${problems.join('\n')}`);
  } finally {
    await page.close();
  }
});

test('the panels follow a lesson played on the transactions page', { timeout: 120_000 }, async () => {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const problems = watchProblems(page);
  try {
    await open(page);
    const value = await page
      .locator(`${tid('lesson-select')} option`, { hasText: /^transactions:/i })
      .getAttribute('value');
    await page.locator(tid('lesson-select')).selectOption(value);
    // The controls pause while the lesson's world is shown.
    await page.locator(tid('txn-init')).waitFor({ state: 'detached' });
    const next = page.locator(tid('lesson-next'));
    // The main page fetches the lesson's file when it is chosen (feature `lessons`).
    await page.locator(`${tid('lesson-next')}:enabled`).waitFor();
    while (await next.isEnabled()) await next.click();
    await coordinatorState(page, 'CompleteCommit');
    const log = await page.locator(tid('txn-log')).innerText();
    assert.match(log, /ABORT marker/);
    assert.equal((log.match(/COMMIT marker/g) || []).length, 2, log);
    assert.equal(await num(page, 'txn-lso'), 11);
    assert.equal(await num(page, 'txn-hw'), 11);
    assert.match(await page.locator(tid('txn-index')).innerText(), /\b0\s+4\s+7\s+8\b/);
    const rc = await page.locator(tid('consumer-rc')).innerText();
    assert.match(rc, /c1@0[\s\S]*c5@9/);
    assert.doesNotMatch(rc, /a1@4/);
    assert.match(await page.locator(tid('consumer-ru')).innerText(), /a1@4/);
    await screenshot(page, 'transactions-lesson-1280', { fullPage: true });
    assert.deepEqual(problems, [], `problems:\n${problems.join('\n')}`);
  } finally {
    await page.close();
  }
});

/**
 * Each click in a trace and the frame that shows it, on the renderer's main thread: the
 * top-level task that dispatched the click (`EventDispatch` of type `click`), the first
 * frame (the task that paints and commits) that starts after that task, and the end of that
 * frame's `Commit` (its last `Paint` when the trace has no commit). `span` is the time
 * from the task's start to that end, `work` the main thread's busy time in it (the
 * tasks' durations, clipped to the span), `cpu` the same tasks' thread time (what the
 * main thread ran, less the time other processes held its core: on a loaded machine
 * the figure that compares between runs), `task` and `frame` the two tasks' own.
 */
function clickFrames(trace) {
  const events = trace.traceEvents ?? [];
  const key = (e) => `${e.pid}:${e.tid}`;
  const clicks = events.filter((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'click' && e.dur);
  if (clicks.length === 0) return [];
  const main = key(clicks[0]);
  const mine = events.filter((e) => key(e) === main && e.ph === 'X' && e.dur).sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const tasks = topLevelTasks(events, main);
  const within = (t, e) => e.ts >= t.ts && e.ts + e.dur <= t.ts + t.dur;
  // A frame's main-thread task: the one that paints and commits (style, layout,
  // pre-paint, paint, layerize, commit, after the frame's animation callbacks).
  const painting = mine.filter((e) => e.name === 'Paint' || e.name === 'Commit');
  const frames = tasks.filter((t) => painting.some((e) => within(t, e)));
  // The end of a frame's `Commit` (its last `Paint` when the trace has no commit).
  const frameEnd = (frame) => {
    const inFrame = mine.filter((e) => within(frame, e));
    const commit = inFrame.filter((e) => e.name === 'Commit');
    const paint = inFrame.filter((e) => e.name === 'Paint');
    const ends = (commit.length ? commit : paint).map((e) => e.ts + e.dur);
    return ends.length ? Math.max(...ends) : frame.ts + frame.dur;
  };
  // The main thread's busy time and thread time between two instants.
  const workBetween = (from, to) => {
    let [busy, cpu] = [0, 0];
    for (const t of tasks) {
      const [a, b] = [Math.max(t.ts, from), Math.min(t.ts + t.dur, to)];
      if (b > a) {
        busy += b - a;
        cpu += ((t.tdur ?? t.dur) * (b - a)) / t.dur;
      }
    }
    return [busy, cpu];
  };
  const out = [];
  for (const c of clicks.filter((e) => key(e) === main)) {
    const task = tasks.find((t) => within(t, c));
    const frame = task && frames.find((f) => f.ts >= task.ts + task.dur);
    if (!frame) continue;
    const end = frameEnd(frame);
    const [busy, cpu] = workBetween(task.ts, end);
    // The panels out of the reader's sight (`ui::deferred`) render after this frame,
    // in a task of their own, and are painted by the next frame.
    const next = frames.find((f) => f.ts >= frame.ts + frame.dur);
    const [, rest] = next ? workBetween(end, frameEnd(next)) : [0, 0];
    out.push({ span: (end - task.ts) / 1000, work: busy / 1000, cpu: cpu / 1000, task: task.dur / 1000, frame: (end - frame.ts) / 1000, rest: rest / 1000 });
  }
  return out;
}

test('the page stays responsive with 10,000 batches in the partition', { timeout: 300_000 }, async () => {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const problems = watchProblems(page);
  try {
    const t0 = Date.now();
    await open(page, '?bench=10000');
    const loadMs = Date.now() - t0;
    // The page plays each kind of click once at idle on a scratch copy (`ui::warm`), so
    // the first click of each kind runs compiled code; a learner reads before clicking,
    // so the clicks below start once it is done.
    const w0 = Date.now();
    await page.waitForFunction(() => window.__eosWarm === 'done', null, { timeout: 60_000 });
    const warmMs = Date.now() - w0;
    assert.match(
      await page.locator(tid('txn-log-window')).innerText(),
      /^10000 batches: scroll up/,
    );
    // Click → rendered: the app stores performance.now() in window.__eosRenderedAt after
    // each render (bench mode only); the next animation frame adds style and layout.
    const timeClick = (id) =>
      page.evaluate(async (id) => {
        const el = document.querySelector(`[data-testid="${id}"]`);
        const before = window.__eosRenders || 0;
        const start = performance.now();
        el.click();
        while ((window.__eosRenders || 0) === before) {
          await new Promise((r) => setTimeout(r, 0));
        }
        const rendered = window.__eosRenderedAt - start;
        // After the next frame's style, layout and paint: a task queued from rAF runs
        // once that frame is done.
        await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
        const frame = performance.now() - start;
        // Then the panels out of sight (`ui::deferred`) and the frame that paints them,
        // before the next click.
        while (window.__eosDeferred) await new Promise((r) => setTimeout(r, 0));
        await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
        return { rendered, frame, settled: performance.now() - start };
      }, id);
    const results = {};
    for (const id of ['txn-init', ...Array(3).fill(['txn-begin', 'txn-send', 'txn-hold-markers', 'txn-commit', 'txn-release-markers', 'txn-begin', 'txn-send', 'txn-abort']).flat()]) {
      const r = await timeClick(id);
      (results[id] ??= []).push(r);
    }
    const rows = Object.entries(results).flatMap(([id, rs]) =>
      rs.map((r) => `  ${id.padEnd(22)} click→render ${r.rendered.toFixed(1).padStart(7)} ms, →painted ${r.frame.toFixed(1).padStart(7)} ms`),
    );
    // Quantiles over the warm clicks: the first click of each kind also pays the
    // browser's compilation of that code, so it is reported apart.
    const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))].toFixed(1);
    const warm = Object.values(results).flatMap((rs) => rs.slice(1));
    const first = Object.values(results).map((rs) => rs[0]);
    const renders = warm.map((r) => r.rendered);
    const painted = warm.map((r) => r.frame);
    console.log(
      `10,000-batch partition: page load ${loadMs} ms (preloading through the engine), warm-up done ${warmMs} ms later\n${rows.join('\n')}\n` +
        `  warm clicks (${warm.length}): click→render median ${quantile(renders, 0.5)} ms, p95 ${quantile(renders, 0.95)} ms; ` +
        `click→painted median ${quantile(painted, 0.5)} ms, p95 ${quantile(painted, 0.95)} ms\n` +
        `  first click of each kind (${first.length}): click→painted median ${quantile(first.map((r) => r.frame), 0.5)} ms`,
    );
    // Which panels a click rewrites: the DOM mutations of six warm clicks, by the
    // page's area (a panel whose props did not change is skipped by Yew and makes none).
    const mutationClicks = Array(2).fill(['txn-begin', 'txn-send', 'txn-commit']).flat();
    await page.evaluate(() => {
      const areas = ['tx-producers', 'tx-main', 'tx-coord', 'tx-timeline', 'tx-events', 'tx-tools'];
      window.__eosMutations = {};
      window.__eosObserver = new MutationObserver((records) => {
        for (const r of records) {
          const node = r.target.nodeType === 1 ? r.target : r.target.parentElement;
          // The area, and the panel in it (its last class names it: `…-panel`).
          const area = areas.find((a) => node?.closest(`.${a}`)) ?? 'other';
          const panel = node?.closest('.panel')?.classList;
          const key = panel ? `${area}/${panel[panel.length - 1]}` : area;
          window.__eosMutations[key] = (window.__eosMutations[key] ?? 0) + 1;
        }
      });
      window.__eosObserver.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    });
    for (const id of mutationClicks) await timeClick(id);
    const mutations = await page.evaluate(() => {
      window.__eosObserver.disconnect();
      return window.__eosMutations;
    });
    console.log(
      `10,000-batch partition, DOM mutations per warm click by area/panel (${mutationClicks.length} clicks): ` +
        Object.entries(mutations)
          .sort((a, b) => b[1] - a[1])
          .map(([area, n]) => `${area} ${(n / mutationClicks.length).toFixed(1)}`)
          .join(', '),
    );
    // Where the time after a render goes (style, layout and paint apart): thirty
    // more warm clicks under Chromium's tracing (not timed above: tracing slows them;
    // ten of each kind, so the p95 below is not simply the slowest of a dozen),
    // each trace event's duration summed by name and divided by the clicks (every frame
    // until the click's paint counts, so a phase that ran twice counts twice).
    // `toplevel` adds the main thread's tasks, for the click's own frame below.
    await site.browser.startTracing(page, {
      categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel'],
    });
    const traced = Array(10).fill(['txn-begin', 'txn-send', 'txn-commit']).flat();
    const tracedTimes = [];
    for (const id of traced) tracedTimes.push(await timeClick(id));
    const trace = JSON.parse((await site.browser.stopTracing()).toString());
    if (process.env.EOS_TRACE_OUT) (await import('node:fs')).writeFileSync(process.env.EOS_TRACE_OUT, JSON.stringify(trace));
    const perClick = {};
    // How much a click restyles and relays out, whatever the machine's load: the
    // elements each style pass recalculated, and the layout objects each layout found
    // dirty (a universal sibling selector such as `.stack > * + *` once made every
    // inserted row restyle its parent's whole subtree: ≈ 820 elements a Send).
    let [restyled, relaid] = [0, 0];
    for (const e of trace.traceEvents ?? []) {
      if (e.ph === 'X' && e.dur) perClick[e.name] = (perClick[e.name] ?? 0) + e.dur / 1000 / traced.length;
      if (e.name === 'UpdateLayoutTree') restyled += (e.args?.elementCount ?? 0) / traced.length;
      if (e.name === 'Layout') relaid += (e.args?.beginData?.dirtyObjects ?? 0) / traced.length;
    }
    const phases = [
      ['EventDispatch', 'click handler'],
      ['FunctionCall', 'scripts (the engine, the render)'],
      ['UpdateLayoutTree', 'style'],
      ['Layout', 'layout'],
      ['PrePaint', 'pre-paint'],
      ['Paint', 'paint'],
      ['RasterTask', 'raster'],
    ];
    console.log(
      `10,000-batch partition, per warm click (Chromium trace, ${traced.length} clicks): ` +
        phases.map(([name, label]) => `${label} ${(perClick[name] ?? 0).toFixed(1)} ms`).join(', ') +
        `; elements restyled ${restyled.toFixed(0)}, layout objects dirty ${relaid.toFixed(0)}`,
    );
    // The click's own frame, from the trace: "→painted" above also waits for the next
    // vsync (0–16.7 ms) after the frame's work, so beside it, per click, the main thread's
    // time from the start of the task that dispatched the click to the end of the commit
    // (or the last paint) of the first frame after it (the one that shows the click:
    // Yew renders in that task's microtasks), and the main thread's work in that span
    // (the click's task, the frame's rendering, any task between them). A frame that
    // meets its deadline does both within 16.7 ms.
    const own = clickFrames(trace);
    assert.equal(own.length, traced.length, 'every traced click and its frame found in the trace');
    const q = (xs, p) => quantile(xs, p);
    console.log(
      `10,000-batch partition, each traced warm click's own frame (Chromium trace, ${own.length} clicks): ` +
        `click→painted (rAF, then a task) median ${q(tracedTimes.map((r) => r.frame), 0.5)} ms, p95 ${q(tracedTimes.map((r) => r.frame), 0.95)} ms; ` +
        `click's task start→its frame's commit median ${q(own.map((c) => c.span), 0.5)} ms, p95 ${q(own.map((c) => c.span), 0.95)} ms; ` +
        `main-thread work in it median ${q(own.map((c) => c.work), 0.5)} ms, p95 ${q(own.map((c) => c.work), 0.95)} ms ` +
        `(its thread time median ${q(own.map((c) => c.cpu), 0.5)} ms, p95 ${q(own.map((c) => c.cpu), 0.95)} ms) ` +
        `(the click's task median ${q(own.map((c) => c.task), 0.5)} ms, the frame's median ${q(own.map((c) => c.frame), 0.5)} ms); ` +
        `then the panels out of sight and the next frame, thread time median ${q(own.map((c) => c.rest), 0.5)} ms, p95 ${q(own.map((c) => c.rest), 0.95)} ms; ` +
        `click→settled median ${q(tracedTimes.map((r) => r.settled), 0.5)} ms\n` +
        own
          .map((c, i) => `  ${traced[i].padEnd(22)} →painted ${tracedTimes[i].frame.toFixed(1).padStart(6)} ms; task→commit ${c.span.toFixed(1).padStart(6)} ms, work ${c.work.toFixed(1).padStart(6)} ms, thread time ${c.cpu.toFixed(1).padStart(6)} ms (task ${c.task.toFixed(1)}, frame ${c.frame.toFixed(1)}); then ${c.rest.toFixed(1)} ms`)
          .join('\n'),
    );
    assert.equal(await num(page, 'txn-lso'), await num(page, 'txn-hw'));
    // After a few dozen transactions the coordinator lists the id's newest 12
    // `__transaction_state` records, numbered from their place in the log, and counts
    // the earlier ones above them.
    const stateLog = page.locator(`${tid('txn-state-log')} tbody tr`);
    assert.equal(await stateLog.count(), 12);
    const earlier = await page.locator(tid('txn-state-log-earlier')).innerText();
    const [, hidden] = earlier.match(/^(\d+) earlier records are not shown: the table lists the newest 12\.$/) ?? [];
    assert.ok(Number(hidden) > 12, earlier);
    assert.match(await stateLog.first().innerText(), new RegExp(`^${hidden}\\. `));
    // The batch table is windowed: about 50 rows rendered, the others reachable by the
    // keyboard in the focused region (Home: the oldest; End: the newest), and the
    // table tells screen readers how many rows it has and where each one sits.
    const log = page.locator(tid('txn-log'));
    const batchRows = log.locator('tbody tr[aria-rowindex]');
    const total = Number(await log.getAttribute('aria-rowcount')) - 2;
    assert.ok(total > 10_000, `every batch counted (${total})`);
    assert.ok((await batchRows.count()) <= 74, 'only the rows near the viewport are rendered');
    await page.locator('.log-scroll').focus();
    await page.keyboard.press('Home');
    await log.locator('tbody tr[aria-rowindex="2"]').waitFor({ timeout: 10_000 });
    assert.match(await batchRows.first().innerText(), /\bb0\b/);
    assert.equal(await batchRows.first().getAttribute('aria-rowindex'), '2');
    await page.keyboard.press('End');
    await log.locator(`tbody tr[aria-rowindex="${total + 1}"]`).waitFor({ timeout: 10_000 });
    const leo = await num(page, 'txn-leo');
    assert.match(await batchRows.last().innerText(), new RegExp(`^(\\d+\\.\\.)?${leo - 1}\\s`));
    assert.equal(await batchRows.last().getAttribute('aria-rowindex'), String(total + 1));
    // The event list is windowed too: End in the focused list reaches the oldest event
    // kept, Home the newest, and every item says how many there are.
    const items = page.locator(`${tid('events')} li.event`);
    const size = await items.first().getAttribute('aria-setsize');
    assert.ok(Number(size) > (await items.count()), `windowed: ${await items.count()} of ${size} rendered`);
    await page.locator(tid('events')).focus();
    await page.keyboard.press('End');
    await page.locator(`${tid('events')} li[aria-posinset="${size}"]`).waitFor({ timeout: 10_000 });
    await page.keyboard.press('Home');
    await page.locator(`${tid('events')} li.event:not([aria-posinset])`).first().waitFor({ timeout: 10_000 });
    // The timeline draws only its newest rows at its newest end (where the clicks land),
    // and every message once the focused region is scrolled up; back at the newest end,
    // the newest again.
    const tlRows = async () => page.locator(`${tid('timeline')} .tl-row`).count();
    const atRest = await tlRows();
    const shown = Number((await page.locator('.timeline-panel .panel-head .small').innerText()).match(/\d+/)[0]);
    assert.ok(atRest < shown, `${atRest} of ${shown} messages drawn at the newest end`);
    const tlDrawn = (n) => page.waitForFunction((n) => document.querySelectorAll('[data-testid="timeline"] .tl-row').length === n, n, { timeout: 10_000 });
    const tlTop = () => page.evaluate(() => document.querySelector('.tl-scroll').scrollTop);
    // The focus in the diagram draws every row first, so Home reaches the oldest at once.
    await page.locator('.tl-scroll').focus();
    await tlDrawn(shown);
    await page.keyboard.press('Home');
    await page.waitForFunction(() => {
      const s = document.querySelector('.tl-scroll');
      return Math.abs(s.scrollTop + (s.scrollHeight - s.clientHeight)) <= 2;
    }, null, { timeout: 10_000 });
    await page.keyboard.press('End');
    await page.waitForFunction(() => document.querySelector('.tl-scroll').scrollTop >= -2, null, { timeout: 10_000 });
    // The focus leaving for the rest of the page: the newest rows again.
    await page.locator(tid('events')).focus();
    await tlDrawn(atRest);
    // A wheel notch up from the newest end draws every row and moves the view by the
    // notch, not by the rows drawn above it.
    const tlBox = await page.locator('.tl-scroll').boundingBox();
    await page.mouse.move(tlBox.x + tlBox.width / 2, tlBox.y + tlBox.height / 2);
    await page.mouse.wheel(0, -120);
    await tlDrawn(shown);
    await page.waitForTimeout(300);
    const afterNotch = await tlTop();
    assert.ok(afterNotch <= -100 && afterNotch >= -140, `one notch up: scrollTop ${afterNotch}`);
    assert.deepEqual(problems, [], `problems:\n${problems.join('\n')}`);
  } finally {
    await page.close();
  }
});
