"""The local web viewer (``toolkit serve``, ``docs/web.md``): a Starlette app over the same calculators as the
command line; the page (``static/``) adds no rule."""
from .app import create_app
from .sources import SourceBook

__all__ = ["SourceBook", "create_app"]
