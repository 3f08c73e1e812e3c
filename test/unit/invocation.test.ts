/** How a replay command starts: the tool as this user runs it (src/cli/invocation.ts). */
import { describe, expect, test } from 'vitest';
import { invocation } from '../../src/cli/invocation.js';

describe('invocation', () => {
  test.each([
    ['through npx (npm_command=exec)', '/home/u/app/node_modules/.bin/petstore-conformance', { npm_command: 'exec', PATH: '/home/u/app/node_modules/.bin:/usr/bin' }, '/home/u/app', 'npx petstore-conformance'],
    ['near miss: npm run (npm_command=run-script) runs the script by path', '/home/u/app/bin/petstore-conformance.js', { npm_command: 'run-script' }, '/home/u/app', 'node bin/petstore-conformance.js'],
    ['a global install, on PATH under its name', '/usr/local/bin/petstore-conformance', { PATH: '/usr/bin:/usr/local/bin' }, '/tmp', 'petstore-conformance'],
    ['near miss: the same bin, its folder not on PATH', '/usr/local/bin/petstore-conformance', { PATH: '/usr/bin' }, '/tmp', 'node /usr/local/bin/petstore-conformance'],
    ['near miss: a folder on PATH, but another name', '/usr/local/bin/petstore-conformance.js', { PATH: '/usr/local/bin' }, '/tmp', 'node /usr/local/bin/petstore-conformance.js'],
    ['the quick start: the checkout\'s bin, relative to the working folder', '/work/repo/bin/petstore-conformance.js', {}, '/work/repo', 'node bin/petstore-conformance.js'],
    ['a script given relative, resolved from the working folder', 'bin/petstore-conformance.js', {}, '/work/repo', 'node bin/petstore-conformance.js'],
    ['outside the working folder: its absolute path', '/work/repo/bin/petstore-conformance.js', {}, '/work/other', 'node /work/repo/bin/petstore-conformance.js'],
    ['a path with a space, quoted for sh', '/work/my repo/bin/petstore-conformance.js', {}, '/tmp', "node '/work/my repo/bin/petstore-conformance.js'"],
    ['no script (the library): npx', undefined, {}, '/tmp', 'npx petstore-conformance'],
  ])('%s', (_what, script, env, cwd, command) => expect(invocation(script, env, cwd)).toBe(command));
});
