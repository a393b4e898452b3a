"""Request bodies read as strict JSON: Python's `json` takes NaN, Infinity, numbers that overflow
to infinity (1e999) and lone surrogates, which nothing downstream can answer with or store; here
they are a malformed body (FastAPI's 422), on every route.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.routing import APIRoute


def strict_loads(body: bytes) -> Any:
    """The JSON value of `body`; json.JSONDecodeError for what RFC 8259 does not allow."""
    text = body.decode("utf-8", "replace")

    def refuse(constant: str) -> Any:
        raise json.JSONDecodeError(
            f"{constant} is not a finite number", text, text.find(constant)
        )

    def finite(number: str) -> float:
        value = float(number)
        if not math.isfinite(value):
            refuse(number)
        return value

    def integer(number: str) -> int:
        try:
            return int(number)
        except ValueError:  # more digits than Python converts (sys.get_int_max_str_digits)
            raise json.JSONDecodeError(
                f"a number of {len(number)} digits is too long", text, text.find(number)
            ) from None

    value = json.loads(body, parse_constant=refuse, parse_float=finite, parse_int=integer)
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise json.JSONDecodeError("a string holds a lone surrogate", text, 0) from None
    return value


class StrictJsonRequest(Request):
    """A request whose `json()` is `strict_loads` of its body."""

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            self._json = strict_loads(await self.body())
        return self._json


class StrictJsonRoute(APIRoute):
    """A route whose body is read with `StrictJsonRequest`."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def strict(request: Request) -> Response:
            return await handler(StrictJsonRequest(request.scope, request.receive))

        return strict
