"""Search by meaning: the embedding model, note vectors, query vectors."""
