// Kafka's files in the page (dist/files/, www/files.html): a partition folder exported by
// `eos --export` opens (directory picker) and shows the batches `eos inspect` prints; a
// zip kafka-python's batch builder wrote opens too; "continue from here" sends to the
// recovered world; the downloaded disk is read back by kafka-python; a flipped byte is
// named with its file and position; the pickers are the page's own buttons in the reader's
// language. axe-core finds nothing; screenshots at 1280, 760, 360.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, readFile, writeFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT, axe, screenshot, useSite, watchProblems } from './harness.mjs';

const tid = (id) => `[data-testid="${id}"]`;
const site = useSite();
const EOS = path.join(REPO_ROOT, 'target', 'debug', 'eos');
const PYTHON = path.join(REPO_ROOT, '.tools', 'kpy', 'bin', 'python');

/** An idempotent producer's batches on pay-0, a snapshot between them. */
const SCRIPT = `cluster brokers=1
topic create pay partitions=1
producer p create enable.idempotence=true
producer p send pay-0 a b
producer p flush
producer p send pay-0 c
producer p flush
snapshot pay-0
producer p send pay-0 d
producer p flush
`;

let work;
before(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'eos-files-'));
  execFileSync('cargo', ['build', '--bin', 'eos'], { cwd: REPO_ROOT, stdio: 'ignore' });
  await writeFile(path.join(work, 'pay.eos'), SCRIPT);
  execFileSync(EOS, ['run', path.join(work, 'pay.eos'), '--export', path.join(work, 'exported')]);
});
after(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

/** The batch lines `eos inspect` prints for a folder. */
function inspectBatches(folder) {
  return execFileSync(EOS, ['inspect', folder], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => l.startsWith('baseOffset: '));
}

async function openPage(width = 1280) {
  const page = await site.browser.newPage({ viewport: { width, height: 800 }, acceptDownloads: true });
  const problems = watchProblems(page);
  await page.goto(`${site.server.url}files/`, { waitUntil: 'load' });
  await page.locator(tid('files-drop')).waitFor({ timeout: 120_000 });
  return { page, problems };
}

async function dumpText(page) {
  await page.locator(`${tid('files-dump')}`).waitFor({ state: 'attached' });
  return page.locator(tid('files-dump')).textContent();
}

test('an exported folder opens with the batches eos inspect prints; continue, send, download and kafka-python reads it', { timeout: 300_000 }, async () => {
  const { page, problems } = await openPage();
  try {
    const folder = path.join(work, 'exported', 'pay-0');
    await page.locator(tid('files-folder')).setInputFiles(folder);
    await page.locator(tid('files-views')).waitFor();
    const dump = await dumpText(page);
    const expected = inspectBatches(folder);
    assert.ok(expected.length >= 3, expected.join('\n'));
    for (const line of expected) assert.ok(dump.includes(line), `the page shows ${line}`);
    await page.locator(tid('files-no-problems')).waitFor();
    // The playground's own views of the recovered partition: its log table.
    const rows = await page.locator(`${tid('files-log')} tbody tr`).count();
    assert.ok(rows >= 3, `${rows} rows`);
    await screenshot(page, 'files-opened-1280');

    // Continue from here: a send lands after the folder's last offset.
    await page.locator(tid('files-continue')).click();
    await page.locator(tid('files-value')).fill('from-the-page');
    await page.locator(tid('files-send')).click();
    await page.locator(tid('files-log')).filter({ hasText: 'from-the-page' }).waitFor().catch(() => {});
    const after = await page.locator(`${tid('files-log')} tbody tr`).count();
    assert.ok(after > rows, `a new batch row: ${rows} -> ${after}`);
    // The result beside the button, in a live region: the new batch's offset (a, b, c
    // and d were offsets 0 to 3).
    const sent = page.locator(`${tid('files-send')} + ${tid('files-sent')}`);
    assert.equal(await sent.getAttribute('aria-live'), 'polite');
    assert.equal(await sent.innerText(), 'Written: the new batch starts at offset 4.');
    // A second send follows the first: the producer keeps its id and its sequence.
    await page.locator(tid('files-value')).fill('and-another');
    await page.locator(tid('files-send')).click();
    await page.locator(tid('files-log')).filter({ hasText: 'and-another' }).waitFor().catch(() => {});
    assert.equal(await sent.innerText(), 'Written: the new batch starts at offset 5.');
    // The window was rebuilt at the start: a line says from what, and what (N) is.
    assert.match(await page.locator(tid('window-recovered')).innerText(), /epoch in brackets/);

    // Download the disk: kafka-python reads every batch of pay-0, the new one last.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator(tid('files-download')).click(),
    ]);
    assert.equal(download.suggestedFilename(), 'kafka-logs.zip');
    const zipPath = path.join(work, 'downloaded.zip');
    await download.saveAs(zipPath);
    const read = execFileSync(PYTHON, ['-c', `
import sys, zipfile
from kafka.record.memory_records import MemoryRecords
z = zipfile.ZipFile(sys.argv[1])
assert z.testzip() is None
r = MemoryRecords(z.read("pay-0/00000000000000000000.log"))
while r.has_next():
    b = r.next_batch()
    print(b.base_offset, b.producer_id, [x.value.decode() for x in b])
`, zipPath], { encoding: 'utf8' }).trim().split('\n');
    assert.equal(read.length, expected.length + 2, read.join('\n'));
    assert.match(read.at(-2), /\['from-the-page'\]$/);
    assert.match(read.at(-1), /\['and-another'\]$/);
    // One producer wrote both: the same producer id.
    assert.equal(read.at(-2).split(' ')[1], read.at(-1).split(' ')[1]);
    assert.deepEqual(problems, [], `console errors or failed requests:\n${problems.join('\n')}`);
  } finally {
    await page.close();
  }
});

