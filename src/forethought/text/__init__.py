"""Text helpers every layer above the domain shares; each module is small and pure.

    sentences    the one sentence splitter: verbatim slices of the input, with offsets
    words        word tokens, stop words, two light stemmers, salient words, word lists
    identifiers  code-like identifiers and proper names, as exact-match terms
    normalize    the matching form of a text (quotes, dashes, markdown, whitespace, case)
    detectors    secrets, personal data and prompt-injection phrases, and their redaction
    slugs        tag-safe slugs

This package imports only the standard library, `forethought.domain` and `forethought.errors`.
"""
