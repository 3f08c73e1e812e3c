import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { listenForProgress, PROGRESS_INTERVAL_MS, progressReporter } from '../../src/core/progress-channel.js';
import { duration, estimateMs, leftNow, PACE_KNOWN_AFTER, StatusLine, statusText } from '../../src/report/status-line.js';
import { runConformance } from '../../src/runner/run.js';
import { buildIsCurrent } from '../../src/core/build-state.js';
import { packageRoot } from '../../src/core/package-info.js';

const ERASE = '\r\u001b[2K';

describe('statusText', () => {
  const known = { checksDone: PACE_KNOWN_AFTER.checks, checksTotal: 60, requests: 12, elapsedMs: PACE_KNOWN_AFTER.ms };

  test('checks done of total, requests, elapsed time, and the estimate given', () => {
    expect(statusText(known, estimateMs(known))).toBe('5 of 60 checks · 12 requests · 5 s · about 55 s left');
    expect(statusText({ ...known, checksTotal: undefined, requests: 1 })).toBe('5 checks · 1 request · 5 s');
  });

  test('estimateMs: once the pace is known; near misses: one check or one ms before, all done, no total', () => {
    expect(estimateMs(known)).toBe(55_000);
    expect(estimateMs({ ...known, checksDone: PACE_KNOWN_AFTER.checks - 1 })).toBeUndefined();
    expect(estimateMs({ ...known, elapsedMs: PACE_KNOWN_AFTER.ms - 1 })).toBeUndefined();
    expect(estimateMs({ ...known, checksDone: 60 })).toBeUndefined();
    expect(estimateMs({ ...known, checksDone: 59 })).toBeCloseTo(5_000 / 59);
    expect(estimateMs({ ...known, checksTotal: undefined })).toBeUndefined();
  });

  test('leftNow: counts down from when it was made; spent (under half a second) it is gone, never "about 0 s left"', () => {
    const made = { leftMs: 3_000, at: 10_000 };
    expect(leftNow(made, 10_000)).toBe(3_000);
    expect(leftNow(made, 12_000)).toBe(1_000);
    expect(leftNow(made, 12_500)).toBe(500);
    expect(leftNow(made, 12_501)).toBeUndefined();
    expect(leftNow(undefined, 0)).toBeUndefined();
  });

  test('durations on each side of a minute and of an hour', () => {
    expect([59_499, 59_500, 3_599_499, 3_599_500, 3_660_000].map(duration)).toEqual(['59 s', '1 min 00 s', '59 min 59 s', '1 h 00 min', '1 h 01 min']);
  });
});

describe('StatusLine on a terminal', () => {
  afterEach(() => vi.useRealTimers());

  /** A terminal that keeps what it was sent. */
  const terminal = (columns?: number) => {
    const written: string[] = [];
    return { written, columns, write: (text: string) => written.push(text) };
  };

  test('stays below every line printed: erased, the line written, drawn again; erased for good when the run ends', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let now = 1_000;
    const out = terminal(100);
    const line = new StatusLine(out, 1_000, () => now).start();
    line.update({ checksTotal: 61 });
    line.print('  ✓ must 5/R2 list-401-missing');
    now += 2_000;
    vi.advanceTimersByTime(1_000); // redrawn each second: the elapsed time moves
    line.update({ checksDone: 1, requests: 3 });
    line.update({ requests: 2 }); // a late count never takes it back
    line.stop();
    vi.advanceTimersByTime(5_000); // stopped: never drawn again
    line.print('Verdict: CONFORMANT'); // the line is gone: nothing left to erase before it
    expect(out.written).toEqual([
      '0 checks · 0 requests · 0 s',
      `${ERASE}0 of 61 checks · 0 requests · 0 s`,
      `${ERASE}  ✓ must 5/R2 list-401-missing\n`,
      '0 of 61 checks · 0 requests · 0 s',
      `${ERASE}0 of 61 checks · 0 requests · 2 s`,
      `${ERASE}1 of 61 checks · 3 requests · 2 s`,
      `${ERASE}1 of 61 checks · 3 requests · 2 s`,
      ERASE,
      'Verdict: CONFORMANT\n',
    ]);
  });

  test('the edge of the width: a line exactly as wide as the terminal allows is whole, one character more is cut', () => {
    const text = '0 checks · 0 requests · 0 s'; // 27 characters; the last column stays free
    const exact = terminal(text.length + 1);
    new StatusLine(exact, 0, () => 0).start().stop();
    expect(exact.written[0]).toBe(text);
    const narrower = terminal(text.length);
    new StatusLine(narrower, 0, () => 0).start().stop();
    expect(narrower.written[0]).toBe(`${text.slice(0, text.length - 2)}…`);
  });

  test('never wider than the terminal (a wrapped line would not be erased whole); 80 columns when the terminal says none', () => {
    const narrow = terminal(20);
    new StatusLine(narrow, 0, () => 0).start().stop();
    expect(narrow.written[0]).toBe('0 checks · 0 reque…');
    const unknown = terminal(0);
    new StatusLine(unknown, 0, () => 0).start().stop();
    expect(unknown.written[0]).toBe('0 checks · 0 requests · 0 s');
  });

  test('80 columns when the terminal says none: 79 characters are whole, 80 are cut to 78 and …', () => {
    const drawn = (requests: number) => {
      const out = terminal(undefined);
      const line = new StatusLine(out, 0, () => 0).start();
      line.update({ checksDone: 1e17, checksTotal: 1e16, requests });
      line.stop();
      return out.written.at(-2)!.replace(ERASE, '');
    };
    // '1e17 of 1e16 checks · N requests · 0 s', every digit written: 64 characters and N's.
    expect(drawn(1e14)).toBe(`${1e17} of ${1e16} checks · ${1e14} requests · 0 s`);
    expect(drawn(1e14)).toHaveLength(79);
    expect(drawn(1e15)).toBe(`${`${1e17} of ${1e16} checks · ${1e15} requests · 0 s`.slice(0, 78)}…`);
  });
});

