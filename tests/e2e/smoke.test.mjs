// Smoke test: the release build loads, the Yew app mounts, and it looks right at the two
// widths we support (a 1280×800 screen and a ~760 px course column).
//
// The site is mounted below a sub-path, which proves it only uses relative URLs.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { screenshot, useSite, watchProblems } from './harness.mjs';

const PLAYGROUND = '#app [data-testid="playground"]';

const site = useSite({ base: '/course/eos/' });

for (const { width, height } of [
  { width: 1280, height: 800 },
  { width: 760, height: 900 },
]) {
  test(`the playground renders at ${width}×${height}`, { timeout: 60_000 }, async () => {
    const page = await site.browser.newPage({ viewport: { width, height } });
    const problems = watchProblems(page);
    try {
      await page.goto(site.server.url, { waitUntil: 'load' });
      try {
        await page.locator(PLAYGROUND).first().waitFor({ state: 'visible', timeout: 30_000 });
      } catch (err) {
        const shown = (await page.locator('#app').innerText()).slice(0, 200);
        throw new Error(
          `the app did not render ${PLAYGROUND} within 30 s (#app shows: ${JSON.stringify(shown)})` +
            `\nproblems while loading:\n${problems.join('\n') || '(none seen)'}`,
          { cause: err },
        );
      }

      // Yew replaced the fallback text.
      const appText = await page.locator('#app').innerText();
      assert.ok(!appText.includes('Loading the playground…'), 'the loading text is still shown');
      assert.equal(await page.title(), 'Exactly-once playground');

      // Nothing overflows the page horizontally at this width.
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      assert.ok(overflow <= 0, `the page is ${overflow}px wider than the ${width}px viewport`);

      await screenshot(page, `smoke-${width}`);
      assert.deepEqual(problems, [], `problems while loading:\n${problems.join('\n')}`);
    } finally {
      await page.close();
    }
  });
}

// The page renders only once the English catalog is here (src/ui/language.rs): when
// i18n/en.txt cannot be fetched, the "Loading…" line says so instead of a page of
// missing labels.
test('without i18n/en.txt the loading line says the text could not load', { timeout: 60_000 }, async () => {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    await page.route('**/i18n/en.txt', (route) => route.abort());
    await page.goto(site.server.url, { waitUntil: 'load' });
    const status = page.locator('#app .app-loading');
    await page.waitForFunction(
      () => document.querySelector('#app .app-loading')?.textContent.includes('could not load'),
      null,
      { timeout: 30_000 },
    );
    assert.match(await status.innerText(), /could not load its text \(i18n\/en\.txt\)/);
    assert.equal(await page.locator(PLAYGROUND).count(), 0, 'the app mounted without its text');
  } finally {
    await page.close();
  }
});
