// The cmi5 package against a real LRS: Ralph (PyPI ralph-malph, its file-system backend,
// installed into .tools/ralph by scripts/setup.sh) started here on 127.0.0.1. The test
// plays the LMS's part of a launch: a one-time fetch URL that hands out the auth token
// (cmi5 8.2), and the launch URL (cmi5.xml's url with endpoint, fetch, actor,
// registration and activityId). Ralph has no State API, so the AU reads no
// LMS.LaunchData and goes on with its defaults (docs/lms.md). The statements are read
// back through Ralph's xAPI statements resource and checked with @learninglocker's
// xapi-validation, and against cmi5's rules: initialized first, terminated last, one
// completed, one passed or failed with result.score.scaled, the categories, the session
// id, the progress extension, one `answered` per answer. And the queue: statements made
// while the LRS is unreachable survive a reload and arrive once it is back.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync } from 'node:fs';
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import xapi from '@learninglocker/xapi-validation';
import { REPO_ROOT, axe, launchBrowser, screenshot, startServer, watchProblems } from './harness.mjs';
import { packageLms, play, readText, unpack } from './lms.mjs';

const validate = xapi.default ?? xapi;
const RALPH = process.env.EOS_RALPH_VENV || path.join(REPO_ROOT, '.tools', 'ralph');
const USER = 'lms';
const PASSWORD = 'eos-playground-test';
const TOKEN = Buffer.from(`${USER}:${PASSWORD}`).toString('base64');
const ACTOR = { objectType: 'Agent', name: 'Ada', account: { homePage: 'https://lms.example.org', name: 'ada' } };
const ADL = 'http://adlnet.gov/expapi/verbs/';
const CMI5 = 'https://w3id.org/xapi/cmi5/context/categories/cmi5';
const MOVEON = 'https://w3id.org/xapi/cmi5/context/categories/moveon';
const SESSION = 'https://w3id.org/xapi/cmi5/context/extensions/sessionid';
const PROGRESS = 'https://w3id.org/xapi/cmi5/result/extensions/progress';

let site;
let lms;
let ralph;
let browser;
let courseXml;
const fetches = new Map(); // fetch URL id -> times it was called

// Ralph's API under uvicorn, as `ralph runserver -b fs` starts it, with one change:
// Ralph 5.1.0's file-system LRS backend writes each statement request with the
// operation type CREATE, which refuses its existing fs_lrs.jsonl, so every request after
// the first fails ("already exists and overwrite is not allowed", HTTP 500). Appending
// is what an LRS on one file needs; everything else is Ralph's own code.
const RALPH_SERVE = `
import sys, uvicorn
from ralph.backends.data.base import BaseOperationType
from ralph.backends.lrs.fs import FSLRSBackend
FSLRSBackend.default_operation_type = BaseOperationType.APPEND
uvicorn.run("ralph.api:app", host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
`;

/** A free TCP port on 127.0.0.1. */
async function freePort() {
  const s = createServer();
  await new Promise((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address();
  await new Promise((r) => s.close(r));
  return port;
}

/** Starts Ralph's API (uvicorn, fs backend) with one user; resolves when it answers. */
async function startRalph(origin) {
  const python = path.join(RALPH, 'bin', 'python');
  assert.ok(existsSync(python), `Ralph is not installed in ${RALPH}: run scripts/setup.sh`);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'eos-ralph-'));
  await mkdir(path.join(dir, 'data'));
  // Ralph's auth file: the user, its bcrypt hash (made by Ralph's own bcrypt), scope all.
  const hash = await new Promise((resolve, reject) => {
    const p = spawn(python, ['-c', 'import bcrypt,sys; print(bcrypt.hashpw(sys.argv[1].encode(), bcrypt.gensalt(4)).decode())', PASSWORD]);
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.on('close', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`bcrypt: exit ${code}`))));
  });
  await writeFile(
    path.join(dir, 'auth.json'),
    JSON.stringify([{ agent: { mbox: 'mailto:lms@example.org', objectType: 'Agent' }, scopes: ['all'], hash, username: USER }]),
  );
  const port = await freePort();
  const child = spawn(python, ['-c', RALPH_SERVE, String(port)], {
    cwd: dir,
    env: {
      ...process.env,
      RALPH_APP_DIR: dir,
      RALPH_AUTH_FILE: path.join(dir, 'auth.json'),
      RALPH_RUNSERVER_BACKEND: 'fs',
      RALPH_BACKENDS__LRS__FS__DEFAULT_DIRECTORY_PATH: path.join(dir, 'data'),
      RALPH_RUNSERVER_CORS_ALLOW_ORIGINS: JSON.stringify([origin]),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null) throw new Error(`Ralph exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/__heartbeat__`)).ok) return { url, endpoint: `${url}/xAPI/`, child };
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill();
  throw new Error('Ralph did not answer within 60 s');
}