describe('the progress channel', () => {
  afterEach(() => vi.useRealTimers());

  /** Listens on `runId`'s channel: the counts heard, and `done` once `last` is heard. */
  const listening = (runId: string, last: number) => {
    const heard: number[] = [];
    let arrived!: () => void;
    const done = new Promise<void>((resolve) => (arrived = resolve));
    const stop = listenForProgress(runId, (requests) => {
      heard.push(requests);
      if (requests === last) arrived();
    });
    return { heard, done, stop };
  };

  test('posts at once, then at most every interval, the latest count last; closing posts what is left', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let now = 0;
    const { heard, done, stop } = listening('progress-test', 5);
    const reporter = progressReporter('progress-test', () => now);
    reporter.sent(1); // posted
    reporter.sent(2); // within the interval: held
    now += PROGRESS_INTERVAL_MS - 1;
    reporter.sent(3);
    now += 1;
    vi.advanceTimersByTime(PROGRESS_INTERVAL_MS); // the trailing post: 3
    reporter.sent(4);
    reporter.sent(5);
    reporter.close(); // what is left: 5
    await done;
    stop();
    expect(heard).toEqual([1, 3, 5]);
  });

  test('after a trailing post, the next count held within an interval gets a trailing post of its own', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let now = 0;
    const { heard, done, stop } = listening('progress-trailing', 4);
    const reporter = progressReporter('progress-trailing', () => now);
    reporter.sent(1); // posted at 0
    now = 10;
    reporter.sent(2); // held: a trailing post at the interval's end
    now = PROGRESS_INTERVAL_MS;
    vi.advanceTimersByTime(PROGRESS_INTERVAL_MS - 10); // posts 2
    now = PROGRESS_INTERVAL_MS + 10;
    reporter.sent(3); // held again: its own trailing post
    now = 2 * PROGRESS_INTERVAL_MS;
    vi.advanceTimersByTime(PROGRESS_INTERVAL_MS - 10); // posts 3
    now = 4 * PROGRESS_INTERVAL_MS;
    reporter.sent(4); // long after: at once
    await done;
    stop();
    reporter.close();
    expect(heard).toEqual([1, 2, 3, 4]);
  });

  test('the edge of the interval: a count one interval after the last post goes at once; one a millisecond sooner waits', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let now = 0;
    const { heard, done, stop } = listening('progress-edge', 3);
    const reporter = progressReporter('progress-edge', () => now);
    reporter.sent(1); // posted at 0
    now = PROGRESS_INTERVAL_MS - 1;
    reporter.sent(2); // a millisecond sooner: held (no timer is run in this test)
    now = PROGRESS_INTERVAL_MS;
    reporter.sent(3); // exactly one interval: posted at once, with the latest count
    await done;
    stop();
    reporter.close();
    expect(heard).toEqual([1, 3]);
  });
});

