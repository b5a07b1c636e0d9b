// Trunk's post_build hook (Trunk.toml), after minify-js.mjs: gives the functions a page's
// wasm imports from its JS glue short names (a, b, …, Z, aa, …) in both files.
//
// Why: wasm-bindgen names each import after the Rust item and a 16-hex-digit hash
// (`__wbg_instanceof_Window_5cf453f5639aa1a2`). The names are written twice, in the wasm's
// import section and as the keys of the glue's imports object, and the hashes do not
// compress: on the main page, 150 of them were 3.1 KB gzip of the wasm and ≈ 1.5 KB of the
// glue. The wasm's code refers to an import by its index, never by its name, so renaming
// the pair changes no behaviour.
//
// For each staged page that loads a module glue with an integrity hash and a wasm with
// one: reads the wasm's import section, renames the imports of the glue's module (the one
// named `./<name>_bg.js`), rewrites the glue's object keys (each must be found exactly
// once, or the build fails), then names both files by the hash of their new content (as
// minify-js.mjs does, so no host pairs an old file with a new integrity hash) and rewrites
// their names and `integrity` hashes in the page.

import { readdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { attr, hex16, sri } from './staged-files.mjs';

const staging = process.env.TRUNK_STAGING_DIR;
if (process.env.TRUNK_PROFILE !== 'release' || !staging) process.exit(0);

const LINK = /<link\b[^>]*>/g;
const fail = (why) => {
  console.error(`short-imports: ${why}`);
  process.exit(1);
};

function readLeb(bytes, at) {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = bytes[at++];
    if (byte === undefined) fail('the wasm ends inside a number');
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if (byte < 0x80) return [value, at];
  }
}

function leb(value) {
  const out = [];
  do {
    let byte = value % 128;
    value = Math.floor(value / 128);
    if (value > 0) byte |= 0x80;
    out.push(byte);
  } while (value > 0);
  return Buffer.from(out);
}

// Past one import's description (function, table, memory, global or tag).
function skipDesc(body, at) {
  const kind = body[at++];
  const limits = (p) => {
    const flags = body[p++];
    [, p] = readLeb(body, p);
    if (flags & 1) [, p] = readLeb(body, p);
    return p;
  };
  switch (kind) {
    case 0: return readLeb(body, at)[1]; // function: type index
    case 1: return limits(at + 1); // table: reference type, limits
    case 2: return limits(at); // memory: limits
    case 3: return at + 2; // global: value type, mutability
    case 4: return readLeb(body, at + 1)[1]; // tag: attribute, type index
    default: return fail(`unknown import kind ${kind}`);
  }
}

const shortName = (i) => {
  const letters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
  let name = '';
  do {
    name += letters[i % letters.length];
    i = Math.floor(i / letters.length);
  } while (i > 0);
  return name;
};

// The modules a wasm imports from.
function importModules(wasm) {
  const modules = new Set();
  renameImports(wasm, (mod) => {
    modules.add(mod);
    return false;
  });
  return modules;
}

// The wasm with the imports of the modules `rename` picks renamed, and the old name →
// new name map.
function renameImports(wasm, rename) {
  const parts = [wasm.subarray(0, 8)];
  const renamed = new Map();
  let at = 8;
  while (at < wasm.length) {
    const id = wasm[at];
    const [size, start] = readLeb(wasm, at + 1);
    const body = wasm.subarray(start, start + size);
    at = start + size;
    if (id !== 2) {
      parts.push(Buffer.from([id]), leb(size), body);
      continue;
    }
    let [count, p] = readLeb(body, 0);
    const out = [leb(count)];
    for (; count > 0; count--) {
      let len;
      [len, p] = readLeb(body, p);
      const mod = body.subarray(p, p + len);
      p += len;
      [len, p] = readLeb(body, p);
      let field = body.subarray(p, p + len);
      p += len;
      const end = skipDesc(body, p);
      if (rename(mod.toString())) {
        const name = shortName(renamed.size);
        renamed.set(field.toString(), name);
        field = Buffer.from(name);
      }
      out.push(leb(mod.length), mod, leb(field.length), field, body.subarray(p, end));
      p = end;
    }
    const section = Buffer.concat(out);
    parts.push(Buffer.from([id]), leb(section.length), section);
  }
  return [Buffer.concat(parts), renamed];
}

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

for (const file of (await readdir(staging)).filter((f) => f.endsWith('.html'))) {
  const htmlPath = path.join(staging, file);
  let html = await readFile(htmlPath, 'utf8');
  const links = html.match(LINK) ?? [];
  const glueTag = links.find((t) => /modulepreload/.test(t) && attr(t, 'href')?.endsWith('.js'));
  const wasmTag = links.find((t) => attr(t, 'href')?.endsWith('_bg.wasm') && attr(t, 'integrity'));
  if (!glueTag || !wasmTag || !attr(glueTag, 'integrity')) continue;
  const glueHref = attr(glueTag, 'href');
  const wasmHref = attr(wasmTag, 'href');
  const wasmName = path.basename(wasmHref);
  const wasm = await readFile(path.join(staging, wasmHref));
  let glue = await readFile(path.join(staging, glueHref), 'utf8');
  // wasm-bindgen's module (`./eos_bg.js`): the one the glue names.
  const modules = [...importModules(wasm)].filter((m) => glue.includes(`"${m}"`));
  if (modules.length !== 1) fail(`${glueHref} names ${modules.length} of the wasm's modules`);
  const [newWasm, renamed] = renameImports(wasm, (m) => m === modules[0]);
  for (const [from, to] of renamed) {
    const key = new RegExp(`(?<=[{,\\s])${escape(from)}(?=\\s*:)`, 'g');
    const found = glue.match(key)?.length ?? 0;
    if (found !== 1) fail(`${glueHref}: the import ${from} is a key ${found} times, not once`);
    glue = glue.replace(key, to);
  }
  const newWasmName = wasmName.replace(/_bg\.wasm$/, `-${hex16(newWasm)}_bg.wasm`);
  glue = glue.split(wasmName).join(newWasmName);
  const glueName = path.basename(glueHref);
  const newGlueName = glueName.replace(/(-[0-9a-f]{16})?\.js$/, `-${hex16(glue)}.js`);
  const dir = path.join(staging, path.dirname(glueHref));
  await writeFile(path.join(staging, path.dirname(wasmHref), newWasmName), newWasm);
  await writeFile(path.join(dir, newGlueName), glue);
  await unlink(path.join(staging, wasmHref));
  await unlink(path.join(staging, glueHref));
  html = html
    .replace(wasmTag, wasmTag.replace(attr(wasmTag, 'integrity'), sri(newWasm)))
    .replace(glueTag, glueTag.replace(attr(glueTag, 'integrity'), sri(glue)));
  html = html.split(wasmName).join(newWasmName).split(glueName).join(newGlueName);
  await writeFile(htmlPath, html);
  console.log(
    `short-imports: ${renamed.size} imports; ${wasmName} ${wasm.length} -> ${newWasmName} ` +
      `${newWasm.length} bytes`,
  );
}
