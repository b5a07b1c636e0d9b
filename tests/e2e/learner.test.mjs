// What a new learner trips over, end to end in the built site:
// - every refused transactional call answers in the producer panel (Kafka's exception
//   class and message), in "What happened", and in the recorded history (so a reload or
//   a share link keeps it); an empty records field gets the first page's field message;
// - a lesson chosen on the first page opens on the page it was written for; control
//   batches show as COMMIT/ABORT markers, never as record text;
// - a bad `?lesson=`/`step=`/`page=` says what is wrong (and sends eos:error when
//   embedded); an author's failing step stops the player and says what to do; empty and
//   oversized lesson files are refused;
// - the address keeps the current view (reload restores it), Reset can be undone, and
//   leaving with an author's lesson loaded asks first.
// Lesson step counts are never assumed: the lesson files change.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { screenshot, useSite, watchProblems } from './harness.mjs';

const tid = (id) => `[data-testid="${id}"]`;
const site = useSite();

async function open(page, query = '', hash = '') {
  await page.goto(`${site.server.url}${query}${hash}`, { waitUntil: 'load' });
  await page.locator('#app .pg').first().waitFor({ state: 'visible', timeout: 120_000 });
}

/** Waits until the address holds a share link (the debounced replaceState). */
async function linkInAddress(page, before = '') {
  await page.waitForFunction(
    (b) => location.hash.length > 20 && location.hash !== b,
    before,
    { timeout: 10_000 },
  );
  return page.evaluate(() => location.hash);
}

async function newPage(width = 1280, height = 800) {
  const page = await site.browser.newPage({ viewport: { width, height } });
  return { page, problems: watchProblems(page) };
}

test('refused transactional calls answer in the panel, the events and the history', { timeout: 120_000 }, async () => {
  const { page, problems } = await newPage();
  try {
    await open(page, '', '#transactions');
    const outcome = page.locator(tid('producer-outcome'));
    const events = page.locator(tid('events'));
    const calls = [
      ['txn-commit', /commitTransaction\(\) threw \w+Exception: .+/],
      ['txn-abort', /abortTransaction\(\) threw \w+Exception: .+/],
      ['txn-begin', /beginTransaction\(\) threw \w+Exception: .+/],
      ['txn-send', /send\(\) threw \w+Exception: .+/],
    ];
    let n = 0;
    for (const [button, shown] of calls) {
      await page.locator(tid(button)).click();
      n += 1;
      await page.locator(tid(`tt-item-${n}`)).waitFor({ timeout: 10_000 });
      assert.match(await outcome.innerText(), shown, `${button} before initTransactions()`);
      assert.doesNotMatch(await outcome.innerText(), /Not done/);
      assert.equal(await page.locator(tid('txn-error')).count(), 0, 'no SimError: the call is an event');
    }
    const said = await events.innerText();
    assert.match(said, /refused it itself; nothing was sent/);
    assert.doesNotMatch(said, /coordinator no longer has this transaction open/);

    // After init, a second init is refused by the client too (Kafka's words).
    await page.locator(tid('txn-init')).click();
    await page.locator(tid('txn-client-state')).filter({ hasText: 'READY' }).waitFor();
    await page.locator(tid('txn-init')).click();
    assert.match(await outcome.innerText(), /initTransactions\(\) threw \w+Exception: .*READY/);

    // The address keeps all of it: a reload shows the same refusal and history.
    const before = await outcome.innerText();
    await linkInAddress(page);
    await page.waitForTimeout(700);
    await page.reload({ waitUntil: 'load' });
    await page.locator(tid('page-transactions')).waitFor({ timeout: 60_000 });
    assert.equal(await outcome.innerText(), before);
    assert.equal(await page.locator('[data-testid^="tt-item-"]').count(), n + 3, 'the start and every call');

    // An empty or blank records field: the first page's field message.
    await page.locator(tid('txn-records')).fill('   ');
    await page.locator(tid('txn-send')).click();
    const txnMessage = await page.locator('#txn-records-field-error').innerText();
    await open(page, '', '#idempotence');
    await page.locator(tid('records')).fill('   ');
    await page.locator(tid('send')).click();
    const firstMessage = await page.locator('#records-error').innerText();
    assert.ok(txnMessage.length > 0);
    assert.equal(txnMessage, firstMessage);
    assert.deepEqual(problems, []);
  } finally {
    await page.close();
  }
});

