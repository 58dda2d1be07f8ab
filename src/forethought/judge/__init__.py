"""The sentence judge: what each sentence of a conversation does, learned, offline, shared by apps.

A small network over the shipped MiniLM embeddings reads one sentence and its speaker and says
its act (a rule, a preference, a failed attempt, a plan, a one-task instruction, transient state,
a proposal, a question, a fact about the speaker or a third party, ...) with a calibrated
probability, and the project kind it would have as a rule. Apps turn acts into candidates and
fill slots with their own regexes; the judge never sees an app's code.
"""

from forethought.judge.acts import ACTS, DURABLE, PROJECT_KINDS, Act, modality_of
from forethought.judge.model import Judgement, SentenceJudge, shared_judge

__all__ = ["ACTS", "DURABLE", "PROJECT_KINDS", "Act", "Judgement", "SentenceJudge", "modality_of", "shared_judge"]
