// First render, measured and reported (never asserted on): from navigation start to the
// moment the live playground's root element is in the DOM, cold, in a new browser context
// each time (no HTTP cache, no compiled-wasm cache), five times. Also when the learner
// first sees the page (first contentful paint: the shell, scripts/shell.mjs, the first
// page as static HTML), when the wasm and the English catalog arrived, and the app's
// marks (`eos:start` when the wasm runs, `eos:catalog` once English is installed), so
// the report says where the time goes; and, as the floor under it all, when the same
// browser paints a one-line static page in a new context.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite } from './harness.mjs';

const site = useSite();
const RUNS = 5;

// Runs before the page's own scripts: a MutationObserver notes performance.now() when the
// playground first appears, so the figure does not depend on the test's polling.
const OBSERVE = () => {
  const seen = () => {
    if (window.__eosFirstRender === undefined && document.querySelector('[data-testid="playground"]')) {
      window.__eosFirstRender = performance.now();
    }
  };
  new MutationObserver(seen).observe(document, { childList: true, subtree: true });
};

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * One cold load in a new browser context; `link` (bits/s) throttles the network (CDP).
 * When the shell was painted, when the live playground appeared, and when the files
 * arrived and the app's marks fell, in ms from navigation start.
 */
async function coldLoad(link) {
  const context = await site.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  const page = await context.newPage();
  try {
    if (link) {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 20,
        downloadThroughput: link / 8,
        uploadThroughput: link / 8,
      });
    }
    await page.addInitScript(OBSERVE);
    await page.goto(site.server.url, { waitUntil: 'load', timeout: 60_000 });
    await page.waitForFunction(() => window.__eosFirstRender !== undefined, null, { timeout: 60_000 });
    return await page.evaluate(() => {
      const end = (suffix) =>
        performance
          .getEntriesByType('resource')
          .filter((e) => e.name.endsWith(suffix))
          .map((e) => e.responseEnd)[0] ?? NaN;
      const nav = performance.getEntriesByType('navigation')[0];
      const at = (name) => performance.getEntriesByName(name)[0]?.startTime ?? NaN;
      return {
        render: window.__eosFirstRender,
        shown: at('first-contentful-paint'),
        start: at('eos:start'),
        installed: at('eos:catalog'),
        html: nav.responseEnd,
        wasm: end('_bg.wasm'),
        catalog: end('i18n/en.txt'),
      };
    });
  } finally {
    await context.close();
  }
}

/**
 * The floor under those figures: a one-line static page (no stylesheet, no script), cold
 * in a new browser context, painted at this many ms from navigation start. A learner's
 * warm browser paints sooner; here it says how much of the shell's time is the
 * browser's own start.
 */
async function floorPaint() {
  const context = await site.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  const page = await context.newPage();
  try {
    await page.goto('data:text/html,<!doctype html><title>x</title><p>Exactly-once playground</p>', { waitUntil: 'load' });
    await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0, null, { timeout: 10_000 });
    return await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0].startTime);
  } finally {
    await context.close();
  }
}

const fmt = (x) => `${x.toFixed(0).padStart(5)} ms`;
const row = (r) =>
  `shell painted at ${fmt(r.shown)}, live at ${fmt(r.render)} (html ${fmt(r.html)}, ` +
  `wasm received ${fmt(r.wasm)}, en.txt ${fmt(r.catalog)}; wasm running ${fmt(r.start)}, English installed ${fmt(r.installed)})`;

test('first render, cold, in a new browser context (reported)', { timeout: 180_000 }, async () => {
  const rows = [];
  const floors = [];
  for (let i = 0; i < RUNS; i++) {
    rows.push(await coldLoad());
    floors.push(await floorPaint());
  }
  assert.equal(rows.length, RUNS);
  console.log(
    `first render, cold, new browser context each run:\n${rows.map((r, i) => `  run ${i + 1}: ${row(r)}`).join('\n')}\n` +
      `  median: shell painted ${median(rows.map((r) => r.shown)).toFixed(0)} ms, live ${median(rows.map((r) => r.render)).toFixed(0)} ms ` +
      `(wasm received at ${median(rows.map((r) => r.wasm)).toFixed(0)} ms); ` +
      `a one-line static page in the same browser: painted at ${median(floors).toFixed(0)} ms (${floors.map((f) => f.toFixed(0)).join(', ')})`,
  );
});

// Where the shell earns its place: a learner's link is slower than localhost. The test
// server does not compress, so the wasm travels raw (≈ 1.1 MB; a server that gzips
// sends ≈ 440 KB): one run on a 10 Mbit/s link with 20 ms of latency.
test('first render on a 10 Mbit/s link (reported)', { timeout: 120_000 }, async () => {
  const r = await coldLoad(10e6);
  assert.ok(r.render > 0);
  console.log(`first render, cold, 10 Mbit/s link: ${row(r)}`);
});
