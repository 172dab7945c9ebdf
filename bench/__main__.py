"""`python -m bench`: see bench/run.py; `python -m bench recall`: see bench/recall.py."""

import sys

if sys.argv[1:2] == ["recall"]:
    from bench.recall import main as recall_main

    sys.exit(recall_main(sys.argv[2:]))

from bench.run import main

sys.exit(main())
