// The SCORM 1.2 package against a real SCORM runtime: scripts/package-lms.sh makes the
// zip (two lessons, one of them Pulsar's), the test unpacks it under a host page that
// installs scorm-again's Scorm12API (the LMS-side runtime LMS integrations use) as
// window.API, and launches each SCO as the manifest says. It checks what reaches the
// runtime: lesson_status incomplete, then passed or failed by the mastery score; the
// score; session_time in SCORM's format; suspend_data and lesson_location, so a relaunch
// opens at the step; and a commit the LMS refuses, said once in one line.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser, screenshot, startServer, watchProblems } from './harness.mjs';
import { packageLms, play, readText, unpack } from './lms.mjs';

// The runtime's browser build (the package's `exports` do not name its dist/ files).
const SCORM12_JS = fileURLToPath(new URL('./node_modules/scorm-again/dist/scorm12.js', import.meta.url));

// The host: an "LMS" page with scorm-again as window.API and the SCO in a frame. What
// the LMS had stored before (a relaunch) comes in window.lmsStored, set by the test.
const HOST = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>LMS</title>
<link rel="icon" href="data:,"><script src="scorm12.js"></script></head><body>
<iframe id="sco" title="SCO" style="width:1000px;height:760px;border:0"></iframe>
<script>
  const q = new URLSearchParams(location.search);
  window.calls = [];
  window.API = new Scorm12API({
    autocommit: false,
    logLevel: 5,
    // commit=fail: the LMS's server refuses every commit (this static server answers
    // a POST with 405), so LMSCommit returns "false" with an error code.
    lmsCommitUrl: q.get('commit') === 'fail' ? 'commit' : false,
  });
  API.loadFromJSON(Object.assign({ student_data: { mastery_score: '80' } }, window.lmsStored || {}));
  for (const f of ['LMSInitialize', 'LMSSetValue', 'LMSCommit', 'LMSFinish']) {
    API.on(f, (element, value) => calls.push(f === 'LMSSetValue' ? [f, element, value] : [f]));
  }
  document.getElementById('sco').src = 'course/' + q.get('sco');
</script></body></html>`;

let server;
let browser;
let manifest;

before(async () => {
  packageLms(['--title', 'EOS course (test)', 'idempotence', 'pulsar-tc-crash']);
  // The host page and the runtime at the root; the unpacked package in course/.
  const root = await mkdtemp(path.join(os.tmpdir(), 'eos-lms-scorm-'));
  await unpack('eos-playground-scorm12.zip', path.join(root, 'course'));
  await writeFile(path.join(root, 'index.html'), HOST);
  await copyFile(SCORM12_JS, path.join(root, 'scorm12.js'));
  manifest = await readText(path.join(root, 'course'), 'imsmanifest.xml');
  server = await startServer(root);
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

/** The SCO href of a lesson, as the manifest gives it. */
function scoHref(lesson) {
  const m = manifest.match(new RegExp(`<resource identifier="sco-${lesson}"[^>]*href="([^"]+)"`));
  assert.ok(m, `a resource for ${lesson}`);
  return m[1].replaceAll('&amp;', '&');
}

const cmi = (page, element) => page.evaluate((e) => window.API.LMSGetValue(e), element);
const calls = (page) => page.evaluate(() => window.calls);
// Write-only elements (exit, session_time) as the runtime holds them.
const stored = (page) => page.evaluate(() => window.API.renderCMIToJSONObject().cmi.core);

/** Opens the host on a SCO, with what the LMS stored before. */
async function launch(lesson, { stored, commit } = {}) {
  const page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
  if (stored) await page.addInitScript((s) => (window.lmsStored = s), stored);
  const sco = encodeURIComponent(scoHref(lesson));
  await page.goto(`${server.url}?sco=${sco}${commit ? `&commit=${commit}` : ''}`);
  return page;
}
const lessonFrame = (page) => page.frameLocator('#sco').frameLocator('[data-testid="lms-frame"]');

/** The SCO leaves (the LMS removes its frame): LMSFinish. */
async function leave(page) {
  await page.evaluate(() => document.getElementById('sco').remove());
  await page.waitForFunction(() => window.calls.some((c) => c[0] === 'LMSFinish'));
}

