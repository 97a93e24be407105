"""Read the search queries librarians paste: PubMed, Ovid MEDLINE, Scopus, Web of Science
and plain Boolean (Dimensions, the LitQEval queries).

:func:`parse` gives a :class:`~litqeval_gui.core.query.syntax.Query` or raises
:class:`QuerySyntaxError`, one line naming the place and the token. Each syntax keeps its
database's operator precedence (docs/query.md): PubMed reads AND, OR and NOT left to
right; Scopus binds OR before AND before AND NOT; Web of Science NEAR before NOT before
AND before OR; Ovid ADJ before AND before NOT before OR; plain Boolean AND (and NOT)
before OR. What the local evaluation only approximates is listed on the query.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace

from litqeval_gui.core.errors import LitqError
from litqeval_gui.core.query.syntax import ALL_FIELDS, Node, Op, Query, Term

SYNTAXES = ("auto", "boolean", "pubmed", "ovid", "scopus", "wos")
WORD_FORMS = ("auto", "stem", "exact")
STEMMED = frozenset({"boolean", "scopus", "wos"})  # databases that match word forms


class QuerySyntaxError(LitqError):
    """A query the parser cannot read: where (1-based character) and which token."""

    def __init__(self, message: str, at: int, text: str) -> None:
        near = text[at:at + 25].split("\n")[0]
        super().__init__(f"query, character {at + 1}: {message}"
                         + (f" (at “{near}”)" if near.strip() else ""))
        self.at = at


T, A, K = "title", "abstract", "keywords"
_PUBMED_TAGS = {
    "ti": {T}, "title": {T}, "ab": {A}, "abstract": {A}, "tiab": {T, A},
    "title/abstract": {T, A}, "tw": {T, A, K}, "text word": {T, A, K},
    "mh": {K}, "mesh": {K}, "mesh terms": {K}, "majr": {K}, "mesh major topic": {K},
    "mh:noexp": {K}, "mesh:noexp": {K}, "sh": {K}, "ot": {K}, "other term": {K},
    "kw": {K}, "keyword": {K}, "all": ALL_FIELDS, "all fields": ALL_FIELDS,
}
_SCOPUS_FIELDS = {
    "title-abs-key": {T, A, K}, "title-abs": {T, A}, "title": {T}, "abs": {A},
    "key": {K}, "authkey": {K}, "indexterms": {K}, "all": ALL_FIELDS,
}
_WOS_FIELDS = {"ts": {T, A, K}, "ti": {T}, "ab": {A}, "ak": {K}, "kp": {K},
               "all": ALL_FIELDS}
_OVID_FIELDS = {"ti": {T}, "ab": {A}, "tw": {T, A}, "kw": {K}, "kf": {K}, "ot": {K},
                "sh": {K}, "hw": {K}, "mh": {K}, "mp": {T, A, K}, "af": ALL_FIELDS}

# binding strength of each operator per syntax (higher binds tighter)
_PRECEDENCE = {
    "boolean": {"near": 4, "and": 2, "not": 2, "or": 1},
    "pubmed": {"near": 4, "and": 1, "not": 1, "or": 1},
    "scopus": {"near": 4, "or": 3, "and": 2, "not": 1},
    "wos": {"near": 5, "not": 4, "and": 3, "or": 2},
    "ovid": {"near": 5, "and": 3, "not": 2, "or": 1},
}


@dataclass
class _Token:
    kind: str  # ( ) word phrase op fields tag
    value: object
    start: int
    end: int


_SPACE = re.compile(r"\s+")
_SCOPUS_OPEN = re.compile(r"(TITLE-ABS-KEY|TITLE-ABS|TITLE|ABS|AUTHKEY|KEY|INDEXTERMS|ALL)"
                          r"\s*\(", re.IGNORECASE)
_SCOPUS_OTHER = re.compile(r"(AUTH|AUTHOR-NAME|AFFIL|SRCTITLE|PUBYEAR|DOCTYPE|LANGUAGE|"
                           r"LIMIT-TO|EXCLUDE|SUBJAREA|PUBSTAGE|DOI|REF)\s*[(<>=]",
                           re.IGNORECASE)
_WOS_PREFIX = re.compile(r"([A-Z]{2,3})\s*=\s*", re.IGNORECASE)
_OPERATOR = re.compile(r"(AND\s+NOT|AND|OR|NOT|SAME|NEAR(?:/(\d+))?|W/(\d+)|PRE/(\d+)|"
                       r"ADJ(\d*))(?![\w/*?$#-])", re.IGNORECASE)
_TAG = re.compile(r"\[([^\]]*)\]")
_OVID_SUFFIX = re.compile(r"\.((?:[a-z]{2})(?:,[a-z]{2})*)\.(?![\w])", re.IGNORECASE)
# exp Heart Diseases/ : a subject heading (exploded or not)
_OVID_HEADING = re.compile(r"(exp\s+)?\*?([^\s/()\"\[\]][^/()\"\[\]\n]*?)/(?=\s|$|\))",
                           re.IGNORECASE)
_WORD = re.compile(r"[^\s()\[\]\"“”{}]+")
_GLUED = re.compile(r"^(.*[*?$#])(AND|OR|NOT)$")  # predict*OR: an operator lost its space


def detect(text: str) -> str:
    """The syntax a query is written in, from its field markers (plain Boolean if none)."""
    if _SCOPUS_OPEN.search(text) and re.search(r"TITLE|ABS|KEY", text):
        return "scopus"
    if re.search(r"(?<![\w-])(TS|TI|AB|AK)\s*=", text):
        return "wos"
    if _TAG.search(text):
        return "pubmed"
    if (_OVID_SUFFIX.search(text) or re.search(r"\badj\d*\b", text, re.IGNORECASE)
            or re.search(r"^\s*\d+\s+\S", text, re.MULTILINE) and "\n" in text.strip()
            or re.search(r"\w/(\s|$|\))", text)):
        return "ovid"
    return "boolean"


def parse(text: str, syntax: str = "auto", words: str = "auto") -> Query:
    """The query ``text`` read as ``syntax`` ("auto": :func:`detect`); ``words`` "stem"
    matches every form of a word with its English stem, "exact" as written, "auto" as
    the syntax's database does (stems for plain Boolean, Scopus and Web of Science)."""
    if syntax not in SYNTAXES:
        raise LitqError(f"unknown query syntax {syntax!r}: use one of {', '.join(SYNTAXES)}")
    if words not in WORD_FORMS:
        raise LitqError(f"unknown word matching {words!r}: use one of "
                        f"{', '.join(WORD_FORMS)}")
    text = unicodedata.normalize("NFC", text)
    if not text.strip():
        raise QuerySyntaxError("the query is empty", 0, text)
    chosen = detect(text) if syntax == "auto" else syntax
    stem = chosen in STEMMED if words == "auto" else words == "stem"
    notes: list[str] = []
    if chosen == "ovid" and _numbered(text):
        root = _ovid_lines(text, notes, stem)
    else:
        root = _Parser(text, chosen, notes, 0, len(text), stem=stem).whole()
    notes += _syntax_notes(chosen)
    notes.append(STEM_NOTE if stem else EXACT_NOTE)
    return Query(text, chosen, root, tuple(dict.fromkeys(notes)))