/** Every statement of a registration, read back through the xAPI statements resource. */
async function statements(registration) {
  const r = await fetch(`${ralph.endpoint}statements?registration=${registration}&limit=100`, {
    headers: { Authorization: `Basic ${TOKEN}`, 'X-Experience-API-Version': '1.0.3' },
  });
  assert.equal(r.status, 200);
  const all = (await r.json()).statements;
  return all.filter((s) => s.context?.registration === registration).sort((a, b) => a.timestamp.localeCompare(b.timestamp));
}

before(async () => {
  packageLms([]);
  const root = await mkdtemp(path.join(os.tmpdir(), 'eos-lms-cmi5-'));
  await unpack('eos-playground-cmi5.zip', path.join(root, 'course'));
  await writeFile(path.join(root, 'index.html'), '<!DOCTYPE html><title>content host</title>');
  courseXml = await readText(path.join(root, 'course'), 'cmi5.xml');
  site = await startServer(root);
  const origin = new URL(site.url).origin;
  // The LMS's fetch URLs: each hands out the token once (cmi5 8.2.3), then error 1.
  lms = createServer((req, res) => {
    const id = req.url.split('/').pop();
    const cors = { 'Access-Control-Allow-Origin': origin, 'Content-Type': 'application/json' };
    if (req.method === 'OPTIONS') return res.writeHead(204, { ...cors, 'Access-Control-Allow-Methods': 'POST' }).end();
    const n = (fetches.get(id) ?? 0) + 1;
    fetches.set(id, n);
    const body = n === 1 ? { 'auth-token': TOKEN } : { 'error-code': '1', 'error-text': 'The authorization token has already been returned.' };
    res.writeHead(200, cors).end(JSON.stringify(body));
  });
  await new Promise((r) => lms.listen(0, '127.0.0.1', r));
  ralph = await startRalph(origin);
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  ralph?.child.kill();
  lms?.close();
  await site?.close();
});

/** The launch URL an LMS makes from an AU's url: its query merged with cmi5's five. */
function launchUrl(lesson, registration, fetchId) {
  const au = courseXml.match(new RegExp(`<au id="([^"]+)"[^>]*>(?:(?!</au>)[\\s\\S])*<url>lms\\.html\\?lesson=${lesson}</url>`));
  assert.ok(au, `an AU for ${lesson}`);
  const q = new URLSearchParams({
    endpoint: ralph.endpoint,
    fetch: `http://127.0.0.1:${lms.address().port}/fetch/${fetchId}`,
    actor: JSON.stringify(ACTOR),
    registration,
    activityId: au[1],
  });
  return { url: `${site.url}course/lms.html?lesson=${lesson}&${q}`, activityId: au[1] };
}
const lessonFrame = (page) => page.frameLocator('[data-testid="lms-frame"]');