test('lessons open on their own page; markers never show as record text', { timeout: 120_000 }, async () => {
  const { page, problems } = await newPage();
  try {
    await open(page);
    for (const name of ['transactions', 'fencing', 'consume-transform-produce']) {
      await open(page, '', '#idempotence');
      const value = await page.locator(`${tid('lesson-select')} option`, { hasText: `${name}:` }).getAttribute('value');
      await page.locator(tid('lesson-select')).selectOption(value);
      await page.locator(tid('page-transactions')).waitFor({ timeout: 10_000 });
      assert.equal(await page.locator(tid('nav-transactions')).getAttribute('aria-current'), 'page', name);
      // Play it through: no control record ever shows its bytes as text.
      const next = page.locator(tid('lesson-next'));
      for (let i = 0; i < 200 && (await next.isEnabled()); i++) await next.click();
      const log = await page.locator(tid('txn-log')).innerText();
      assert.doesNotMatch(log, /[\u0000-\u0008\u000e-\u001f\ufffd]/, `${name}: unprintable characters in the log`);
    }
    // The idempotence page's log shows a marker as a marker (an author's scenario).
    await page.goto('about:blank');
    await open(page, '', '#idempotence');
    await page.locator(tid('lesson-file')).setInputFiles({
      name: 'markers.eos',
      mimeType: 'text/plain',
      buffer: Buffer.from(
        'cluster brokers=1\ntopic create t partitions=1\nproducer p create transactional.id=x\n' +
          'producer p init-transactions\nproducer p begin\nproducer p send t-0 a\nproducer p commit\n',
      ),
    });
    await page.locator(tid('lesson-next')).waitFor();
    const next = page.locator(tid('lesson-next'));
    for (let i = 0; i < 20 && (await next.isEnabled()); i++) await next.click();
    assert.match(await page.locator(tid('log')).innerText(), /COMMIT marker/);
    assert.doesNotMatch(await page.locator(tid('log')).innerText(), /[\u0000-\u0008\u000e-\u001f\ufffd]/);
    assert.deepEqual(problems, []);
  } finally {
    await page.close({ runBeforeUnload: false });
  }
});

test('a bad ?lesson= says what is wrong and falls back; embedded, it sends eos:error', { timeout: 120_000 }, async () => {
  const { page, problems } = await newPage();
  try {
    await open(page, '?lesson=nope&step=-5&page=zzz');
    const said = await page.locator(tid('url-error')).innerText();
    assert.match(said, /“nope”/);
    assert.match(said, /-5/);
    assert.match(said, /zzz/);
    assert.match(await page.locator(tid('showing')).innerText(), /playground/);

    // Embedded: the host page hears eos:error, and the frame shows the message.
    await page.goto(`${site.server.url}embed-demo.html`, { waitUntil: 'load' });
    await page.evaluate((src) => {
      window.frameMessages = [];
      window.addEventListener('message', (e) => window.frameMessages.push(e.data));
      const f = document.createElement('iframe');
      f.src = src;
      f.dataset.testid = 'bad-frame';
      f.style.width = '700px';
      f.style.height = '500px';
      document.body.prepend(f);
    }, `${site.server.url}?embed=1&lesson=nope&step=-5&page=zzz`);
    await page.waitForFunction(() => window.frameMessages.some((m) => m && m.type === 'eos:error'), null, { timeout: 60_000 });
    const error = await page.evaluate(() => window.frameMessages.find((m) => m.type === 'eos:error'));
    assert.match(error.message, /nope/);
    const frame = page.frameLocator(tid('bad-frame'));
    assert.match(await frame.locator(tid('url-error')).innerText(), /nope/);
    assert.deepEqual(problems.filter((p) => !p.includes('embed-demo')), []);
  } finally {
    await page.close();
  }
});

