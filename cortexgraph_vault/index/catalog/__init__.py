"""The catalogue: every note of the vault as parsed, kept current from the disk (walks, reads, parses on many cores), and the log of what changed."""
