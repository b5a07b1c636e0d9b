// Writes the page's shell into www/index.html: the first page (idempotence, fresh, in
// English) as the built site renders it, as static HTML, so a learner sees the
// playground while the wasm is still on its way and compiling (issue 15: "the initial
// view drawn before the engine warms up"). The shell is inert and hidden from assistive
// technology; the app replaces it with the live page in the same task, so nothing
// flashes. An inline script drops it before the first paint where the page will not
// look like it: a share link or page in the fragment, any `?` option, or a browser
// language that is not English.
//
//   trunk build --release && node scripts/shell.mjs && trunk build --release
//
// The e2e test `shell.test.mjs` fails when the shell in dist/ differs from what the live
// page renders (and says to run this).

import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { startServer, launchBrowser, liveShell, SHELL_START, SHELL_END } = await import(
  path.join(ROOT, 'tests', 'e2e', 'harness.mjs')
);

const server = await startServer();
const browser = await launchBrowser();
try {
  const shell = await liveShell(browser, server.url);
  const file = path.join(ROOT, 'www', 'index.html');
  const html = await readFile(file, 'utf8');
  const start = html.indexOf(SHELL_START);
  const end = html.indexOf(SHELL_END);
  if (start < 0 || end < start) throw new Error(`www/index.html has no ${SHELL_START} … ${SHELL_END}`);
  const next = html.slice(0, start + SHELL_START.length) + '\n' + shell + '\n' + html.slice(end);
  await writeFile(file, next);
  console.log(`shell.mjs: www/index.html's shell is ${shell.length} bytes`);
} finally {
  await browser.close();
  await server.close();
}
