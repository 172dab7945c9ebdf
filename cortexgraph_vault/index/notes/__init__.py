"""One note as the index holds it: parsed from its bytes, its cold fields kept encoded until asked for."""