test("an author's lesson: a failing step stops the player; empty and huge files are refused", { timeout: 120_000 }, async () => {
  const { page, problems } = await newPage();
  try {
    await open(page);
    const file = page.locator(tid('lesson-file'));
    // A step that fails: Next is disabled and the panel says what to do.
    await file.setInputFiles({
      name: 'broken.eos',
      mimeType: 'text/plain',
      buffer: Buffer.from('cluster brokers=1\ntopic create t partitions=1\nproducer ghost send t-0 a\necho never\n'),
    });
    const next = page.locator(tid('lesson-next'));
    // Next until the failing step has run (steps without narration between them may
    // play as one).
    const error = page.locator(tid('lesson-error'));
    for (let i = 0; i < 3 && (await error.count()) === 0 && (await next.isEnabled()); i++) {
      await next.click();
    }
    await error.waitFor();
    assert.match(await page.locator(tid('lesson-error')).innerText(), /line 3/);
    assert.match(await page.locator(tid('lesson-error')).innerText(), /fix that line/);
    assert.equal(await next.isDisabled(), true);

    // Leaving (here: reloading) with an author's lesson loaded asks first.
    let asked = null;
    page.once('dialog', async (d) => {
      asked = d.type();
      await d.accept();
    });
    await page.reload({ waitUntil: 'load' });
    assert.equal(asked, 'beforeunload');
  } finally {
    if (!page.isClosed()) await page.close();
  }
  const second = await newPage();
  try {
    await open(second.page);
    const file = second.page.locator(tid('lesson-file'));
    for (const [name, text, said] of [
      ['empty.eos', '', /no steps/],
      ['comments.eos', '# only a comment\n## a heading\n> narration\n', /no steps/],
      ['huge.eos', '# big\n' + 'echo x\n'.repeat(50_000), /at most 256 KB/],
    ]) {
      await file.setInputFiles({ name, mimeType: 'text/plain', buffer: Buffer.from(text) });
      await second.page.locator(tid('lesson-file-error')).filter({ hasText: name }).waitFor({ timeout: 10_000 });
      assert.match(await second.page.locator(tid('lesson-file-error')).innerText(), said, name);
      assert.equal(await second.page.locator(tid('lesson-progress')).count(), 0, `${name}: no "Step 0 of 0"`);
    }
    assert.deepEqual(second.problems, []);
  } finally {
    await second.page.close();
  }
});

test('the address keeps the view; Reset can be undone', { timeout: 120_000 }, async () => {
  const { page, problems } = await newPage();
  try {
    await open(page);
    await page.locator(tid('send')).click();
    await page.locator(tid('send')).click();
    await page.locator(tid('tt-item-2')).waitFor();
    const rows = await page.locator(`${tid('log')} tbody tr`).count();
    await linkInAddress(page);
    await page.waitForTimeout(700);
    await page.reload({ waitUntil: 'load' });
    await page.locator(tid('playground')).waitFor({ timeout: 60_000 });
    assert.equal(await page.locator(`${tid('log')} tbody tr`).count(), rows, 'the reload restored the log');
    assert.equal(await page.locator('[data-testid^="tt-item-"]').count(), 3, 'the start and two sends');

    // Reset goes back to the start of the timeline; Redo brings the actions back.
    await page.locator(tid('reset')).click();
    assert.match(await page.locator(`${tid('log')} tbody`).innerText(), /empty|no batch/i);
    await page.locator(tid('tt-forward')).click();
    await page.locator(tid('tt-forward')).click();
    assert.equal(await page.locator(`${tid('log')} tbody tr`).count(), rows, 'Redo undid the reset');
    assert.deepEqual(problems, []);
  } finally {
    await page.close();
  }
});

