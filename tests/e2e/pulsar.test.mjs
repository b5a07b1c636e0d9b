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

// The Pulsar and chaos pages pick their first language as the main page does
// (www/first-language.js): a Thai browser sees the status line in Thai while the wasm
// loads, its catalog is preloaded beside English's and fetched once, and the first
// render is Thai.
test('a Thai browser gets the Pulsar and chaos pages in Thai from the first paint', { timeout: 120_000 }, async () => {
  const context = await site.browser.newContext({ locale: 'th-TH', viewport: { width: 1280, height: 800 } });
  try {
    for (const [dir, status, heading] of [
      ['pulsar/', /กำลังโหลดสนามทดลอง transaction ของ Pulsar/, /transaction ของ Pulsar/],
      ['chaos/', /กำลังโหลดการค้นหาตัวอย่างค้าน/, /การค้นหาตัวอย่างค้าน/],
    ]) {
      // Without its wasm the page stays at its status line.
      const loading = await context.newPage();
      await loading.route('**/*_bg.wasm', (route) => route.abort());
      await loading.goto(`${site.server.url}${dir}`, { waitUntil: 'load' });
      assert.equal(await loading.locator('html').getAttribute('lang'), 'th', dir);
      assert.equal(await loading.locator('html').getAttribute('data-shell'), null, dir);
      assert.match(await loading.locator('#app .app-loading').innerText(), status);
      await loading.close();

      const page = await context.newPage();
      const problems = watchProblems(page);
      const before = site.server.requests.length;
      await page.goto(`${site.server.url}${dir}`, { waitUntil: 'load' });
      await page.locator('#app h1').first().waitFor({ timeout: 60_000 });
      assert.match(await page.locator('#app h1').first().innerText(), heading);
      const fetched = site.server.requests.slice(before).filter((r) => r.endsWith(`/${dir}i18n/th.txt`));
      assert.equal(fetched.length, 1, `${dir}i18n/th.txt fetched ${fetched.length} times`);
      assert.deepEqual(problems, [], `${dir}: ${problems.join('\n')}`);
      await page.close();
    }
  } finally {
    await context.close();
  }
});
