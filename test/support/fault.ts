import type { Server } from 'node:http';
import type { Capability } from '../../src/check/types.js';
import type { Variation } from '../../src/reference/behaviour.js';
import type { RunOptions } from '../../src/runner/run.js';

/**
 * A deliberately broken variant of the reference server (one per file in test/faults/,
 * named for the defect), with the outcome the suite must reach against it.
 */
export interface Fault {
  /** The spec clause the defect breaks. */
  breaks: string;
  variation: Variation;
  /** Changes below the HTTP exchange (connections), when the defect lives there. */
  server?: (server: Server) => void;
  /** What never answers, for a fault that hangs: tests that do not judge the wait may shorten the request deadline. */
  hangs?: string;
  /**
   * Every check that must not pass, by status; all others must pass. The checks that need
   * a capability the fault breaks (`broken`) are derived, not listed: they fail too,
   * unless listed under `error`.
   */
  expected: {
    /** What the defect breaks for every request: every check that needs it fails (CheckDefinition.needs). */
    broken?: Capability[];
    failed: string[];
    error?: string[];
    skipped?: string[];
    /**
     * Checks that may fail too, for faults whose effect depends on timing: a race between
     * the suite's own concurrent checks, or a state (a count, a stored item) that the
     * concurrent conformance classes may or may not have reached first. Empty otherwise.
     */
    mayFail?: string[];
  };
  /**
   * For property checks whose counterexample is known: a predicate on it (as the report
   * prints it) that holds when shrinking reached a minimal failing input, or when the
   * coverage input that must find the fault in every run did.
   */
  counterexamples?: Record<string, (shrunk: string) => boolean>;
}

/**
 * A correct variant: differs from the reference server only where the spec allows,
 * and must be judged conformant with no must check failing.
 */
export interface CorrectVariant {
  /** What the spec leaves open that this variant does differently. */
  allowedBy: string;
  variation: Variation;
  /** Changes below the HTTP exchange (connections), when the variant lives there. */
  server?: (server: Server) => void;
  firstId?: bigint;
  /** Run settings its runs take (a short request deadline for a variant that loses requests: nothing judges the wait). */
  options?: Partial<RunOptions>;
  /**
   * Checks this variant legitimately does not pass: should or info checks it fails (an HTTP
   * nicety), and checks that do not apply to it (skipped, a must check among them: a
   * transport feature it is not asked for). A must check never fails here.
   */
  expectedNotPassed?: string[];
  /** Observations the run must report about this variant (e.g. the length limit it has), each matched by one pattern. */
  observes?: RegExp[];
  /** The check that observes them, when it is not create-valid-bodies (the property that finds policies and limits). */
  observedBy?: string;
}

/**
 * The checks a fault must fail: those it lists, and those that need a capability it
 * breaks (as the reference run reports each check's needs), but those listed as errors.
 */
export function expectedFailures(fault: Fault, checks: ReadonlyArray<{ id: string; needs?: Capability[] }>): string[] {
  const broken = new Set(fault.expected.broken ?? []);
  const derived = checks.filter((check) => check.needs?.some((need) => broken.has(need))).map((check) => check.id);
  const errors = new Set(fault.expected.error ?? []);
  return [...new Set([...fault.expected.failed, ...derived])].filter((id) => !errors.has(id)).sort();
}