STEM_NOTE = ("words match every form with the same English stem (Snowball: robotic, "
             "robotics and robots alike), as Dimensions, Scopus and Web of Science match "
             "word forms; a word with * or ? and a {exact phrase} match as written")
EXACT_NOTE = "words match as written (no stemming), as PubMed and Ovid search text words"


def _syntax_notes(syntax: str) -> list[str]:
    return {
        "pubmed": ["PubMed maps untagged terms to MeSH and other fields (automatic term "
                   "mapping); here an untagged term is searched in title, abstract and "
                   "keywords as written", "MeSH terms are searched among the keywords (an "
                   "export's MeSH headings and author keywords together), not exploded"],
        "scopus": ["Scopus finds plurals and spelling variants of a word; here its forms "
                   "with the same stem (British and American spellings are not joined)"],
        "ovid": ["subject headings (Heading/) are searched among the keywords, not "
                 "exploded; .mp. is read as title, abstract and keywords"],
        "wos": ["TS= also searches Keywords Plus; here it is title, abstract and keywords"],
        "boolean": [],
    }[syntax]


# --------------------------------------------------------------------------- tokens

def _tokens(text: str, start: int, end: int, syntax: str) -> list[_Token]:
    out: list[_Token] = []
    i = start
    while i < end:
        m = _SPACE.match(text, i, end)
        if m:
            i = m.end()
            continue
        ch = text[i]
        if ch in "()":
            out.append(_Token(ch, None, i, i + 1))
            i += 1
        elif ch in "\"“”{":
            close = "}" if ch == "{" else "\"”“"
            j = i + 1
            while j < end and text[j] not in close:
                j += 1
            if j >= end:
                raise QuerySyntaxError("a quotation is never closed", i, text)
            out.append(_Token("exact" if ch == "{" else "phrase", text[i + 1:j], i, j + 1))
            i = j + 1
        elif ch == "[":
            m = _TAG.match(text, i, end)
            if not m:
                raise QuerySyntaxError("a field tag [ is never closed", i, text)
            out.append(_Token("tag", m.group(1), i, m.end()))
            i = m.end()
        elif syntax == "scopus" and (m := _SCOPUS_OPEN.match(text, i, end)):
            out.append(_Token("fields", _SCOPUS_FIELDS[m.group(1).lower()], i, m.end() - 1))
            i = m.end() - 1  # the "(" opens the group
        elif syntax == "scopus" and (m := _SCOPUS_OTHER.match(text, i, end)):
            raise QuerySyntaxError(f"the Scopus field {m.group(1).upper()} is not among "
                                   "those evaluated locally (title, abstract, keywords)",
                                   i, text)
        elif syntax == "wos" and (m := _WOS_PREFIX.match(text, i, end)):
            tag = m.group(1).lower()
            if tag not in _WOS_FIELDS:
                raise QuerySyntaxError(f"the Web of Science field {tag.upper()}= is not "
                                       "among those evaluated locally (TS, TI, AB, AK)",
                                       i, text)
            out.append(_Token("fields", _WOS_FIELDS[tag], i, m.end()))
            i = m.end()
        elif syntax == "ovid" and (m := _OVID_SUFFIX.match(text, i, end)):
            out.append(_Token("tag", "." + m.group(1) + ".", i, m.end()))
            i = m.end()
        elif syntax == "ovid" and (m := _OVID_HEADING.match(text, i, end)) \
                and not _OPERATOR.search(m.group(2)):
            out.append(_Token("phrase", m.group(2), i, m.end() - 1))
            out.append(_Token("tag", ".sh.", m.end() - 1, m.end()))
            i = m.end()
        elif m := _OPERATOR.match(text, i, end):
            out.append(_Token("op", _operator(m, syntax), i, m.end()))
            i = m.end()
        else:
            m = _WORD.match(text, i, end)
            word = m.group(0)
            if syntax == "ovid":  # robot*.ti,ab. ends a word
                suffix = re.search(r"\.((?:[a-z]{2})(?:,[a-z]{2})*)\.$", word, re.IGNORECASE)
                if suffix:
                    word = word[:suffix.start()]
            glued = _GLUED.match(word)
            if glued:
                word = glued.group(1)
            out.append(_Token("word", word, i, i + len(word)))
            i += len(word)
            if word != m.group(0) and not glued:
                continue
            if glued:
                out.append(_Token("op", _operator(_OPERATOR.match(glued.group(2)), syntax),
                                  i, i + len(glued.group(2))))
                i += len(glued.group(2))
    return out


