"""The consolidation pipeline: five stages, reviewable plans, a scheduler."""
