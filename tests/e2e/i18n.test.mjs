// The page in Korean and Thai (src/i18n, src/ui/language.rs):
// - `?lang=ko|th` switches the page; the catalog is fetched once (i18n/ko.txt), after
//   English's (i18n/en.txt, fetched once: the page's preload serves the wasm's fetch);
// - no text node in the page is English, outside an allow-list of Kafka's identifiers
//   and the technical nouns the Thai course keeps in English (producer, batch, …);
// - axe-core finds no violations in either language;
// - the language menu switches back to English, and a share link keeps the language;
// - screenshots at 1280×800 and 360 px in both languages (target/screenshots/i18n-*).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { axe, screenshot, useSite, watchProblems } from './harness.mjs';
import { englishTextNodes } from './english.mjs';

const tid = (id) => `[data-testid="${id}"]`;
const site = useSite();

const PAGES = [
  ['idempotence', '#idempotence', tid('playground')],
  ['transactions', '#transactions', tid('page-transactions')],
];

async function work(page, name) {
  if (name === 'idempotence') {
    await page.locator(tid('send')).click();
    await page.locator(tid('send')).click();
  } else {
    for (const id of ['txn-init', 'txn-begin', 'txn-send', 'txn-abort', 'txn-begin', 'txn-send', 'txn-commit']) {
      await page.locator(tid(id)).click();
    }
    await page.locator(tid('poll-rc')).click();
  }
}

async function open(page, lang, hash, ready, width = 1280) {
  await page.setViewportSize({ width, height: 800 });
  await page.goto(`${site.server.url}?lang=${lang}${hash}`, { waitUntil: 'load' });
  await page.locator(ready).waitFor({ state: 'visible', timeout: 120_000 });
  await page.locator(`html[lang="${lang}"]`).waitFor({ timeout: 30_000 });
  await page.locator(`${tid('lang-menu')}`).waitFor();
}

for (const lang of ['ko', 'th']) {
  for (const [name, hash, ready] of PAGES) {
    test(`${lang}: the ${name} page speaks ${lang}, axe-clean, screenshots`, { timeout: 240_000 }, async () => {
      const page = await site.browser.newPage();
      const problems = watchProblems(page);
      const requests = [];
      page.on('request', (r) => requests.push(new URL(r.url()).pathname));
      try {
        await open(page, lang, hash, ready);
        await work(page, name);
        await page.waitForTimeout(600);
        assert.deepEqual(await englishTextNodes(page), [], `${lang} ${name}: English text`);
        assert.deepEqual(await axe(page), [], `${lang} ${name}: axe`);
        assert.equal(requests.filter((p) => p.endsWith(`/i18n/${lang}.txt`)).length, 1, 'fetched once');
        assert.equal(requests.filter((p) => p.endsWith('/i18n/en.txt')).length, 1, 'English fetched once');
        await screenshot(page, `i18n-${lang}-${name}-1280`);
        await open(page, lang, hash, ready, 360);
        await work(page, name);
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        assert.ok(overflow <= 0, `${lang} ${name} at 360 px scrolls sideways by ${overflow} px`);
        await screenshot(page, `i18n-${lang}-${name}-360`, { fullPage: true });
        assert.deepEqual(problems, []);
      } finally {
        await page.close();
      }
    });
  }
}

test('English loads only its own catalog, once; the menu switches to Thai and back; a link keeps the language', { timeout: 240_000 }, async () => {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  const problems = watchProblems(page);
  const requests = [];
  page.on('request', (r) => requests.push(new URL(r.url()).pathname));
  try {
    await page.goto(`${site.server.url}#idempotence`, { waitUntil: 'load' });
    await page.locator(tid('playground')).waitFor({ timeout: 120_000 });
    assert.equal(await page.getAttribute('html', 'lang'), 'en');
    // The preload in index.html and the wasm's fetch are one request, not two.
    assert.deepEqual(
      requests.filter((p) => p.includes('/i18n/')).map((p) => p.slice(p.lastIndexOf('/') + 1)),
      ['en.txt'],
      'English loads en.txt and no other catalog',
    );
    await page.locator(tid('lang-menu')).selectOption('th');
    await page.locator('html[lang="th"]').waitFor({ timeout: 30_000 });
    await page.locator(tid('send')).click();
    await page.locator(tid('copy-link')).click();
    const link = await page.locator('input[readonly]').first().inputValue().catch(() => '');
    await page.locator(tid('lang-menu')).selectOption('en');
    await page.locator('html[lang="en"]').waitFor({ timeout: 30_000 });
    assert.match(await page.locator('h1').first().innerText(), /Exactly-once playground/);
    if (link) {
      assert.match(link, /#2\./, 'a Thai view makes a version-2 link');
      await page.goto('about:blank');
      await page.goto(link, { waitUntil: 'load' });
      await page.locator('html[lang="th"]').waitFor({ timeout: 60_000 });
    }
    assert.deepEqual(problems, []);
  } finally {
    await page.close();
  }
});

test('a Korean browser gets Korean by default', { timeout: 180_000 }, async () => {
  const context = await site.browser.newContext({ locale: 'ko-KR', viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  try {
    // The page's first heading, as the app first renders it: Korean from the start
    // (`language::then_mount` waits for ko.txt), never English first.
    await page.addInitScript(() => {
      new MutationObserver(() => {
        // The live page's, not the static shell's (hidden here, English, scripts/shell.mjs).
        const h1 = [...document.querySelectorAll('#app h1')].find((h) => !h.closest('.app-shell'));
        if (window.__firstH1 === undefined && h1) window.__firstH1 = h1.textContent;
      }).observe(document, { childList: true, subtree: true });
    });
    const before = site.server.requests.length;
    await page.goto(`${site.server.url}#transactions`, { waitUntil: 'load' });
    await page.locator('html[lang="ko"]').waitFor({ timeout: 60_000 });
    assert.match(await page.locator('h1').first().innerText(), /트랜잭션/);
    assert.match(await page.evaluate(() => window.__firstH1), /트랜잭션/, 'the first render was not in Korean');
    // Preloaded by index.html beside English, and that preload serves the wasm's fetch.
    const fetched = site.server.requests.slice(before).filter((r) => r.endsWith('i18n/ko.txt'));
    assert.equal(fetched.length, 1, `ko.txt fetched ${fetched.length} times`);
  } finally {
    await context.close();
  }
});
