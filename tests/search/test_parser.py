"""The search language parser (cards/search/parser.py): the AST it builds, with positions, the
errors it raises (code, position, expected, did-you-mean), its warnings, its limits and the
regular-expression policy. Pure: no database."""

from __future__ import annotations

import dataclasses
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cards.search.fields import FIELDS, MAX_DEPTH, MAX_QUERY_BYTES
from cards.search.parser import (
    And,
    NameTerm,
    Node,
    Not,
    Or,
    ParsedQuery,
    SearchError,
    Term,
    check_regex,
    parse,
)


def root(text: str) -> Node | None:
    return parse(text).root


def error(text: str) -> SearchError:
    with pytest.raises(SearchError) as caught:
        parse(text)
    return caught.value


@pytest.mark.parametrize(
    ("text", "tree"),
    [
        pytest.param("t:troop", Term("type", ":", "troop", False, 0, 7), id="term"),
        pytest.param("T:Troops", Term("type", ":", "troop", False, 0, 8), id="case-and-plural"),
        pytest.param("off>=3", Term("offense", ">=", "3", False, 0, 6), id="number"),
        pytest.param("pow<-1", Term("offense", "<", "-1", False, 0, 6), id="negative-number"),
        pytest.param("off:+03", Term("offense", ":", "3", False, 0, 7), id="number-normalized"),
        pytest.param("off>def", Term("offense", ">", "defense", False, 0, 7, True),
                     id="number-against-key"),
        pytest.param("cost!=2", Term("cost", "!=", "2", False, 0, 7), id="not-equal"),
        pytest.param("f:glory", Term("faction", ":", "kalim", False, 0, 7), id="faction-alias"),
        pytest.param('f:"house mosfin"', Term("faction", ":", "mosfin", False, 0, 16),
                     id="quoted-value"),
        pytest.param("set:wof", Term("set", ":", "WOF", False, 0, 7), id="set-code"),
        pytest.param("kw:Giant-Size", Term("kw", ":", "giant-size", False, 0, 13), id="keyword"),
        pytest.param("is:unknown", Term("is", ":", "unknown", False, 0, 10), id="is"),
        pytest.param("has:scan", Term("has", ":", "image", False, 0, 8), id="has-scan"),
        pytest.param("has:off", Term("has", ":", "offense", False, 0, 7), id="has-field"),
        pytest.param("o:worship", Term("o", ":", "worship", False, 0, 9), id="text"),
        pytest.param('o="say \\"hi\\" \\\\ now"', Term("o", "=", 'say "hi" \\ now', False, 0, 21),
                     id="escaped-quotes"),
        pytest.param("o:/exhaust(s)? target/", Term("o", ":", "exhaust(s)? target", True, 0, 22),
                     id="regex"),
        pytest.param("o:/a\\/b/", Term("o", ":", "a/b", True, 0, 8), id="regex-escaped-slash"),
        pytest.param('o=""', Term("o", "=", "", False, 0, 4), id="empty-equals"),
        pytest.param("ashgate", NameTerm("ashgate", False, 0, 7), id="word"),
        pytest.param('"ashgate spearman"', NameTerm("ashgate spearman", False, 0, 18),
                     id="phrase"),
        pytest.param('!"Ashgate Spearman"', NameTerm("Ashgate Spearman", True, 0, 19),
                     id="exact-quoted"),
        pytest.param("!Bowman", NameTerm("Bowman", True, 0, 7), id="exact-word"),
        pytest.param("half-elf", NameTerm("half-elf", False, 0, 8), id="hyphen-inside-word"),
        pytest.param("-t:troop", Not(Term("type", ":", "troop", False, 1, 8), 0, 8), id="not"),
        pytest.param(
            "a b", And((NameTerm("a", False, 0, 1), NameTerm("b", False, 2, 3)), 0, 3),
            id="implicit-and",
        ),
        pytest.param(
            "a AND b", And((NameTerm("a", False, 0, 1), NameTerm("b", False, 6, 7)), 0, 7),
            id="explicit-and",
        ),
        pytest.param(
            "a OR b", Or((NameTerm("a", False, 0, 1), NameTerm("b", False, 5, 6)), 0, 6),
            id="or",
        ),
        pytest.param(
            "a or b c",
            Or((NameTerm("a", False, 0, 1),
                And((NameTerm("b", False, 5, 6), NameTerm("c", False, 7, 8)), 5, 8)), 0, 8),
            id="and-binds-tighter-than-or",
        ),
        pytest.param(
            "-a b",
            And((Not(NameTerm("a", False, 1, 2), 0, 2), NameTerm("b", False, 3, 4)), 0, 4),
            id="not-binds-tightest",
        ),
        pytest.param(
            "-(a or b)",
            Not(Or((NameTerm("a", False, 2, 3), NameTerm("b", False, 7, 8)), 2, 8), 0, 9),
            id="negated-group",
        ),
        pytest.param(
            "a (b c)",
            And((NameTerm("a", False, 0, 1), NameTerm("b", False, 3, 4),
                 NameTerm("c", False, 5, 6)), 0, 6),
            id="nested-and-flattens",
        ),
        pytest.param(
            "(a or b) or c",
            Or((NameTerm("a", False, 1, 2), NameTerm("b", False, 6, 7),
                NameTerm("c", False, 12, 13)), 1, 13),
            id="nested-or-flattens",
        ),
        pytest.param("--a", Not(Not(NameTerm("a", False, 2, 3), 1, 3), 0, 3), id="double-not"),
        pytest.param("", None, id="empty"),
        pytest.param("   \t\n ", None, id="blank"),
    ],
)
def test_queries_parse_into_trees_with_source_positions(text: str, tree: Node | None) -> None:
    assert root(text) == tree


