// Shared helpers for the end-to-end tests of the built site.
//
// The tests run against the release build in dist/ (scripts/test.sh builds it first with
// `trunk build --release`), served by a tiny static server of our own on 127.0.0.1, in
// Debian's Chromium (/usr/bin/chromium) driven by playwright-core. Nothing is downloaded:
// playwright-core never fetches a browser, and Chromium's background networking is off.
//
//   import { startServer, launchBrowser, screenshot, DIST_DIR } from './harness.mjs';
//
//   const server = await startServer(DIST_DIR);            // { url, close }
//   const browser = await launchBrowser();
//   const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
//   await page.goto(server.url);
//   await page.locator('#app [data-testid="playground"]').waitFor();
//   await screenshot(page, 'my-test-1280');                 // target/screenshots/my-test-1280.png
//   await browser.close();
//   await server.close();

import { createServer } from 'node:http';
import { after, before } from 'node:test';
import { mkdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** The repository root (tests/e2e/../..). */
export const REPO_ROOT = path.resolve(HERE, '..', '..');
/** The built site: $EOS_DIST_DIR, or dist/ at the repository root. */
export const DIST_DIR = process.env.EOS_DIST_DIR
  ? path.resolve(process.env.EOS_DIST_DIR)
  : path.join(REPO_ROOT, 'dist');
/** Where screenshot() writes: target/screenshots/ at the repository root. */
export const SCREENSHOT_DIR = path.join(REPO_ROOT, 'target', 'screenshots');
/** Debian's Chromium; $CHROMIUM_PATH overrides it. */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** Chromium flags: headless as root, no GPU, no background network traffic. */
export const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm', // required by WebAssembly.instantiateStreaming
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

/**
 * Serves `distDir` over HTTP on 127.0.0.1 at a free port.
 *
 * `base` is the URL path the site is mounted at (default "/"). Mounting it below a
 * sub-path, e.g. "/course/eos/", checks that the site only uses relative URLs.
 * Unknown paths answer 404 (no SPA fallback), so a wrong asset URL fails loudly.
 *
 * @param {string} distDir
 * @param {{ base?: string }} [options]
 * @returns {Promise<{ url: string, close: () => Promise<void>, requests: string[] }>}
 *   `url` ends with the base path and a slash; `requests` lists every path asked for.
 */
export async function startServer(distDir = DIST_DIR, { base = '/' } = {}) {
  const root = path.resolve(distDir);
  const info = await stat(path.join(root, 'index.html')).catch(() => null);
  if (!info) {
    throw new Error(`${root}/index.html not found: build the site first (trunk build --release)`);
  }
  if (!base.startsWith('/')) base = `/${base}`;
  if (!base.endsWith('/')) base = `${base}/`;

  const requests = [];
  const server = createServer(async (req, res) => {
    const pathname = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
    requests.push(pathname);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405).end();
      return;
    }
    if (pathname === base.slice(0, -1)) {
      res.writeHead(301, { Location: base }).end();
      return;
    }
    if (!pathname.startsWith(base)) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    let rel = pathname.slice(base.length);
    if (rel === '' || rel.endsWith('/')) rel += 'index.html';
    const file = path.resolve(root, rel);
    if (file !== root && !file.startsWith(root + path.sep)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, {
        'Content-Type': MIME[path.extname(file).toLowerCase()] || 'application/octet-stream',
        'Content-Length': body.length,
        'Cache-Control': 'no-store',
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
    }
  });

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve); // port 0: the OS picks a free port
  });
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}${base}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

/**
 * Launches Debian's Chromium headless. Playwright gives each launch a fresh, temporary
 * profile (its own --user-data-dir, deleted on close); it refuses a --user-data-dir
 * argument here, so none is passed. Close it with `browser.close()`.
 *
 * @param {import('playwright-core').LaunchOptions} [options] merged over the defaults
 * @returns {Promise<import('playwright-core').Browser>}
 */
export async function launchBrowser(options = {}) {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    chromiumSandbox: false,
    timeout: 60_000,
    ...options,
    args: [...CHROMIUM_ARGS, ...(options.args ?? [])],
  });
  if (!readsWaitForDeferredPanels) {
    const context = await browser.newContext();
    settleBeforeReads(await context.newPage());
    await context.close();
  }
  return browser;
}

/** Whether every read already waits for the panels a click deferred. */
let readsWaitForDeferredPanels = false;

/**
 * The page renders the panels out of the reader's sight one frame after a click
 * (`ui::deferred`), and counts those still waiting in `window.__eosDeferred`. So that a
 * test reads what a reader would see a moment later, every read of the page (a
 * locator's text, attributes, state, count or screenshot; the page's `evaluate`,
 * `content` and `screenshot`) first waits until that count is 0 in the frame it reads.
 * Locators and pages share their classes, so wrapping their prototypes once covers
 * every page of every browser.
 *
 * @param {import('playwright-core').Page} page any page, for its classes
 */
function settleBeforeReads(page) {
  readsWaitForDeferredPanels = true;
  // The frame read and the frames inside it (a `frameLocator`'s locator reads from its
  // parent's frame object, and the page it shows is in a child frame).
  const settled = async (frame) => {
    await frame.waitForFunction(() => !window.__eosDeferred, null, { timeout: 10_000 }).catch(() => {});
    for (const child of frame.childFrames()) await settled(child);
  };
  const wrap = (proto, names, frameOf) => {
    for (const name of names) {
      const read = proto[name];
      if (typeof read !== 'function') continue;
      proto[name] = async function (...args) {
        await settled(frameOf(this));
        return read.apply(this, args);
      };
    }
  };
  wrap(
    Object.getPrototypeOf(page.locator('html')),
    ['innerText', 'textContent', 'innerHTML', 'getAttribute', 'inputValue', 'isVisible', 'isHidden', 'isEnabled', 'isDisabled', 'isChecked', 'isEditable', 'count', 'allInnerTexts', 'allTextContents', 'evaluate', 'evaluateAll', 'screenshot', 'boundingBox', 'ariaSnapshot'],
    (locator) => locator._frame ?? locator.page().mainFrame(),
  );
  wrap(Object.getPrototypeOf(page), ['evaluate', 'content', 'screenshot'], (p) => p.mainFrame());
}

