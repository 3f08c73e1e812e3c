/**
 * Koa 3 with @koa/router and @koa/bodyparser (npm), written as Koa's docs show: an error
 * middleware first (try/await next/catch) that gives every error the Error shape, then the
 * key, the body parser at its defaults and the router. Environment: PETSTORE_KEY, PORT;
 * PETSTORE_FAULT=1 answers a refused key with ctx.throw(401) and no error middleware: Koa's
 * own text/plain "Unauthorized", where section 5 wants an Error body.
 */
import Koa from 'koa';
import Router from '@koa/router';
import { bodyParser } from '@koa/bodyparser';

const KEY = process.env.PETSTORE_KEY;
const FAULT = process.env.PETSTORE_FAULT === '1';
const store = [];
const app = new Koa();
const router = new Router({ prefix: '/v1' });

const error = (ctx, status, code, message) => {
  ctx.status = status;
  ctx.body = { code, message, status };
};

if (!FAULT) {
  app.use(async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) error(ctx, 404, 'not_found', 'no such resource');
    } catch (err) {
      error(ctx, err.status ?? 500, err.code ?? 'error', err.message);
      if (err.headers) ctx.set(err.headers);
    }
  });
}
app.use(async (ctx, next) => {
  const header = ctx.get('authorization');
  const [scheme, ...rest] = header.split(' ');
  if (scheme.toLowerCase() === 'bearer' && rest.join(' ') === KEY) return next();
  ctx.throw(401, 'a valid API key is required', { headers: { 'WWW-Authenticate': header ? 'Bearer realm="petstore", error="invalid_token"' : 'Bearer realm="petstore"' } });
});
app.use(bodyParser());

router.get('/categories', (ctx) => void (ctx.body = store));
router.post('/categories', (ctx) => {
  const body = ctx.request.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body) || typeof body.name !== 'string') return error(ctx, 400, 'invalid_body', 'name is required and must be a string');
  if ('description' in body && typeof body.description !== 'string') return error(ctx, 400, 'invalid_body', 'description must be a string');
  const category = { id: store.length + 1, name: body.name, ...('description' in body ? { description: body.description } : {}) };
  store.push(category);
  ctx.status = 201;
  ctx.body = category;
});
router.get(['/pets/:petId', '/store/orders'], (ctx) => error(ctx, 501, 'not_implemented', 'outside the categories interface'));
app.use(router.routes()).use(router.allowedMethods({ throw: true }));

app.listen(Number(process.env.PORT), '127.0.0.1');
