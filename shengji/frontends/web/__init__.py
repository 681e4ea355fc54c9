"""Browser frontend (``shengji serve``): a Starlette ASGI app with websockets and a page
that needs no build step. Needs the ``web`` extra (starlette, uvicorn)."""


def create_app(**kwargs):
    from .app import create_app as _create

    return _create(**kwargs)


__all__ = ["create_app"]
