"""The explorer: a scientist without an answer key, and exploration metrics.

For each language, a hypothesis engine keeps every candidate rule that is
consistent with what a system has seen (the manual, the worked examples and
the feedback of its probes), chooses probes that split the survivors most,
and scores any trace: how much each probe taught, which probes were
redundant, what was covered, and how much of the surviving belief sits on the
true rules. `explore.aliencode` holds the AlienCode engine and agents,
`explore.alienlogic` the AlienLogic ones; `explore.section` assembles the
language-neutral `"exploration"` section of report.json, which
`episode.exploration` computes (through the engines) and renders.
"""
