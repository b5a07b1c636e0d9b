// Replication in the built site, on the idempotence page: choose the 3-broker cluster
// (replication.factor=3, min.insync.replicas=2), send `a`, then `b` step by step until
// both followers have it, crash the leader with one click before it answers (its card
// counts down the controller's 9 s session, its partition's leader is unreachable), and
// run (the controller fences it when the session runs out):
// the producer's retry is answered DUPLICATE by the new leader, and every replica still
// up holds one `a` and one `b`. axe-core finds no violations with the cluster panel and
// the replicas view on screen; the new panels fit in 360 px; screenshots at
// 1280×800, 760 and 360 px (target/screenshots/replication-*.png).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { axe, screenshot, useSite, watchProblems } from './harness.mjs';

const tid = (id) => `[data-testid="${id}"]`;
const site = useSite();

const text = (page, id) => page.locator(tid(id)).innerText();

async function allHave(page, leo) {
  for (const id of [1, 2, 3]) {
    if (!(await text(page, `replica-${id}-offsets`)).includes(`LEO ${leo}`)) return false;
  }
  return true;
}

for (const { width, height } of [
  { width: 1280, height: 800 },
  { width: 760, height: 1000 },
  { width: 360, height: 800 },
]) {
  test(`crash the leader: the new leader answers the retry DUPLICATE (${width}px)`, { timeout: 180_000 }, async () => {
    const page = await site.browser.newPage({ viewport: { width, height } });
    const problems = watchProblems(page);
    try {
      await page.goto(`${site.server.url}#idempotence`, { waitUntil: 'load' });
      await page.locator(tid('playground')).waitFor({ state: 'visible', timeout: 120_000 });
      assert.equal(await page.locator(tid('cluster-panel')).count(), 0, 'one broker: no cluster panel');

      await page.locator(tid('cluster-size')).selectOption('3');
      await page.locator(tid('cluster-panel')).waitFor();
      for (const id of [1, 2, 3]) assert.equal(await text(page, `broker-${id}-state`), 'up');
      assert.match(await text(page, 'replicas-summary'), /ISR \[1, 2, 3\]/);

      await page.locator(tid('records')).fill('a');
      await page.locator(tid('send')).click();
      assert.ok(await allHave(page, 1), 'a on every replica');

      await page.locator(tid('step-mode')).check();
      await page.locator(tid('records')).fill('b');
      await page.locator(tid('send')).click();
      let steps = 0;
      while (!(await allHave(page, 2))) {
        assert.ok(steps++ < 60, 'b never reached the followers');
        await page.locator(tid('step')).click();
      }
      assert.equal(await page.locator(tid('verdict')).getAttribute('data-verdict'), 'APPEND');

      // The controller does not see a crash: broker 1 leads until its session runs out
      // (broker.session.timeout.ms, 9 s); Run gets there, and the new leader answers.
      // The card counts down to the fence, and the partition says its leader is
      // unreachable while the controller still names it.
      await page.locator(tid('broker-1-crash')).click();
      assert.equal(await text(page, 'broker-1-state'), 'stopped');
      assert.match(await text(page, 'replicas-summary'), /Leader: broker 1 · leader epoch 0/);
      assert.equal(
        await text(page, 'broker-1-controller'),
        'crashed — the controller has not noticed yet (session expires in 9000 ms)',
      );
      assert.match(await text(page, 'replica-1'), /leader unreachable/);
      await page.locator(tid('cluster-panel')).scrollIntoViewIfNeeded();
      await screenshot(page, `replication-${width}-crashed`);
      await page.locator(tid('replicas-view')).scrollIntoViewIfNeeded();
      await screenshot(page, `replication-${width}-crashed-replicas`);

      await page.locator(tid('run')).click();
      await page.locator(`${tid('verdict')}[data-verdict="DUPLICATE"]`).waitFor({ timeout: 20_000 });
      assert.match(await text(page, 'replicas-summary'), /leader epoch 1/);
      assert.equal(await text(page, 'broker-1-controller'), 'fenced');
      assert.doesNotMatch(await text(page, 'replica-1'), /leader unreachable/);
      for (const id of [2, 3]) {
        assert.match(await text(page, `replica-${id}-offsets`), /LEO 2 /, `one a, one b on broker ${id}`);
      }

      assert.deepEqual(await axe(page), [], `axe at ${width}px`);
      // Nothing inside the new panels spills out of them (the page itself is 86 px too
      // wide at 360 px since the nav tools' language menu landed on main, with or
      // without these panels: a11y.test.mjs measures that).
      for (const id of ['cluster-panel', 'replicas-view']) {
        const spill = await page.locator(tid(id)).evaluate((e) => e.scrollWidth - e.clientWidth);
        assert.ok(spill <= 0, `${id} spills ${spill}px at ${width}px`);
      }
      await screenshot(page, `replication-${width}`);
      await page.locator(tid('replicas-view')).scrollIntoViewIfNeeded();
      await screenshot(page, `replication-${width}-replicas`);
      await page.locator(tid('cluster-panel')).scrollIntoViewIfNeeded();
      await screenshot(page, `replication-${width}-cluster`);
      assert.deepEqual(problems, []);
    } finally {
      await page.close();
    }
  });
}

