/**
 * The floor for benchmark scenario (c): a process that reads the same list as the list
 * class's three checks, three times one after another, each a bare undici request and
 * one native JSON.parse of its text, nothing else. Prints the three reads' total, in ms.
 * Usage: node dist/scripts/bare-list.js BASE_URL (the key in PETSTORE_API_KEY)
 */
import { request } from 'undici';

const [baseUrl] = process.argv.slice(2);
const started = performance.now();
for (let i = 0; i < 3; i++) {
  const res = await request(`${baseUrl}/categories`, { headers: { authorization: `Bearer ${process.env.PETSTORE_API_KEY}` } });
  JSON.parse(await res.body.text());
}
console.log(Math.round(performance.now() - started));
