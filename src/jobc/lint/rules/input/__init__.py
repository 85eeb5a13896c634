"""JC0 — input: the file itself, its structure, its profiles and its suppressions."""
