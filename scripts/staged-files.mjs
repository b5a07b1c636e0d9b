// What the release hooks (minify-js.mjs, short-imports.mjs) share when they rewrite a
// staged file: the page's `integrity` value of its bytes, the short content hash a renamed
// file carries, and one attribute of a tag as Trunk's HTML minifier writes it (quotes
// dropped, attributes sorted).

import { createHash } from 'node:crypto';

export const sri = (bytes) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
export const hex16 = (bytes) => createHash('sha256').update(bytes).digest('hex').slice(0, 16);
export const attr = (tag, name) => tag.match(new RegExp(`\\b${name}="?([^"\\s>]+)"?`))?.[1];
