// The Pulsar site (dist/pulsar/, its own entry): the main page links to it, it loads
// its own wasm, and a learner can play the data-flow lesson to the commit and read the
// step numbers, the maxReadPosition pointer and the differences table.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { screenshot, useSite, watchProblems } from './harness.mjs';

const site = useSite({ base: '/course/eos/' });

test('the Pulsar site plays the data-flow lesson to the commit', { timeout: 120_000 }, async () => {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const problems = watchProblems(page);
  try {
    await page.goto(site.server.url, { waitUntil: 'load' });
    const link = page.locator('[data-testid="nav-pulsar"]');
    await link.waitFor({ state: 'visible', timeout: 30_000 });
    await link.click();
    await page.locator('[data-testid="pulsar-next"]').waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await page.title(), /Pulsar/);

    const next = page.locator('[data-testid="pulsar-next"]');
    for (let i = 0; i < 200 && (await next.isEnabled()); i++) {
      await next.click();
    }
    const out = await page.locator('[data-testid="pulsar-partition-output-partition-0"]').innerText();
    assert.match(out, /maxReadPosition 3:2/);
    assert.match(out, /commit marker/);
    const timeline = await page.locator('[data-testid="pulsar-timeline"]').innerText();
    assert.match(timeline, /\[4\.3\.3\]/);
    const diffs = await page.locator('[data-testid="pulsar-differences"]').innerText();
    assert.match(diffs, /maxReadPosition/);

    await screenshot(page, 'pulsar-1280');
    assert.deepEqual(problems, [], `problems while loading:\n${problems.join('\n')}`);
  } finally {
    await page.close();
  }
});