test('a lesson from ?lesson= is visible without scrolling at 1280×800', { timeout: 120_000 }, async () => {
  const { page } = await newPage();
  try {
    for (const [name, hash] of [['idempotence', ''], ['fencing', '']]) {
      await open(page, `?lesson=${name}`, hash);
      const box = await page.locator(tid('lesson-next')).boundingBox();
      assert.ok(box && box.y + box.height <= 800, `${name}: the lesson player's Next is at y=${box?.y}`);
      await screenshot(page, `learner-lesson-${name}-1280`);
    }
  } finally {
    await page.close();
  }
});

/** Where a Kafka name (OUT_OF_ORDER_SEQUENCE_NUMBER) shown on the page breaks between
 * lines other than after an underscore: one line each. */
const namesBrokenMidWord = (page) =>
  page.evaluate(() => {
    const out = [];
    const walker = document.createTreeWalker(document.querySelector('#app'), NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!n.parentElement?.getClientRects().length) continue;
      for (const m of n.data.matchAll(/[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+/g)) {
        let top = null;
        for (let i = m.index; i < m.index + m[0].length; i++) {
          const range = document.createRange();
          range.setStart(n, i);
          range.setEnd(n, i + 1);
          const rect = range.getClientRects()[0];
          if (!rect) continue;
          if (top !== null && rect.top > top + 2 && n.data[i - 1] !== '_') {
            out.push(`${m[0]} before "${n.data.slice(i, i + 3)}" in ${n.parentElement.className || n.parentElement.tagName}`);
          }
          top = rect.top;
        }
      }
    }
    return out;
  });

