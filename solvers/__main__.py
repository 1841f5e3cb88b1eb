import sys

from solvers.cli.main import main

sys.exit(main())
