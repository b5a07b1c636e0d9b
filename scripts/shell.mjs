// Writes the page's shells into www/index.html: the first page (idempotence, fresh) in
// English, Korean and Thai as the built site renders it, as static HTML, so a learner sees the
// playground while the wasm is still on its way and compiling (the first
// view drawn before the engine is ready). The shell is inert and hidden from assistive
// technology; the app replaces it with the live page in the same task, so nothing
// flashes. The inline script in <head> (www/first-language.js) shows the one in the
// page's language, or none where the page will not look like it: a share link or the
// other page in the fragment, a `?` option other than `lang`.
//
//   trunk build --release && node scripts/shell.mjs && trunk build --release
//
// The e2e test `shell.test.mjs` fails when the shell in dist/ differs from what the live
// page renders (and says to run this).

import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { startServer, launchBrowser, liveShell, SHELL_LANGS, SHELL_START, SHELL_END } = await import(
  path.join(ROOT, 'tests', 'e2e', 'harness.mjs')
);

const server = await startServer();
const browser = await launchBrowser();
try {
  const shells = [];
  for (const [lang, locale] of SHELL_LANGS) shells.push(await liveShell(browser, server.url, lang, locale));
  const shell = shells.join('\n');
  const file = path.join(ROOT, 'www', 'index.html');
  const html = await readFile(file, 'utf8');
  const start = html.indexOf(SHELL_START);
  const end = html.indexOf(SHELL_END);
  if (start < 0 || end < start) throw new Error(`www/index.html has no ${SHELL_START} … ${SHELL_END}`);
  const next = html.slice(0, start + SHELL_START.length) + '\n' + shell + '\n' + html.slice(end);
  await writeFile(file, next);
  console.log(`shell.mjs: www/index.html's shells are ${shells.map((s) => s.length).join(', ')} bytes (en, ko, th)`);
} finally {
  await browser.close();
  await server.close();
}
