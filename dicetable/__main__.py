"""``python -m dicetable``: the same as the ``dicetable`` command."""

import sys

from dicetable.cli import main

sys.exit(main())
