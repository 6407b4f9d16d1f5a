"""Indirect fire under the House Rules V1.0, s. 5 Indirect Fire: the rule numbers, who may order
it and where, and carrying it out."""
