"""MCQ/MAQ option selection shared by the layers (querying/options.py): no model involved."""

from __future__ import annotations

from querying.options import Value, counted_options, is_none_option, select_options, supports


def test_names_match_across_case_titles_order_accents_and_cjk():
    assert supports("WONG Wai On 黃偉安 (Dr)", "Dr Wai On Wong")
    assert supports("Mia Münster", "mia munster")
    assert supports("Ir Prof. K.L. Yung", "K.L. YUNG")
    assert not supports("Dr Xiang LI", "Dr Xiaoli LI")


def test_codes_phrases_and_typos():
    assert supports("BRE345 Measurement, Documentation & Estimating", "BRE345")
    # an option found inside a passage, but not inside a longer name
    passage = "The subject is offered by the Department of Computing, which belongs to the Faculty of Engineering."
    assert supports("Department of Computing", passage)
    assert not supports("Department of Computing", "Department of Computing and Mathematics")
    assert supports("Department of Rehabilitation Sciences", "Department of Rehabilitaton Sciences")  # typo
    assert not supports("Faculty of Science", "Faculty of Engineering")


def test_several_options_for_maq_and_ids_first():
    options = ["Henry Duh", "Prof. Daniel T.L. SHEK", "Vincie PY Lee", "Shera Hyunyim Park"]
    evidence = [Value("Henry Duh", "http://example.org/SD43"), Value("Vincie PY Lee", "http://example.org/SD2"),
                Value("someone else", "http://example.org/SD54")]
    assert select_options(options, evidence) == [0, 2]
    # option 3 was linked to the IRI of a row whose label reads differently
    ids = [set(), set(), set(), {"http://example.org/SD54"}]
    assert select_options(options, evidence, option_ids=ids) == [0, 2, 3]
    assert select_options(options, ["nothing relevant"]) == []


def test_none_of_the_above():
    options = ["Faculty of Business", "Faculty of Science", "None of the above"]
    assert is_none_option("None of the above") and not is_none_option("Nonetheless")
    assert select_options(options, ["Faculty of Humanities"]) == []
    assert select_options(options, ["Faculty of Humanities"], allow_none=True) == [2]
    assert select_options(options, ["Faculty of Science"], allow_none=True) == [1]
    assert select_options(options, [], allow_none=True) == []  # no evidence supports "none" either


def test_a_count_is_chosen_by_the_number_said_beside_what_it_counts():
    """"How many …?" with numbers for options: a number said of something else (a year, a floor) is no
    count; "three wards", "runs 9 minutes" are."""
    options = ["2", "3", "9", "None of the above"]
    said = ["Opened in 1964, the hospital runs three wards on 2 floors.", "The film runs 9 minutes."]
    assert counted_options("How many wards does the hospital run?", options, said) == [1]
    assert counted_options("How many minutes does the film run?", options, said) == [2]
    assert counted_options("How many nurses work there?", options, said) == []
    # not a count, or options that are no numbers: the usual matching applies
    assert counted_options("In which year did the hospital open?", ["1964", "1971"], said) is None
    assert counted_options("How many wards does it run?", ["two wards", "3"], said) is None
    # "the switchboard number of the hospital" is one thing's number; "how much" an amount
    assert counted_options("What is the switchboard number of the hospital?", ["2", "3"], said) is None
    assert counted_options("How much did it cost, in millions?", ["2", "3"], said) is None


def test_one_time_asked_of_one_thing_is_the_option_said_beside_it():
    """"When is the Harbour Lantern Walk?": an answer that also says the next event's date and the news
    item's says the walk's beside the walk; where it says the asked name nowhere, every option stands."""
    from querying.options import nearest_said

    options = ["3 March 2026", "14 March 2026", "2 January 2026", "21 March 2026"]
    text = ("Coming up on the quay: Harbour Lantern Walk on 14 March 2026 and Net Mending Morning on 21 March "
            "2026. Posted 2 January 2026.")
    walk = [("harbour", "lantern", "walk")]
    assert nearest_said(options, [1, 2, 3], text, walk) == [1]
    assert nearest_said(options, [1, 2, 3], "Events on 14 March 2026 and 21 March 2026.", walk) == [1, 2, 3]
    assert nearest_said(options, [1], text, walk) == [1]
