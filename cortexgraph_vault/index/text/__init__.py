"""Search by words: each note's terms by field, posting lists, the vocabulary, BM25F scoring."""
