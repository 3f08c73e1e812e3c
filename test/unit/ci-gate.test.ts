/** The CI gate's decisions (src/ci/gate.ts), each beside its near miss; test/suite/ci-gate.test.ts runs it as the action's step. */
import { describe, expect, test } from 'vitest';
import { artifactName, gateArguments, gateInputs, gateOutcome, shellWords, type GateInputs } from '../../src/ci/gate.js';

const inputs = (given: Partial<GateInputs> = {}): GateInputs => ({ ...gateInputs({}), ...given });

describe('gateInputs', () => {
  test('defaults: exit 3 fails, no self-test, the reports in reports/conformance, a warning exits 0', () => {
    expect(gateInputs({})).toEqual({ baseUrl: '', selfTest: false, profile: '', apiKeyEnv: '', knownFailures: '', strict: false, minMustChecks: '', args: '', reportDir: 'reports/conformance', notAssessableFails: true, artifactName: '', warnExit: 0 });
  });

  test('true and false as pipelines write them; anything else is an error naming the input', () => {
    expect(gateInputs({ PCS_NOT_ASSESSABLE_FAILS: 'false', PCS_SELF_TEST: 'true', PCS_STRICT: ' true ' })).toMatchObject({ notAssessableFails: false, selfTest: true, strict: true });
    expect(() => gateInputs({ PCS_NOT_ASSESSABLE_FAILS: 'no' })).toThrow('not-assessable-fails must be true or false, not "no"');
    expect(() => gateInputs({ PCS_SELF_TEST: 'True' })).toThrow('self-test must be true or false, not "True"');
  });
});

describe('shellWords: args as a shell splits them', () => {
  test.each([
    [`-H 'X-Tenant: blue' --seed 1`, ['-H', 'X-Tenant: blue', '--seed', '1']],
    [`--checks "^list-(a|b)$"`, ['--checks', '^list-(a|b)$']],
    ['--header-env X-Key=$GATEWAY_KEY', ['--header-env', 'X-Key=$GATEWAY_KEY']],
    ['  ', []],
  ])('%s', (args, words) => expect(shellWords(args)).toEqual(words));

  test.each([
    ['--seed 1; rm -rf /', 'the operator ;'],
    ['--seed 1 | tee x', 'the operator |'],
    ['--seed 1 && true', 'the operator &&'],
    ['--checks *', 'the pattern *'],
    ['--seed 1 # a note', 'a comment'],
  ])('near miss: %s is no word (%s)', (args, what) => expect(() => shellWords(args)).toThrow(`args holds ${what}: give the tool's arguments alone`));
});

describe('gateArguments', () => {
  test('every input in its flag, args last', () => {
    expect(gateArguments(inputs({ baseUrl: 'https://s.example/v1', profile: 'full', apiKeyEnv: 'K', knownFailures: 'k.yaml', strict: true, minMustChecks: 'all', args: '--seed 2' }))).toEqual([
      'run', '--report-dir', 'reports/conformance', '--base-url', 'https://s.example/v1', '--profile', 'full', '--api-key-env', 'K', '--known-failures', 'k.yaml', '--strict', '--min-must-checks', 'all', '--seed', '2',
    ]);
  });

  test('no base URL: an error unless a self-test is asked for; both at once, an error', () => {
    expect(() => gateArguments(inputs())).toThrow(/^base-url is empty: nothing to check/);
    expect(gateArguments(inputs({ selfTest: true }))).toEqual(['run', '--report-dir', 'reports/conformance', '--min-must-checks', 'all']);
    expect(() => gateArguments(inputs({ selfTest: true, baseUrl: 'https://s.example/v1' }))).toThrow('base-url and self-test: true exclude each other');
  });
});

