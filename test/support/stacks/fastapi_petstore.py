"""FastAPI 0.92 (pydantic 1.10) on uvicorn (Debian), written as FastAPI's docs show: the
key checked in an HTTP middleware (a dependency runs after the body is parsed, and 4.2/R3
wants 401 whatever the body), a pydantic model with strict types, and the handlers of
"Handling Errors" overridden so that every error has the Error shape.

Environment: PETSTORE_KEY, the key; PETSTORE_FAULT=1 keeps FastAPI's default handler for
validation errors: a body without name answers 422, where 4.2/R2 wants 400.
Run: python3 -m uvicorn --app-dir DIR --host 127.0.0.1 --port PORT fastapi_petstore:app
"""
import os
from typing import Optional

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, StrictStr, validator
from starlette.exceptions import HTTPException

KEY = os.environ["PETSTORE_KEY"]
FAULT = os.environ.get("PETSTORE_FAULT") == "1"
app = FastAPI()
STORE = []


class NewCategory(BaseModel):
    name: StrictStr

    @classmethod
    def validate(cls, value):
        # pydantic 1 makes a model of anything dict() takes ([["name", "x"]] among them): a body that is no object is refused.
        if not isinstance(value, dict):
            raise TypeError("the body must be a JSON object")
        return super().validate(value)
    description: Optional[StrictStr]

    @validator("description", pre=True, always=False)
    def description_not_null(cls, value):
        # pydantic 1 reads Optional as nullable: a null description is refused, as the spec's string type wants.
        if value is None:
            raise ValueError("description must be a string")
        return value


def error(status, code, message, headers=None):
    return JSONResponse({"code": code, "message": message, "status": status}, status_code=status, headers=headers)


@app.middleware("http")
async def authenticate(request: Request, call_next):
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or token != KEY:
        challenge = 'Bearer realm="petstore", error="invalid_token"' if header else 'Bearer realm="petstore"'
        return error(401, "unauthorized", "a valid API key is required", {"WWW-Authenticate": challenge})
    return await call_next(request)


@app.exception_handler(HTTPException)
async def http_error(request, exception):
    return error(exception.status_code, "http_error", str(exception.detail))


if not FAULT:

    @app.exception_handler(RequestValidationError)
    async def validation_error(request, exception):
        return error(400, "invalid_body", str(exception))


@app.get("/v1/categories")
async def list_categories():
    return STORE


@app.post("/v1/categories", status_code=201)
async def create_category(body: NewCategory):
    category = {"id": len(STORE) + 1, **body.dict(exclude_unset=True)}
    STORE.append(category)
    return category


@app.get("/v1/pets/{pet_id}")
@app.get("/v1/store/orders")
async def not_shown(pet_id: Optional[str] = None):
    return error(501, "not_implemented", "outside the categories interface")
