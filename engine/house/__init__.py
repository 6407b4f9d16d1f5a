"""The Iron Cross House Rules V1.0 (and their quick reference) as a second rule set.

Each rule is a small function named after it, with the house-rules section it comes from.
"""
