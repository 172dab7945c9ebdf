"""`python -m bench`: see bench/run.py; `python -m bench recall`: see bench/recall.py;
`python -m bench facts`: see bench/facts.py."""

import sys

if sys.argv[1:2] == ["recall"]:
    from bench.recall import main as recall_main

    sys.exit(recall_main(sys.argv[2:]))

if sys.argv[1:2] == ["facts"]:
    from bench.facts import main as facts_main

    sys.exit(facts_main(sys.argv[2:]))

from bench.run import main

sys.exit(main())
