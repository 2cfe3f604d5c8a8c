"""Tools after ReAct: native tool calling (notebook 13) and a calculator safe to hand a model (notebook 14).

- `calling`: the same loop through a tool-calling API, where a structured call replaces the ``Action i:`` line;
- `calculator`: arithmetic and nothing else, for text a model may have copied from an attacker.
"""