def test_a_parsed_query_keeps_its_text_and_is_immutable() -> None:
    parsed = parse("t:troop order:cost")
    assert parsed.text == "t:troop order:cost"
    assert isinstance(parsed, ParsedQuery)
    with pytest.raises(dataclasses.FrozenInstanceError):
        parsed.root = None  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        parsed.root.key = "x"  # type: ignore[union-attr, misc]


@pytest.mark.parametrize(
    ("text", "order", "warnings"),
    [
        pytest.param("", (("name", "asc"),), 0, id="default"),
        pytest.param("order:cost", (("cost", "asc"),), 0, id="order"),
        pytest.param("order:cost dir:desc", (("cost", "desc"),), 0, id="dir"),
        pytest.param("t:troop direction:DESC order:off", (("offense", "desc"),), 0,
                     id="any-position"),
        pytest.param("dir:desc", (("name", "desc"),), 0, id="direction-alone-reverses-name"),
        pytest.param("(order:fi t:troop)", (("fi", "asc"),), 0, id="in-plain-parentheses"),
        pytest.param("order:cost order:name", (("cost", "asc"),), 1, id="repeated-order"),
        pytest.param("dir:asc dir:desc", (("name", "asc"),), 1, id="repeated-direction"),
        pytest.param("t:troop or order:cost", (("name", "asc"),), 1, id="inside-or"),
        pytest.param("-order:cost t:troop", (("name", "asc"),), 1, id="inside-negation"),
        pytest.param("-(t:troop dir:desc)", (("name", "asc"),), 1, id="inside-negated-group"),
    ],
)
def test_order_and_direction_are_read_only_at_the_top_level(
    text: str, order: tuple[tuple[str, str], ...], warnings: int
) -> None:
    parsed = parse(text)
    assert parsed.order == order
    assert len(parsed.warnings) == warnings


def test_sort_terms_leave_the_filter_tree() -> None:
    assert root("order:cost") is None
    assert root("t:troop or order:cost") == Term("type", ":", "troop", False, 0, 7)
    assert root("-order:cost") is None
    assert root("-(order:cost) x") == NameTerm("x", False, 14, 15)


@pytest.mark.parametrize(
    ("text", "warning"),
    [
        pytest.param("()", "Empty parentheses", id="empty-parentheses"),
        pytest.param("a (())", "Empty parentheses", id="nested-empty-parentheses"),
        pytest.param('a ""', "Empty quotes", id="empty-quotes"),
        pytest.param("order:cost order:name", "order:name was ignored", id="repeated-order"),
        pytest.param("a or order:cost", "order:cost inside 'or'", id="order-inside-or"),
    ],
)
def test_harmless_leftovers_are_warnings_not_errors(text: str, warning: str) -> None:
    assert any(warning in w for w in parse(text).warnings)


def test_warnings_come_in_the_order_of_the_query() -> None:
    warnings = parse("() order:cost or x order:name ()").warnings
    assert len(warnings) == 4 and warnings[0].startswith("Empty")
    assert "order:cost" in warnings[1] and "order:name" in warnings[2]
    assert warnings[3].startswith("Empty")


