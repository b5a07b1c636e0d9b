// Which elements a warm click restyles and which layout objects it dirties, and why: a
// diagnostic, not a test (it asserts nothing and `npm test` does not run it).
//
//   cd tests/e2e && node invalidations.mjs             # dist/ at the repository root
//   EOS_DIST_DIR=/path/to/dist node invalidations.mjs  # another build
//   EOS_CLICKS=4 EOS_TRACE_OUT=/tmp/inv.json node invalidations.mjs
//   EOS_PAUSE_MS=4000 node invalidations.mjs          # a learner's pace between clicks
//
// Opens the transactions page with 10,000 batches (`?bench=10000`), waits for its warm-up,
// clicks Begin, Send and Commit EOS_CLICKS times (default 2) under Chromium's tracing
// with the category `disabled-by-default-devtools.timeline.invalidationTracking`, and
// prints, per click kind and per click on average, over each click's own frame (from the
// click's dispatch to the commit of the first frame after it):
//
// - the style pass (`UpdateLayoutTree`'s element count) and the layout pass
//   (`Layout`'s dirty objects), as the click test counts them, and the distinct
//   ancestors of the nodes marked for layout (marking an object marks its containers);
// - why elements were marked for a style recalc (`StyleRecalcInvalidationTracking`:
//   the reason, the node, the panel it sits in);
// - which DOM changes scheduled invalidation sets (`ScheduleStyleInvalidationTracking`:
//   the changed class, attribute, id or pseudo class, on which node) and what the
//   invalidator then did with them (`StyleInvalidatorInvalidationTracking`: the reason,
//   the selector parts that matched);
// - why layout objects were marked for layout (`LayoutInvalidationTracking`: the reason,
//   by panel and node);
// - the thread time of style, layout, pre-paint and paint (raised by the tracking
//   itself: compare builds with this script, not with the click test's figures).
//
// A node is named by its tag and classes, and placed in its panel (the last class of its
// closest `.panel`, or the page area) by resolving the trace's node ids in the page after
// the clicks; a node already removed is "(removed)".

import { writeFileSync } from 'node:fs';
import { DIST_DIR, launchBrowser, startServer } from './harness.mjs';

const CLICKS = Number(process.env.EOS_CLICKS ?? 2);
// The wait after each traced click's paint: 0 clicks on at once, as the click test does
// (a click's dots are still travelling at the next one); 4000 lets them arrive first.
const PAUSE_MS = Number(process.env.EOS_PAUSE_MS ?? 0);
const KINDS = ['txn-begin', 'txn-send', 'txn-commit'];
const TRACKING = [
  'StyleRecalcInvalidationTracking',
  'ScheduleStyleInvalidationTracking',
  'StyleInvalidatorInvalidationTracking',
  'LayoutInvalidationTracking',
];

