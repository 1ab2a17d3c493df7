"""``python -m toolkit``: the same as the ``toolkit`` command."""
import sys

from .cli import main

sys.exit(main())
