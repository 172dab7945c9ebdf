"""The index cache outside the vault: a warm start reads the notes, words and vectors from it."""