def _operator(m: re.Match, syntax: str) -> tuple[str, int, bool]:
    """(name, words allowed between, ordered) of an operator match."""
    word = m.group(1).upper()
    if word.startswith("AND") and "NOT" in word:
        return ("not", 0, False)
    if word in ("AND", "OR", "NOT"):
        return (word.lower(), 0, False)
    if word == "SAME":
        return ("and", 0, False)  # a note says so
    if word.startswith("NEAR"):
        return ("near", int(m.group(2)) if m.group(2) else 15 if syntax == "wos" else 5,
                False)
    if word.startswith("W/"):
        return ("near", int(m.group(3)), False)
    if word.startswith("PRE/"):
        return ("near", int(m.group(4)), True)
    n = int(m.group(5)) if m.group(5) else 1
    return ("near", max(n - 1, 0), False)  # Ovid adjN: at most N-1 words between


# --------------------------------------------------------------------------- the tree

def _words(value: str, at: int, text: str) -> tuple[str, ...]:
    """The lower-case words of a term (wildcards kept: * any letters, ? one or none)."""
    value = value.replace("$", "*").replace("#", "?")
    folded = "".join(c for c in unicodedata.normalize("NFKD", value.casefold())
                     if not unicodedata.combining(c))
    words = tuple(w for w in re.findall(r"[^\W_]+[*?]*(?:[^\W_]+[*?]*)*|[*?]+", folded)
                  if w.strip("*?"))
    if not words:
        raise QuerySyntaxError(f"“{value}” holds no word to search for", at, text)
    return words


