/**
 * `npm run schemas`: writes schemas/config.schema.json from the table of settings
 * (src/config/settings.ts), so the configuration file accepts exactly the settings a target
 * may give, within their bounds. A test fails when the committed file differs.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configSchema } from '../src/config/setting-values.js';
import { packageRoot } from '../src/core/package-info.js';

writeFileSync(join(packageRoot, 'schemas/config.schema.json'), `${JSON.stringify(configSchema(), null, 2)}\n`);
