"""The query parser on a grammar table per syntax, and malformed queries' one-line errors."""

import pytest

from litqeval_gui.core.query.parser import (
    EXACT_NOTE,
    STEM_NOTE,
    QuerySyntaxError,
    detect,
    parse,
)
from litqeval_gui.core.query.syntax import ALL_FIELDS, Term, without

TA = frozenset({"title", "abstract"})


def tree(node) -> str:
    """A compact form: words joined by '+', fields other than all in brackets."""
    if isinstance(node, Term):
        tag = "" if node.fields == ALL_FIELDS else "[" + ",".join(
            f[0] for f in sorted(node.fields)) + "]"
        return "+".join(node.words) + tag
    extra = f"/{node.distance}{'o' if node.ordered else ''}" if node.op == "near" else ""
    return f"{node.op}{extra}(" + " ".join(tree(c) for c in node.children) + ")"


GRAMMAR = [
    # plain Boolean (Dimensions, the LitQEval queries): AND before OR, implicit AND
    ("boolean", "Robotic Arthroplasty", "and(robotic arthroplasty)"),
    ("boolean", "a OR b AND c", "or(a and(b c))"),
    ("boolean", "(a OR b) AND c NOT d", "not(and(or(a b) c) d)"),
    ("boolean", "a NOT b NOT c", "not(a b c)"),
    ("boolean", '"robot-assisted surgery" OR robot*', "or(robot+assisted+surgery robot*)"),
    ("boolean", "(predict*OR prone* OR probability)", "or(predict* prone* probability)"),
    ("boolean", "behavio?r", "behavio?r"),
    ("boolean", "“curly quotes”", "curly+quotes"),
    ("boolean", "(a OR b) OR (c OR d)", "or(or(a b) or(c d))"),
    # PubMed: left to right, tags on terms, proximity in the tag
    ("pubmed", "a[tiab] OR b AND c", "and(or(a[a,t] b) c)"),
    ("pubmed", "a AND b OR c", "or(and(a b) c)"),
    ('pubmed', '"hip replacement"[ti] OR knee[mh]', "or(hip+replacement[t] knee[k])"),
    ("pubmed", '"total knee"[tiab:~2]', "near/2(total[a,t] knee[a,t])"),
    ("pubmed", "robot*[Title/Abstract]", "robot*[a,t]"),
    # Scopus: OR before AND before AND NOT; field functions
    ("scopus", "TITLE-ABS-KEY(a AND b OR c)", "and(a or(b c))"),
    ("scopus", "TITLE-ABS-KEY(robot*) AND NOT TITLE(cadaver)", "not(robot* cadaver[t])"),
    ("scopus", "TITLE-ABS(a W/3 b)", "near/3(a[a,t] b[a,t])"),
    ("scopus", "TITLE(a PRE/2 b)", "near/2o(a[t] b[t])"),
    # Web of Science: NEAR before NOT before AND before OR
    ("wos", "TS=(a NEAR/3 b) AND TI=c", "and(near/3(a b) c[t])"),
    ("wos", "TS=(a OR b AND c NOT d)", "or(a and(b not(c d)))"),
    ("wos", "TS=(a NEAR b)", "near/15(a b)"),
    # Ovid: ADJ before AND before NOT before OR; suffixes, headings, implicit phrase
    ("ovid", "robot*.ti,ab. and exp Arthroplasty/", "and(robot*[a,t] arthroplasty[k])"),
    ("ovid", "home adj3 help", "near/2(home help)"),
    ("ovid", "(hip or knee).tw.", "or(hip[a,t] knee[a,t])"),
    ("ovid", "a or b and c", "or(a and(b c))"),
    ("ovid", "1 exp Arthroplasty, Replacement/\n2 robot*.ti,ab.\n3 (hip or knee).tw.\n"
             "4 or/2-3\n5 1 and 4",
     "and(arthroplasty+replacement[k] or(robot*[a,t] or(hip[a,t] knee[a,t])))"),
]