test('the failover lesson plays in the lesson player on the replicated views', { timeout: 180_000 }, async () => {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const problems = watchProblems(page);
  try {
    await page.goto(`${site.server.url}?lesson=failover&step=1#transactions`, { waitUntil: 'load' });
    await page.locator(tid('page-transactions')).waitFor({ state: 'visible', timeout: 120_000 });
    await page.locator(tid('cluster-panel')).waitFor();
    assert.equal(await page.locator(tid('broker-1-crash')).count(), 0, 'a lesson shows, it does not act');
    assert.deepEqual(await axe(page), []);
    assert.deepEqual(problems, []);
  } finally {
    await page.close();
  }
});

// The replication lesson to its last step: the timeline folds the followers' fetches into
// rows a keyboard opens and closes, and the page passes axe with a fold open.
for (const { width, height } of [
  { width: 1280, height: 800 },
  { width: 760, height: 1000 },
]) {
  test(`the replication lesson: follower fetches fold on the timeline (${width}px)`, { timeout: 180_000 }, async () => {
    const page = await site.browser.newPage({ viewport: { width, height } });
    const problems = watchProblems(page);
    try {
      await page.goto(`${site.server.url}?lesson=replication&step=8#transactions`, { waitUntil: 'load' });
      await page.locator(tid('page-transactions')).waitFor({ state: 'visible', timeout: 120_000 });
      await page.locator(tid('cluster-panel')).waitFor();
      // The lesson is replayed to its last step: Next is off once it is there.
      await page.locator(`${tid('lesson-next')}[disabled]`).waitFor({ timeout: 60_000 });
      assert.match(await text(page, 'replicas-summary'), /ISR \[1, 3, 2\]/);
      const folds = page.locator(tid('tl-fold'));
      assert.ok((await folds.count()) > 0, 'follower fetches are folded');
      const fold = folds.last();
      assert.match(await fold.innerText(), /\d+ follower fetches/);
      assert.equal(await fold.getAttribute('aria-expanded'), 'false');
      const rows = async () => page.locator(`${tid('timeline')} .msg`).count();
      const n = Number((await fold.innerText()).match(/(\d+) follower fetches/)[1]);
      // The focus in the diagram draws every row, not only the newest; then Enter opens
      // the run under its fold.
      await fold.focus();
      const before = await page.evaluate(() => new Promise((done) => requestAnimationFrame(() =>
        done(document.querySelectorAll('[data-testid="timeline"] .msg').length))));
      await page.keyboard.press('Enter');
      await page.locator(`${tid('tl-fold')}[aria-expanded="true"]`).waitFor();
      assert.equal(await rows(), before + n, 'Enter opens the run');
      assert.deepEqual(await axe(page), [], `axe with a fold open at ${width}px`);
      await page.locator(tid('timeline')).scrollIntoViewIfNeeded();
      await screenshot(page, `replication-lesson-${width}-timeline-open`);
      await page.keyboard.press(' ');
      await page.locator(`${tid('tl-fold')}[aria-expanded="true"]`).waitFor({ state: 'detached' });
      assert.equal(await rows(), before, 'Space closes it');
      await screenshot(page, `replication-lesson-${width}-timeline`);
      assert.deepEqual(problems, []);
    } finally {
      await page.close();
    }
  });
}

// While a lesson's file is on its way the player says so and offers no buttons: before,
// its empty step list looked finished (Next off, "Lesson finished.") and the panels
// showed the page's own world. The file is held back here until the loading line shows.
test('a lesson still loading says so, then plays to its step', { timeout: 180_000 }, async () => {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const problems = watchProblems(page);
  let release;
  const held = new Promise((resolve) => {
    release = resolve;
  });
  await page.route('**/static/lessons/replication.eos', async (route) => {
    await held;
    await route.continue();
  });
  try {
    await page.goto(`${site.server.url}?lesson=replication&step=8#transactions`, { waitUntil: 'load' });
    await page.locator(tid('lesson-loading')).waitFor({ timeout: 120_000 });
    assert.equal(await page.locator(tid('lesson-next')).count(), 0, 'nothing to press while loading');
    assert.equal(await page.locator(tid('lesson-step')).count(), 0, 'no step, no "finished"');
    release();
    await page.locator(`${tid('lesson-next')}[disabled]`).waitFor({ timeout: 60_000 });
    assert.equal(await page.locator(tid('lesson-loading')).count(), 0);
    assert.match(await text(page, 'replicas-summary'), /ISR \[1, 3, 2\]/);
    assert.deepEqual(problems, []);
  } finally {
    release();
    await page.close();
  }
});