// A phone (360×740) and a half-width window (760): the page's tabs are one row (at 360
// it scrolls sideways), each reached with Tab and in view when focused; the lesson's
// first words show above the dock in the first screen; the room kept under the page and
// a focused control is at least the dock's height (two rows at 360); the timeline's
// times stay clear of its message bars; Kafka's long error names break at underscores.
test('a phone: one row of tabs, the lesson in the first screen, nothing under the dock', { timeout: 300_000 }, async () => {
  for (const [lang, locale] of [['en', 'en-US'], ['ko', 'ko-KR'], ['th', 'th-TH']]) {
    const context = await site.browser.newContext({ locale, viewport: { width: 360, height: 740 } });
    try {
      const page = await context.newPage();
      const problems = watchProblems(page);
      await open(page, '?lesson=transactions');
      await page.locator(`html[lang="${lang}"]`).waitFor();
      const nav = page.locator('nav.page-nav');
      const tabs = nav.locator('ul a');
      assert.equal(await tabs.count(), 4);
      assert.equal(await nav.locator('a[aria-current="page"]').count(), 1);
      for (const width of [760, 360]) {
        await page.setViewportSize({ width, height: width === 360 ? 740 : 900 });
        const row = await tabs.evaluateAll((as) => new Set(as.map((a) => Math.round(a.getBoundingClientRect().top))).size);
        assert.equal(row, 1, `${lang} ${width} px: the tabs take ${row} rows`);
        if (width === 760) {
          const hidden = await nav.locator('ul').evaluate((ul) => ul.scrollWidth - ul.clientWidth);
          assert.ok(hidden <= 0, `${lang} 760 px: ${hidden} px of tabs out of view`);
        }
      }
      // At 360 px: every tab by keyboard, forwards and back, each wholly in view of the
      // row when focused (Chromium's own focus scrolling would leave a tab that is partly
      // shown as it is; the page scrolls it in).
      await tabs.first().focus();
      for (const [i, key] of [[1, null], [2, 'Tab'], [3, 'Tab'], [4, 'Tab'], [3, 'Shift+Tab'], [2, 'Shift+Tab'], [1, 'Shift+Tab']]) {
        if (key) await page.keyboard.press(key);
        const inView = await page.evaluate(() => {
          const a = document.activeElement;
          const ul = a.closest('.page-nav ul');
          if (!ul) return `focus on ${a.tagName}`;
          const [r, box] = [a.getBoundingClientRect(), ul.getBoundingClientRect()];
          return r.left >= box.left - 1 && r.right <= box.right + 1 ? 'ok' : `${a.textContent} at ${r.left}..${r.right} in ${box.left}..${box.right}`;
        });
        assert.equal(inView, 'ok', `${lang}: tab ${i} (${key ?? 'focus'})`);
      }
      await page.evaluate(() => window.scrollTo(0, 0));
      const [why, dock] = await Promise.all(['.lesson-why', '.lesson-dock'].map((s) => page.locator(s).boundingBox()));
      assert.ok(why.y > 0 && why.y + 20 < dock.y, `${lang}: the lesson's first words at y=${why.y}, the dock at y=${dock.y}`);
      const room = await page.evaluate(() => [
        parseFloat(getComputedStyle(document.documentElement).scrollPaddingBottom),
        parseFloat(getComputedStyle(document.body).paddingBottom),
      ]);
      for (const r of room) assert.ok(r >= dock.height, `${lang}: ${r} px kept for a dock ${dock.height} px high`);
      await screenshot(page, `learner-phone-${lang}-360`);
      if (lang === 'en') {
        // The timeline's rows (time, then the message's bar) once messages flowed.
        for (let i = 0; i < 4; i++) await page.locator(tid('lesson-next')).click();
        const touching = await page.evaluate(() =>
          [...document.querySelectorAll('.tl-row')].flatMap((row) => {
            const [time, msg] = [row.querySelector('.tl-time'), row.querySelector('.msg')];
            if (!time || !msg) return [];
            const range = document.createRange();
            range.selectNodeContents(time);
            const gap = msg.getBoundingClientRect().left - range.getBoundingClientRect().right;
            return gap < 4 ? [`${time.textContent}: ${gap.toFixed(1)} px`] : [];
          }),
        );
        assert.ok((await page.locator('.tl-row .msg').count()) > 0, 'messages on the timeline');
        assert.deepEqual(touching, [], 'times touching their message bar');
        // A name breaks only after an underscore that ends a part of it: never inside
        // the leading `__` of __transaction_state, which the events name.
        const breaks = await page.evaluate(() =>
          [...document.querySelectorAll('#app wbr')].map((w) => w.previousSibling?.textContent ?? ''),
        );
        assert.ok(breaks.length > 0, 'names with underscores on the page');
        assert.deepEqual(breaks.filter((t) => !/[A-Za-z0-9]_$/.test(t)).map((t) => t.slice(-24)), [], 'breaks inside a leading __');
        assert.ok(await page.locator('#app').evaluate((app) => app.textContent.includes('__transaction_state')), 'the events name __transaction_state');
      }
      assert.deepEqual(problems, [], problems.join('\n'));
    } finally {
      await context.close();
    }
  }
  // Kafka's error names, in the event list, the verdict, the timeline, the narration and
  // the questions of the lesson that shows most of them.
  const { page, problems } = await newPage(360, 740);
  try {
    await open(page, '?lesson=idempotence');
    const next = page.locator(tid('lesson-next'));
    const broken = new Set();
    for (let i = 0; i < 30 && (await next.isEnabled()); i++) {
      await next.click();
      for (const b of await namesBrokenMidWord(page)) broken.add(b);
    }
    assert.ok((await page.getByText('OUT_OF_ORDER_SEQUENCE_NUMBER').count()) > 0, 'the lesson shows OUT_OF_ORDER_SEQUENCE_NUMBER');
    assert.deepEqual([...broken], [], 'names broken mid-word');
    assert.deepEqual(problems, [], problems.join('\n'));
  } finally {
    await page.close();
  }
});