@pytest.mark.parametrize(
    ("text", "code", "position", "expected", "suggestion"),
    [
        pytest.param("factoin:kalim", "unknown_key", 0, "search key", "faction",
                     id="unknown-key"),
        pytest.param("t:troop ofense>2", "unknown_key", 8, "search key", "offense",
                     id="unknown-key-later"),
        pytest.param("f:kalim t:trop", "bad_value", 10, "one of", "troop", id="bad-type"),
        pytest.param("t:s", "bad_value", 2, "one of", "stronghold", id="ambiguous-prefix"),
        pytest.param("f:mosfen", "bad_value", 2, "one of", "mosfin", id="bad-faction"),
        pytest.param("r:legendary", "bad_value", 2, "one of", None, id="bad-rarity"),
        pytest.param("kw:fleetfeet", "bad_value", 3, "common ability", "fleetfoot",
                     id="bad-keyword"),
        pytest.param("is:shiny", "bad_value", 3, "one of", None, id="bad-flag"),
        pytest.param("has:colour", "bad_value", 4, "one of", None, id="bad-has"),
        pytest.param("order:colour", "bad_value", 6, "one of", None, id="bad-order"),
        pytest.param("dir:sideways", "bad_value", 4, "one of", None, id="bad-direction"),
        pytest.param("off>=x", "bad_value", 5, "whole number", None, id="not-a-number"),
        pytest.param("off>dfe", "bad_value", 4, "whole number", "defense", id="number-key-typo"),
        pytest.param("off>=99999", "bad_value", 5, "whole number", None, id="out-of-range"),
        pytest.param("off>=o", "bad_value", 5, "whole number", None, id="text-key-as-number"),
        pytest.param("set:w-o", "bad_value", 4, "set code", None, id="bad-set-code"),
        pytest.param("t:/troop/", "bad_value", 2, "one of", None, id="regex-on-enum"),
        pytest.param("off:/3/", "bad_value", 4, "whole number", None, id="regex-on-number"),
        pytest.param("t:\"\"", "bad_value", 2, "one of", None, id="empty-enum-value"),
        pytest.param('o:""', "bad_value", 2, "quoted phrase", None, id="empty-contains"),
        pytest.param("t>troop", "bad_operator", 1, ": = !=", None, id="comparison-on-enum"),
        pytest.param("is!=unique", "bad_operator", 2, ": =", None, id="not-equal-on-flag"),
        pytest.param("o!=/x/", "bad_operator", 1, "':' or '='", None, id="regex-not-equal"),
        pytest.param("o<3", "bad_operator", 1, ": = !=", None, id="comparison-on-text"),
        pytest.param("o:", "syntax", 2, "a value after 'o:'", None, id="missing-value"),
        pytest.param("off>= 3", "syntax", 5, "a value after 'off>='", None,
                     id="space-after-operator"),
        pytest.param("(o:)", "syntax", 3, "a value after 'o:'", None, id="value-before-paren"),
        pytest.param("(a", "syntax", 2, "')'", None, id="unclosed-parenthesis"),
        pytest.param("a)", "syntax", 1, "a term", None, id="unopened-parenthesis"),
        pytest.param('a "b', "syntax", 2, "closing '\"'", None, id="unclosed-quote"),
        pytest.param("o:/ab", "syntax", 2, "closing '/'", None, id="unclosed-regex"),
        pytest.param("or a", "syntax", 0, "before 'or'", None, id="leading-or"),
        pytest.param("a or", "syntax", 2, "after 'or'", None, id="trailing-or"),
        pytest.param("a or or b", "syntax", 2, "after 'or'", None, id="double-or"),
        pytest.param("(a or)", "syntax", 3, "after 'or'", None, id="or-before-paren"),
        pytest.param("a or ()", "syntax", 2, "both sides", None, id="or-empty-group"),
        pytest.param("and a", "syntax", 0, "before 'and'", None, id="leading-and"),
        pytest.param("a and", "syntax", 2, "after 'and'", None, id="trailing-and"),
        pytest.param("a -", "syntax", 2, "right after '-'", None, id="trailing-minus"),
        pytest.param("- a", "syntax", 0, "right after '-'", None, id="minus-space"),
        pytest.param("-)", "syntax", 0, "right after '-'", None, id="minus-paren"),
        pytest.param("-or a", "syntax", 1, "after '-'", None, id="minus-or"),
        pytest.param("-()", "syntax", 0, "inside the parentheses", None, id="minus-empty"),
        pytest.param("!", "syntax", 0, "a name after '!'", None, id="bare-bang"),
        pytest.param('!""', "syntax", 0, "a name after '!'", None, id="empty-exact"),
        pytest.param("a\x00b", "syntax", 1, "printable", None, id="control-character"),
        pytest.param("a\ud800", "syntax", 1, "printable", None, id="lone-surrogate"),
        pytest.param("o:/(a+)+/", "regex_unsafe", 2, "supported subset", None,
                     id="nested-quantifier"),
        pytest.param("o:/[/]/", "bad_regex", 2, "supported subset", None,
                     id="unescaped-slash-ends-the-pattern"),
        pytest.param("o:/[a/", "bad_regex", 2, "supported subset", None, id="broken-regex"),
        pytest.param("o:/" + "a" * 201 + "/", "regex_too_long", 2, "supported subset", None,
                     id="long-regex"),
    ],
)
def test_bad_queries_say_where_what_was_expected_and_what_was_meant(
    text: str, code: str, position: int, expected: str, suggestion: str | None
) -> None:
    problem = error(text)
    assert (problem.code, problem.position) == (code, position), problem.message
    assert problem.expected is not None and expected in problem.expected
    assert problem.message.endswith((".", "?"))
    assert 0 <= problem.position <= len(text)
    assert problem.position + problem.length <= len(text)
    if suggestion is not None:
        assert suggestion in problem.suggestions
        assert suggestion in problem.message


