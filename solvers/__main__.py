import sys

from solvers.cli import main

sys.exit(main())