test('the manifest: SCORM 1.2, one organization, one SCO a lesson in course order, mastery 80', () => {
  assert.match(manifest, /<schemaversion>1\.2<\/schemaversion>/);
  assert.match(manifest, /<organization identifier="course">\s*<title>EOS course \(test\)<\/title>/);
  const items = [...manifest.matchAll(/<item identifier="item-([^"]+)" identifierref="sco-\1"/g)].map((m) => m[1]);
  assert.deepEqual(items, ['idempotence', 'pulsar-tc-crash']);
  assert.equal([...manifest.matchAll(/<adlcp:masteryscore>80<\/adlcp:masteryscore>/g)].length, 2);
  assert.equal(scoHref('idempotence'), 'lms.html?lesson=idempotence');
  assert.match(manifest, /adlcp:scormtype="sco" href="lms.html\?lesson=pulsar-tc-crash"/);
  // Every file the site needs, listed and relative; the Pulsar site is in.
  assert.match(manifest, /<file href="pulsar\/index.html"\/>/);
  assert.match(manifest, /<file href="index.html"\/>/);
  assert.doesNotMatch(manifest, /href="(\/|https?:)/);
});

test('a Kafka lesson: incomplete, suspended mid-way, resumed at its step, then passed', { timeout: 300_000 }, async () => {
  // First launch: a few steps, the first question answered right, then the learner leaves.
  const opened = Date.now();
  let page = await launch('idempotence');
  const problems = watchProblems(page);
  let frame = lessonFrame(page);
  await frame.locator('[data-testid="lesson-next"]:enabled').waitFor({ timeout: 60_000 });
  await page.waitForFunction(() => window.API.LMSGetValue('cmi.core.lesson_status') === 'incomplete');
  assert.equal(await cmi(page, 'cmi.core.lesson_status'), 'incomplete');
  const first = await play(frame, { next: '[data-testid="lesson-next"]', want: 'right', steps: 6 });
  assert.equal(first.steps, 6);
  await page.waitForFunction(() => window.API.LMSGetValue('cmi.core.lesson_location') === '6');
  await screenshot(page, 'lms-scorm-launch');
  // The session time below is checked to be over a second: on a fast machine the six
  // steps take less, so the learner stays that long.
  await page.waitForTimeout(Math.max(0, 1500 - (Date.now() - opened)));
  await leave(page);
  const location = await cmi(page, 'cmi.core.lesson_location');
  const suspend = await cmi(page, 'cmi.suspend_data');
  const { exit, session_time: session } = await stored(page);
  assert.equal(location, '6');
  assert.equal(exit, 'suspend');
  assert.match(session, /^\d{2,4}:\d{2}:\d{2}(\.\d{1,2})?$/, `session_time ${session}`);
  const [h, m, sec] = session.split(':').map(Number);
  assert.ok(h * 3600 + m * 60 + sec > 1, `the time the lesson was open: ${session}`);
  const place = JSON.parse(suspend);
  assert.equal(place.s, 6);
  const answeredFirst = Object.keys(place.a).length;
  assert.equal(answeredFirst, first.questions);
  assert.ok(Object.values(place.a).every((v) => v === 1), suspend);
  const commits = (await calls(page)).filter((c) => c[0] === 'LMSCommit').length;
  assert.ok(commits >= 2, `LMSCommit at the start and at each answer: ${commits}`);
  assert.deepEqual(problems, []);
  await page.close();

  // Relaunch: the LMS gives back what it stored (entry resume); the lesson opens at step 6.
  page = await launch('idempotence', {
    stored: { core: { entry: 'resume', lesson_status: 'incomplete', lesson_location: location }, suspend_data: suspend },
  });
  frame = lessonFrame(page);
  const src = await page.frameLocator('#sco').locator('[data-testid="lms-frame"]').getAttribute('src');
  assert.match(src, /^index\.html\?embed=1&lesson=idempotence&step=6$/);
  const rest = await play(frame, { next: '[data-testid="lesson-next"]', want: 'right' });
  assert.ok(rest.steps > 0);
  await page.waitForFunction(() => window.API.LMSGetValue('cmi.core.lesson_status') === 'passed', null, { timeout: 30_000 });
  assert.equal(await cmi(page, 'cmi.core.score.raw'), '100');
  assert.equal(await cmi(page, 'cmi.core.score.min'), '0');
  assert.equal(await cmi(page, 'cmi.core.score.max'), '100');
  const all = JSON.parse(await cmi(page, 'cmi.suspend_data'));
  assert.equal(Object.keys(all.a).length, 7, 'the seven questions, answered across both launches');
  await leave(page);
  assert.equal((await stored(page)).exit, '');
  const order = (await calls(page)).map((c) => c[0]);
  assert.equal(order[0], 'LMSInitialize');
  assert.equal(order.at(-1), 'LMSFinish');
  await page.close();
});

test('a Pulsar lesson answered wrong fails; a refused commit is said once and the lesson goes on', { timeout: 300_000 }, async () => {
  const page = await launch('pulsar-tc-crash', { commit: 'fail' });
  const frame = lessonFrame(page);
  const notice = page.frameLocator('#sco').locator('[data-testid="lms-notice"]');
  await notice.waitFor({ timeout: 60_000 });
  const text = await notice.innerText();
  assert.match(text, /^The LMS refused to record your progress \(LMSCommit: \d+ .+\)\. The lesson goes on\.$/);
  const { questions } = await play(frame, { next: '[data-testid="pulsar-next"]', want: 'wrong' });
  assert.equal(questions, 5);
  await page.waitForFunction(() => window.API.LMSGetValue('cmi.core.lesson_status') === 'failed', null, { timeout: 30_000 });
  assert.equal(await cmi(page, 'cmi.core.score.raw'), '0');
  // One line, said once, though every commit was refused.
  assert.equal(await notice.innerText(), text);
  const box = await notice.boundingBox();
  assert.ok(box.height < 40, `one line: ${box.height}px`);
  await screenshot(page, 'lms-scorm-refused');
  await page.close();
});
