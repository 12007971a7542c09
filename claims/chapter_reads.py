"""Numbers a test reads from the chapter without asserting them: anchored like a figure
(claims/chapter_figures.py), each with why it is read and not asserted (claims/accounting.py counts
them as context).  Pure."""
from __future__ import annotations

from textcheck import Figure

READ: dict[str, Figure] = {f.id: f for f in [
    Figure("recurrence.transformer_year", "recurrence.three_years_before", anchor="From 1997 to about 2017",
           why="the year the era of recurrent summaries ended, which recurrence.years counts to"),
    Figure("cost.projections_from", "cost.projections_linear", anchor="4.0 ms at 1024",
           why="the shorter length of the projections' sentence, which cost.projections_span divides"),
    Figure("cost.projections_to", "cost.projections_linear", anchor="40.1 ms at 8192",
           why="the longer length of the projections' sentence, which cost.projections_span divides"),
    Figure("scale.frozen_threshold", "scale.runaway", anchor="put more than 0.99",
           why="the chapter's line for a frozen row (its weight on one token), which the frozen counts use"),
    Figure("scale.input_doubling", "scale.softmax_scale_sensitive", printed="Doubling", anchor="Doubling a linear layer's input",
           why="the factor the input is multiplied by: the setup of scale.linear_doubles"),
    Figure("recurrence.from_token", "recurrence.sequential_updates", anchor="information from token 5",
           why="an illustration's first token: the count between it and the last is recurrence.updates"),
    Figure("recurrence.to_token", "recurrence.sequential_updates", anchor="reaches token 500",
           why="an illustration's last token: the count between the first and it is recurrence.updates"),
    Figure("scale.score_factor", "scale.softmax_scale_sensitive", anchor="multiplying scores by ten",
           why="the factor the test multiplies the scores by: the setup of the sentence's claim, not a result"),
    Figure("qkv.out_magnitude", "qkv.head_matches_torch", anchor="mean magnitude is 0.159",
           why="the output magnitude the 1.8e-7 is relative to; it depends on the inputs the chapter "
               "leaves open, so it is recorded beside ours, not asserted"),
]}
