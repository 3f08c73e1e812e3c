/**
 * The suite as vitest loads it: one test file that holds every conformance class, each a
 * describe block fed by its own module. Vitest runs the files of a worker one after
 * another, so a file per class would chain the classes end to end; here they run
 * concurrently, and only what depends on earlier work waits: a check declared
 * `sequential` waits for the checks of its own class declared before it, and the
 * section-7 invariants wait for every other class, since they judge every exchange.
 * Report order is the order below. A module in this folder that is not listed here
 * never runs: a test (test/unit/runner.test.ts) fails on that.
 */
import { describe } from 'vitest';

describe.concurrent('auth', () => load('auth', () => import('./auth.js')));
describe.concurrent('create', () => load('create', () => import('./create.js')));
describe.concurrent('edge-cases', () => load('edge-cases', () => import('./edge-cases.js')));
describe.concurrent('list', () => load('list', () => import('./list.js')));
describe.concurrent('model', () => load('model', () => import('./model.js')));
describe.concurrent('scope', () => load('scope', () => import('./scope.js')));
describe.concurrent('validation', () => load('validation', () => import('./validation.js')));
describe.sequential('invariants', () => load('invariants', () => import('./invariants.js')));

/**
 * Loads one class's module, whose checks then register in the describe block under way.
 * @throws Error naming the class when the module fails to load: vitest then runs no check
 *   at all, and the run reports this as the reason (a defect of the suite, never silent).
 */
async function load(name: string, module: () => Promise<unknown>): Promise<void> {
  try {
    await module();
  } catch (error) {
    throw new Error(`conformance class ${name} did not load: ${(error as Error).message}`, { cause: error });
  }
}
