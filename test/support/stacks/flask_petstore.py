"""Flask 2.2 on gunicorn (Debian), written as Flask's docs show: a key-checking decorator
on each view, and "Returning API Errors as JSON" (an errorhandler for HTTPException).

Environment: PETSTORE_KEY, the key; PETSTORE_FAULT=1 leaves the decorator off the create
view (a realistic slip: the fault is a create without a key answered 201).
Run: gunicorn --chdir DIR -b 127.0.0.1:PORT flask_petstore:app
"""
import functools
import os

from flask import Flask, jsonify, request
from werkzeug.exceptions import HTTPException

KEY = os.environ["PETSTORE_KEY"]
FAULT = os.environ.get("PETSTORE_FAULT") == "1"
app = Flask(__name__)
STORE = []


def error(status, code, message, headers=None):
    response = jsonify(code=code, message=message, status=status)
    response.status_code = status
    response.headers.extend(headers or {})
    return response


def require_key(view):
    @functools.wraps(view)
    def checked(*args, **kwargs):
        header = request.headers.get("Authorization", "")
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or token != KEY:
            challenge = 'Bearer realm="petstore", error="invalid_token"' if header else 'Bearer realm="petstore"'
            return error(401, "unauthorized", "a valid API key is required", {"WWW-Authenticate": challenge})
        return view(*args, **kwargs)

    return checked


@app.errorhandler(HTTPException)
def http_error(exception):
    return error(exception.code, exception.name.lower().replace(" ", "_"), exception.description)


@app.get("/v1/categories")
@require_key
def list_categories():
    return jsonify(STORE)


def create_category():
    body = request.get_json()  # 400 when the body is missing, not JSON, or not application/json
    if not isinstance(body, dict) or not isinstance(body.get("name"), str):
        return error(400, "invalid_body", "name is required and must be a string")
    if "description" in body and not isinstance(body["description"], str):
        return error(400, "invalid_body", "description must be a string")
    category = {"id": len(STORE) + 1, "name": body["name"]}
    if "description" in body:
        category["description"] = body["description"]
    STORE.append(category)
    return jsonify(category), 201


app.post("/v1/categories")(create_category if FAULT else require_key(create_category))


@app.get("/v1/pets/<pet_id>")
@app.get("/v1/store/orders")
@require_key
def not_shown(**_):
    return error(501, "not_implemented", "outside the categories interface")
