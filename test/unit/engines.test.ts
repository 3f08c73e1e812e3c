/**
 * `engines` tells the truth (issue 25: `npm install` warned EBADENGINE he@2.0.0 needs node
 * >=22 while the package said >=20.19): every installed package admits the oldest Node the
 * package declares, so the README's commands run there without a warning.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Every installed package's name, version and `engines.node`, nested node_modules included. */
function installed(dir: string): Array<{ name: string; version: string; node?: string }> {
  return readdirSync(dir).flatMap((name) => {
    if (name.startsWith('.')) return [];
    const path = join(dir, name);
    if (name.startsWith('@')) return installed(path);
    const manifest = join(path, 'package.json');
    const own = existsSync(manifest) ? [JSON.parse(readFileSync(manifest, 'utf8')) as { name: string; version: string; engines?: { node?: string } }] : [];
    const nested = existsSync(join(path, 'node_modules')) ? installed(join(path, 'node_modules')) : [];
    return [...own.map((pkg) => ({ name: pkg.name, version: pkg.version, node: pkg.engines?.node })), ...nested];
  });
}

test('every installed package runs on the oldest Node the package declares, and Node 20 is still that floor', () => {
  const { engines } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
  const oldest = semver.minVersion(engines.node)!.version;
  expect(semver.major(oldest)).toBe(20);
  const packages = installed(join(ROOT, 'node_modules'));
  expect(packages.length).toBeGreaterThan(100);
  const refusing = packages.filter((pkg) => pkg.node !== undefined && !semver.satisfies(oldest, pkg.node)).map((pkg) => `${pkg.name}@${pkg.version} needs node ${pkg.node}`);
  expect(refusing).toEqual([]);
});

test('npm install is silent: every dependency with an install script has its decision in allowScripts (npm 11 warns about each one without)', () => {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { allowScripts?: Record<string, boolean> };
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { hasInstallScript?: boolean }> };
  const withScripts = Object.entries(lock.packages)
    .filter(([path, entry]) => path !== '' && entry.hasInstallScript)
    .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
  expect(withScripts).toContain('esbuild'); // the one today: its binary comes from @esbuild/<platform>, so it is denied
  const decided = new Set(Object.keys(manifest.allowScripts ?? {}).map((entry) => entry.replace(/(?<=.)@[^@]*$/, '')));
  expect(withScripts.filter((name) => !decided.has(name))).toEqual([]);
});
