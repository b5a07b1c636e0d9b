// The shell (scripts/shell.mjs): the first page as static HTML in index.html, shown while
// the wasm loads. It must be what the live page renders (else it is stale), inert and
// hidden from assistive technology, gone once the app renders, and never shown where the
// app will show something else.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { REPO_ROOT, SHELL_END, SHELL_LANGS, SHELL_START, liveShell, screenshot, useSite } from './harness.mjs';

const site = useSite();

/** A page whose wasm never arrives: what the learner sees until it does. */
async function withoutWasm(options, url, check) {
  const context = await site.browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
  try {
    const page = await context.newPage();
    await page.route(/_bg\.wasm$/, () => new Promise(() => {}));
    await page.goto(url, { waitUntil: 'domcontentloaded' });
    await check(page);
  } finally {
    await context.close();
  }
}

test('the shells in www/index.html are what the live first page renders', { timeout: 90_000 }, async () => {
  const html = await readFile(path.join(REPO_ROOT, 'www', 'index.html'), 'utf8');
  const start = html.indexOf(SHELL_START);
  const end = html.indexOf(SHELL_END);
  assert.ok(start >= 0 && end > start, 'www/index.html has its shell markers');
  const committed = html.slice(start + SHELL_START.length, end).trim();
  const live = [];
  for (const [lang, locale] of SHELL_LANGS) live.push(await liveShell(site.browser, site.server.url, lang, locale));
  assert.ok(
    committed === live.join('\n'),
    'the shells are stale: the live page renders something else. Run ' +
      '`trunk build --release && node scripts/shell.mjs && trunk build --release`.',
  );
});

test('a fresh English page shows the shell, inert, until the app replaces it', { timeout: 60_000 }, async () => {
  await withoutWasm({ locale: 'en-US' }, site.server.url, async (page) => {
    const shell = page.locator('#app > .app-shell:visible');
    assert.equal(await shell.count(), 1, 'one shell shows');
    assert.equal(await shell.getAttribute('data-lang'), 'en');
    assert.equal(await page.locator('html').getAttribute('data-shell'), 'en');
    assert.equal(await shell.getAttribute('inert'), '');
    assert.equal(await shell.getAttribute('aria-hidden'), 'true');
    assert.equal(await page.locator('#app [data-testid]').count(), 0, 'no test id in the shell');
    assert.match(await shell.innerText(), /Exactly-once playground: the idempotent producer/);
    // The status line says it is not live yet; a click on the shell does nothing.
    assert.match(await page.locator('#app .app-loading').innerText(), /Loading the playground/);
    assert.equal(await page.getByRole('button', { name: 'Send' }).count(), 0, 'hidden from the accessibility tree');
    await screenshot(page, 'shell-1280');
  });
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  try {
    await page.goto(site.server.url);
    await page.locator('#app [data-testid="playground"]').waitFor();
    assert.equal(await page.locator('.app-shell').count(), 0, 'the live page replaced the shell');
    assert.equal(await page.locator('.app-loading').count(), 0);
    assert.equal(await page.locator('[data-testid="playground"]').count(), 1);
  } finally {
    await page.close();
  }
});

for (const [why, options, suffix] of [
  ['the transactions page', { locale: 'en-US' }, '#transactions'],
  ['an embedded frame', { locale: 'en-US' }, '?embed=1'],
  ['a share link', { locale: 'ko-KR' }, '#1.abc'],
]) {
  test(`no shell where the app shows something else: ${why}`, { timeout: 60_000 }, async () => {
    await withoutWasm(options, site.server.url + suffix, async (page) => {
      assert.equal(await page.locator('html').getAttribute('data-shell'), 'off');
      assert.equal(await page.locator('.app-shell:visible').count(), 0);
      assert.match(await page.locator('#app').innerText(), /^\s*(Loading the playground…|플레이그라운드를 불러오는 중…)\s*$/);
    });
  });
}

for (const [why, options, suffix, lang, status] of [
  ['a Korean browser', { locale: 'ko-KR' }, '', 'ko', /플레이그라운드를 불러오는 중/],
  ['?lang=th', { locale: 'en-US' }, '?lang=th', 'th', /กำลังโหลดสนามทดลอง/],
]) {
  test(`the shell in the page's language: ${why}`, { timeout: 60_000 }, async () => {
    await withoutWasm(options, site.server.url + suffix, async (page) => {
      assert.equal(await page.locator('html').getAttribute('lang'), lang);
      const shown = page.locator('#app > .app-shell:visible');
      assert.equal(await shown.count(), 1);
      assert.equal(await shown.getAttribute('data-lang'), lang);
      assert.match(await page.locator('#app .app-loading').innerText(), status);
    });
  });
}

test('no English catalog: the shell goes and the status says why', { timeout: 60_000 }, async () => {
  const context = await site.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  try {
    const page = await context.newPage();
    await page.route(/i18n\/en\.txt$/, (r) => r.fulfill({ status: 404, body: '' }));
    page.on('console', () => {});
    await page.goto(site.server.url);
    await page.locator('#app .app-loading', { hasText: /could not load its text/ }).waitFor();
    assert.equal(await page.locator('.app-shell:visible').count(), 0, 'a page that looks ready and does nothing');
  } finally {
    await context.close();
  }
});

// Same HTML is not quite same pixels: a field's value or a select's choice set from the
// wasm is a property, not markup (scripts/shell.mjs writes them as attributes). So the
// shell, its status line hidden, must be pixel for pixel the live page.
// Not Thai: the live page's text comes in several text nodes where the shell's HTML has
// one, and Thai is shaped across them a pixel differently here and there (one glyph,
// 6×13 px, on 2026-12-03) — the same words, the same layout.
for (const [width, colorScheme, locale] of [[1280, 'light', 'en-US'], [360, 'dark', 'ko-KR'], [760, 'light', 'en-US']]) {
  test(`the shell looks exactly like the live page (${width} px, ${colorScheme}, ${locale})`, { timeout: 60_000 }, async () => {
    const options = { viewport: { width, height: 800 }, locale, colorScheme };
    let shell;
    await withoutWasm(options, site.server.url, async (page) => {
      await page.addStyleTag({ content: '.app-loading { display: none !important; }' });
      shell = await page.screenshot({ fullPage: true, animations: 'disabled' });
    });
    const context = await site.browser.newContext(options);
    try {
      const page = await context.newPage();
      await page.goto(site.server.url);
      await page.locator('#app [data-testid="playground"]').waitFor();
      const live = await page.screenshot({ fullPage: true, animations: 'disabled' });
      assert.ok(shell.equals(live), 'the shell and the live page differ (compare shell-*.png by eye)');
    } finally {
      await context.close();
    }
  });
}
