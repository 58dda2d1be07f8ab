"""The support app: action vocabulary, extraction rules (with their negatives), review, applicability, policy."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from forethought.apps.base import Review
from forethought.apps.support import APP, normalise_action
from forethought.domain import Provenance, Record, Role
from forethought.domain.candidates import Candidate, Flag
from tests.apps.conftest import T0, session


def _extract(*turns: tuple[str, str]) -> list[Candidate]:
    return APP.extract(session(*turns))


def _facts(candidates: list[Candidate]) -> set[tuple[str, str, str | None, str | None]]:
    """(kind, asserted_by, action, outcome) for every candidate."""
    return {(c.kind, c.asserted_by.value, c.attributes.get("action"), c.attributes.get("outcome")) for c in candidates}


def _record(kind: str, attributes: dict[str, Any], *, days: int = 0, by: Role = Role.USER, turn: int = 0) -> Record:
    from forethought.domain import Evidence

    return Record(
        id=f"r-{kind}-{days}-{turn}",
        space_id="space",
        handle="h",
        lineage_id="l",
        kind=kind,
        statement="x",
        attributes=attributes,
        evidence=(Evidence(quote="q", turn_index=turn),),
        provenance=Provenance(asserted_by=by),
        occurred_at=T0 + timedelta(days=days),
        recorded_at=T0,
    )


# -- the vocabulary ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("restart bluetooth", "restart bluetooth"),
        ("I turned Bluetooth off and on again", "restart bluetooth"),
        ("toggle BT", "restart bluetooth"),
        ("reboot the router", "restart router"),
        ("power cycle the modem", "restart router"),
        ("reset your phone's network settings", "reset network settings"),
        ("install the latest firmware update", "update firmware"),
        ("the firmware upgrade", "update firmware"),
        ("uninstall and reinstall the app", "reinstall the app"),
        ("delete the app and download it again", "reinstall the app"),
        ("clear the browser cache and cookies", "clear cache"),
        ("reset it to factory settings", "factory reset"),
        ("do a hard reset", "factory reset"),
        ("forget the headphones and pair them again", "re-pair device"),
        ("unpair and re-pair the watch", "re-pair device"),
        ("forget the Wi-Fi network and rejoin", "forget wifi network"),
        ("sign out and sign back in", "log out and back in"),
        ("swap in fresh batteries", "replace battery"),
        ("try a different charging cable", "check cables"),
        ("turn off your VPN", "disable vpn"),
        ("update the network drivers", "update drivers"),
    ],
)
def test_normalise_action_maps_paraphrases_to_one_name(text: str, canonical: str) -> None:
    assert normalise_action(text) == canonical
    assert APP.action_key(text) == canonical


def test_unknown_actions() -> None:
    assert normalise_action("Please try calling the hotline") == "calling hotline"
    assert APP.action_key("Please try calling the hotline") is None
    assert normalise_action("turn Bluetooth on") != "restart bluetooth"


# -- extraction -------------------------------------------------------------------------------
def test_a_suggestion_is_not_an_attempt_and_ill_try_that_is_nothing() -> None:
    found = _extract(
        ("user", "My Bluetooth earbuds disconnect every few minutes."),
        ("agent", "Sorry! Try toggling Bluetooth on your phone."),
        ("user", "OK, I'll try that."),
    )
    assert _facts(found) == {
        ("problem_reported", "user", None, None),
        ("action_suggested", "agent", "restart bluetooth", None),
    }
    (problem,) = [c for c in found if c.kind == "problem_reported"]
    assert problem.attributes["product"] == "Bluetooth earbuds" and problem.attributes["symptoms"] == ["disconnects"]


def test_still_failing_after_an_attempt_is_an_attempt_and_a_failed_outcome() -> None:
    found = _extract(("user", "My speaker is still disconnecting after I restarted Bluetooth."))
    assert ("action_attempted", "user", "restart bluetooth", None) in _facts(found)
    assert ("outcome_reported", "user", "restart bluetooth", "failed") in _facts(found)
    assert not [c for c in found if c.kind == "resolution_confirmed"]


def test_that_fixed_it_is_a_resolution_of_the_last_suggestion() -> None:
    found = _extract(
        ("user", "The app crashes on launch."),
        ("agent", "Please clear the app cache."),
        ("user", "That fixed it, thanks!"),
    )
    assert {
        ("action_attempted", "user", "clear cache", None),
        ("outcome_reported", "user", "clear cache", "succeeded"),
        ("resolution_confirmed", "user", "clear cache", None),
    } <= _facts(found)


@pytest.mark.parametrize(
    "reply",
    ["", "ok", "Thanks, I'll give it a go tomorrow.", "Hopefully that fixes it.", "Should I also reboot it?"],
)
def test_silence_thanks_and_plans_are_not_resolutions_or_attempts(reply: str) -> None:
    turns = [("user", "My laptop won't connect to the wifi."), ("agent", "Try forgetting the network and rejoining.")]
    found = _extract(*turns, *([("user", reply)] if reply else []))
    kinds = {c.kind for c in found}
    assert kinds == {"problem_reported", "action_suggested"}


def test_negated_and_planned_steps_are_not_attempts() -> None:
    found = _extract(
        ("user", "My phone battery drains fast. I haven't tried battery saver yet and I never reinstalled anything."),
        ("user", "Someone told me to reset the network settings. I'm going to update the software tonight."),
    )
    assert {c.kind for c in found} == {"problem_reported"}


def test_referring_back_to_the_suggestion() -> None:
    found = _extract(
        ("user", "Outlook keeps freezing."),
        ("agent", "Let's clear the cache first."),
        ("user", "Cleared it. Still frozen."),
        ("agent", "Okay, please reinstall Outlook."),
        ("user", "Did that, same problem."),
    )
    assert {
        ("outcome_reported", "user", "clear cache", "failed"),
        ("outcome_reported", "user", "reinstall the app", "failed"),
    } <= _facts(found)


def test_the_agent_narrating_or_forbidding_a_step_is_not_a_suggestion() -> None:
    found = _extract(
        ("user", "My tablet keeps freezing."),
        ("agent", "I see you already tried a factory reset. Don't reinstall apps yet; check for a system update."),
    )
    assert {f[2] for f in _facts(found) if f[0] == "action_suggested"} == {"update software"}


def test_knowledge_base_suggestions() -> None:
    found = _extract(("agent", "According to our knowledge base, you should unpair the watch and pair it again."))
    (suggestion,) = found
    assert suggestion.attributes == {"action": "re-pair device", "by": "kb"}


def test_an_agent_claim_of_resolution_waits_for_a_person() -> None:
    found = _extract(("user", "I can't log in to my account."), ("agent", "I've marked this ticket as resolved."))
    (claim,) = [c for c in found if c.kind == "resolution_confirmed"]
    assert claim.asserted_by is Role.AGENT and Flag.AGENT_ONLY in claim.flags
    assert APP.review(claim) is Review.HUMAN
    assert not [c for c in found if c.kind == "action_suggested"]  # "I've reset" style narration is not a suggestion


def test_partial_outcome_and_regression() -> None:
    partial = _extract(("user", "My laptop fan is loud. I updated the drivers and it's a bit better but still loud."))
    assert ("outcome_reported", "user", "update drivers", "partial") in _facts(partial)
    back = _extract(("user", "My headphones keep disconnecting again. Re-pairing fixed it last month."))
    assert _facts(back) == {("regression", "user", "re-pair device", None)}


@pytest.mark.parametrize("text", ["If it disconnects again I'll call back.", "It hasn't disconnected again since."])
def test_hypothetical_or_denied_recurrence_is_not_a_regression(text: str) -> None:
    assert not [c for c in _extract(("user", text)) if c.kind == "regression"]


def test_every_candidate_quotes_its_turn_and_says_who_asserted_it() -> None:
    s = session(
        ("user", "Hi. My router keeps dropping the connection. I rebooted it twice, no luck."),
        ("agent", "Thanks. Could you change the wifi channel?"),
    )
    found = APP.extract(s)
    assert ("outcome_reported", "user", "restart router", "failed") in _facts(found)
    for candidate in found:
        (evidence,) = candidate.evidence
        turn = s.turns[evidence.turn_index or 0]
        assert evidence.quote in turn.text and evidence.role is turn.role is candidate.asserted_by


def test_review_policy() -> None:
    found = _extract(("user", "My printer jams."), ("agent", "Please clear the paper jam."))
    assert {c.kind: APP.review(c) for c in found} == {
        "problem_reported": Review.AUTO,
        "action_suggested": Review.AUTO,
    }
    agent_attempt = found[0].model_copy(update={"kind": "action_attempted", "asserted_by": Role.AGENT})
    assert APP.review(agent_attempt) is Review.HUMAN


# -- applicability ----------------------------------------------------------------------------
def test_applicability() -> None:
    failed = _record(
        "outcome_reported",
        {"action": "restart bluetooth", "outcome": "failed", "problem": "Bluetooth headphones: disconnects"},
    )
    fixed = _record("resolution_confirmed", {"action": "update firmware", "problem": "speaker: no sound"})
    verdict = APP.applicability("My headphones disconnected again, what should I try?", failed)
    assert verdict is not None and verdict.applies and "restarting Bluetooth" in verdict.reason
    assert APP.applicability("How do I change my billing address?", failed) is None
    similar = APP.applicability("My speaker has no sound after the update", fixed)
    assert similar is not None and similar.applies and "updating the firmware" in similar.reason
    assert APP.applicability("My keyboard is sticky", fixed) is None


# -- policy findings --------------------------------------------------------------------------
FAILED = _record("outcome_reported", {"action": "restart bluetooth", "outcome": "failed"})


@pytest.mark.parametrize(
    "step",
    ["Try turning Bluetooth off and on again.", "Please toggle BT once more.", "First, restart Bluetooth."],
)
def test_a_failed_step_recommended_again_in_other_words_is_an_error(step: str) -> None:
    draft = f"Sorry about that. {step} Let me know how it goes."
    (finding,) = APP.policy_findings(draft, [FAILED])
    assert (finding.severity, finding.excerpt, finding.record_id) == ("error", step, FAILED.id)
    assert "already tried and failed" in finding.message
    assert "re-pairing the device" in finding.suggestion  # the next step on the Bluetooth ladder


def test_acknowledging_a_failed_step_is_fine() -> None:
    draft = "Since restarting Bluetooth didn't help, let's update the firmware instead."
    assert APP.policy_findings(draft, [FAILED]) == []


def test_partial_and_attempt_followed_by_a_new_report() -> None:
    partial = _record("outcome_reported", {"action": "clear cache", "outcome": "partial"})
    (warning,) = APP.policy_findings("Please clear the cache.", [partial])
    assert warning.severity == "warning"
    attempt = _record("action_attempted", {"action": "reinstall the app"}, days=0)
    again = _record("problem_reported", {"summary": "The app still crashes"}, days=2)
    (error,) = APP.policy_findings("Reinstall the app.", [attempt, again])
    assert error.severity == "error" and error.record_id == attempt.id
    assert APP.policy_findings("Reinstall the app.", [attempt]) == []  # tried, outcome unknown


def test_claiming_resolution_without_confirmation() -> None:
    draft = "Great news. Your issue is now resolved!"
    (warning,) = APP.policy_findings(draft, [FAILED])
    assert (warning.severity, warning.excerpt) == ("warning", "Your issue is now resolved!")
    confirmed = _record("resolution_confirmed", {"action": "update firmware"}, days=1)
    assert APP.policy_findings(draft, [FAILED, confirmed]) == []
    agent_claim = _record("resolution_confirmed", {"action": None}, days=1, by=Role.AGENT)
    assert len(APP.policy_findings(draft, [agent_claim])) == 1
    came_back = _record("regression", {"summary": "it's back"}, days=3)
    assert len(APP.policy_findings(draft, [confirmed, came_back])) == 1
    assert APP.policy_findings("Is the issue resolved now?", [FAILED]) == []


def test_a_shared_verb_governs_both_objects() -> None:
    found = _extract(("agent", "Please restart your router and then the TV."))
    assert {c.attributes["action"] for c in found} == {"restart router", "restart device"}


def test_doubt_is_not_a_resolution() -> None:
    found = _extract(
        ("user", "My app crashes."), ("agent", "Please clear the cache."), ("user", "Not sure it worked, honestly.")
    )
    assert not [c for c in found if c.kind in ("resolution_confirmed", "outcome_reported")]


WIFI = (
    ("user", "My wifi keeps dropping upstairs every few minutes."),
    ("agent", "Please restart the router."),
)


@pytest.mark.parametrize("said", ["I restarted the router. Downstairs is fine.", "I restarted it. The TV works fine."])
def test_something_else_being_fine_is_no_resolution(said: str) -> None:
    kinds = {c.kind for c in _extract(*WIFI, ("user", said))}
    assert "resolution_confirmed" not in kinds


@pytest.mark.parametrize(
    "said", ["I restarted the router. It's fine now.", "I restarted the router. The wifi is fine now.",
             "I restarted the router and the dropping is gone."]
)  # fmt: skip
def test_the_problem_itself_being_fine_is_a_resolution(said: str) -> None:
    assert "resolution_confirmed" in {c.kind for c in _extract(*WIFI, ("user", said))}
