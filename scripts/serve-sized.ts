/**
 * For benchmark scenario (g): a reference server holding COUNT categories before any run,
 * in a process of its own, so that serving a large list weighs on the bench's clock and
 * not on the measured run's CPU. Each category is about 80 bytes of JSON, as a shop's
 * catalogue might hold. Prints `listening on <base URL>`; stops on SIGTERM.
 * Usage: node dist/scripts/serve-sized.js COUNT (the key in PETSTORE_API_KEY)
 */
import { startReferenceServer } from '../src/reference/server.js';

const count = Number(process.argv[2]);
if (!Number.isSafeInteger(count) || count < 0) throw new Error(`usage: serve-sized.js COUNT, not ${process.argv[2]}`);
const server = await startReferenceServer({ apiKey: process.env.PETSTORE_API_KEY });
for (let i = 0; i < count; i++) server.store.create({ name: `category ${i}`, description: `what category number ${i} of the catalogue holds` });
process.stdout.write(`listening on ${server.baseUrl}\n`);
process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
