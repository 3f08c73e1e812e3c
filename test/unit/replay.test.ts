/** Replay commands come from the settings table alone (config/replay.ts). */
import { execFileSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { replayCommand } from '../../src/config/replay.js';
import { withDefaults } from '../../src/config/settings.js';

describe('replayCommand', () => {
  test('every setting that changes what is sent or judged, and nothing at its default', () => {
    const values = { ...withDefaults({}), profile: 'full' as const, seed: 7, strict: true, checkFilter: '^list-(a|b)$', headers: ['X-Tenant: blue'], headerEnv: ['X-Gateway-Key=GATEWAY_KEY'], knownFailures: 'known failures.yaml', numRuns: 50 };
    expect(replayCommand(values, 'http://127.0.0.1:8080/v1')).toBe(
      "npx petstore-conformance run --base-url http://127.0.0.1:8080/v1 --profile full --strict --header 'X-Tenant: blue' --header-env X-Gateway-Key=GATEWAY_KEY --known-failures 'known failures.yaml' --checks '^list-(a|b)$' --seed 7 --num-runs 50",
    );
  });

  test('an override replaces a setting: one check, replayed', () => {
    expect(replayCommand({ ...withDefaults({}), profile: 'read-only', seed: 3 }, undefined, { checkFilter: '^one$' })).toBe("npx petstore-conformance run --profile read-only --checks '^one$' --seed 3");
  });

  test('starts as the user runs the tool, when told (cli/invocation.ts)', () => {
    expect(replayCommand({ ...withDefaults({}), profile: 'full', seed: 3 }, undefined, {}, "node '/a b/bin/petstore-conformance.js'")).toBe("node '/a b/bin/petstore-conformance.js' run --profile full --seed 3");
  });

  test.each(['dash', 'bash'])('%s reads every word back as it was (quoting round trip)', (shell) => {
    const pattern = `^it's (a|b) $HOME \`x\` "q"$`;
    const command = replayCommand({ ...withDefaults({}), profile: 'full', seed: 1 }, undefined, { checkFilter: pattern });
    const words = execFileSync(shell, ['-c', `set -- ${command.replace(/^npx petstore-conformance run /, '')}; printf '%s\\0' "$@"`], { encoding: 'utf8' }).split('\0').slice(0, -1);
    expect(words).toEqual(['--profile', 'full', '--checks', pattern, '--seed', '1']);
  });
});
