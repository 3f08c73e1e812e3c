/**
 * The command line as users run it: the compiled CLI in a child process (npm test builds
 * it first), its exit codes, its one-line errors, and its output files.
 */
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { startReferenceServer } from '../../src/reference/server.js';
import faultMissingName from '../faults/missing-name-accepted.js';
import { unwrapped } from '../support/cli-child.js';
import { countingRequests } from '../support/targets.js';

const BIN = fileURLToPath(new URL('../../bin/petstore-conformance.js', import.meta.url));

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A signal sent to the CLI when `when` settles; `firstOutput` settles at its first line. */
interface Interrupt {
  signal: NodeJS.Signals;
  when: (firstOutput: Promise<void>) => Promise<unknown>;
}

/**
 * Runs the CLI to completion (bounded by a 60 s kill).
 * @param interrupt sends `signal` when `when` settles (given the child's first output), as Ctrl-C or a CI runner's stop would.
 * @param cwd the working directory (default: this process's).
 */
function cli(args: string[], env: Record<string, string> = {}, interrupt?: Interrupt, cwd?: string): Promise<Result> {
  return new Promise((resolve) => {
    const { PETSTORE_API_KEY: _drop, ...base } = process.env;
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...base, ...env, NO_COLOR: '1' }, cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    if (interrupt) {
      const firstOutput = new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      void interrupt.when(firstOutput).then(() => child.kill(interrupt.signal));
    }
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const tempDir = () => mkdtemp(join(tmpdir(), 'pcs-cli-'));

test('without --report-dir in an unwritable place, the reports go to the temporary directory, said in one line', async () => {
  const cwd = await tempDir();
  await writeFile(join(cwd, 'reports'), 'a file where the reports folder would go');
  const { code, stdout, stderr } = await cli(['run', '--checks', '^list-answers-200-array$'], {}, undefined, cwd);
  expect(code).toBe(0);
  expect(stderr).toMatch(/is not writable; the reports go to .*petstore-conformance-\w{6}\n/);
  const folder = /^Reports: (\S+) \(report\.json/m.exec(stdout)![1]!;
  expect(folder).toMatch(/petstore-conformance-\w{6}$/);
  expect(JSON.parse(await readFile(join(folder, 'report.json'), 'utf8')).verdict).toBe('conformant');
});

test('a reader that goes away (run | head -1) ends neither the run nor its reports', async () => {
  const dir = await tempDir();
  const { PETSTORE_API_KEY: _drop, ...env } = process.env;
  const child = spawn(process.execPath, [BIN, 'run', '--report-dir', dir, '--checks', '^list-'], { env: { ...env, NO_COLOR: '1' } });
  child.stdout.once('data', () => child.stdout.destroy()); // the reader takes the first line and leaves
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const code = await new Promise((resolve) => child.on('close', resolve));
  expect(stderr).toBe('');
  expect(code).toBe(0);
  expect(JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')).verdict).toBe('conformant');
});

test('run with no target checks the embedded reference server: exit 0', async () => {
  const dir = await tempDir();
  const { code, stdout, stderr } = await cli(['run', '--report-dir', dir]);
  expect(stderr).toBe('');
  expect(code).toBe(0);
  expect(stdout).toContain('(embedded reference server)');
  expect(stdout).toContain('Verdict: SELF-TEST (embedded reference server): CONFORMANT');
  const report = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8'));
  expect(report.verdict).toBe('conformant');
  // Checks print as they finish: the invariants judge every exchange (and connections-answered every connection), so they finish last.
  const finished = [...stdout.matchAll(/^ {2}\S+ +\w+ +\S+ +(\S+) /gm)].map((match) => match[1]!);
  expect(finished.length).toBe(report.checks.length);
  const invariants = [
    'answers-allowed-status',
    'no-server-error',
    'path-spellings-no-server-error',
    'error-body-is-error',
    'error-status-matches-http',
    'error-content-type-json',
    'success-content-type-json',
    'json-without-byte-order-mark',
    'connections-answered',
    'unauthorized-has-challenge',
  ];
  expect(finished.slice(-invariants.length).sort()).toEqual([...invariants].sort());
});

describe('against a server given by --base-url', () => {
  test('a nonconformant server: exit 1, the failing check cited, the key nowhere', async () => {
    const server = await startReferenceServer({ variations: [faultMissingName.variation] });
    try {
      const dir = await tempDir();
      const { code, stdout, stderr } = await cli(['run', '--base-url', server.baseUrl, '--report-dir', dir], { PETSTORE_API_KEY: server.apiKey });
      expect(code).toBe(1);
      expect(stdout).toMatch(/✗ must\s+4\.2\/R2\s+create-rejects-missing-name/);
      expect(stdout).toContain('Verdict: NONCONFORMANT');
      const report = await readFile(join(dir, 'report.json'), 'utf8');
      for (const text of [stdout, stderr, report]) expect(text).not.toContain(server.apiKey);
    } finally {
      await server.close();
    }
  });

  test('--api-key-env names the variable holding the key: exit 0 on a correct server', async () => {
    const server = await startReferenceServer();
    try {
      const { code, stdout } = await cli(['run', '--base-url', `${server.baseUrl}/`, '--api-key-env', 'MY_KEY', '--report-dir', await tempDir()], {
        MY_KEY: server.apiKey,
      });
      expect(code).toBe(0);
      expect(stdout).not.toContain(server.apiKey);
    } finally {
      await server.close();
    }
  });

  test('Ctrl-C: no request after it, exit 3, and the report of what ran is written', async () => {
    const counting = countingRequests({ holdFrom: 30 });
    // One connection: while the server holds the 30th request, none other is on its way,
    // so any request it receives after the signal was sent after it.
    const server = await startReferenceServer({ variations: [counting.variation] });
    try {
      const dir = await tempDir();
      const when = () => counting.reached(30);
      const { code, stderr } = await cli(['run', '--base-url', server.baseUrl, '--report-dir', dir, '--connections', '1'], { PETSTORE_API_KEY: server.apiKey }, { signal: 'SIGINT', when });
      expect(stderr).toContain('interrupted by SIGINT; finishing the report');
      expect(code).toBe(3);
      const report = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8'));
      expect(report.verdictReason).toBe('the run was aborted: interrupted by SIGINT');
      // The held request was abandoned (else the run would wait out its deadline), and none
      // was sent after: the checks under way sent nothing more.
      expect(counting.received()).toBe(30);
    } finally {
      counting.release();
      await server.close();
    }
  });

  test('SIGTERM while the tool is still starting (before its worker is up): exit 3 and a report, no check run', async () => {
    const counting = countingRequests();
    const server = await startReferenceServer({ variations: [counting.variation] });
    try {
      const dir = await tempDir();
      // The header is the first line, printed before the suite's worker starts.
      const { code, stderr } = await cli(['run', '--base-url', server.baseUrl, '--report-dir', dir], { PETSTORE_API_KEY: server.apiKey }, { signal: 'SIGTERM', when: (firstOutput) => firstOutput });
      expect(stderr).toContain('interrupted by SIGTERM; finishing the report');
      expect(code).toBe(3);
      const report = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8'));
      expect(report.verdictReason).toBe('the run was aborted: interrupted by SIGTERM');
      expect(report.checks.filter((c: { status: string }) => c.status === 'passed' || c.status === 'failed')).toEqual([]);
      expect(counting.received()).toBeLessThanOrEqual(1); // the probe, when it was already on its way
    } finally {
      await server.close();
    }
  });


  test('an unreachable target: exit 3 with the reason', async () => {
    const server = await startReferenceServer();
    const url = server.baseUrl;
    await server.close();
    const { code, stdout } = await cli(['run', '--base-url', url, '--report-dir', await tempDir()], { PETSTORE_API_KEY: 'some-key-1234' });
    expect(code).toBe(3);
    expect(stdout).toMatch(/Verdict: ERROR: the target is unreachable: CONNECTION_REFUSED/);
  });
});

describe('fleets: run --targets, --shard, merge', () => {
  test('three configured targets: exit 1 (one faulty), a folder each; two shards merged give the same; overlapping parts are exit 2', async () => {
    const servers = await Promise.all([[], [], [faultMissingName.variation]].map((variations) => startReferenceServer({ variations })));
    try {
      const dir = await tempDir();
      const names = ['alpha', 'beta', 'gamma'];
      const config = join(dir, 'petstore-conformance.yaml');
      await writeFile(config, `targets:\n${names.map((name, i) => `  ${name}:\n    baseUrl: ${servers[i]!.baseUrl}\n    apiKeyEnv: KEY_${name.toUpperCase()}\n`).join('')}`);
      const env = Object.fromEntries(names.map((name, i) => [`KEY_${name.toUpperCase()}`, servers[i]!.apiKey]));
      const common = ['--config', config, '--seed', '7', '--num-runs', '3'];

      const whole = await cli(['run', '--targets', 'all', ...common, '--report-dir', join(dir, 'whole')], env);
      expect(whole.code).toBe(1);
      expect(whole.stdout).toMatch(/✗ gamma: NONCONFORMANT.*\(exit 1\)/);
      expect(whole.stdout).toMatch(/✓ alpha: CONFORMANT/);
      const fleet = JSON.parse(await readFile(join(dir, 'whole', 'fleet.json'), 'utf8'));
      expect(fleet.targets.map((t: { name: string; exitCode: number }) => [t.name, t.exitCode])).toEqual([['alpha', 0], ['beta', 0], ['gamma', 1]]);
      for (const name of names) expect(existsSync(join(dir, 'whole', name, 'report.json'))).toBe(true);

      const shards = await Promise.all(['1/2', '2/2'].map((shard, i) => cli(['run', '--targets', 'all', ...common, '--shard', shard, '--report-dir', join(dir, `part${i}`)], env)));
      expect(shards.map((shard) => shard.code).sort()).toEqual([0, 1]);
      const merged = await cli(['merge', join(dir, 'part0'), join(dir, 'part1'), '--report-dir', join(dir, 'merged')]);
      expect(merged.code).toBe(1);
      const joined = JSON.parse(await readFile(join(dir, 'merged', 'fleet.json'), 'utf8'));
      const outcomes = (f: { targets: Array<{ name: string; verdict: string; exitCode: number }> }) => f.targets.map(({ name, verdict, exitCode }) => ({ name, verdict, exitCode }));
      expect(outcomes(joined)).toEqual(outcomes(fleet));

      const overlap = await cli(['merge', join(dir, 'whole'), join(dir, 'part0'), '--report-dir', join(dir, 'bad')]);
      expect(overlap.code).toBe(2);
      expect(overlap.stderr).toMatch(/the target alpha is reported by both .*whole and .*part0: the shards overlap\n$/);
    } finally {
      await Promise.all(servers.map((server) => server.close()));
    }
  });
});

describe('secrets and named targets', () => {
  test('--api-key-file reads the key from a file', async () => {
    const server = await startReferenceServer();
    try {
      const dir = await tempDir();
      await writeFile(join(dir, 'key'), `${server.apiKey}\n`);
      const { code, stdout } = await cli(['run', '--base-url', server.baseUrl, '--api-key-file', join(dir, 'key'), '--report-dir', dir, '--checks', '^list-']);
      expect(code).toBe(0);
      expect(stdout).not.toContain(server.apiKey);
    } finally {
      await server.close();
    }
  });

  test('--target takes base URL, key variable, profile and budgets from the YAML file; flags override', async () => {
    const server = await startReferenceServer();
    try {
      const dir = await tempDir();
      const config = join(dir, 'petstore-conformance.yaml');
      await writeFile(config, `targets:\n  staging:\n    baseUrl: ${server.baseUrl}\n    apiKeyEnv: STAGING_KEY\n    profile: read-only\n    maxRequests: 500\n`);
      const { code, stdout } = await cli(['run', '--config', config, '--target', 'staging', '--rate-limit', '500', '--report-dir', dir], { STAGING_KEY: server.apiKey });
      expect(code).toBe(0);
      expect(stdout).toContain(`checking ${server.baseUrl}, profile read-only`);
      const report = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8'));
      expect(report.settings).toMatchObject({ profile: 'read-only', profileSource: 'explicit', maxRequests: 500, rateLimit: 500 });
      expect(server.store.size).toBe(0);
    } finally {
      await server.close();
    }
  });

  test('without --config, the nearest petstore-conformance.yaml is found from a subfolder up, as git finds .git', async () => {
    const server = await startReferenceServer();
    try {
      const dir = await tempDir();
      await writeFile(join(dir, 'petstore-conformance.yaml'), `targets:\n  local:\n    baseUrl: ${server.baseUrl}\n    apiKeyEnv: LOCAL_KEY\n`);
      const deep = join(dir, 'services', 'api');
      await mkdir(deep, { recursive: true });
      const { code, stdout } = await cli(['run', '--target', 'local', '--checks', '^list-401-missing$', '--report-dir', join(dir, 'out')], { LOCAL_KEY: server.apiKey }, undefined, deep);
      expect(code).toBe(0);
      expect(stdout).toContain(`checking ${server.baseUrl}`);
    } finally {
      await server.close();
    }
  });
});

test('--quiet prints only the verdict and the report paths; --verbose every exchange; not both', async () => {
  const dir = await tempDir();
  const quiet = await cli(['run', '--quiet', '--checks', '^list-401-missing$', '--report-dir', dir]);
  expect(quiet.code).toBe(0);
  expect(unwrapped(quiet.stdout).trim().split('\n')).toEqual([
    expect.stringMatching(/^Verdict: SELF-TEST \(embedded reference server\): CONFORMANT within the checks selected \(--checks \^list-401-missing\$\): 1 of \d+ must checks ran, \d+ untested: the 1 must check passed$/),
    `Reports: ${dir} (report.json, junit.xml, report.html, summary.md, exchanges.har)`,
    `Open ${join(dir, 'report.html')}`,
  ]);
  const verbose = await cli(['run', '--verbose', '--checks', '^list-401-missing$', '--report-dir', dir]);
  expect(verbose.code).toBe(0);
  expect(verbose.stdout).toMatch(/✓ must +5\/R2 +list-401-missing .*\n +GET \/v1\/categories \[missing\] → 401 \(\d+(\.\d+)? ms\)\n/);
  const both = await cli(['run', '--quiet', '--verbose']);
  expect([both.code, both.stderr]).toEqual([2, 'petstore-conformance: error: --quiet and --verbose exclude each other\n']);
});

test('--report-dir - with one --format writes that report to stdout, the console to stderr, and no folder named -', async () => {
  const cwd = await tempDir();
  const { code, stdout, stderr } = await cli(['run', '--format', 'json', '--report-dir', '-', '--checks', '^list-401-missing$'], {}, undefined, cwd);
  expect(code).toBe(0);
  const report = JSON.parse(stdout);
  expect(report.headline).toMatch(/^SELF-TEST \(embedded reference server\): CONFORMANT within the checks selected \(--checks .*\): 1 of \d+ must checks ran, \d+ untested$/);
  expect(stderr).toContain('Verdict: SELF-TEST (embedded reference server): CONFORMANT');
  expect(existsSync(join(cwd, '-'))).toBe(false);
  const two = await cli(['run', '--report-dir', '-'], {}, undefined, cwd);
  expect([two.code, two.stderr]).toEqual([2, 'petstore-conformance: error: a report goes to stdout alone: --report-dir - takes exactly one --format (json, junit, html, md or har)\n']);
});

test('list prints every check (JSON: an array with id, clause and level) and the requirements catalogue, sending nothing', async () => {
  const json = await cli(['list', '--format', 'json']);
  expect(json.code).toBe(0);
  const checks = JSON.parse(json.stdout) as Array<{ id: string; clause: string; level: string; title: string; requirements: string[] }>;
  expect(Array.isArray(checks)).toBe(true);
  expect(new Set(checks.map((c) => c.id)).size).toBe(checks.length);
  expect(checks.map((c) => c.id)).toEqual(expect.arrayContaining(['create-name-only', 'list-401-missing', 'no-server-error', 'model-based-sequences']));
  for (const check of checks) {
    expect(check.clause, check.id).toMatch(/^\d/);
    expect(['must', 'should', 'info'], check.id).toContain(check.level);
    expect(check.requirements.length, check.id).toBeGreaterThan(0);
  }
  const table = await cli(['list']);
  expect(table.code).toBe(0);
  expect(table.stdout).toContain(`Checks (${checks.length})`);
  for (const check of checks) expect(table.stdout).toMatch(new RegExp(`^${check.id} +${check.clause.replace('/', '\\/')} +${check.level}\\n {4}\\S`, 'm'));
  expect(table.stdout).toMatch(/^Requirements \(\d+\)$/m);
  expect(table.stdout).toMatch(/^R-4\.2-R3 +4\.2\/R3 +must\n {4}When the Authorization header/m);
});

describe('usage errors: exit 2, one line, no stack trace', () => {
  test.each([
    [['run', '--bogus'], /unknown option '--bogus'/],
    [['run', '--base-url', 'http://127.0.0.1:9/v1'], /API key is missing: set the environment variable PETSTORE_API_KEY/],
    [['run', '--base-url', 'http://127.0.0.1:9/api'], /did you mean http:\/\/127\.0\.0\.1:9\/api\/v1\?/],
    [['run', '--timeout', 'soon'], /--timeout.*expected an integer from 10 to 600000 \(ms\)/],
    [['run', '--timeout', '9007199254740991'], /--timeout.*expected an integer from 10 to 600000 \(ms\)/],
    [['run', '--rate-limit', '1e-9'], /--rate-limit.*expected a number from 0.01 to 10000 \(requests\/s\)/],
    [['run', '--deadline', '1e10'], /--deadline.*expected a number from 1 to 86400 \(s\)/],
    [['run', '--checks', '('], /expected a regular expression/],
    [['serve', '--port', '70000'], /expected a port/],
    [['frobnicate'], /unexpected argument 'frobnicate': run takes options only/],
    [['rn'], /unknown command 'rn': did you mean run\?/],
    [['run', 'http://127.0.0.1:9/v1'], /did you mean --base-url http:\/\/127\.0\.0\.1:9\/v1\?/],
    [['run', '--base-url', 'http://api.example.com/v1'], /plain http to api\.example\.com would send the API key unencrypted; use https, or pass --allow-insecure-http/],
    [['run', '--profile', 'everything'], /argument 'everything' is invalid. expected one of full, read-only\./],
    [['run', '--target', 'staging', '--config', '/no/such/file.yaml'], /cannot read the configuration file \/no\/such\/file\.yaml: ENOENT/],
    [['run', '--api-key-file', '/no/such/key', '--base-url', 'http://127.0.0.1:9/v1'], /cannot read the API key file \/no\/such\/key: ENOENT/],
    // A key on the command line: the way that works, and never the value.
    [['run', '--api-key', 'S3cret-Key-Value', '--base-url', 'http://127.0.0.1:9/v1'], /^(?!.*S3cret).*use --api-key-env NAME \(default PETSTORE_API_KEY\) or --api-key-file FILE\n$/],
    [['run', '--api-key=S3cret-Key-Value'], /^(?!.*S3cret).*never taken on the command line/],
    // Extra headers: what the suite sets itself, malformed ones, an unset variable; mutual TLS by halves.
    [['run', '--header', 'Authorization: Bearer x'], /--header Authorization: the suite sets this header itself \(the checks send the key/],
    [['run', '--header', 'X-Tenant: blue', '--header', 'x-tenant: green'], /--header x-tenant: the header is given twice/],
    [['run', '--header', 'X-Tenant blue'], /--header.*expected text matching/],
    [['run', '--header', 'X-Tenant: a\u0001b'], /--header.*expected text matching/],
    [['run', '--header-env', 'X-Gateway-Key=NO_SUCH_VARIABLE_SET'], /--header-env X-Gateway-Key=NO_SUCH_VARIABLE_SET: the environment variable NO_SUCH_VARIABLE_SET is not set/],
    [['run', '--header-env', 'X-Gateway-Key=GW_KEY'], /^(?!.*S3cret).*the value of X-Gateway-Key \(from the environment variable GW_KEY\) holds a character that cannot be sent/, { GW_KEY: 'S3cret\u00e9' }],
    [['run', '--client-cert', 'test/fixtures/tls/client-cert.pem'], /--client-cert and --client-key go together/],
    [['run', '--client-cert', 'test/fixtures/tls/client-cert.pem', '--client-key', 'test/fixtures/tls/key.pem'], /--client-cert\/--client-key: the key does not belong to the certificate/],
    [['run', '--client-key', '/no/such/key.pem', '--client-cert', 'test/fixtures/tls/client-cert.pem'], /cannot read the client key \/no\/such\/key\.pem: ENOENT/],
    [['run', '--base-url', 'http://127.0.0.1:9/v1'], /HTTPS_PROXY \(or https_proxy\) is not a proxy URL/, { PETSTORE_API_KEY: 'k', HTTPS_PROXY: 'proxy.internal:3128' }],
    // Fleets.
    [['run', '--targets', 'all'], /--targets all needs a configuration file/],
    [['run', '--shard', '1/2'], /--shard slices a fleet: give --targets all/],
    [['run', '--targets', 'all', '--shard', '3/2'], /--shard 3\/2: expected k\/n with 1 ≤ k ≤ n/],
    [['run', '--targets', 'all', '--shard', 'half'], /--shard.*expected text matching/],
    [['merge', '/no/such/part', '--report-dir', join(tmpdir(), 'pcs-merge-nothing')], /cannot read the fleet report \/no\/such\/part\/fleet\.json: ENOENT/],
  ] as Array<[string[], RegExp, Record<string, string>?]>)('%j', async (args, message, env) => {
    const { code, stdout, stderr } = await cli(args, env);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(stdout).toBe('');
  });

  test.each([
    ['a schema violation', 'targets:\n  staging:\n    baseUrl: https://x.example/v1\n    rateLimit: fast\n', /petstore-conformance\.yaml:4:16: \/targets\/staging\/rateLimit must be number \(found string\)$/],
    ['an unknown setting', 'targets:\n  staging:\n    baseUrl: https://x.example/v1\n    ratelimit: 5\n', /:4:5: \/targets\/staging must NOT have additional properties: ratelimit$/],
    ['a YAML syntax error', 'targets:\n  staging: [\n', /petstore-conformance\.yaml:3:1: /],
    ['an unknown target', 'targets:\n  prod:\n    baseUrl: https://x.example/v1\n', /has no target "staging"; it has: prod$/],
    ['an alias bomb (billion laughs)', `a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\ntargets: {staging: {baseUrl: https://x.example/v1}}\n`, /petstore-conformance\.yaml:\d+:\d+: .*alias/i],
    ['targets that are not a map', 'targets: 5\n', /:1:10: \/targets must be object \(found integer\)$/],
    ['a document that is a list', '- targets\n', /:1:1: \(root\) must be object \(found array\)$/],
    ['a rate limit past its bound', 'targets:\n  staging:\n    baseUrl: https://x.example/v1\n    rateLimit: 1e12\n', /:4:16: \/targets\/staging\/rateLimit must be <= 10000/],
  ])('a configuration file with %s: exit 2, one line naming file, line and column', async (_what, yaml, message) => {
    const dir = await tempDir();
    await writeFile(join(dir, 'petstore-conformance.yaml'), yaml);
    const { code, stderr } = await cli(['run', '--config', join(dir, 'petstore-conformance.yaml'), '--target', 'staging']);
    expect(code).toBe(2);
    expect(stderr.trim()).toMatch(message);
    expect(stderr.trim().split('\n')).toHaveLength(1);
  });

  test.each([
    ['a newline', 'Key-Part-One\nKey-Part-Two', /holds a character that cannot be sent in an HTTP header: a control character \(U\+000A\) at position 13/],
    ['a control character', 'Key\u0007WithBell0123', /a control character \(U\+0007\) at position 4/],
    ['a character outside ASCII', 'Kéy-0123456789', /a character outside ASCII \(U\+00E9\) at position 2/],
  ])('a key holding %s: exit 2, one line that does not print it', async (_what, key, message) => {
    const { code, stdout, stderr } = await cli(['run', '--base-url', 'http://127.0.0.1:9/v1'], { PETSTORE_API_KEY: key });
    expect(code).toBe(2);
    expect(stderr).toMatch(/^petstore-conformance: error: the API key \(from the environment variable PETSTORE_API_KEY\) /);
    expect(stderr).toMatch(message);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    for (const part of key.split(/[^A-Za-z0-9]+/).filter((p) => p.length >= 3)) expect(stderr + stdout).not.toContain(part);
  });

  test('a configuration file over 1 MiB is refused before it is parsed', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'big.yaml'), `targets:\n  staging:\n    baseUrl: https://x.example/v1\n# ${'x'.repeat(2 * 1024 * 1024)}\n`);
    const { code, stderr } = await cli(['run', '--config', join(dir, 'big.yaml'), '--target', 'staging']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/the configuration file \S*big\.yaml is over 1048576 bytes; it may be 1048576 at most/);
  });

  test('knownFailures: in a target, relative to its file; a malformed list is exit 2 with file:line, before any request', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'known.yaml'), '- check: create-ignores-client-id\n  reason: PET-142\n  expires: someday\n');
    await writeFile(join(dir, 'petstore-conformance.yaml'), 'targets:\n  staging:\n    baseUrl: http://127.0.0.1:9/v1\n    knownFailures: known.yaml\n');
    const { code, stderr } = await cli(['run', '--target', 'staging'], { PETSTORE_API_KEY: 'k'.repeat(20) }, undefined, dir);
    expect(code).toBe(2);
    expect(stderr).toBe(`petstore-conformance: error: ${join(dir, 'known.yaml')}:3:12: /0/expires must match format "date"\n`);
  });

  test.each([
    ['under /proc', '/proc/1/nope'],
    ['below a file', 'FILE/reports'],
  ])('a report directory %s: exit 2', async (_what, path) => {
    const file = join(await tempDir(), 'a-file');
    await writeFile(file, '');
    const { code, stderr } = await cli(['run', '--report-dir', path.replace('FILE', file)]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^petstore-conformance: error: cannot (create|write in) the report directory/);
  });

  test('an unwritable report directory', async () => {
    const file = join(await tempDir(), 'a-file');
    await writeFile(file, '');
    const { code, stderr } = await cli(['run', '--report-dir', join(file, 'reports')]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^petstore-conformance: error: cannot create the report directory/);
  });
});

