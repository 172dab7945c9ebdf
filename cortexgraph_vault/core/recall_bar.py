"""The least relevance at which a memory counts as used by a message: one bar for auto-recall
(a use reinforces the memory) and for the recall analysis (memory is worth searching).

Set with the weights of core/use_relevance.py, which weighs the evidence, on the labelled set
there. A module of its own so that the settings can name it as their default without loading
the judge itself (its slot and intent patterns), which a search never needs.
"""

from __future__ import annotations

THRESHOLD = 0.5