/**
 * Saves a PNG of the page's viewport (or the whole page with `{ fullPage: true }`) to
 * target/screenshots/NAME.png and returns its path.
 *
 * @param {import('playwright-core').Page} page
 * @param {string} name file name without extension, e.g. "smoke-1280"
 * @param {import('playwright-core').PageScreenshotOptions} [options]
 */
export async function screenshot(page, name, options = {}) {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, animations: 'disabled', ...options });
  return file;
}

/** axe-core's script (npm `axe-core`), read once and injected into a page when asked. */
const AXE = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Runs axe-core in the page and returns its violations, one line each (rule, impact, help,
 * the first three nodes). `{ iframes: false }` checks the page without its frames (an
 * embedding page whose frames are checked on their own).
 *
 * @param {import('playwright-core').Page} page
 * @param {{ iframes?: boolean }} [options]
 */
export async function axe(page, { iframes = true } = {}) {
  if (!(await page.evaluate(() => typeof window.axe !== 'undefined'))) {
    await page.addScriptTag({ content: AXE });
  }
  return page.evaluate(async (iframes) => {
    const r = await window.axe.run(document, { resultTypes: ['violations'], iframes });
    return r.violations.map(
      (v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`,
    );
  }, iframes);
}

/**
 * Records what goes wrong in a page: uncaught exceptions, console errors, failed requests
 * and HTTP errors. Call before `page.goto`; assert `problems` is empty at the end.
 *
 * @param {import('playwright-core').Page} page
 * @returns {string[]} a live list of problems, one line each
 */
export function watchProblems(page) {
  const problems = [];
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
  });
  page.on('requestfailed', (req) =>
    problems.push(`request failed: ${req.url()} (${req.failure()?.errorText})`),
  );
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`);
  });
  return problems;
}

/**
 * Registers the suite's before/after hooks: the built site served (with `serverOptions`)
 * and a browser launched once per file. Returns `{ server, browser }`, filled in by `before`.
 */
export function useSite(serverOptions) {
  const site = { server: undefined, browser: undefined };
  before(async () => {
    site.server = await startServer(DIST_DIR, serverOptions);
    site.browser = await launchBrowser();
  });
  after(async () => {
    await site.browser?.close();
    await site.server?.close();
  });
  return site;
}

/** The markers around the shell in www/index.html (scripts/shell.mjs writes between them). */
export const SHELL_START = '<!-- shell: generated by scripts/shell.mjs from the live page; do not edit -->';
export const SHELL_END = '<!-- end of shell -->';

/** The shell's languages, with the browser locale each is rendered in. */
export const SHELL_LANGS = [
  ['en', 'en-US'],
  ['ko', 'ko-KR'],
  ['th', 'th-TH'],
];

/**
 * The shell as the live first page renders it in one language: `#app`'s HTML in a fresh
 * page at 1280×800 in a browser of that locale, with the fields' current values written
 * as attributes, no `data-testid` (tests and the first-render probe find only the live
 * page), wrapped in an inert, aria-hidden `div.app-shell` that names its language.
 *
 * @param {import('playwright-core').Browser} browser
 * @param {string} url the site's address (no fragment, no query)
 * @param {string} lang `en`, `ko` or `th`
 * @param {string} locale the browser's locale for it (`SHELL_LANGS`)
 */
export async function liveShell(browser, url, lang = 'en', locale = 'en-US') {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale });
  try {
    const page = await context.newPage();
    await page.goto(url);
    await page.locator('#app [data-testid="playground"]').waitFor();
    await page.locator(`html[lang="${lang}"]`).waitFor();
    return await page.evaluate((lang) => {
      const app = document.querySelector('#app');
      const clone = app.cloneNode(true);
      const live = app.querySelectorAll('input, textarea, select');
      const copies = clone.querySelectorAll('input, textarea, select');
      live.forEach((el, i) => {
        const copy = copies[i];
        if (el.tagName === 'SELECT') {
          [...copy.options].forEach((o, j) => o.toggleAttribute('selected', el.options[j].selected));
        } else if (el.type === 'checkbox' || el.type === 'radio') {
          copy.toggleAttribute('checked', el.checked);
        } else if (el.tagName === 'TEXTAREA') {
          copy.textContent = el.value;
        } else if (el.type !== 'file') {
          copy.setAttribute('value', el.value);
        }
      });
      clone.querySelectorAll('[data-testid]').forEach((e) => e.removeAttribute('data-testid'));
      return `<div class="app-shell" data-lang="${lang}" lang="${lang}" inert aria-hidden="true">${clone.innerHTML}</div>`;
    }, lang);
  } finally {
    await context.close();
  }
}

/**
 * The top-level tasks of one renderer thread (`pid:tid`) in a Chromium trace, in time
 * order (of two starting together, the longer): a task's own trace events, nested
 * tasks included, lie inside it.
 */
export function topLevelTasks(events, thread) {
  const tasks = [];
  for (const e of events
    .filter((e) => `${e.pid}:${e.tid}` === thread && e.ph === 'X' && e.dur && e.name === 'ThreadControllerImpl::RunTask')
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur)) {
    const last = tasks[tasks.length - 1];
    if (!last || e.ts >= last.ts + last.dur) tasks.push(e);
  }
  return tasks;
}
