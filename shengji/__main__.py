"""``python -m shengji``: the ``shengji`` command."""

import sys

from .cli import main

sys.exit(main())
