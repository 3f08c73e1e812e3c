/**
 * Express 5 (npm), written as Express's docs show: express.json() at its defaults (100 KB,
 * strict), an authentication middleware, and an error-handling middleware that gives every
 * error the Error shape. Environment: PETSTORE_KEY, PORT; PETSTORE_FAULT=1 leaves the error
 * handler out: Express's own answers a malformed body with an HTML page.
 */
import express from 'express';

const KEY = process.env.PETSTORE_KEY;
const FAULT = process.env.PETSTORE_FAULT === '1';
const store = [];
const app = express();

const error = (res, status, code, message) => res.status(status).json({ code, message, status });

app.use((req, res, next) => {
  const header = req.get('authorization') ?? '';
  const [scheme, ...rest] = header.split(' ');
  if (scheme.toLowerCase() === 'bearer' && rest.join(' ') === KEY) return next();
  res.set('WWW-Authenticate', header ? 'Bearer realm="petstore", error="invalid_token"' : 'Bearer realm="petstore"');
  error(res, 401, 'unauthorized', 'a valid API key is required');
});
app.use(express.json());

app.get('/v1/categories', (req, res) => res.json(store));
app.post('/v1/categories', (req, res) => {
  const body = req.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body) || typeof body.name !== 'string') return error(res, 400, 'invalid_body', 'name is required and must be a string');
  if ('description' in body && typeof body.description !== 'string') return error(res, 400, 'invalid_body', 'description must be a string');
  const category = { id: store.length + 1, name: body.name, ...('description' in body ? { description: body.description } : {}) };
  store.push(category);
  res.status(201).json(category);
});
app.get(['/v1/pets/:petId', '/v1/store/orders'], (req, res) => error(res, 501, 'not_implemented', 'outside the categories interface'));
app.use((req, res) => error(res, 404, 'not_found', 'no such resource'));
if (!FAULT) app.use((err, req, res, next) => error(res, err.status ?? 500, err.type ?? 'error', err.message));

app.listen(Number(process.env.PORT), '127.0.0.1');
