/**
 * The floor for benchmark scenario (a): a process that starts the reference server and
 * sends N authorized GET /categories with a bare undici pool, 16 at a time, nothing else.
 * It loads undici as the suite's client does (its public API).
 * Usage: node dist/scripts/bare-loop.js N
 */
import { Agent, request } from 'undici';
import { startReferenceServer } from '../src/reference/server.js';

const total = Number(process.argv[2] ?? 100);
const server = await startReferenceServer();
const agent = new Agent({ connections: 16 });
let next = 0;
const worker = async () => {
  while (next < total) {
    next++;
    const res = await request(`${server.baseUrl}/categories`, { dispatcher: agent, method: 'GET', headers: { authorization: `Bearer ${server.apiKey}` } });
    await res.body.arrayBuffer();
  }
};
await Promise.all(Array.from({ length: 16 }, worker));
await agent.close();
await server.close();