def test_a_search_error_is_a_value_error_with_all_its_fields() -> None:
    problem = error("t:trop")
    assert isinstance(problem, ValueError)
    assert problem.as_dict() == {
        "code": "bad_value", "message": problem.message, "position": 2, "length": 4,
        "expected": problem.expected, "suggestions": ["troop"],
    }
    assert str(problem) == problem.message
    assert "bad_value" in repr(problem)


def test_an_unknown_key_error_covers_the_key() -> None:
    problem = error("a colour:red")
    assert (problem.position, problem.length) == (2, 6)


def test_the_query_may_be_1024_bytes_but_not_one_more() -> None:
    assert parse("a" * MAX_QUERY_BYTES).root == NameTerm("a" * MAX_QUERY_BYTES, False, 0, 1024)
    problem = error("a" * (MAX_QUERY_BYTES + 1))
    assert (problem.code, problem.position, problem.length) == ("too_long", 1024, 1)


def test_the_byte_limit_counts_utf8_bytes() -> None:
    text = "é" * 600  # 1,200 bytes
    problem = error(text)
    assert problem.code == "too_long" and problem.position == 512
    assert "1,200 bytes" in problem.message


def test_a_huge_query_is_refused_quickly() -> None:
    assert error("(" * 1_000_000).code == "too_long"


@pytest.mark.parametrize("opening", ["(", "-", "-("])
def test_nesting_is_limited_to_32_levels(opening: str) -> None:
    closing = ")" if opening == "(" else ")" if opening == "-(" else ""
    levels = MAX_DEPTH if opening != "-(" else MAX_DEPTH // 2
    assert parse(opening * levels + "a" + closing * levels).root is not None
    deeper = opening * (levels + 1) + "a" + closing * (levels + 1)
    problem = error(deeper)
    assert problem.code == "too_deep" and problem.position == MAX_DEPTH


@pytest.mark.parametrize("text", ["(" * 10_000, "-" * 10_000 + "a", "(-" * 400 + "a"],
                         ids=["parentheses", "negations", "mixed"])
def test_pathological_nesting_is_an_error_not_a_crash(text: str) -> None:
    assert error(text).code in ("too_deep", "too_long")


@pytest.mark.parametrize(
    "pattern",
    [
        "exhaust(s)? target", "^ash", "man$", "\\d+ religious", "[a-z]+gate", "(north|south)+",
        "gain \\+1", "a.*b", ".*a.*b", "(?:ab)+c", "colou?r", "x{2,5}", "x{3}", "x{2,}",
        "[\\d\\s]", "[^\\]]", "\\Atemple\\Z", "a|b|c", "(a+)?", "\\w+ \\w+", "\\(reaction\\)",
        "a*?b", "\\n", "[]a]", "(ab|cd){1,3}", "a{0,100}", "(ab|cd)*.*x", "a?" * 16,
    ],
)
def test_portable_safe_patterns_are_accepted(pattern: str) -> None:
    assert check_regex(pattern) is None
    assert parse(f"o:/{pattern.replace('/', chr(92) + '/')}/").root is not None


