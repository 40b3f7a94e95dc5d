"""Fresh worlds on demand, from a seed: one subpackage per language
(`alienworlds.generate.aliencode`; see docs/generated-worlds.md)."""
