"""The search syntax as Markdown, generated from the key registry (docs/search.md).

Regenerate with ``.venv/bin/python -m cards.search_docs > docs/search.md``; a test fails when
the file and the registry disagree.
"""

from __future__ import annotations

from cards.search.fields import help_sections


def search_markdown() -> str:
    lines = [
        "# Search syntax",
        "",
        "<!-- Generated from cards/search/fields.py by `python -m cards.search_docs`. -->",
        "",
        "The same language works in the search box (`/cards/`), the API (`GET /api/cards/?q=`) "
        "and the command line (`manage.py search QUERY`). Every answer explains the query in "
        "English; a query that cannot be read is answered with where and why, and "
        "did-you-mean suggestions: a misspelt key or value, a comparison typed twice "
        "(`off>>3`: `off>3` or `off>=3`; `cost=>2`: `cost>=2`), and, when nothing matches, the "
        "card names closest by letters and words (hyphens count as spaces: `Templar Captian` "
        "finds Templar-Captain Oswin Hale). `/cards/random/?q=QUERY` opens one of a query's "
        "cards at random.",
        "",
    ]
    for section in help_sections():
        lines += [f"## {section.title}", "", section.text, ""]
        if not section.keys:
            continue
        lines += ["| key | aliases | operators | meaning | example |", "|---|---|---|---|---|"]
        for key in section.keys:
            aliases = ", ".join(f"`{a}`" for a in key.aliases) or "—"
            operators = " ".join(f"`{o}`" for o in key.operators)
            meaning = key.help.replace("|", "\\|")
            if key.values:
                shown = ", ".join(f"`{v.value}`" for v in key.values)
                meaning += f" Values: {shown}."
            examples = "<br>".join(f"`{e}`" for e in key.examples)
            lines.append(f"| `{key.name}` | {aliases} | {operators} | {meaning} | {examples} |")
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    print(search_markdown(), end="")
