"""Python's own http.server (BaseHTTPRequestHandler on a ThreadingHTTPServer) at its
defaults: HTTP/1.0, a body read by Content-Length, json.loads.

Environment: PETSTORE_KEY, the key; PORT; PETSTORE_FAULT=1 answers errors with
send_error(), as the module's docs show: an HTML page, where section 7 wants an Error body.
Run: python3 httpserver_petstore.py
"""
import json
import os
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

KEY = os.environ["PETSTORE_KEY"]
FAULT = os.environ.get("PETSTORE_FAULT") == "1"
STORE = []


class Handler(BaseHTTPRequestHandler):
    def answer(self, status, value, headers=None):
        body = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for name, field in (headers or {}).items():
            self.send_header(name, field)
        self.end_headers()
        self.wfile.write(body)

    def error(self, status, code, message, headers=None):
        if FAULT:
            self.send_error(status, message)
        else:
            self.answer(status, {"code": code, "message": message, "status": status}, headers)

    def authorized(self):
        header = self.headers.get("Authorization", "")
        scheme, _, token = header.partition(" ")
        if scheme.lower() == "bearer" and token == KEY:
            return True
        challenge = 'Bearer realm="petstore", error="invalid_token"' if header else 'Bearer realm="petstore"'
        self.error(401, "unauthorized", "a valid API key is required", {"WWW-Authenticate": challenge})
        return False

    def do_GET(self):
        if not self.authorized():
            return
        if self.path == "/v1/categories":
            self.answer(200, STORE)
        elif self.path.startswith("/v1/pets/") or self.path == "/v1/store/orders":
            self.error(501, "not_implemented", "outside the categories interface")
        else:
            self.error(404, "not_found", "no such resource")

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        if not self.authorized():
            return
        if self.path != "/v1/categories":
            return self.error(404, "not_found", "no such resource")
        try:
            body = json.loads(raw)
        except ValueError as problem:
            return self.error(400, "invalid_json", str(problem))
        if not isinstance(body, dict) or not isinstance(body.get("name"), str):
            return self.error(400, "invalid_body", "name is required and must be a string")
        if "description" in body and not isinstance(body["description"], str):
            return self.error(400, "invalid_body", "description must be a string")
        category = {"id": len(STORE) + 1, "name": body["name"]}
        if "description" in body:
            category["description"] = body["description"]
        STORE.append(category)
        self.answer(201, category)

    def log_message(self, *_):
        pass


ThreadingHTTPServer(("127.0.0.1", int(os.environ["PORT"])), Handler).serve_forever()
