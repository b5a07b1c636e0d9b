// First render, measured and reported (never asserted on): from navigation start to the
// moment the playground's root element is in the DOM, cold, in a new browser context each
// time (no HTTP cache, no compiled-wasm cache), five times. Also when the wasm and the
// English catalog arrived, so the report says where the time goes.

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

test('first render, cold, in a new browser context (reported)', { timeout: 180_000 }, async () => {
  const rows = [];
  for (let i = 0; i < RUNS; i++) {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    try {
      await page.addInitScript(OBSERVE);
      await page.goto(site.server.url, { waitUntil: 'load' });
      await page.waitForFunction(() => window.__eosFirstRender !== undefined, null, { timeout: 30_000 });
      rows.push(
        await page.evaluate(() => {
          const end = (suffix) =>
            performance
              .getEntriesByType('resource')
              .filter((e) => e.name.endsWith(suffix))
              .map((e) => e.responseEnd)[0] ?? NaN;
          const nav = performance.getEntriesByType('navigation')[0];
          return {
            render: window.__eosFirstRender,
            html: nav.responseEnd,
            wasm: end('_bg.wasm'),
            catalog: end('i18n/en.txt'),
          };
        }),
      );
    } finally {
      await context.close();
    }
  }
  assert.equal(rows.length, RUNS);
  const fmt = (x) => `${x.toFixed(0).padStart(5)} ms`;
  const lines = rows.map(
    (r, i) =>
      `  run ${i + 1}: rendered at ${fmt(r.render)} (html ${fmt(r.html)}, wasm received ${fmt(r.wasm)}, en.txt ${fmt(r.catalog)})`,
  );
  console.log(
    `first render, cold, new browser context each run:\n${lines.join('\n')}\n` +
      `  median ${median(rows.map((r) => r.render)).toFixed(0)} ms ` +
      `(wasm received at ${median(rows.map((r) => r.wasm)).toFixed(0)} ms)`,
  );
});
