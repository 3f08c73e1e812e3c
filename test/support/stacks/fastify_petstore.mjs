/**
 * Fastify 5 (npm), written as Fastify's docs show: a JSON schema on the create route,
 * validated by Fastify's own Ajv, an onRequest hook for the key, and an error handler and a
 * not-found handler for the Error shape. Environment: PETSTORE_KEY, PORT;
 * PETSTORE_FAULT=1 keeps Fastify's Ajv defaults, which coerce types (coerceTypes: 'array'):
 * a name of 5 is stored as "5", where 4.2 wants 400. The correct one turns coercion off.
 */
import Fastify from 'fastify';

const KEY = process.env.PETSTORE_KEY;
const FAULT = process.env.PETSTORE_FAULT === '1';
const store = [];
const app = Fastify(FAULT ? {} : { ajv: { customOptions: { coerceTypes: false } } });

const error = (reply, status, code, message) => reply.code(status).send({ code, message, status });

app.addHook('onRequest', async (request, reply) => {
  const header = request.headers.authorization ?? '';
  const [scheme, ...rest] = header.split(' ');
  if (scheme.toLowerCase() === 'bearer' && rest.join(' ') === KEY) return;
  reply.header('WWW-Authenticate', header ? 'Bearer realm="petstore", error="invalid_token"' : 'Bearer realm="petstore"');
  return error(reply, 401, 'unauthorized', 'a valid API key is required');
});
app.setErrorHandler((err, request, reply) => error(reply, err.statusCode ?? 500, err.code ?? 'error', err.message));
app.setNotFoundHandler((request, reply) => error(reply, 404, 'not_found', 'no such resource'));

const newCategory = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string' }, description: { type: 'string' } },
};
app.get('/v1/categories', async () => store);
app.post('/v1/categories', { schema: { body: newCategory } }, async (request, reply) => {
  const { name, description } = request.body;
  const category = { id: store.length + 1, name, ...(description !== undefined ? { description } : {}) };
  store.push(category);
  return reply.code(201).send(category);
});
app.get('/v1/pets/:petId', async (request, reply) => error(reply, 501, 'not_implemented', 'outside the categories interface'));
app.get('/v1/store/orders', async (request, reply) => error(reply, 501, 'not_implemented', 'outside the categories interface'));

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