const server = await startServer(DIST_DIR);
const browser = await launchBrowser();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${server.url}?bench=10000#transactions`, { waitUntil: 'load' });
  await page.locator('#app [data-testid="page-transactions"]').waitFor({ state: 'visible', timeout: 120_000 });
  await page.waitForFunction(() => window.__eosWarm === 'done', null, { timeout: 60_000 });
  // A click, then its render, then the frame that paints it (as the click test times it).
  const click = (id) =>
    page.evaluate(async (id) => {
      const before = window.__eosRenders || 0;
      document.querySelector(`[data-testid="${id}"]`).click();
      while ((window.__eosRenders || 0) === before) await new Promise((r) => setTimeout(r, 0));
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    }, id);
  // The producer initialised (as the click test does first), then two rounds untraced:
  // every kind of click warm, the page at its steady state.
  await click('txn-init');
  for (let i = 0; i < 2; i++) for (const id of KINDS) await click(id);
  await browser.startTracing(page, {
    categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'disabled-by-default-devtools.timeline.invalidationTracking'],
  });
  const order = Array(CLICKS).fill(KINDS).flat();
  for (const id of order) {
    await click(id);
    if (PAUSE_MS) await page.waitForTimeout(PAUSE_MS);
  }
  const trace = JSON.parse((await browser.stopTracing()).toString());
  if (process.env.EOS_TRACE_OUT) writeFileSync(process.env.EOS_TRACE_OUT, JSON.stringify(trace));
  const events = trace.traceEvents ?? [];

  // The clicks in time order; each owns the events from its dispatch to the end of the
  // first frame's commit after it (the frame that paints it), as the click test's "own
  // frame"; what happens later (the dots' animation frames, idle time) is left out.
  const dispatches = events
    .filter((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'click' && e.dur)
    .sort((a, b) => a.ts - b.ts);
  if (dispatches.length !== order.length) console.log(`(found ${dispatches.length} clicks in the trace, expected ${order.length})`);
  const main = dispatches[0] ? `${dispatches[0].pid}:${dispatches[0].tid}` : '';
  const commits = events
    .filter((e) => e.name === 'Commit' && e.ph === 'X' && e.dur && `${e.pid}:${e.tid}` === main)
    .sort((a, b) => a.ts - b.ts);
  const ends = dispatches.map((d, i) => {
    const c = commits.find((c) => c.ts >= d.ts + d.dur);
    const next = dispatches[i + 1]?.ts ?? Infinity;
    return Math.min(c ? c.ts + c.dur : Infinity, next);
  });
  const clickOf = (ts) => {
    let k = -1;
    for (let i = 0; i < dispatches.length; i++) if (dispatches[i].ts <= ts) k = i;
    return k >= 0 && ts <= ends[k] ? k : -1;
  };

  // Place every node the trace names in the page: its panel and a short path.
  const ids = new Set();
  for (const e of events) if (TRACKING.includes(e.name) && e.args?.data?.nodeId) ids.add(e.args.data.nodeId);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('DOM.enable');
  await cdp.send('DOM.getDocument', { depth: 0 });
  const where = new Map();
  for (const id of ids) {
    try {
      const { object } = await cdp.send('DOM.resolveNode', { backendNodeId: id });
      const { result } = await cdp.send('Runtime.callFunctionOn', {
        objectId: object.objectId,
        returnByValue: true,
        functionDeclaration: `function () {
          const el = this.nodeType === 1 ? this : this.parentElement;
          if (!el) return { panel: '(document)', path: this.nodeName };
          if (!el.isConnected) return { panel: '(removed)', path: '' };
          const name = (e) => e.tagName.toLowerCase() + (e.classList.length ? '.' + [...e.classList].slice(0, 2).join('.') : '');
          const panel = el.closest('.panel');
          const area = ['tx-producers', 'tx-main', 'tx-coord', 'tx-timeline', 'tx-events', 'tx-tools'].find((a) => el.closest('.' + a));
          const path = [];
          for (let e = el; e && e !== panel && path.length < 3; e = e.parentElement) path.unshift(name(e));
          const p = panel ? panel.classList[panel.classList.length - 1] : area ? area : 'page';
          // The element's ancestors, each named by a number kept for the page's life.
          const ids = (window.__eosNodeIds ??= new WeakMap());
          const idOf = (e) => {
            if (!ids.has(e)) ids.set(e, (window.__eosNodeCount = (window.__eosNodeCount ?? 0) + 1));
            return ids.get(e);
          };
          const chain = [];
          for (let e = el.parentElement; e; e = e.parentElement) chain.push(idOf(e));
          return { panel: (area && panel ? area + '/' : '') + p, path: path.join(' > ') + (this.nodeType === 3 ? ' > #text' : ''), chain };
        }`,
      });
      where.set(id, result.value);
    } catch {
      where.set(id, { panel: '(removed)', path: '' });
    }
  }
  const place = (d) => {
    const w = where.get(d?.nodeId);
    return w && w.panel !== '(removed)' ? `${w.panel}: ${w.path}` : `(removed) ${d?.nodeName ?? ''}`;
  };

  // Tallies, per click kind: key → count; printed per click (divided by the clicks).
  const tallies = new Map();
  const add = (kind, table, key, n = 1) => {
    const t = tallies.get(kind) ?? tallies.set(kind, new Map()).get(kind);
    const m = t.get(table) ?? t.set(table, new Map()).get(table);
    m.set(key, (m.get(key) ?? 0) + n);
  };
  // The ancestors of the nodes marked for layout (still in the page), per click: an
  // object marked for layout marks its containers up to the document (or a relayout
  // boundary), so these are part of each layout's dirty objects.
  const ancestors = new Map();
  for (const e of events) {
    const i = clickOf(e.ts);
    if (i >= 0 && e.name === 'LayoutInvalidationTracking') {
      const chain = where.get(e.args?.data?.nodeId)?.chain ?? [];
      const set = ancestors.get(i) ?? ancestors.set(i, new Set()).get(i);
      for (const a of chain) set.add(a);
    }
  }
  for (const [i, set] of ancestors) {
    for (const kind of [order[i] ?? '?', 'every click']) add(kind, 'totals', 'ancestors of nodes marked for layout (live, distinct)', set.size);
  }
  for (const e of events) {
    const i = clickOf(e.ts);
    if (i < 0) continue;
    const kinds = [order[i] ?? '?', 'every click'];
    const d = e.args?.data ?? {};
    for (const kind of kinds) {
      if (e.name === 'UpdateLayoutTree' && e.ph === 'X') add(kind, 'totals', 'elements restyled', e.args?.elementCount ?? 0);
      // The phases' thread time on the page's main thread (what the machine's load
      // changes least), in µs; printed in ms below.
      const phase = { UpdateLayoutTree: 'style', Layout: 'layout', PrePaint: 'pre-paint', Paint: 'paint' }[e.name];
      if (phase && e.ph === 'X' && `${e.pid}:${e.tid}` === main) add(kind, 'thread time, ms', phase, (e.tdur ?? e.dur ?? 0) / 1000);
      if (e.name === 'Layout' && e.ph === 'X') {
        add(kind, 'totals', 'layout objects dirty', e.args?.beginData?.dirtyObjects ?? 0);
        add(kind, 'totals', 'layout objects in all', e.args?.beginData?.totalObjects ?? 0);
      }
      if (e.name === 'StyleRecalcInvalidationTracking') {
        add(kind, 'style recalc: reason', d.reason ?? '?');
        add(kind, 'style recalc: reason, node', `${d.reason ?? '?'} — ${place(d)}`);
        add(kind, 'style recalc: panel', (where.get(d.nodeId)?.panel) ?? '(removed)');
      }
      if (e.name === 'ScheduleStyleInvalidationTracking') {
        const what = d.changedClass
          ? `class .${d.changedClass}`
          : d.changedAttribute
            ? `attribute [${d.changedAttribute}]`
            : d.changedId
              ? `id #${d.changedId}`
              : d.changedPseudo
                ? `pseudo :${d.changedPseudo}`
                : 'other';
        add(kind, 'scheduled invalidation: change, node', `${what} — ${place(d)}`);
      }
      if (e.name === 'StyleInvalidatorInvalidationTracking') {
        const sel = (d.selectorParts ?? d.invalidationList?.flatMap((l) => l.classes ?? []) ?? []).join(' ');
        add(kind, 'invalidator: reason, selector, node', `${d.reason ?? '?'}${sel ? ` [${sel}]` : ''} — ${place(d)}`);
      }
      if (e.name === 'LayoutInvalidationTracking') {
        add(kind, 'layout invalidation: reason', d.reason ?? '?');
        add(kind, 'layout invalidation: panel', (where.get(d.nodeId)?.panel) ?? '(removed)');
        add(kind, 'layout invalidation: reason, node', `${d.reason ?? '?'} — ${place(d)}`);
      }
    }
  }
  const TOP = Number(process.env.EOS_TOP ?? 25);
  for (const [kind, tables] of tallies) {
    const clicks = kind === 'every click' ? order.length : order.filter((o) => o === kind).length;
    console.log(`\n=== ${kind} (${clicks} clicks; figures per click) ===`);
    for (const [table, m] of tables) {
      const rows = [...m.entries()].sort((a, b) => b[1] - a[1]);
      const sum = rows.reduce((s, [, n]) => s + n, 0);
      console.log(`-- ${table} (${(sum / clicks).toFixed(1)})`);
      for (const [key, n] of rows.slice(0, TOP)) console.log(`  ${(n / clicks).toFixed(1).padStart(7)}  ${key}`);
      if (rows.length > TOP) console.log(`  … ${rows.length - TOP} more`);
    }
  }
  await page.close();
} finally {
  await browser.close();
  await server.close();
}
