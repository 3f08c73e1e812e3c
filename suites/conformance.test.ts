/**
 * The suite as vitest loads it: one test file that holds every conformance class, each a
 * describe block fed by its own module. Vitest runs the files of a worker one after
 * another, so a file per class would chain the classes end to end; here they run
 * concurrently, and only what depends on earlier work waits: a check declared
 * `sequential` waits for the checks of its own class declared before it, and the
 * section-7 invariants wait for every other class, since they judge every exchange.
 * Report order is the order below. A module in this folder that is not listed here
 * never runs: a test (test/unit/runner.test.ts) fails on that.
 *
 * The runner provides the targets of the run (`runs`): one, or a lane of a fleet. Each
 * gets the classes in a block of its own, one target after another, so a fleet pays the
 * worker's start once per lane, not once per target.
 */
import { afterAll, describe, inject } from 'vitest';
import type { RunSettings } from '../src/config/settings.js';
import { registerFor, releaseRun } from '../src/check/run-state.js';

type ClassModule = () => Promise<{ default: () => void }>;

const CONCURRENT: Array<[string, ClassModule]> = [
  ['auth', () => import('./auth.js')],
  ['client-forms', () => import('./client-forms.js')],
  ['create', () => import('./create.js')],
  ['edge-cases', () => import('./edge-cases.js')],
  ['list', () => import('./list.js')],
  ['model', () => import('./model.js')],
  ['scope', () => import('./scope.js')],
  ['transport', () => import('./transport.js')],
  ['validation', () => import('./validation.js')],
];

for (const target of inject('runs')) {
  describe(target.targetName ?? target.baseUrl, () => {
    for (const [name, module] of CONCURRENT) describe.concurrent(name, () => load(target, name, module));
    describe.sequential('invariants', () => load(target, 'invariants', () => import('./invariants.js')));
    afterAll(() => releaseRun(target));
  });
}

/**
 * Loads one class's module and registers its checks for `target`, in the describe block
 * under way.
 * @throws Error naming the class when the module fails to load: vitest then runs no check
 *   at all, and the run reports this as the reason (a defect of the suite, never silent).
 */
async function load(target: RunSettings, name: string, module: ClassModule): Promise<void> {
  let register: () => void;
  try {
    register = (await module()).default;
  } catch (error) {
    throw new Error(`conformance class ${name} did not load: ${(error as Error).message}`, { cause: error });
  }
  registerFor(target, register);
}