@pytest.mark.parametrize(("syntax", "text", "expected"), GRAMMAR,
                         ids=[f"{s}: {t[:30]}" for s, t, _ in GRAMMAR])
def test_the_grammar_table(syntax, text, expected):
    assert tree(parse(text, syntax).root) == expected


MALFORMED = [
    ("(a OR b", "character 1: a parenthesis is never closed"),
    ("a OR b)", "character 7: a closing parenthesis without its opening one"),
    ("a AND", "character 3: AND has nothing after it"),
    ("(a OR ) b", "character 7: OR has nothing after it (at “) b”)"),
    ("AND a", "character 1: AND has nothing before it"),
    ("NOT a", "character 1: NOT has nothing before it"),
    ('"abc', "character 1: a quotation is never closed"),
    ("a AND ()", "character 8: empty parentheses"),
    ("x[au]", "character 2: the field [au] is not among those evaluated locally"),
    ("x[tiab", "character 2: a field tag [ is never closed"),
    ("TITLE-ABS-KEY(a) AND PUBYEAR > 2010", "character 22: the Scopus field PUBYEAR"),
    ("TS=a AND AU=smith", "character 10: the Web of Science field AU="),
    ("a.ti. and b.zz.", "character 12: the Ovid field .zz."),
    ("1 a/\n2 3 and 1", "character 8: line 3 is not defined above"),
    ("(a AND b) NEAR/2 d", "character 1: a proximity operator can join only words, phrases and OR"),
    ("   ", "character 1: the query is empty"),
    ("a OR ***", "holds no word to search for"),
]


@pytest.mark.parametrize(("text", "message"), MALFORMED, ids=[t for t, _ in MALFORMED])
def test_a_malformed_query_gets_one_line_naming_the_place(text, message):
    with pytest.raises(QuerySyntaxError) as err:
        parse(text)
    assert message in str(err.value)
    assert "\n" not in str(err.value)


def test_the_syntax_is_detected_from_field_markers_and_can_be_forced():
    assert [detect(t) for t in ("a OR b", "a[tiab]", "TITLE(a)", "TS=a", "a.ti.")] == [
        "boolean", "pubmed", "scopus", "wos", "ovid"]
    assert tree(parse("a AND b OR c", "pubmed").root) == "or(and(a b) c)"
    assert tree(parse("a OR b AND c", "scopus").root) == "and(or(a b) c)"


def test_approximations_are_listed_never_silent():
    assert "words with no operator between them are read as AND" in parse("a b").approximations
    assert any("automatic term mapping" in n for n in parse("a[tiab] OR b").approximations)
    assert any("plurals" in n for n in parse("TITLE(a)").approximations)
    assert parse("a OR b").approximations == (STEM_NOTE,)
    assert parse("a OR b", words="exact").approximations == (EXACT_NOTE,)
    assert parse("a[tiab]").approximations[-1] == EXACT_NOTE


def test_clause_paths_sources_and_removal():
    query = parse("(knee OR hip) AND robot* NOT cadaver")
    paths = [(p, query.source(n)) for p, n in query.clauses()]
    assert paths == [("1", "(knee OR hip) AND robot* NOT cadaver"),
                     ("1.1", "(knee OR hip) AND robot*"), ("1.1.1", "(knee OR hip)"),
                     ("1.1.1.1", "knee"), ("1.1.1.2", "hip"), ("1.1.2", "robot*"),
                     ("1.2", "cadaver")]
    nodes = dict(query.clauses())
    assert tree(without(query.root, nodes["1.1.1.1"])) == "not(and(hip robot*) cadaver)"
    assert tree(without(query.root, nodes["1.2"])) == "and(or(knee hip) robot*)"
    assert without(query.root, nodes["1.1"]) is None  # NOT's first part gone: nothing left
    assert nodes["1.1.1.1"].fields == ALL_FIELDS and parse("a[tiab]").root.fields == TA
