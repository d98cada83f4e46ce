"""Launch Attention Lab: `python main.py --help` lists the options."""

import sys

from app.main import main

if __name__ == "__main__":
    sys.exit(main())