/** cmi5's rules for one session's statements (cmi5 9.3 to 9.6), and xAPI's. */
function checkSession(list, { activityId, questions }) {
  for (const s of list) {
    assert.deepEqual(validate(s), [], `xAPI: ${JSON.stringify(s)}`);
    assert.deepEqual(s.actor, ACTOR);
    assert.match(s.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  }
  const verbs = list.map((s) => s.verb.id.replace(ADL, ''));
  assert.equal(verbs[0], 'initialized', verbs.join(' '));
  assert.equal(verbs.at(-1), 'terminated', verbs.join(' '));
  for (const v of ['initialized', 'terminated', 'completed']) {
    assert.equal(verbs.filter((x) => x === v).length, 1, `${v} once: ${verbs.join(' ')}`);
  }
  assert.equal(verbs.filter((x) => x === 'passed' || x === 'failed').length, 1, verbs.join(' '));
  const sessions = new Set(list.map((s) => s.context.extensions[SESSION]));
  assert.equal(sessions.size, 1, 'one session id');
  const cats = (s) => (s.context.contextActivities.category ?? []).map((c) => c.id);
  for (const s of list) {
    const verb = s.verb.id.replace(ADL, '');
    const defined = ['initialized', 'completed', 'passed', 'failed', 'terminated'].includes(verb);
    assert.equal(cats(s).includes(CMI5), defined, `${verb}: the cmi5 category only in cmi5-defined statements`);
    assert.equal(cats(s).includes(MOVEON), ['completed', 'passed', 'failed'].includes(verb), `${verb}: moveon category`);
    assert.ok(s.context.contextActivities.grouping?.length, `${verb}: the publisher id grouping`);
    if (defined && verb !== 'initialized') assert.match(s.result.duration, /^PT\d+(\.\d+)?S$/, verb);
    if (verb !== 'passed' && verb !== 'failed') assert.equal(s.result?.score, undefined, `${verb}: no score`);
    if (defined && s.object) assert.equal(s.object.id, activityId);
  }
  const completed = list.find((s) => s.verb.id === `${ADL}completed`);
  assert.deepEqual(Object.keys(completed.result).sort(), ['completion', 'duration']);
  const judged = list.find((s) => /passed|failed$/.test(s.verb.id));
  const answered = list.filter((s) => s.verb.id === `${ADL}answered`);
  // The latest answer to each question counts.
  const last = new Map(answered.map((s) => [s.object.id, s.result.success]));
  assert.equal(last.size, questions, 'every question answered');
  for (const s of answered) {
    assert.ok(s.object.id.startsWith(`${activityId}/question/`), s.object.id);
    assert.equal(s.context.contextActivities.parent[0].id, activityId);
  }
  const right = [...last.values()].filter(Boolean).length;
  assert.equal(judged.result.score.scaled, Math.round((10000 * right) / questions) / 10000);
  assert.deepEqual({ raw: judged.result.score.raw, min: judged.result.score.min, max: judged.result.score.max }, { raw: right, min: 0, max: questions });
  assert.equal(judged.verb.id, `${ADL}${right / questions >= 0.8 ? 'passed' : 'failed'}`);
  assert.equal(judged.result.success, right / questions >= 0.8);
  // Progress at each quarter reached, before completion, never 100.
  const progress = list.filter((s) => s.verb.id === `${ADL}progressed`).map((s) => s.result.extensions[PROGRESS]);
  assert.deepEqual(progress, [25, 50, 75]);
  assert.ok(list.indexOf(completed) > list.findLastIndex((s) => s.verb.id === `${ADL}progressed`));
  return { verbs, right };
}

test('cmi5.xml: one AU a lesson in course order, blocks by module, moveOn and masteryScore', () => {
  const aus = [...courseXml.matchAll(/<au id="urn:eos-playground:lesson:([^"]+)" moveOn="CompletedAndPassed" masteryScore="0.80" launchMethod="AnyWindow">/g)].map((m) => m[1]);
  assert.equal(aus.length, 16, courseXml);
  assert.equal(aus[0], 'idempotence');
  assert.equal(aus.at(-1), 'break-it');
  assert.ok(aus.indexOf('pulsar-transactions') > aus.indexOf('acks-1-loss'));
  assert.equal([...courseXml.matchAll(/<block id=/g)].length, 6);
  assert.match(courseXml, /<langstring lang="ko-KR">멱등 프로듀서<\/langstring>/);
  assert.doesNotMatch(courseXml, /<url>(\/|https?:)/);
});

test('a lesson played to its end: the statements in Ralph are valid xAPI and follow cmi5', { timeout: 300_000 }, async () => {
  const registration = randomUUID();
  const { url, activityId } = launchUrl('idempotence', registration, 'a');
  const page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
  const problems = watchProblems(page);
  await page.goto(url);
  const frame = lessonFrame(page);
  const { questions } = await play(frame, { next: '[data-testid="lesson-next"]', want: 'right' });
  assert.equal(questions, 7);
  await page.waitForFunction(() => {
    const st = Object.keys(localStorage).filter((k) => k.startsWith('eos-playground.lms.cmi5.'));
    return st.length === 1 && JSON.parse(localStorage.getItem(st[0])).queue.length === 0;
  }, null, { timeout: 30_000 });
  await screenshot(page, 'lms-cmi5-end');
  await page.goto('about:blank'); // the learner leaves: "terminated"
  let list = [];
  for (let i = 0; i < 80 && !list.some((s) => s.verb.id === `${ADL}terminated`); i++) {
    await new Promise((r) => setTimeout(r, 250));
    list = await statements(registration);
  }
  const { verbs, right } = checkSession(list, { activityId, questions: 7 });
  assert.equal(right, 7);
  assert.equal(verbs.filter((v) => v === 'passed').length, 1);
  assert.equal(fetches.get('a'), 1, 'one POST to the fetch URL');
  assert.equal(await page.locator('body').count(), 1);
  // Ralph has no State API: its 404 for LMS.LaunchData (and the console's line for it)
  // is expected; nothing else may go wrong.
  const noState = problems.filter((p) => p.startsWith('HTTP 404') && p.includes('/xAPI/activities/state?stateId=LMS.LaunchData'));
  assert.equal(noState.length, 1, problems.join('\n'));
  const rest = problems.filter((p) => !noState.includes(p) && p !== 'console error: Failed to load resource: the server responded with a status of 404 (Not Found)');
  assert.deepEqual(rest, []);

  // A second launch of the same registration (a new fetch URL): it opens at the end, and
  // sends no second "completed" or "passed" (cmi5 9.3: once a registration).
  const again = launchUrl('idempotence', registration, 'a2');
  await page.goto(again.url);
  assert.match(await page.locator('[data-testid="lms-frame"]').getAttribute('src'), /&step=11$/);
  await lessonFrame(page).locator('[data-testid="lesson-next"]:disabled').waitFor({ timeout: 60_000 });
  await page.goto('about:blank');
  let all = [];
  for (let i = 0; i < 80 && all.filter((s) => s.verb.id === `${ADL}terminated`).length < 2; i++) {
    await new Promise((r) => setTimeout(r, 250));
    all = await statements(registration);
  }
  const count = (v) => all.filter((s) => s.verb.id === `${ADL}${v}`).length;
  assert.deepEqual(
    ['initialized', 'terminated', 'completed', 'passed', 'failed'].map(count),
    [2, 2, 1, 1, 0],
    all.map((s) => s.verb.id.replace(ADL, '')).join(' '),
  );
  const second = all.filter((s) => s.context.extensions[SESSION] !== list[0].context.extensions[SESSION]);
  assert.deepEqual(second.map((s) => s.verb.id.replace(ADL, '')), ['initialized', 'terminated']);
  assert.equal(fetches.get('a2'), 1);
  await page.close();
});

test('statements made while the LRS is unreachable survive a reload and arrive once it is back', { timeout: 300_000 }, async () => {
  const registration = randomUUID();
  const { url, activityId } = launchUrl('pulsar-tc-crash', registration, 'b');
  const page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
  await page.goto(url);
  // "initialized" reaches Ralph, then the LRS goes away.
  for (let i = 0; i < 80 && !(await statements(registration)).length; i++) await new Promise((r) => setTimeout(r, 250));
  assert.equal((await statements(registration)).length, 1);
  const cut = (route) => route.abort('connectionrefused');
  await page.route(`${ralph.url}/**`, cut);
  const frame = lessonFrame(page);
  const first = await play(frame, { next: '[data-testid="pulsar-next"]', want: 'wrong', steps: 4 });
  assert.ok(first.questions >= 1, 'a question on the way');
  const queued = await page.evaluate(() => {
    const k = Object.keys(localStorage).find((x) => x.includes('eos-playground.lms.cmi5.') && x.includes('pulsar-tc-crash'));
    return JSON.parse(localStorage.getItem(k)).queue.map((s) => s.verb.id.split('/').pop());
  });
  assert.ok(queued.includes('answered'), queued.join(' '));
  // A reload while unreachable: the same launch goes on (no second token fetch).
  await page.reload();
  await lessonFrame(page).locator('[data-testid="pulsar-next"]').waitFor();
  const src = await page.locator('[data-testid="lms-frame"]').getAttribute('src');
  assert.match(src, /^pulsar\/index\.html\?lesson=pulsar-tc-crash&step=4$/);
  await page.unroute(`${ralph.url}/**`, cut);
  await play(lessonFrame(page), { next: '[data-testid="pulsar-next"]', want: 'wrong' });
  await page.waitForFunction(() => {
    const k = Object.keys(localStorage).find((x) => x.includes('pulsar-tc-crash'));
    return JSON.parse(localStorage.getItem(k)).queue.length === 0;
  }, null, { timeout: 60_000 });
  await page.goto('about:blank');
  let list = [];
  for (let i = 0; i < 80 && !list.some((s) => s.verb.id === `${ADL}terminated`); i++) {
    await new Promise((r) => setTimeout(r, 250));
    list = await statements(registration);
  }
  const { verbs, right } = checkSession(list, { activityId, questions: 5 });
  assert.equal(right, 0);
  assert.ok(verbs.includes('failed'));
  assert.equal(fetches.get('b'), 1, 'the reload used the token it had');
  await page.close();
});

test('outside an LMS the lesson plays with a one-line notice; an unknown lesson is named', { timeout: 120_000 }, async () => {
  const page = await browser.newPage({ viewport: { width: 900, height: 700 } });
  await page.goto(`${site.url}course/lms.html?lesson=fencing&lang=ko`);
  const notice = page.locator('[data-testid="lms-notice"]');
  await notice.waitFor();
  assert.equal(await notice.innerText(), 'LMS에서 실행되지 않았습니다. 레슨은 진행되지만 아무것도 기록되지 않습니다.');
  await lessonFrame(page).locator('[data-testid="lesson-next"]:enabled').waitFor({ timeout: 60_000 });
  assert.match(await page.locator('[data-testid="lms-frame"]').getAttribute('src'), /lang=ko$/);
  assert.match(await page.locator('[data-testid="lms-frame"]').getAttribute('title'), /^정확히 한 번 플레이그라운드: .*좀비/);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'ko');
  // The launch page itself (its frame is the playground, checked by its own tests).
  assert.deepEqual(await axe(page, { iframes: false }), []);
  await page.goto(`${site.url}course/lms.html?lesson=nope&lang=th`);
  assert.equal(await page.locator('[data-testid="lms-notice"]').innerText(), 'แพ็กเกจนี้ไม่มีบทเรียนชื่อ “nope”');
  await page.close();
});
