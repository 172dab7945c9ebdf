from __future__ import annotations

from cortexgraph_vault.core.reading_text import reading_text


def test_links_read_as_obsidian_shows_them() -> None:
    body = (
        "Set up a domain for your [[Introduction to Obsidian Publish|Obsidian Publish]] site, "
        "see [[Permalinks]] and [[Custom domains#Set up using a proxy]] or [[#Troubleshooting]]; "
        "read [the guide](https://example.com/ssl/full-mode) first."
    )
    assert reading_text(body) == (
        "Set up a domain for your Obsidian Publish site, see Permalinks and Custom domains "
        "Set up using a proxy or Troubleshooting; read the guide first."
    )


def test_embeds_urls_code_and_comments_are_left_out() -> None:
    body = (
        "Open a note from another app.\n\n![[diagram.png]]\n![logo](logo.png)\n\n"
        "```\nobsidian://open?vault=my%20vault\n```\n\n"
        "%% a note to self %%<!-- hidden -->See https://obsidian.md/help for more."
    )
    assert reading_text(body) == "Open a note from another app.\nSee for more."


def test_headings_callouts_lists_and_tables_lose_their_marks() -> None:
    body = (
        "## Math\n"
        "> [!warning] Encoding\n> Values must be *URI encoded*.\n\n"
        "- [ ] write **bold** text\n1. use ==highlights== and `code`\n\n"
        "| Name | Role |\n| ---- | :--: |\n| Max | Planck |\n\n---\nEnd ^block-1"
    )
    assert reading_text(body) == (
        "Math.\nEncoding\nValues must be URI encoded.\nwrite bold text\nuse highlights and code\n"
        "Name Role\nMax Planck\nEnd"
    )


def test_plain_prose_is_read_as_written() -> None:
    said = "Caroline: I went to the LGBTQ support group yesterday - it was so powerful. 3*4 = 12, snake_case stays."
    assert reading_text(said) == said


def test_a_heading_that_ends_a_sentence_is_not_given_another_stop() -> None:
    assert reading_text("# Why sync?\nBecause.") == "Why sync?\nBecause."