class _Parser:
    def __init__(self, text: str, syntax: str, notes: list[str], start: int, end: int,
                 lines: dict[int, Node] | None = None, stem: bool = False) -> None:
        self.text, self.syntax, self.notes, self.lines = text, syntax, notes, lines or {}
        self.stem = stem
        self.tokens = _tokens(text, start, end, syntax)
        self.pos = 0
        self.strength = _PRECEDENCE[syntax]

    def whole(self) -> Node:
        node = self.expression(0, ALL_FIELDS)
        if self.pos < len(self.tokens):
            tok = self.tokens[self.pos]
            what = "a closing parenthesis without its opening one" if tok.kind == ")" \
                else "an unexpected token"
            raise QuerySyntaxError(what, tok.start, self.text)
        return node

    def peek(self) -> _Token | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def expression(self, floor: int, fields: frozenset[str]) -> Node:
        """Precedence climbing: operators binding at least ``floor``, left to right."""
        left = self.primary(fields)
        while (tok := self.peek()) is not None and tok.kind != ")":
            if tok.kind == "op":
                name, distance, ordered = tok.value
            elif tok.kind in ("word", "phrase", "exact", "(", "fields"):  # no operator
                name, distance, ordered = ("near", 0, True) if self.syntax == "ovid" \
                    else ("and", 0, False)
            else:
                raise QuerySyntaxError("a field tag must follow a word or a phrase",
                                       tok.start, self.text)
            strength = self.strength[name]
            if strength < floor:
                break
            if tok.kind == "op":
                self.pos += 1
                if self.text[tok.start:tok.end].upper() == "SAME":
                    self.notes.append("SAME is read as AND")
                after = self.peek()
                if after is None or after.kind == ")":
                    at = after.start if after else tok.start
                    raise QuerySyntaxError(f"{self.text[tok.start:tok.end]} has nothing "
                                           "after it", at, self.text)
            elif self.syntax != "ovid":
                self.notes.append("words with no operator between them are read as AND")
            right = self.expression(strength + 1, fields)
            left = self.combine(name, left, right, distance, ordered)
        return left

    def combine(self, name: str, left: Node, right: Node, distance: int,
                ordered: bool) -> Node:
        span = (min(left.span[0], right.span[0]), max(left.span[1], right.span[1]))
        if name == "near":
            for side in (left, right):
                _check_near(side, self.text)
        if (isinstance(left, Op) and left.op == name and name != "not"
                and (name != "near" or (left.distance, left.ordered) == (distance, ordered))
                and left.span[0] == span[0] and not self._grouped(left)):
            return Op(name, (*left.children, right), span, distance, ordered)
        if isinstance(left, Op) and left.op == "not" and name == "not" \
                and not self._grouped(left):
            return Op("not", (*left.children, right), span)
        return Op(name, (left, right), span, distance, ordered)

    def _grouped(self, node: Node) -> bool:
        """Whether ``node`` was written in parentheses of its own."""
        s, e = node.span
        return self.text[s] == "(" and self.text[e - 1] == ")"

    def primary(self, fields: frozenset[str]) -> Node:
        tok = self.peek()
        if tok is None:
            raise QuerySyntaxError("the query ends where a term was expected",
                                   max(len(self.text.rstrip()) - 1, 0), self.text)
        if tok.kind == "op":
            word = self.text[tok.start:tok.end]
            raise QuerySyntaxError(f"{word} has nothing before it", tok.start, self.text)
        if tok.kind == ")":
            empty = self.pos and self.tokens[self.pos - 1].kind == "("
            raise QuerySyntaxError("empty parentheses" if empty else "a closing parenthesis "
                                   "without its opening one", tok.start, self.text)
        if tok.kind == "tag":
            raise QuerySyntaxError("a field tag must follow a word or a phrase", tok.start,
                                   self.text)
        self.pos += 1
        if tok.kind == "fields":  # TITLE-ABS-KEY( … ) or TS= …
            return self.primary(frozenset(tok.value))
        if tok.kind == "(":
            inner = self.expression(0, fields)
            close = self.peek()
            if close is None or close.kind != ")":
                raise QuerySyntaxError("a parenthesis is never closed", tok.start, self.text)
            self.pos += 1
            node = _respan(inner, (tok.start, close.end))
            return self.tagged(node)
        if tok.kind == "word" and self.lines and tok.value.isdigit():
            line = int(tok.value)
            if line not in self.lines:
                raise QuerySyntaxError(f"line {line} is not defined above", tok.start,
                                       self.text)
            return _respan(self.lines[line], (tok.start, tok.end))
        words = _words(tok.value, tok.start, self.text)
        term = Term(words, fields, (tok.start, tok.end), phrase=len(words) > 1,
                    stem=self.stem and tok.kind != "exact")
        return self.tagged(term)

    def tagged(self, node: Node) -> Node:
        """``node`` with the field tag that follows it, if any."""
        tok = self.peek()
        if tok is None or tok.kind != "tag":
            return node
        self.pos += 1
        tag = str(tok.value).strip().lower()
        distance = None
        if self.syntax == "ovid" or tag.startswith("."):
            names = tag.strip(".").split(",")
            unknown = [n for n in names if n not in _OVID_FIELDS]
            if unknown:
                raise QuerySyntaxError(f"the Ovid field .{unknown[0]}. is not among those "
                                       "evaluated locally (ti, ab, tw, kw, sh, mp)",
                                       tok.start, self.text)
            fields = frozenset().union(*(_OVID_FIELDS[n] for n in names))
        else:
            m = re.fullmatch(r"(.*?):~(\d+)", tag)
            if m:
                tag, distance = m.group(1), int(m.group(2))
            if tag not in _PUBMED_TAGS:
                raise QuerySyntaxError(f"the field [{tag}] is not among those evaluated "
                                       "locally (title, abstract, MeSH and keywords)",
                                       tok.start, self.text)
            fields = frozenset(_PUBMED_TAGS[tag])
        span = (node.span[0], tok.end)
        node = _with_fields(node, fields, span)
        if distance is not None and isinstance(node, Term) and len(node.words) > 1:
            parts = tuple(Term((w,), fields, span, stem=node.stem) for w in node.words)
            node = Op("near", parts, span, distance, False)
        return node


