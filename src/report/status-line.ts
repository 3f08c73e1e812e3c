/**
 * One status line at the foot of a run's console output on a terminal: checks done of
 * total, requests sent, elapsed time, and an estimate of the time left once the pace is
 * known. An auditor's run at `--rate-limit 5` lasts minutes, with silences between check
 * lines; the line says the run is alive. Off a terminal (CI logs, a pipe) nothing of it is
 * written: the caller creates none.
 */

/** What the line shows. */
export interface Progress {
  checksDone: number;
  /** Checks of the run, once the suite is collected; undefined before. */
  checksTotal: number | undefined;
  requests: number;
  /** Since the run's start (ms). */
  elapsedMs: number;
}

/**
 * When the pace counts as known: after this many checks and this long (ms). The first
 * checks (the 401s) are much quicker than the properties, and a run shorter than a few
 * seconds needs no estimate.
 */
export const PACE_KNOWN_AFTER = { checks: 5, ms: 5_000 };

/** 42 s, 3 min 07 s, 1 h 02 min. */
export function duration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${String(seconds % 60).padStart(2, '0')} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/**
 * The time left (ms) as a check ends, once the pace is known ({@link PACE_KNOWN_AFTER}):
 * the time per check so far times the checks left; undefined before, without a total, or
 * when all are done.
 */
export function estimateMs({ checksDone, checksTotal, elapsedMs }: Omit<Progress, 'requests'>): number | undefined {
  if (checksTotal === undefined || checksDone < PACE_KNOWN_AFTER.checks || elapsedMs < PACE_KNOWN_AFTER.ms || checksDone >= checksTotal) return undefined;
  return (elapsedMs / checksDone) * (checksTotal - checksDone);
}

/**
 * The estimate as the line shows it, `ms` after it was made: it counts down between the
 * ends of checks, and is gone once spent (a last check that outlasts it): it moves or
 * disappears, never stands still at "about 0 s left".
 */
export function leftNow(estimate: { leftMs: number; at: number } | undefined, now: number): number | undefined {
  if (estimate === undefined) return undefined;
  const left = estimate.leftMs - (now - estimate.at);
  return left >= 500 ? left : undefined; // "about 0 s" says nothing
}

/**
 * The status line's text, e.g. `12 of 61 checks · 340 requests · 1 min 05 s · about 3 min left`.
 * @param leftMs the estimate of the time left, as {@link leftNow} gives it; none, no estimate.
 */
export function statusText({ checksDone, checksTotal, requests, elapsedMs }: Progress, leftMs?: number): string {
  const parts = [
    checksTotal === undefined ? `${checksDone} checks` : `${checksDone} of ${checksTotal} checks`,
    `${requests} request${requests === 1 ? '' : 's'}`,
    duration(elapsedMs),
  ];
  if (leftMs !== undefined) parts.push(`about ${duration(leftMs)} left`);
  return parts.join(' · ');
}

/** ECMA-48: carriage return, then erase the whole line. */
const ERASE_LINE = '\r\u001b[2K';

/** A terminal: written to, and as wide as `columns`. */
export interface Terminal {
  write(text: string): unknown;
  columns?: number;
}

/**
 * The line itself: every other line goes through {@link print}, which erases it, writes
 * the line and draws it again below; a timer redraws it every second (the elapsed time).
 */
export class StatusLine {
  #checksDone = 0;
  #checksTotal: number | undefined;
  #requests = 0;
  #timer: NodeJS.Timeout | undefined;
  #shown = false;
  /** The estimate made as the last check ended, and when (ms): it counts down from there. */
  #estimate: { leftMs: number; at: number } | undefined;

  /**
   * @param now the clock (ms), a parameter for tests.
   * @param startedAt when the run started (ms, same clock).
   */
  constructor(
    private readonly out: Terminal,
    private readonly startedAt: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Starts redrawing every second. The timer never keeps the process alive. */
  start(): this {
    this.#timer ??= setInterval(() => this.#draw(), 1000).unref();
    this.#draw();
    return this;
  }

  /** Counts a check done; `total` when the suite is collected. */
  update(change: { checksDone?: number; checksTotal?: number; requests?: number }): void {
    if (change.checksDone !== undefined && change.checksDone !== this.#checksDone) {
      const now = this.now();
      const leftMs = estimateMs({ checksDone: change.checksDone, checksTotal: change.checksTotal ?? this.#checksTotal, elapsedMs: now - this.startedAt });
      this.#estimate = leftMs === undefined ? undefined : { leftMs, at: now };
    }
    this.#checksDone = change.checksDone ?? this.#checksDone;
    this.#checksTotal = change.checksTotal ?? this.#checksTotal;
    // Counts only grow: a late post of the worker never takes the line back.
    this.#requests = Math.max(this.#requests, change.requests ?? 0);
    if (this.#timer) this.#draw();
  }

  /** Writes `text` (whole lines, without the final newline) above the status line. */
  print(text: string): void {
    this.out.write(`${this.#shown ? ERASE_LINE : ''}${text}\n`);
    this.#shown = false;
    if (this.#timer) this.#draw();
  }

  /** Erases the line and stops redrawing it: what follows is the run's summary. */
  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    if (this.#shown) this.out.write(ERASE_LINE);
    this.#shown = false;
  }

  #draw(): void {
    const now = this.now();
    const text = statusText({ checksDone: this.#checksDone, checksTotal: this.#checksTotal, requests: this.#requests, elapsedMs: now - this.startedAt }, leftNow(this.#estimate, now));
    // Never wider than the terminal: a wrapped line would not be erased whole.
    const width = Math.max(10, (this.out.columns || 80) - 1);
    this.out.write(`${this.#shown ? ERASE_LINE : ''}${text.length > width ? `${text.slice(0, width - 1)}…` : text}`);
    this.#shown = true;
  }
}
