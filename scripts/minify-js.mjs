// Trunk's post_build hook (Trunk.toml): minifies the wasm-bindgen JS glue of a release
// build with terser, gives it a name of its own (the hash of the minified text: Trunk's
// name comes from the wasm, which a new terser would not change, so a host caching by
// name would pair an old glue with a new integrity hash) and rewrites its name and
// `integrity` hash in the staged HTML.
//
// Why: Trunk 0.21 tries to minify this file itself, but its minifier cannot parse what
// wasm-bindgen 0.2.130 writes and ships it as written (42 KB raw, 7.4 KB gzip on the main
// page; 5.6 KB gzip minified). Only the files a staged page loads as a module with an
// integrity hash (`<link rel=modulepreload integrity=…>`) are touched: the chaos worker's
// no-modules glue is loaded by name from Rust and stays as it is.
//
// Trunk runs hooks with the project as the working folder and TRUNK_STAGING_DIR set;
// terser comes from .tools/ (scripts/setup.sh pins it).

import { createRequire } from 'node:module';
import { readdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { attr, hex16, sri } from './staged-files.mjs';

const staging = process.env.TRUNK_STAGING_DIR;
if (process.env.TRUNK_PROFILE !== 'release' || !staging) process.exit(0);

const require = createRequire(path.resolve('.tools/package.json'));
let minify;
try {
  ({ minify } = require('terser'));
} catch {
  console.error('minify-js: terser is not in .tools/ (run scripts/setup.sh)');
  process.exit(1);
}

// One modulepreload link, whatever order its attributes come in (Trunk's HTML minifier
// drops quotes and sorts them).
const LINK = /<link\b[^>]*\brel="?modulepreload"?[^>]*>/g;

// Each glue file once, whichever page names it: its new name and integrity.
const done = new Map();
async function minified(href) {
  if (!done.has(href)) {
    const jsPath = path.join(staging, href);
    const source = await readFile(jsPath, 'utf8');
    const out = await minify(source, { module: true, compress: true, mangle: true });
    if (!out.code) throw new Error(`minify-js: terser gave nothing for ${href}`);
    const hash = hex16(out.code);
    const renamed = href.replace(/\.js$/, `-${hash}.js`);
    await writeFile(path.join(staging, renamed), out.code);
    await unlink(jsPath);
    done.set(href, { renamed, integrity: sri(out.code) });
    console.log(`minify-js: ${href} ${source.length} -> ${renamed} ${out.code.length} bytes`);
  }
  return done.get(href);
}

for (const file of (await readdir(staging)).filter((f) => f.endsWith('.html'))) {
  const htmlPath = path.join(staging, file);
  const before = await readFile(htmlPath, 'utf8');
  let html = before;
  for (const tag of before.match(LINK) ?? []) {
    const href = attr(tag, 'href');
    const old = attr(tag, 'integrity');
    if (!href || !old || !href.endsWith('.js')) continue;
    const { renamed, integrity } = await minified(href);
    html = html.replace(tag, tag.replace(old, integrity));
    // The link and the module script's import both name the file.
    html = html.split(path.basename(href)).join(path.basename(renamed));
  }
  if (html !== before) await writeFile(htmlPath, html);
}
