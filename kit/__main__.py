"""``python -m kit`` runs the command line."""

import sys

from .entry import main

sys.exit(main())
