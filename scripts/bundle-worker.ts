/**
 * Build step (`npm run build`): bundles the suite's thread and the compiled suite into
 * `worker/` of the build's folder (argument; default `dist/`: src/runner/suite-bundle.ts),
 * with the spec shapes' precompiled validators beside them: the validators module requires
 * its precompiled code beside itself.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../src/core/package-info.js';
import { bundleSuite } from '../src/runner/suite-bundle.js';
import { PRECOMPILED_FILE } from '../src/schema/validators.js';

const build = process.argv[2] ?? join(packageRoot, 'dist');
const out = join(build, 'worker');
await bundleSuite(build, 'js', out);
copyFileSync(join(build, 'src/schema', PRECOMPILED_FILE), join(out, PRECOMPILED_FILE));
