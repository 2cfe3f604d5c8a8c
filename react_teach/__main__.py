import sys

from react_teach.cli import main

sys.exit(main())
