"""The AcadChall report counts wrong answers (answered, nothing right) per layer, apart from unanswered
questions (issue 40: a wrong answer is worse than none)."""

from benchmarks.acadchall import markdown, summarise


def _row(layer: str, f1: float) -> dict:
    return {"template": "t", "wording": "w", "layer": layer, "answered": layer != "none", "precision": f1,
            "recall": f1, "f1": f1, "llm_calls": 0, "tokens": 0, "seconds": 0.01}


def test_wrong_answers_are_counted_per_layer_apart_from_unanswered_ones():
    rows = [_row("ontology", 1.0), _row("ontology", 0.0), _row("kg", 0.0), _row("kg", 0.5), _row("none", 0.0)]
    o = summarise(rows)["overall"]
    assert o["wrong"] == {"ontology": 1, "kg": 1} and o["wrong_rate"] == 0.4
    assert o["layers"]["none"] == 1  # unanswered: its own count, not a wrong answer
    text = markdown({"overall": o, "templates": {}, "layers": ["ontology", "kg"], "mode": "plan", "llm": "x",
                     "setup_seconds": 0.0, "linker": {"n": 0, "accuracy": 0.0, "top1": 0.0, "ms_per_link": 0.0,
                                                     "by_kind": {}}})
    assert "wrong (answered, F1 0): kg 1, ontology 1 (40.0% of questions" in text


def test_an_abstention_or_a_choice_of_nothing_is_no_answer():
    """The text layer's "the documents do not seem to answer this" and an answer that selects no option
    are unanswered, not wrong."""
    from benchmarks.acadchall import score
    from pyramid.types import Answer

    mcq = {"question": "q", "options": ["2", "3"], "answers": [1]}
    said = Answer(question="q", text="It runs three wards.", layer="text", selected=[])
    assert score(mcq, said, 0.1)["answered"] is False
    assert score(mcq, said.model_copy(update={"selected": [0]}), 0.1)["answered"] is True
    shrug = Answer(question="q", text="The documents do not seem to answer this.", layer="text", abstained=True)
    assert score({"question": "q", "answer": "3"}, shrug, 0.1)["answered"] is False
