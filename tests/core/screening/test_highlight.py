"""Keyword highlighting: whole words, prefixes, case, several words, overlaps."""

from litqeval_gui.core.screening.ranking.highlight import highlight_spans


def _marked(text, include, exclude):
    return [(text[s.start:s.end], s.kind) for s in highlight_spans(text, include, exclude)]


def test_whole_words_and_prefixes_case_insensitive():
    text = "Robotic surgery: robots, a ROBOT and robotics; not microrobot or surgeryX."
    assert _marked(text, ["robot*"], ["surgery"]) == [
        ("Robotic", "include"), ("surgery", "exclude"), ("robots", "include"),
        ("ROBOT", "include"), ("robotics", "include")]
    assert _marked(text, ["robot"], []) == [("ROBOT", "include")]


def test_several_words_and_the_longest_term_wins():
    text = "Machine learning for machine   translation in children."
    assert _marked(text, ["machine learn*"], ["machine", "child*"]) == [
        ("Machine learning", "include"), ("machine", "exclude"), ("children", "exclude")]


def test_terms_are_text_not_patterns_and_empty_lists_mark_nothing():
    assert _marked("C++ (and c) [x]", ["c++", "[x]"], []) == [("C++", "include"),
                                                               ("[x]", "include")]
    assert _marked("anything", [], ["", " ", "*"]) == []
    assert _marked("a.b axb", ["a.b"], []) == [("a.b", "include")]
