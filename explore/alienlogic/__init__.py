"""The AlienLogic explorer: a hypothesis space of patches, probe design by
information gain, and exploration metrics."""