test('a zip kafka-python wrote opens; a flipped byte is named with its file and position', { timeout: 300_000 }, async () => {
  const { page, problems } = await openPage();
  try {
    // kafka-python's batch builder writes the peers' partition (tests/peers/kafka_python.py),
    // zipped by Python's zipfile with deflate.
    const zipPath = path.join(work, 'peers.zip');
    execFileSync(PYTHON, ['-c', `
import os, sys, tempfile, zipfile
sys.path.insert(0, os.path.join(sys.argv[2], "tests", "peers"))
import kafka_python as k
d = os.path.join(tempfile.mkdtemp(), "peers-0")
k.write_peer_partition(d)
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
    for n in sorted(os.listdir(d)):
        z.write(os.path.join(d, n), "peers-0/" + n)
`, zipPath, REPO_ROOT]);
    await page.locator(tid('files-zip')).setInputFiles(zipPath);
    await page.locator(tid('files-views')).waitFor();
    const dump = await dumpText(page);
    assert.match(dump, /baseOffset: 0 lastOffset: 2 count: 3 .* producerId: 1000 /);
    assert.match(dump, /endTxnMarker: ABORT/);
    assert.match(dump, /compresscodec: zstd/);
    // This page carries no decoders: a compressed batch is listed by its header, and why.
    assert.match(await page.locator(tid('files-problems')).innerText(), /gzip batch shown with its header only/);

    // One flipped byte in the exported segment's second batch (a one-record batch: its
    // records start at byte 61): named with its position.
    const log = path.join(work, 'exported', 'pay-0', '00000000000000000000.log');
    const bytes = Buffer.from(await readFile(log));
    const second = 12 + bytes.readInt32BE(8);
    bytes[second + 62] ^= 0x40; // inside its records, under the CRC
    const broken = path.join(work, 'broken', 'pay-0');
    await cp(path.join(work, 'exported', 'pay-0'), broken, { recursive: true });
    await writeFile(path.join(broken, '00000000000000000000.log'), bytes);
    await page.locator(tid('files-folder')).setInputFiles(broken);
    await page.locator('#files-report-heading').filter({ hasText: /^pay-0: / }).waitFor();
    await page.locator(tid('files-problems')).waitFor();
    const named = await page.locator(tid('files-problems')).innerText();
    assert.ok(
      named.includes(`pay-0/00000000000000000000.log at byte ${second}: CRC mismatch`),
      named,
    );
    // Recovery keeps the valid prefix: one batch (offsets 0-1) before the damage.
    await page.locator(tid('files-views')).waitFor();
    assert.equal(await page.locator(`${tid('files-log')} tbody tr`).count() >= 1, true);
    await screenshot(page, 'files-corrupt-1280');
    // A file that is not a zip: refused, with the reason.
    const junk = path.join(work, 'junk.zip');
    await writeFile(junk, 'not a zip');
    await page.locator(tid('files-zip')).setInputFiles(junk);
    await page.locator(tid('files-refused')).waitFor();
    assert.match(await page.locator(tid('files-refused')).innerText(), /junk\.zip: the zip, at byte \d+: not a zip file/);
    assert.deepEqual(problems, [], `console errors or failed requests:\n${problems.join('\n')}`);
  } finally {
    await page.close();
  }
});

test('axe: no violations on the files page, light and dark; screenshots at 1280, 760 and 360 px', { timeout: 180_000 }, async () => {
  const { page, problems } = await openPage();
  try {
    await page.locator(tid('files-folder')).setInputFiles(path.join(work, 'exported', 'pay-0'));
    await page.locator(tid('files-views')).waitFor();
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForTimeout(600);
      assert.deepEqual(await axe(page), [], scheme);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    for (const width of [1280, 760, 360]) {
      await page.setViewportSize({ width, height: 800 });
      await page.waitForTimeout(300);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      assert.ok(overflow <= 0, `files at ${width} px scrolls sideways by ${overflow} px`);
      await screenshot(page, `files-${width}`);
    }
    assert.deepEqual(problems, [], `console errors or failed requests:\n${problems.join('\n')}`);
  } finally {
    await page.close();
  }
});