describe('a run', () => {
  /** A stream the run writes its console to, as a terminal (isTTY) or not. */
  const console = (tty: boolean) => {
    const out = Object.assign(new PassThrough(), tty ? { isTTY: true, columns: 120 } : {});
    let text = '';
    out.on('data', (chunk) => (text += chunk));
    return { out, text: () => text };
  };

  test('on a terminal keeps a status line of checks and live requests, erased before the summary; with --quiet or off a terminal, none', async () => {
    const tty = console(true);
    const run = await runConformance({ reportDir: null, out: tty.out, color: false, seed: 1, checkFilter: '^list-401-' });
    const statuses = [...tty.text().matchAll(/(\d+) of (\d+) checks · (\d+) requests?/g)].map((match) => match.slice(1).map(Number));
    expect(statuses.length).toBeGreaterThan(1);
    const total = run.report.checks.length;
    expect(statuses.every(([, of]) => of === total)).toBe(true);
    expect(Math.max(...statuses.map(([done]) => done!))).toBe(total);
    expect(Math.max(...statuses.map(([, , requests]) => requests!))).toBeGreaterThan(0);
    // The summary after the last erase: no status below it.
    const summary = tty.text().slice(tty.text().lastIndexOf(ERASE) + ERASE.length);
    expect(summary).toMatch(/^\nChecks\n|^Checks\n/);
    expect(summary).not.toMatch(/ of \d+ checks/);

    // Near misses: --quiet on a terminal, and no terminal.
    const quiet = console(true);
    await runConformance({ reportDir: null, out: quiet.out, color: false, seed: 1, checkFilter: '^list-401-missing$', quiet: true });
    expect(quiet.text()).toMatch(/^Verdict: /m);
    expect(quiet.text()).not.toContain('\u001b[2K');

    const plain = console(false);
    await runConformance({ reportDir: null, out: plain.out, color: false, seed: 1, checkFilter: '^list-401-' });
    expect(plain.text()).not.toContain('\u001b[2K');
    expect(plain.text()).not.toMatch(/ of \d+ checks · /);
  });
});

describe('the estimate never stalls', () => {
  afterEach(() => vi.useRealTimers());

  test('between the ends of checks it counts down each second; a last check that outlasts it takes it off the line', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let now = 0;
    const written: string[] = [];
    const line = new StatusLine({ write: (text: string) => written.push(text), columns: 120 }, 0, () => now).start();
    line.update({ checksTotal: 6 });
    now = PACE_KNOWN_AFTER.ms;
    line.update({ checksDone: 5 }); // 1 s a check so far, one left: about 1 s
    const shown = () => written.at(-1)!.replace(ERASE, '');
    expect(shown()).toBe('5 of 6 checks · 0 requests · 5 s · about 1 s left');
    now += 1_000;
    vi.advanceTimersByTime(1_000);
    // Spent, the last check still running: no estimate, rather than "about 0 s left" for ever.
    expect(shown()).toBe('5 of 6 checks · 0 requests · 6 s');
    now += 10_000;
    vi.advanceTimersByTime(10_000);
    expect(shown()).toBe('5 of 6 checks · 0 requests · 16 s');
    line.stop();
  });

  test('a slow run: the estimate made as a check ends moves down each second until the next ends', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let now = 0;
    const written: string[] = [];
    const line = new StatusLine({ write: (text: string) => written.push(text), columns: 120 }, 0, () => now).start();
    line.update({ checksTotal: 20 });
    now = 10_000;
    line.update({ checksDone: 10 }); // 1 s a check: about 10 s left
    const lefts: string[] = [];
    for (let i = 0; i < 3; i++) {
      lefts.push(/about (.*) left/.exec(written.at(-1)!)![1]!);
      now += 1_000;
      vi.advanceTimersByTime(1_000);
    }
    expect(lefts).toEqual(['10 s', '9 s', '8 s']);
    line.stop();
  });
});

// The compiled module in a process of its own: only a process's end shows what keeps it alive.
test.skipIf(!buildIsCurrent())('neither end of the progress channel keeps a process alive: one that never closes them still exits', async () => {
  const module = pathToFileURL(join(packageRoot, 'dist/src/core/progress-channel.js')).href;
  // The listener, the reporter, and the reporter's trailing post (a second count within the interval).
  const code = `const { listenForProgress, progressReporter } = await import(${JSON.stringify(module)}); listenForProgress('alive', () => {}); const reporter = progressReporter('alive'); reporter.sent(1); reporter.sent(2);`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: 'ignore' });
  const kill = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const [exitCode, signal] = (await once(child, 'exit')) as [number | null, string | null];
  clearTimeout(kill);
  expect([exitCode, signal]).toEqual([0, null]);
}, 70_000);