@pytest.mark.parametrize(
    ("pattern", "code"),
    [
        pytest.param("(a+)+", "regex_unsafe", id="nested-plus"),
        pytest.param("(a*)*", "regex_unsafe", id="nested-star"),
        pytest.param("(.*)*", "regex_unsafe", id="nested-dot-star"),
        pytest.param("(a|a)*", "regex_unsafe", id="overlapping-alternation"),
        pytest.param("(a|ab)+", "regex_unsafe", id="shared-first-letter"),
        pytest.param("(\\w|\\d)+", "regex_unsafe", id="class-alternation"),
        pytest.param("((a|a))*", "regex_unsafe", id="alternation-in-inner-group"),
        pytest.param("(a?){20}", "regex_unsafe", id="repeated-optional"),
        pytest.param("(ab+){2}", "regex_unsafe", id="counted-group-with-quantifier"),
        pytest.param("(a)\\1", "regex_unsafe", id="backreference"),
        pytest.param("(?P<x>a)(?P=x)", "bad_regex", id="named-group"),
        pytest.param(".*a.*b.*c", "regex_unsafe", id="three-unbounded"),
        pytest.param("\\w*\\w*\\w?\\w?!", "regex_unsafe", id="two-unbounded-and-optional"),
        pytest.param("a?" * 17 + "a" * 17, "regex_unsafe", id="many-optional"),
        pytest.param(".{0,100}.{0,100}.{0,30}", "regex_unsafe", id="wide-counted-repeats"),
        pytest.param("a{101}", "regex_unsafe", id="huge-count"),
        pytest.param("a{99999}", "regex_unsafe", id="enormous-count"),
        pytest.param("(?=a)", "bad_regex", id="lookahead"),
        pytest.param("(?!a)", "bad_regex", id="negative-lookahead"),
        pytest.param("(?<=a)b", "bad_regex", id="lookbehind"),
        pytest.param("(?<!a)b", "bad_regex", id="negative-lookbehind"),
        pytest.param("(?i)a", "bad_regex", id="inline-flag"),
        pytest.param("(?>a)", "bad_regex", id="atomic"),
        pytest.param("a*+", "bad_regex", id="possessive"),
        pytest.param("\\bword", "bad_regex", id="word-boundary"),
        pytest.param("\\x41", "bad_regex", id="hex-escape"),
        pytest.param("\\u0041", "bad_regex", id="unicode-escape"),
        pytest.param("[[:alpha:]]", "bad_regex", id="posix-class"),
        pytest.param("[\\W]", "bad_regex", id="negated-class-in-class"),
        pytest.param("a{,3}", "bad_regex", id="missing-lower-bound"),
        pytest.param("a{x}", "bad_regex", id="literal-brace"),
        pytest.param("a}", "bad_regex", id="closing-brace"),
        pytest.param("^*", "bad_regex", id="repeated-anchor"),
        pytest.param("(", "bad_regex", id="unbalanced"),
        pytest.param("*a", "bad_regex", id="nothing-to-repeat"),
        pytest.param("", "bad_regex", id="empty"),
        pytest.param("a" * 201, "regex_too_long", id="too-long"),
    ],
)
def test_unsafe_or_unportable_patterns_are_refused(pattern: str, code: str) -> None:
    problem = check_regex(pattern)
    assert problem is not None and problem[0] == code


def test_a_pattern_may_be_200_characters() -> None:
    assert check_regex("a" * 200) is None


def test_every_key_is_reachable_by_every_name() -> None:
    for f in FIELDS:
        for name in f.names:
            example = {"text": "x", "number": "1", "set": "wof", "keyword": "armor",
                       "personal": "1"}.get(
                f.kind, f.values[0].value if f.values else "x"
            )
            parsed = parse(f"{name.upper()}:{example}")
            if f.kind != "order":
                assert isinstance(parsed.root, Term) and parsed.root.key == f.name


# --- properties ------------------------------------------------------------------------------

