// Shared helpers of the LMS package tests (lms-scorm.test.mjs, lms-cmi5.test.mjs): make
// the packages with scripts/package-lms.sh, unpack one, and play a packaged lesson in its
// launch page's frame, answering each question right or wrong.

import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './harness.mjs';

/** Runs scripts/package-lms.sh with `args`; returns its output (throws on failure). */
export function packageLms(args = []) {
  return execFileSync(path.join(REPO_ROOT, 'scripts', 'package-lms.sh'), args, {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Unpacks dist-lms/NAME into a fresh temporary folder (python3's zipfile, as the
 * script writes it) and returns the folder. */
export async function unpack(name, into) {
  const dir = into ?? (await mkdtemp(path.join(os.tmpdir(), 'eos-lms-')));
  execFileSync('python3', ['-m', 'zipfile', '-e', path.join(REPO_ROOT, 'dist-lms', name), dir]);
  return dir;
}

/** A file of an unpacked package, as text. */
export const readText = (dir, rel) => readFile(path.join(dir, rel), 'utf8');

/**
 * Plays the lesson in `frame` (a FrameLocator of the launch page's lesson frame) from
 * where it stands: answers every question shown (`want`: 'right' tries the choices until
 * the feedback says right, 'wrong' until it says wrong), then Next, until Next is
 * disabled or `steps` steps were taken. Returns { steps, questions }.
 */
export async function play(frame, { next, want = 'right', steps = Infinity }) {
  const button = frame.locator(next);
  await frame.locator(`${next}:enabled`).waitFor({ timeout: 60_000 });
  let taken = 0;
  let questions = 0;
  while (taken < steps && (await button.isEnabled())) {
    const asked = frame.locator('fieldset[data-question]');
    for (let q = 0; q < (await asked.count()); q++) {
      const fieldset = asked.nth(q);
      const radios = fieldset.locator('input[type=radio]');
      await radios.first().check();
      const feedback = fieldset.locator('[data-feedback][data-correct]');
      await feedback.waitFor();
      const right = (await feedback.getAttribute('data-correct')) === 'true';
      if (want === 'right' && !right) {
        // A wrong choice names the right one ("The answer: …"): choose that.
        const said = await feedback.locator('p.small').innerText();
        const labels = await fieldset.locator('label').allInnerTexts();
        const i = labels.findIndex((l, i) => i > 0 && said.includes(l.trim()));
        await radios.nth(i).check();
        await fieldset.locator('[data-feedback][data-correct="true"]').waitFor();
      } else if (want === 'wrong' && right) {
        await radios.nth(1).check();
        await fieldset.locator('[data-feedback][data-correct="false"]').waitFor();
      }
      questions += 1;
    }
    await button.click();
    taken += 1;
  }
  return { steps: taken, questions };
}
