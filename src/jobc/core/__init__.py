"""The vocabulary every stage speaks.

Takes nothing from the rest of jobc. Gives the value records (`record`), and the words for where
and what: a data path into a spec, a span of source text, a severity, a finding. Every other
package builds on these; none of these knows about YAML, specs, rules or Slurm.
"""
