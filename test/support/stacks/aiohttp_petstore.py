"""A correct Pet Store categories server on a real asyncio stack (aiohttp, from Debian).

Its authentication middleware answers 401 before the handler reads the body, as aiohttp
applications commonly do, with keep-alive on: the body of a refused create is left on the
connection for aiohttp to discard. Environment: PETSTORE_KEY, PORT; PETSTORE_FAULT=1
checks only that an Authorization header is there, whatever it holds.
Run: python3 aiohttp_petstore.py
"""
import asyncio
import json
import os

from aiohttp import web

KEY = os.environ["PETSTORE_KEY"]
FAULT = os.environ.get("PETSTORE_FAULT") == "1"
STORE = []


def error(status, code, message, headers=None):
    return web.json_response({"code": code, "message": message, "status": status}, status=status, headers=headers)


@web.middleware
async def authenticate(request, handler):
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if FAULT and header:
        return await handler(request)
    if scheme.lower() != "bearer" or token != KEY:
        challenge = 'Bearer realm="petstore", error="invalid_token"' if header else 'Bearer realm="petstore"'
        return error(401, "unauthorized", "a valid API key is required", {"WWW-Authenticate": challenge})
    return await handler(request)


async def list_categories(request):
    return web.json_response(STORE)


async def create_category(request):
    text = await request.text()
    if text.strip() == "":
        return error(400, "invalid_body", "the request body is missing")
    try:
        body = json.loads(text)
    except (ValueError, RecursionError) as problem:  # a body nested past the recursion limit is refused, not a crash
        return error(400, "invalid_json", str(problem))
    if not isinstance(body, dict) or not isinstance(body.get("name"), str):
        return error(400, "invalid_body", "name is required and must be a string")
    if "description" in body and not isinstance(body["description"], str):
        return error(400, "invalid_body", "description must be a string")
    category = {"id": len(STORE) + 1, "name": body["name"]}
    if "description" in body:
        category["description"] = body["description"]
    STORE.append(category)
    return web.json_response(category, status=201)


async def not_shown(request):
    return error(501, "not_implemented", "outside the categories interface")


def main():
    app = web.Application(middlewares=[authenticate], client_max_size=2 * 1024 * 1024)
    app.router.add_get("/v1/categories", list_categories)
    app.router.add_post("/v1/categories", create_category)
    app.router.add_get("/v1/pets/{pet_id}", not_shown)
    app.router.add_get("/v1/store/orders", not_shown)
    runner = web.AppRunner(app)

    async def start():
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", int(os.environ["PORT"])).start()

    loop = asyncio.new_event_loop()
    loop.run_until_complete(start())
    loop.run_forever()


main()