QUERY_PIECES = st.sampled_from([
    "t:troop", "f:kalim", "off>=2", "-", "(", ")", " ", "or", "OR", "and", '"', "\\", "/", "o:",
    "o:/a+/", "!", "!=", "<", ">=", ":", "=", "kw:", "order:cost", "dir:desc", "x", "é", "\t",
    "\x00", "-(", "()", "is:", "has:off", "'", "set:", "t:trop", "\u202e", "\U0001d538",
])


def _check_spans(node: Node, text: str) -> None:
    assert 0 <= node.start < node.end <= len(text)
    if isinstance(node, Not):
        assert text[node.start] == "-" and node.start < node.child.start
        _check_spans(node.child, text)
    elif isinstance(node, And | Or):
        assert len(node.children) >= 2
        for child in node.children:
            assert node.start <= child.start and child.end <= node.end
            assert type(child) is not type(node)  # flattened
            _check_spans(child, text)


def _check_outcome(text: str) -> None:
    try:
        parsed = parse(text)
    except SearchError as problem:
        assert problem.code in {
            "too_long", "too_deep", "syntax", "unknown_key", "bad_value", "bad_operator",
            "bad_regex", "regex_too_long", "regex_unsafe",
        }
        assert 0 <= problem.position <= len(text) and problem.length >= 0
        assert problem.message and problem.expected
        return
    assert parsed.text == text and len(parsed.order) == 1
    if parsed.root is not None:
        _check_spans(parsed.root, text)


@given(st.text(max_size=200))
@settings(max_examples=400)
def test_any_text_parses_or_raises_a_search_error(text: str) -> None:
    _check_outcome(text)


@given(st.lists(QUERY_PIECES, max_size=30).map("".join))
@settings(max_examples=400)
def test_query_like_text_parses_or_raises_a_search_error(text: str) -> None:
    _check_outcome(text)


@given(st.lists(QUERY_PIECES, max_size=30).map(" ".join))
@settings(max_examples=300)
def test_spaced_query_pieces_parse_or_raise_a_search_error(text: str) -> None:
    _check_outcome(text)


REGEX_PIECES = st.sampled_from([
    *"ab.*+?|()[]{}^$\\-,0123456789:=!<>PdwsDWSbxAZ/",
    "(?:", "(?=", "(?<", "{2}", "{1,3}", "[a-z]", "\\d", "\\\\", "é",
])


@given(st.lists(REGEX_PIECES, max_size=25).map("".join))
@settings(max_examples=500)
def test_the_regex_check_never_crashes_and_accepts_only_what_python_compiles(pattern: str) -> None:
    problem = check_regex(pattern)
    if problem is None:
        re.compile(pattern)
        # Escaped characters and character classes are literals: "\\(?=" is an optional "("
        # then "=", and "[(?=]" is one of three characters, not a lookahead.
        unescaped = re.sub(r"\[[^\]]*\]", "", re.sub(r"\\.", "", pattern))
        assert "(?" not in unescaped.replace("(?:", "")
        assert not re.search(r"\\[1-9bBxuU]", pattern.replace("\\\\", ""))
    else:
        assert problem[0] in ("bad_regex", "regex_too_long", "regex_unsafe") and problem[1]


NAMES = st.text(alphabet=st.characters(categories=["L", "N"]), min_size=1, max_size=8)
LEAF = st.one_of(
    NAMES.map(lambda w: w if w.casefold() not in ("or", "and") else w + "x"),
    st.sampled_from(["t:troop", "f:kalim", "off>=2", "o:/a+/", '"two words"', "!Bow",
                     "kw:armor", "is:unique", "set:wof", "cost<=4", "order:cost"]),
)
QUERIES = st.recursive(
    LEAF,
    lambda inner: st.one_of(
        st.lists(inner, min_size=2, max_size=3).map(" ".join),
        st.lists(inner, min_size=2, max_size=3).map(" or ".join),
        inner.map(lambda q: f"({q})"),
        inner.map(lambda q: f"-({q})"),
    ),
    max_leaves=12,
)


@given(QUERIES)
@settings(max_examples=300)
def test_well_formed_queries_always_parse(text: str) -> None:
    try:
        parsed = parse(text)
    except SearchError as problem:
        assert problem.code == "too_deep"  # the only way a generated query can fail
        return
    if parsed.root is not None:
        _check_spans(parsed.root, text)
