/**
 * `npm run faults`: runs the suite against every fault and correct variant of the
 * catalogue and prints the matrix (fault × failing checks), how often each check kills,
 * the kill ratio and the wall time. Exits 1 when a fault goes uncaught, a check is never
 * failed by any fault, or a correct variant fails a must check. `npm run faults -- WORDS`
 * runs only the faults and variants whose name holds one of WORDS (and the reference):
 * the never-killed count then says little.
 */
import { loadCatalogue, runMatrix } from '../test/support/matrix.js';
import { nonPassed } from '../test/support/targets.js';

const words = process.argv.slice(2);
const chosen = <T>(catalogue: Map<string, T>) => new Map([...catalogue].filter(([name]) => words.length === 0 || words.some((word) => name.includes(word))));
const { faults, variants } = await loadCatalogue();
const matrix = await runMatrix({ faults: chosen(faults), variants: chosen(variants) });
const checks = matrix.reference.report.checks;
const width = Math.max(...[...matrix.faults.keys(), ...matrix.variants.keys()].map((name) => name.length)) + 2;
const row = (name: string, verdict: string, detail: string) => `${name.padEnd(width)}${verdict.padEnd(15)}${detail}`;

console.log(`Fault matrix: ${matrix.faults.size} faults and ${matrix.variants.size} correct variants × ${checks.length} checks\n`);
console.log(row('Fault', 'Verdict', 'Failing checks'));
const kills = new Map<string, number>(checks.map((check) => [check.id, 0]));
for (const [name, { report }] of [...matrix.faultOutcomes].sort(([a], [b]) => a.localeCompare(b))) {
  const { failed } = nonPassed(report);
  for (const id of failed) kills.set(id, (kills.get(id) ?? 0) + 1);
  console.log(row(name, report.verdict, failed.length > 0 ? `${failed.length}: ${failed.join(', ')}` : 'NONE (uncaught)'));
}

console.log(`\n${row('Correct variant', 'Verdict', 'Checks not passed')}`);
let falseAlarms = 0;
for (const [name, { report }] of [...matrix.variantOutcomes].sort(([a], [b]) => a.localeCompare(b))) {
  const notPassed = report.checks.filter((check) => check.status !== 'passed');
  if (report.verdict !== 'conformant') falseAlarms++;
  console.log(row(name, report.verdict, notPassed.map((check) => `${check.id} (${check.level})`).join(', ') || '-'));
}

console.log('\nCheck                                    Level   Killed by');
for (const check of checks) console.log(`${check.id.padEnd(41)}${check.level.padEnd(8)}${kills.get(check.id)} fault(s)`);

const caught = [...matrix.faultOutcomes.values()].filter(({ report }) => nonPassed(report).failed.length > 0).length;
const mustChecks = checks.filter((check) => check.level === 'must');
const mustKilled = mustChecks.filter((check) => (kills.get(check.id) ?? 0) > 0).length;
const unkilled = checks.filter((check) => (kills.get(check.id) ?? 0) === 0).map((check) => check.id);
const percent = (part: number, whole: number) => `${((100 * part) / whole).toFixed(0)}%`;
console.log(`
Kill ratio: ${caught}/${matrix.faults.size} faults caught (${percent(caught, matrix.faults.size)})
Must checks killed by some fault: ${mustKilled}/${mustChecks.length} (${percent(mustKilled, mustChecks.length)}); checks never killed: ${unkilled.join(', ') || 'none'}
False alarms on correct variants: ${falseAlarms}/${matrix.variants.size}
Wall time: ${(matrix.wallMs / 1000).toFixed(1)} s (${matrix.faults.size + matrix.variants.size + 1} targets, 4 at a time)`);
process.exitCode = caught === matrix.faults.size && unkilled.length === 0 && falseAlarms === 0 ? 0 : 1;