test("the course and the limits page link to Kafka's files, in the reader's language", { timeout: 180_000 }, async () => {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const problems = watchProblems(page);
  try {
    await page.goto(`${site.server.url}?lang=ko`, { waitUntil: 'load' });
    const course = page.locator(tid('course-files'));
    await course.waitFor({ timeout: 120_000 });
    assert.equal(await course.getAttribute('href'), 'files/?lang=ko');
    await page.goto(`${site.server.url}limits.html?lang=th`, { waitUntil: 'load' });
    const limits = page.locator(tid('limits-files'));
    await limits.waitFor();
    assert.equal(await limits.getAttribute('href'), 'files/?lang=th');
    await limits.click();
    await page.locator('h1').filter({ hasText: 'file ของ Kafka' }).waitFor({ timeout: 120_000 });
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'th');
    assert.deepEqual(problems, [], `console errors or failed requests:\n${problems.join('\n')}`);
  } finally {
    await page.close();
  }
});

/** A line of a catalog in src/i18n/catalog/ (`id = text`). */
async function catalogLine(lang, id) {
  const text = await readFile(path.join(REPO_ROOT, 'src', 'i18n', 'catalog', `${lang}.txt`), 'utf8');
  const line = text.split('\n').find((l) => l.startsWith(`${id} = `));
  assert.ok(line, `${lang}.txt has ${id}`);
  return line.slice(id.length + 3);
}

/**
 * A file picker worded by the page: the input is hidden (no "Choose file" / "No file
 * chosen" from the browser), its catalog label is the button and names it, a click on
 * the button or Space on the input opens the chooser, and keyboard focus on the input
 * rings the button. `settled` names what the page shows once the chosen files are read.
 */
async function pickerIsTheButton(page, input, button, words, choose = [], settled = null) {
  const hidden = await page.locator(tid(input)).evaluate((i) => {
    const s = getComputedStyle(i);
    return { width: i.getBoundingClientRect().width, clip: s.clip, position: s.position };
  });
  assert.deepEqual(hidden, { width: 1, clip: 'rect(0px, 0px, 0px, 0px)', position: 'absolute' }, `${input} is visually hidden`);
  assert.equal((await page.locator(tid(button)).innerText()).trim(), words);
  assert.equal(await page.getByLabel(words, { exact: true }).getAttribute('data-testid'), input);
  const [byClick] = await Promise.all([page.waitForEvent('filechooser'), page.locator(tid(button)).click()]);
  assert.equal(await byClick.element().getAttribute('data-testid'), input);
  // Chromium opens one chooser at a time: each is closed by a choice (a folder picker's
  // must be a folder).
  await byClick.setFiles(choose);
  // A chosen folder is read and shown before the page takes the next key: wait for it, so
  // Space reaches the input rather than a page still busy with the folder.
  if (settled) await page.locator(tid(settled)).waitFor();
  await page.locator(tid(input)).focus();
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), input);
  const [byKey] = await Promise.all([page.waitForEvent('filechooser'), page.keyboard.press('Space')]);
  assert.equal(await byKey.element().getAttribute('data-testid'), input);
  await byKey.setFiles(choose);
}

test("the file pickers are the page's own buttons in the reader's language, reachable by keyboard", { timeout: 180_000 }, async () => {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const problems = watchProblems(page);
  try {
    await page.goto(`${site.server.url}files/?lang=th`, { waitUntil: 'load' });
    await page.locator(tid('files-zip-button')).waitFor({ timeout: 120_000 });
    const folder = path.join(work, 'exported', 'pay-0');
    await pickerIsTheButton(page, 'files-folder', 'files-folder-button', await catalogLine('th', 'files.pick-folder'), folder, 'files-views');
    await pickerIsTheButton(page, 'files-zip', 'files-zip-button', await catalogLine('th', 'files.pick-zip'));
    // Tab from the folder's input reaches the zip's, and the zip's button shows the focus.
    await page.locator(tid('files-folder')).focus();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'files-zip');
    assert.equal(await page.locator(tid('files-zip-button')).evaluate((b) => getComputedStyle(b).outlineStyle), 'solid');
    // The lesson editor's player opens an author's lesson file the same way.
    await page.goto(`${site.server.url}editor/?lang=ko`, { waitUntil: 'load' });
    await page.locator(tid('lesson-file-button')).waitFor({ timeout: 120_000 });
    await pickerIsTheButton(page, 'lesson-file', 'lesson-file-button', await catalogLine('ko', 'FileLabel'));
    assert.deepEqual(problems, [], `console errors or failed requests:\n${problems.join('\n')}`);
  } finally {
    await page.close();
  }
});