describe('gateArguments: the gate requires what it gates, unless the step names read-only itself', () => {
  const minimum = (given: Partial<GateInputs>) => {
    const argv = gateArguments(inputs({ baseUrl: 'https://staging.example.com/v1', ...given }));
    const at = argv.lastIndexOf('--min-must-checks');
    return at < 0 ? undefined : argv[at + 1];
  };
  test.each([
    ["no profile (the tool's default, read-only off loopback): every must check", {}, 'all'],
    ['profile: full: every must check', { profile: 'full' }, 'all'],
    ["profile: read-only, written: no minimum of the gate's (its verdict stands, its notice says what it left out)", { profile: 'read-only' }, undefined],
    ['--profile read-only in args: the same', { args: '--profile read-only' }, undefined],
    ['--profile=read-only in args: the same', { args: '--profile=read-only' }, undefined],
    ['profile: read-only with min-must-checks profile: that', { profile: 'read-only', minMustChecks: 'profile' }, 'profile'],
    ['near miss: args name full after the input read-only (the later wins): every must check', { profile: 'read-only', args: '--profile full' }, 'all'],
    ['near miss: --profiles read-only is no profile: every must check', { args: '--seed 1 --profiles-x read-only' }, 'all'],
    ['min-must-checks given stands', { minMustChecks: '20' }, '20'],
    ['min-must-checks in args stands, the gate adds none', { args: '--min-must-checks 5' }, '5'],
  ] as const)('%s', (_what, given, expected) => expect(minimum(given)).toBe(expected));

  test('a minimum in args appears once: the gate adds none of its own', () => {
    expect(gateArguments(inputs({ baseUrl: 'https://s.example/v1', args: '--min-must-checks=5' })).filter((word) => word.startsWith('--min-must-checks'))).toEqual(['--min-must-checks=5']);
  });
});

describe('artifactName', () => {
  test.each([
    [{ baseUrl: 'https://staging.example.com/v1', artifactName: '' }, 'conformance-staging.example.com-v1'],
    [{ baseUrl: 'http://127.0.0.1:8080/eu/v1', artifactName: '' }, 'conformance-127.0.0.1-8080-eu-v1'],
    [{ baseUrl: '', artifactName: '' }, 'conformance-self-test'],
    [{ baseUrl: 'https://staging.example.com/v1', artifactName: 'mine' }, 'mine'],
    [{ baseUrl: 'not a url', artifactName: '' }, 'conformance-not-a-url'],
  ])('%j: %s', (given, name) => expect(artifactName(given)).toBe(name));
});

describe('gateOutcome', () => {
  test.each([0, 1, 2])('exit %i: as it is, nothing said', (code) => expect(gateOutcome(code, undefined, inputs())).toEqual({ exitCode: code }));

  const readOnly = { verdict: 'conformant', coverage: { must: 54, ran: 23 }, settings: { profile: 'read-only' } };
  test('a read-only run that passes says what it left out, in a notice', () =>
    expect(gateOutcome(0, readOnly, inputs())).toEqual({ exitCode: 0, annotation: { level: 'notice', title: 'Read-only', message: 'read-only: 23 of 54 must checks assessed; creates not tested' } }));
  test('near miss: a full run that passes says nothing', () => expect(gateOutcome(0, { ...readOnly, settings: { profile: 'full' } }, inputs())).toEqual({ exitCode: 0 }));
  test('near miss: a read-only run that fails says its failure, not the notice', () => expect(gateOutcome(1, readOnly, inputs())).toEqual({ exitCode: 1 }));

  test('exit 3 fails the step with the cause; opted out, a warning with the cause, exiting what the pipeline allows', () => {
    expect(gateOutcome(3, { verdictReason: 'the target is unreachable' }, inputs())).toEqual({ exitCode: 3, annotation: { level: 'error', title: 'Not assessable', message: 'the target could not be assessed (exit 3): the target is unreachable' } });
    expect(gateOutcome(3, undefined, inputs({ notAssessableFails: false, warnExit: 75 }))).toEqual({
      exitCode: 75,
      annotation: { level: 'warning', title: 'Not assessable', message: 'the target could not be assessed (exit 3): the reports say why (not-assessable-fails: false)' },
    });
  });
});
