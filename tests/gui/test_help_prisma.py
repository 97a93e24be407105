"""The help page explains the PRISMA 2020 flow diagram: where it is, its buttons, and
the counting rules (every work in one box, pending drawn, a round finished before its
unscreened records count as excluded by automation tools, late records)."""

from __future__ import annotations

from litqeval_gui.gui.help import HelpDialog


def test_the_help_has_a_prisma_section_with_its_counting_rules(qtbot):
    dialog = HelpDialog([])
    qtbot.addWidget(dialog)
    text = dialog.browser.toPlainText()
    section = text[text.index("PRISMA 2020 flow diagram (Topic ▸ PRISMA Flow Diagram)"):]
    section = section[:section.index("Pooling (Topic ▸ Pooling)")]
    for needle in ("Save Diagram…", "Enter Numbers…", "Click a number", "round by round",
                   "exactly one box", "screened = excluded + sought + pending", "Pending",
                   "never dropped", "Topic ▸ Finish Screening Round…", "screen-finish",
                   "Records marked as ineligible by automation tools",
                   "Topic ▸ Add Late Records to Full Text…", "screen-fulltext-add",
                   "identified but not imported"):
        assert needle in section, needle