test('the published package holds everything the CLI loads at run time', async () => {
  // Offline: npm lists what `npm pack` would ship, without building or publishing.
  const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: fileURLToPath(new URL('../../', import.meta.url)) });
  const files = new Set((JSON.parse(stdout) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((f) => f.path));
  for (const needed of ['bin/petstore-conformance.js', 'dist/src/index.js', 'dist/src/index.d.ts', 'dist/src/cli/main.js', 'dist/src/runner/run.js', 'dist/src/schema/spec-validators.cjs', 'schemas/category.schema.json', 'schemas/report.schema.json', 'package.json']) {
    expect(files, needed).toContain(needed);
  }
  for (const suite of ['conformance.test', 'auth', 'create', 'edge-cases', 'invariants', 'list', 'model', 'scope', 'validation']) {
    expect(files, suite).toContain(`dist/suites/${suite}.js`);
  }
}, 60_000);

test('--help and --version exit 0', async () => {
  const help = await cli(['--help']);
  expect(help.code).toBe(0);
  expect(help.stdout).toContain('serve');
  const version = await cli(['--version']);
  expect(version.code).toBe(0);
  expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
});

describe('serve', () => {
  /** Starts `serve`, waits for its banner, and returns it with a stopper. */
  async function serve(env: Record<string, string> = {}) {
    const { PETSTORE_API_KEY: _drop, ...base } = process.env;
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], { env: { ...base, ...env } });
    let stdout = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no banner: ${stdout}`)), 10_000);
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
        if (stdout.includes('Ctrl-C')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    const stop = () =>
      new Promise<number | null>((resolve) => {
        child.on('close', resolve);
        child.kill('SIGTERM');
      });
    return { stdout, baseUrl: /listening on (\S+)/.exec(stdout)![1]!, stop };
  }

  test('prints a generated key that the server accepts, and stops on SIGTERM with exit 0', async () => {
    const server = await serve();
    try {
      const key = /API key \(generated\): (\S+)/.exec(server.stdout)![1]!;
      const ok = await fetch(`${server.baseUrl}/categories`, { headers: { authorization: `Bearer ${key}` } });
      expect(ok.status).toBe(200);
      const refused = await fetch(`${server.baseUrl}/categories`);
      expect(refused.status).toBe(401);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  test('takes the key from PETSTORE_API_KEY and does not print it', async () => {
    const server = await serve({ PETSTORE_API_KEY: 'served-key-from-env-123' });
    try {
      expect(server.stdout).not.toContain('served-key-from-env-123');
      const ok = await fetch(`${server.baseUrl}/categories`, { headers: { authorization: 'Bearer served-key-from-env-123' } });
      expect(ok.status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});