def _respan(node: Node, span: tuple[int, int]) -> Node:
    if isinstance(node, Term):
        return replace(node, span=span)
    return Op(node.op, node.children, span, node.distance, node.ordered)


def _with_fields(node: Node, fields: frozenset[str], span: tuple[int, int]) -> Node:
    """``node`` searched in ``fields`` (a tag after a group applies to all its terms)."""
    if isinstance(node, Term):
        return replace(node, fields=fields, span=span)
    children = tuple(_with_fields(c, fields, c.span) for c in node.children)
    return Op(node.op, children, span, node.distance, node.ordered)


def _check_near(node: Node, text: str) -> None:
    """A proximity operator joins terms or OR-groups of terms (as the databases do)."""
    if isinstance(node, Term):
        return
    if node.op in ("or", "near") and all(isinstance(c, Term) or c.op in ("or", "near")
                                         for c in node.children):
        for child in node.children:
            _check_near(child, text)
        return
    raise QuerySyntaxError("a proximity operator can join only words, phrases and OR "
                           "groups of them", node.span[0], text)


# --------------------------------------------------------------------------- Ovid lines

def _numbered(text: str) -> list[tuple[int, int, int]]:
    """(number, start, end) of each numbered line of an Ovid search history."""
    lines = []
    for m in re.finditer(r"^[ \t]*(\d+)[.)]?[ \t]+(.*\S)[ \t]*$", text, re.MULTILINE):
        lines.append((int(m.group(1)), m.start(2), m.end(2)))
    return lines if len(lines) >= 2 else []


def _ovid_lines(text: str, notes: list[str], stem: bool) -> Node:
    """An Ovid search history: each line a search, later lines combining earlier ones by
    number (``1 and 2``, ``or/1-3``); the query is the last line."""
    defined: dict[int, Node] = {}
    root: Node | None = None
    for number, start, end in _numbered(text):
        body = text[start:end]
        combine = re.fullmatch(r"(and|or)/(\d+)\s*([-,]\s*\d+(?:\s*,\s*\d+)*)?", body.strip(),
                               re.IGNORECASE)
        if combine:
            numbers = _line_numbers(combine.group(0).split("/", 1)[1])
            missing = [n for n in numbers if n not in defined]
            if missing:
                raise QuerySyntaxError(f"line {missing[0]} is not defined above", start, text)
            children = tuple(_respan(defined[n], (start, end)) for n in numbers)
            root = Op(combine.group(1).lower(), children, (start, end)) \
                if len(children) > 1 else children[0]
        else:
            root = _Parser(text, "ovid", notes, start, end, defined, stem).whole()
        defined[number] = root
    assert root is not None
    return root


def _line_numbers(spec: str) -> list[int]:
    out: list[int] = []
    for part in spec.split(","):
        if "-" in part:
            a, b = (int(x) for x in part.split("-"))
            out.extend(range(a, b + 1))
        else:
            out.append(int(part))
    return out
