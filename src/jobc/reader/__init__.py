"""Reading YAML with positions: bytes on disk → plain data plus where every value stands.

Takes a file (or text) and gives `Source`: the data as plain dicts, lists and scalars under YAML
1.2 rules, a locator that turns a data path into a line and column, and the reading problems
(syntax, duplicate keys, ambiguous scalars, size and alias limits) as findings. The plain subset
of YAML most specs are written in is read in Python (`plainyaml`), other ordinary files by
libyaml's C parser (`fastyaml`); ruamel.yaml is the reference reader and the fallback (`source`);
`yamlguard` measures hostile input before any parser sees it.
"""
