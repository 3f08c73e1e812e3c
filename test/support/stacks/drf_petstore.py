"""Django 3.2 with Django REST framework 3.14 on runserver (Debian), in one file, written as
DRF's docs show: an authentication class for the bearer key (its authenticate_header makes
DRF answer 401, not 403) on each APIView, and a custom EXCEPTION_HANDLER for the Error shape.
Django's own 404 and 500 views stay as they are, as do its middleware's defaults.

Environment: PETSTORE_KEY, the key; PORT; PETSTORE_FAULT=1 writes the route as Django's
tutorials do, with a trailing slash ("v1/categories/"): CommonMiddleware's APPEND_SLASH
then answers /v1/categories with a 301, before any view or authentication.
Run: python3 drf_petstore.py
"""
import os
import sys

import django
from django.conf import settings

KEY = os.environ["PETSTORE_KEY"]
FAULT = os.environ.get("PETSTORE_FAULT") == "1"

settings.configure(
    DEBUG=False,
    ALLOWED_HOSTS=["127.0.0.1", "localhost", "[::1]"],
    ROOT_URLCONF=__name__,
    SECRET_KEY="proving-ground-only",
    INSTALLED_APPS=["django.contrib.contenttypes", "django.contrib.auth", "rest_framework"],
    MIDDLEWARE=["django.middleware.common.CommonMiddleware"],
    DATABASES={},
    REST_FRAMEWORK={
        "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
        "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
        "EXCEPTION_HANDLER": __name__ + ".error_shape",
        "UNAUTHENTICATED_USER": None,
    },
)
django.setup()

from django.urls import path  # noqa: E402
from rest_framework import exceptions  # noqa: E402
from rest_framework.authentication import BaseAuthentication  # noqa: E402
from rest_framework.permissions import IsAuthenticated  # noqa: E402
from rest_framework.response import Response  # noqa: E402
from rest_framework.views import APIView, exception_handler  # noqa: E402

STORE = []


class KeyHolder:
    is_authenticated = True


class BearerKey(BaseAuthentication):
    def authenticate(self, request):
        header = request.META.get("HTTP_AUTHORIZATION", "")
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or token != KEY:
            raise exceptions.AuthenticationFailed("a valid API key is required")
        return (KeyHolder(), None)

    def authenticate_header(self, request):
        return 'Bearer realm="petstore"'


def error_shape(exception, context):
    response = exception_handler(exception, context)
    if response is not None:
        detail = response.data.get("detail", response.data) if isinstance(response.data, dict) else response.data
        code = getattr(exception, "default_code", "error")
        response.data = {"code": code, "message": str(detail), "status": response.status_code}
    return response


def invalid(message):
    return Response({"code": "invalid_body", "message": message, "status": 400}, status=400)


class KeyedView(APIView):
    authentication_classes = [BearerKey]
    permission_classes = [IsAuthenticated]


class Categories(KeyedView):
    def get(self, request):
        return Response(STORE)

    def post(self, request):
        body = request.data
        if not isinstance(body, dict) or not isinstance(body.get("name"), str):
            return invalid("name is required and must be a string")
        if "description" in body and not isinstance(body["description"], str):
            return invalid("description must be a string")
        category = {"id": len(STORE) + 1, "name": body["name"]}
        if "description" in body:
            category["description"] = body["description"]
        STORE.append(category)
        return Response(category, status=201)


class NotShown(KeyedView):
    def get(self, request, **_):
        return Response({"code": "not_implemented", "message": "outside the categories interface", "status": 501}, status=501)


urlpatterns = [
    path("v1/categories/" if FAULT else "v1/categories", Categories.as_view()),
    path("v1/pets/<pet_id>", NotShown.as_view()),
    path("v1/store/orders", NotShown.as_view()),
]

if __name__ == "__main__":
    from django.core.management import execute_from_command_line

    execute_from_command_line([sys.argv[0], "runserver", f"127.0.0.1:{os.environ['PORT']}", "--noreload"])
