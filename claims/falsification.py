"""Each asserting sentence of the chapter against the cheapest experiment that could falsify it, and
whether the project's tests run that experiment at the strength the sentence states.

Made 2026-12-07 by comparing docs/falsifiers-blind.md (falsifiers proposed from the chapter alone,
before any test was read) with what the tests of each sentence's claim IDs (claims/sentence_table.py,
claims/test_*.py) actually measure.  One entry per sentence the table gives claim IDs, and one per
sentence declared as asserting nothing whose declaration the blind review disputed (or issue 56
named) and this review agrees asserts something checkable.  `anchor` is the sentence table's anchor,
verbatim, so an entry is matched to its sentence by equality.

Statuses: "tested" (a test measures what the sentence says, at the strength it says it); "weakly
tested" (the tests check something easier: a bare layer instead of the trained model, synthetic
rows instead of the trained head, one part of the sentence, a weaker baseline); "untested" (the
sentence asserts something checkable and no test checks it).  Read against the tests at commit
c60c3e9 plus the then uncommitted matrix-multiply share test (claims/test_recurrence.py,
recurrence.matmul_step).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Review:
    anchor: str      # verbatim, as the S(...) first argument of claims/sentence_table.py
    status: str      # "tested", "weakly tested" or "untested"
    falsifier: str   # the cheapest experiment that could show the sentence false
    test: str        # the test node (file::function) that runs it, or ""
    why: str         # why this status: what the test checks instead, or what is missing


REVIEWS: list[Review] = [
    Review(
        "Backpropagating through $T$ steps multiplies",
        "tested",
        ("Measure |d h_T / d x_0| of a 128-wide tanh recurrence at PyTorch's initialisation for T = 5 "
         "and 500: a change by less than a factor of 10^6 either way falsifies 'vanishes or explodes'."),
        "claims/test_recurrence.py::test_a_recurrences_gradient_vanishes_or_explodes_with_the_steps",
        ("The test measures exactly that on nn.RNNCell over three seeds, against the average's 1/T; an "
         "orthogonal initialisation that keeps the gradient flat is not tried, but the models as built "
         "use the default."),
    ),
    Review(
        "The LSTM¹ was designed against exactly that",
        "tested",
        ("Run a recurrence over tokens 0..500 and count the cell applications on the path from x_5 to "
         "h_500 (with a nonzero gradient along it and none backwards): anything but 495 falsifies it."),
        "claims/test_recurrence.py::test_updates_from_one_token_to_a_later_one_in_a_recurrence",
        ("The test counts 495 updates and checks the gradient path; the LSTM's 'tens of steps to "
         "hundreds' is declared history in claims/number_words.py, not measured."),
    ),
    Review(
        "Bahdanau, Cho and Bengio named that bottleneck",
        "tested",
        ("Subtract the years, 2017 - 2014: anything but three falsifies it (the years themselves are "
         "bibliographic: arXiv 1409.0473 and 1706.03762)."),
        "claims/test_recurrence.py::test_years_from_bahdanau_attention_to_the_transformer",
        ("The test does that arithmetic on the two years the chapter prints; nothing more is checkable "
         "on a model."),
    ),
    Review(
        "And the update is sequential by construction",
        "weakly tested",
        ("Time a tanh recurrence at batch 1 and batch 64, and compute a linear recurrence by an "
         "associative scan: a scan matching the loop in log T depth, or batch 64 costing far less than "
         "64 times batch 1, shows the hardware can use its width."),
        "claims/test_recurrence.py::test_updates_from_one_token_to_a_later_one_in_a_recurrence",
        ("The test counts the applications of a cell in a Python loop, sequential because it is written "
         "so; nothing measures whether parallel hardware 'can do nothing with that'."),
    ),
    Review(
        "The architecture that won is not obviously smarter",
        "tested",
        ("Count (or profile) one forward pass of the chapter's one-block model: matrix products under "
         "half of its arithmetic falsify 'its expensive step is a matrix multiply'."),
        "claims/test_recurrence.py::test_a_blocks_arithmetic_is_mostly_matrix_products",
        ("The new test counts one forward pass of the chapter's block (matrix products by "
         "FlopCounterMode, every other operation one per element written) and decides the share above "
         "one half; operations, not wall-clock time."),
    ),
    Review(
        "Any number of inputs, fixed output size, differentiable, free.",
        "tested",
        ("On the project's CausalAverage count the parameters, check the summary's shape for T = 1..300 "
         "and that a gradient reaches every input (T = 0 gives NaN, so 'any number' means at least one)."),
        ("claims/test_average.py::"
         "test_the_average_takes_any_number_of_inputs_to_a_fixed_size_output_without_parameters"),
        "The test checks all four properties for T from 1 to 300 at width 128.",
    ),
    Review(
        "It is also terrible, and how it is terrible",
        "tested",
        ("Train the average LM and the no-context baseline on three seeds: an average/baseline "
         "perplexity ratio near 1 falsifies 'terrible'."),
        "claims/test_ladder_trained.py::test_average_perplexity_ratio_to_no_context",
        "The test trains both ladder rows and decides their ratio against the chapter's 'four times'.",
    ),
    Review(
        "The corpus below is one megabyte of Shakespeare",
        "tested",
        ("Count the corpus's characters (1,115,394), its BPE-1024 tokens (459,760), the characters per "
         "token (2.43) and the 90/10 split by tokens: any mismatch falsifies it."),
        "claims/test_corpus.py::test_corpus_character_count",
        ("Each figure has its own test (characters, file size, token count within 0.1 %, ratio, split "
         "with the held-out part last)."),
    ),
    Review(
        "Averaging the context does not help a little",
        "tested",
        ("Train the average and the baseline on three seeds: an average/baseline perplexity ratio "
         "outside 'four' (rounding plus the seed spread) falsifies it."),
        "claims/test_ladder_trained.py::test_average_perplexity_ratio_to_no_context",
        "The test decides the per-seed ratio against 4 on the prediction interval of one new run.",
    ),
    Review(
        "The average cannot see order.",
        "tested",
        ("Shuffle a window and compare the averaging matrix's last row applied to both: a difference "
         "above the float32 reordering bound falsifies it."),
        "claims/test_average.py::test_average_ignores_order",
        "A property test over window length, width and seed against the summation bound.",
    ),
    Review(
        "Addition commutes, so shuffling the window",
        "tested",
        ("Run the chapter's shuffle listing at T = 128, width 128, float32: a difference above the float"
         " summation bound falsifies 'not approximately'."),
        "claims/test_average.py::test_shuffled_window_gives_the_chapters_float_noise",
        ("The test runs the listing at the chapter's scale and bounds both its own difference and the "
         "printed 2.98e-8."),
    ),
    Review(
        "Floating-point noise on a reordered sum",
        "tested",
        ("Repeat the shuffle over many window lengths and seeds: any difference above 2 (T - 1) eps32 "
         "mean|x| is not floating-point noise."),
        "claims/test_average.py::test_average_ignores_order",
        "The property test bounds every difference by the float32 error of a reordered sum.",
    ),
    Review(
        "A model whose only view of the context is an average",
        "weakly tested",
        ("Score 'the dog bit the man' and 'the man bit the dog' with the trained average LM over all "
         "positions: the prefix averages at the middle positions differ, so totals apart by more than "
         "1e-3 nats show the model tells them apart."),
        "claims/test_average.py::test_average_ignores_order",
        ("The test checks only the averaging matrix's last row on random vectors, not a model's scores "
         "of two sentences, whose intermediate prefixes differ."),
    ),
    Review(
        "Row three proves this is not fixable",
        "tested",
        ("Retrain the average, the average with learned positions and the residual average on three "
         "seeds: a gain from positions that is not small next to the residual's 188 points falsifies it."),
        "claims/test_ladder_trained.py::test_gain_in_perplexity_points",
        "The test decides both gains, 2.14 and 188 points, over seeds.",
    ),
    Review(
        "The positions go into the sum, and the sum forgets them.",
        "tested",
        ("Shuffle the tokens with the positions kept in place and compare the average's last row: a "
         "change above the summation bound falsifies 'the sum forgets them'."),
        "claims/test_average.py::test_shuffled_tokens_with_positions_in_place_at_the_chapters_scale",
        ("The test does this at width and context 128, with a tanh-per-position contrast that does move,"
         " and the trained gain from positions is decided too."),
    ),
    Review(
        "And the average drowns the present.",
        "tested",
        ("Perturb only token t and read its share of position t's average: anything but 1/(t+1) "
         "falsifies it."),
        "claims/test_average.py::test_current_token_is_one_over_t_plus_one_of_the_summary",
        "A property test for t up to 511 on the project's CausalAverage, exact in float64.",
    ),
    Review(
        "At position 100 the current token is one hundredth",
        "tested",
        "Read A[99, 99] of the averaging matrix (the 100th position): anything but 1/100 falsifies it.",
        "claims/test_average.py::test_token_share_at_the_position_the_chapter_reads",
        "The test reads that entry in float64 against the chapter's figure.",
    ),
    Review(
        "With the dilution repaired, the uniform average",
        "tested",
        ("Train the residual average and the baseline on three seeds: the residual average better than "
         "the baseline beyond the seed spread falsifies 'contributes nothing'."),
        "claims/test_ladder_trained.py::test_residual_average_contributes_nothing_over_the_baseline",
        "The test decides both printed levels (60.45, 59.71) and their difference over seeds.",
    ),
    Review(
        "Every token is in there, weighted equally",
        "tested",
        ("The same runs: the equally weighted residual average beating no context beyond the seed spread"
         " would show equal weighting carries information."),
        "claims/test_ladder_trained.py::test_residual_average_contributes_nothing_over_the_baseline",
        ("The residual-average-against-baseline comparison is exactly the equal-weighting model against "
         "no context."),
    ),
    Review(
        "It is the weights.",
        "tested",
        ("Train the residual uniform row and the residual one-head row on three seeds: learned weights "
         "not beating uniform ones beyond the seed spread falsifies it."),
        "claims/test_ladder_trained.py::test_gain_in_perplexity_points",
        "The test decides the 14-point gain of learned over uniform weights, everything else equal.",
    ),
    Review(
        "It is one multiplication by a lower-triangular matrix",
        "tested",
        ("Compute the prefix mean by a loop, a triangular matmul and a masked softmax: disagreement "
         "beyond float32 noise, rows not summing to 1 or a nonzero upper triangle falsifies it."),
        "claims/test_mask.py::test_loop_matmul_and_softmax_agree",
        ("Property tests of the three ways and of the matrix, plus the printed 6x6 and diffs at the "
         "chapter's scale."),
    ),
    Review(
        "The triangle is the causal mask, forced by the objective",
        "tested",
        ("Change every token after t and compare outputs up to t with the mask (must be bit-identical); "
         "train the block without the mask: a held-out perplexity that does not collapse falsifies 'the "
         "answer would be in the input'."),
        "claims/test_mask_trained.py::test_without_the_mask_the_answer_is_in_the_input",
        ("Exact no-leak tests on the layer and the language model, and the unmasked block trained on "
         "three seeds against a perplexity of 2."),
    ),
    Review(
        "The softmax is how the mask is implemented",
        "tested",
        ("Softmax -inf-masked scores in float16, bfloat16, float32 and float64: a masked weight not "
         "exactly 0 or a row not summing to 1 falsifies it."),
        "claims/test_mask.py::test_neg_inf_mask_leaves_no_weight_on_masked_entries_in_every_dtype",
        "The test checks exact zeros and row sums in all four dtypes.",
    ),
    Review(
        r"(Use $-\infty$, not -1e9",
        "tested",
        ("Cast -inf and -1e9 to float16 and mask scores of magnitude 1e10 with -1e9 in float32: if -1e9 "
         "behaved like -inf in every dtype and range, the advice would be empty."),
        "claims/test_mask.py::test_a_finite_constant_does_not_mean_the_same_in_every_dtype",
        ("The test checks that -inf survives every dtype while -1e9 overflows in float16 (so the cast "
         "alone does not set them apart) and leaks weight against 1e10 scores, the range argument."),
    ),
    Review(
        "The uniform average is what you get when every allowed score",
        "tested",
        ("Push random and constant finite score matrices (scale up to 1e30) through the masked softmax: "
         "a negative weight, a row not summing to 1, or equal scores not giving 1/(t+1) falsify it."),
        "claims/test_mask.py::test_masked_softmax_of_any_finite_scores_is_a_valid_weight_matrix",
        ("A property test over finite scores of any scale plus the chapter's 128 x 128 case (+inf or NaN"
         " scores are not 'numbers' here)."),
    ),
    Review(
        "They cannot be plain parameters.",
        "tested",
        ("Train the one-block model with its mixing replaced by a learned content-independent T x T "
         "matrix (per head, value maps and MLP kept) against the attention model, on the ladder and on "
         "the Winograd task: a match falsifies it."),
        "claims/test_qkv_trained.py::test_the_weights_cannot_be_plain_parameters",
        ("Since 2026-12-07 (qkv.weights_not_plain_parameters): the one block with each head's weights a "
         "learned T x T matrix (W_v, W_o and the MLP kept) against one block on the hardened Winograd "
         "task, paired over the group's 10 seeds, decides it; the one head with a fixed 128 x 128 matrix "
         "on the corpus is shown beside one head and the uniform average, and does not decide."),
    ),
    Review(
        r"A learned $T \times T$ matrix would be identical",
        "untested",
        ("Train a learned T x T mixing model on the hardened Winograd task, whose template has fixed "
         "positions: reaching the one-block model's held-out accuracy shows position-only weights can "
         "find the referent here."),
        "",
        ("'Identical for every sentence' is definitional, but 'never look at the noun this pronoun "
         "refers to' is checkable on the Winograd task and no test trains such a model."),
    ),
    Review(
        "The weight linking position $t$ to position $i$ must depend",
        "untested",
        ("The same fixed-matrix model on the hardened task: 92.7 % or more without content-dependent "
         "weights shows they were not necessary there."),
        "",
        ("The 'must' is argued, not measured: no test compares content-dependent weights with weights "
         "that do not depend on the tokens."),
    ),
    Review(
        r"Score position $i$ for position $t$ as",
        "tested",
        ("Train the raw x_t . x_i head with the no-context baseline and a learned head on three seeds: "
         "'works' fails if it does not beat the baseline, 'badly' if it matches the learned head."),
        "claims/test_qkv_trained.py::test_raw_dot_products_work_against_the_no_context_baseline",
        ("'Works' is decided against the no-context baseline (since 2026-12-07) as well as the average "
         "with positions, and 'badly' against the learned head, each paired over three seeds."),
    ),
    Review(
        "A vector's dot product with itself is its squared norm",
        "weakly tested",
        ("Score real 128-token windows by raw x_t . x_i with learned embeddings (the trained "
         "raw_dot_product model's) and measure the mean weight a token puts on itself: 0.5 or less "
         "falsifies 'mostly to itself'."),
        "claims/test_qkv.py::test_raw_dot_product_scores_attend_mostly_to_self",
        ("The test uses a fresh N(0, 1) embedding, where a token's squared norm (about 128) dwarfs its "
         "dot products with others (about 11) by construction, not embeddings a model has learned."),
    ),
    Review(
        "And the relation would be symmetric",
        "weakly tested",
        ("Train one-block models with tied W_q = W_k and with separate maps on three seeds: the tied "
         "model within seed noise shows symmetry is not the failure claimed (and under the causal mask "
         "an earlier word cannot attend to a later one at all)."),
        "claims/test_qkv.py::test_raw_scores_are_symmetric_and_qk_scores_are_not",
        ("The test checks that the raw score matrix X X^T is symmetric before masking and softmax, not "
         "that the attention weights are or that symmetry costs a model anything."),
    ),
    Review(
        r"and the symmetry is gone, because $W_q \neq W_k$",
        "tested",
        "With W_q != W_k, check that the score matrix before masking is asymmetric beyond float64 noise.",
        "claims/test_qkv.py::test_raw_scores_are_symmetric_and_qk_scores_are_not",
        "The property test finds the q . k score matrix asymmetric for random W_q, W_k.",
    ),
    Review(
        "Matching wants the features that identify a token",
        "untested",
        ("Train the one-block model with values tied to the inputs (v = x) or to the keys against a "
         "separate W_v on three seeds: the tied model within seed noise shows the separate value map "
         "buys nothing here."),
        "",
        ("Declared motivation, but it implies a measurable gain from a separate value map; "
         "docs/choices.md names that arm ('One thing is still wrong') as not measured."),
    ),
    Review(
        "So learn a third map",
        "tested",
        ("The same value-map ablation: one head with learned W_q, W_k and the tokens themselves as "
         "values, against the learned head with W_v."),
        "claims/test_qkv_trained.py::test_learning_a_third_map_helps",
        ("Since 2026-12-07 (qkv.value_map_helps): the ladder's one head against the same head without "
         "W_v (no_value_map), held-out perplexity paired over the qkv group's 5 seeds. In that model "
         "only the linear output layer reads the values, so W_v could be folded into it: the test "
         "measures what training makes of the extra map, not a model that cannot express it."),
    ),
    Review(
        "In code it is thirty lines, twenty of which are shapes:",
        "tested",
        ("Count the lines of the printed Head listing and the lines naming a size, shape or axis: counts"
         " not near 30 and 20 falsify it."),
        "claims/test_qkv.py::test_head_listing_line_count",
        "Two tests count the printed listing's lines and its shape lines against the number words.",
    ),
    Review(
        "If the entries of $\\mathbf{q}$ and $\\mathbf{k}$ are independent",
        "tested",
        ("Draw 20,000 pairs of unit-variance q, k and measure Var(q_j k_j) and Var(q . k) at d = "
         "4..1024: off d by more than four standard errors falsifies it."),
        "claims/test_scale.py::test_score_variance_is_d",
        "The test measures the variance at each width against d and the printed table.",
    ),
    Review(
        "So the scores have standard deviation",
        "tested",
        ("The same draws: a standard deviation of q . k off sqrt(d) by more than four standard errors "
         "falsifies it."),
        "claims/test_scale.py::test_score_std_is_sqrt_d",
        "The test measures the standard deviation at each width against sqrt(d) and the printed column.",
    ),
    Review(
        "Why that matters: the softmax is scale-sensitive",
        "tested",
        ("Softmax 2,000 rows of 64 unit-variance scores and the same scores times 10: effective tokens "
         "not going from many (more than 10) to about one (fewer than 2) falsifies it."),
        "claims/test_scale.py::test_multiplied_scores_turn_a_soft_blend_into_a_hard_choice",
        "The test runs exactly that with thresholds fixed before measuring.",
    ),
    Review(
        "Doubling a linear layer's input doubles its output",
        "tested",
        ("Apply an nn.Linear with its default bias to x and 2x: f(2x) != 2 f(x) falsifies the sentence "
         "for the biased layers of the chapter's block."),
        "claims/test_scale.py::test_a_linear_layer_with_a_bias_scales_its_output_with_its_input",
        ("Tested on the bias-free W_q and, since 2026-12-07, on the biased W_o and MLP expansion, so the"
         " verdict says for which layers it holds."),
    ),
    Review(
        "Undivided, at $d_k = 256$, a freshly initialised head",
        "weakly tested",
        ("Build the project's head (128 wide, d_k = 256) at its default initialisation, drop the "
         "division, feed token and position embeddings of 64 tokens and measure the mean exp(entropy): "
         "well above 1 falsifies 'exactly one token'."),
        "claims/test_scale.py::test_undivided_head_effective_token_count",
        ("The test draws q and k with unit-variance entries (the variance argument's premise), not a "
         "freshly initialised head, whose scores have a smaller spread (about sqrt(d) x 2/3 in the scale"
         " recipes)."),
    ),
    Review(
        "A softmax committed to one entry has almost no derivative",
        "tested",
        ("Autograd the softmax at a saturated row and at a one-hot row: a Jacobian diagonal not w_i(1 - "
         "w_i), or entries not near zero at both ends, falsifies it."),
        "claims/test_scale.py::test_softmax_jacobian_diagonal_is_w_times_one_minus_w",
        ("A statement about the softmax itself, checked in float64 on soft, wide and saturated rows and "
         "exactly at weights 1 and 0."),
    ),
    Review(
        "At $d_k = 1024$, seven rows in ten are frozen",
        "weakly tested",
        ("Build the undivided 1024-wide head the scale runs start from (score sd about 21) and count "
         "rows of 64 with more than 0.99 on one token over 2,000 rows: a share far from 0.7 falsifies "
         "'seven in ten before training starts'."),
        "claims/test_scale.py::test_undivided_widest_head_share_of_frozen_rows",
        ("The share is measured on unit-variance q, k draws (score sd 32), not on a head at its "
         "initialisation; 'cannot learn what to look at' rests on the trained runaway runs."),
    ),
    Review(
        "Divided, the quantity is flat at 0.96",
        "tested",
        ("With the division, compute the mean of sum w_i(1 - w_i) over 2,000 rows at d = 4..1024 and the"
         " largest weight: a mean off 0.96 or a row above 0.99 falsifies it."),
        "claims/test_scale.py::test_divided_softmax_slope_is_flat",
        "Two tests decide the flat 0.96 and the absence of frozen rows at every width.",
    ),
    Review(
        "At $d_k = 32$ the division is worth nothing",
        "tested",
        ("Train the one-block model (heads of 32) with and without the division on three seeds: a worth "
         "beyond half a point plus the seed spread, or the divided run ahead, falsifies it."),
        "claims/test_scale_trained.py::test_what_the_division_is_worth_at_d_k_32",
        "The worth and the 'very slightly ahead' ordering are both decided over seeds.",
    ),
    Review(
        "That is not a licence to drop it",
        "tested",
        ("Train the short-recipe heads of 256 and 1024 with and without the division on three seeds: a "
         "worth far from 18 and 17 points falsifies it."),
        "claims/test_scale_trained.py::test_without_the_division_wide_heads_are_worse",
        "The test decides both worths over seeds.",
    ),
    Review(
        "The undivided head does not recover.",
        "tested",
        ("Follow the undivided 1024 head's share of frozen rows along training: a share falling below "
         "0.9 after the collapse falsifies it."),
        "claims/test_scale_trained.py::test_the_collapse_is_stable",
        "The test reads the attention probe's 20 points of each seed's run after the collapse.",
    ),
    Review(
        "It runs away: the standard deviation of its scores",
        "tested",
        ("Retrain the undivided 1024 head and measure the score sd at init and at the end, the entropy "
         "and the share of rows above 0.99: figures far from 21, 5147, 0 and 99.9 % falsify it."),
        "claims/test_scale_trained.py::test_the_undivided_head_runs_away",
        "Each figure is decided over three seeds on held-out text.",
    ),
    Review(
        "Once a head is a hard selector its gradient is nearly zero",
        "tested",
        ("On the collapsed undivided checkpoint, measure the gradient and AdamW update norms of W_q and "
         "W_k against the divided head's: comparable updates falsify 'nearly zero, nothing pulls it "
         "back' as the mechanism."),
        "claims/test_scale_trained.py::test_the_divided_head_still_has_a_gradient_where_the_collapsed_one_has_none",
        ("Since 2026-12-07 (scale.soft_blend_still_changeable, issue 56): on the trained 1024-wide heads "
         "the held-out loss's gradient at the softmax input and at W_q, W_k, the collapsed undivided "
         "head's against the divided head's, paired over the scale group's five seeds; the frozen share "
         "along the run is test_the_collapse_is_stable's.  AdamW's update size is a declared alternative, "
         "not measured (docs/choices.md)."),
    ),
    Review(
        "The divided head sits at a score standard deviation",
        "tested",
        ("On the trained divided 1024 head measure the score sd, the entropy, the share of frozen rows "
         "and the W_q, W_k gradient: near-zero entropy or gradient falsifies 'a soft blend that can "
         "still be changed'."),
        "claims/test_scale_trained.py::test_the_divided_head_blends_more_than_the_collapsed_one",
        ("Since 2026-12-07 (scale.soft_blend_still_changeable, issue 56): the score sd is decided by "
         "test_the_undivided_head_runs_away; the blend (attention entropy, effective tokens and frozen "
         "rows shown) and the gradient (test_the_divided_head_still_has_a_gradient_where_the_collapsed_"
         "one_has_none) against the collapsed undivided head's, paired over five seeds."),
    ),
    Review(
        "The word large is load-bearing",
        "tested",
        ("Rerun the division table's rows (d_k = 32 on the 3000-step budget, 256 on the short run) with "
         "and without the division: a real gap at 32 or none at 256 falsifies 'nothing at 32, everything"
         " by 256'."),
        "claims/test_scale_trained.py::test_without_the_division_wide_heads_are_worse",
        ("The worth at 32, 256 and 1024 is decided on the chapter's two stated recipes; a one-recipe "
         "sweep of widths would place 'large' more sharply but the sentence reads the tables as run."),
    ),
    Review(
        "So run several heads in parallel",
        "tested",
        ("Count the q, k, v parameters of h heads of width d/h against one head of width d: any excess "
         "falsifies 'partitioned the width, not added to it'."),
        "claims/test_ladder.py::test_h_heads_cost_the_same_qkv_as_one_head_of_full_width",
        "A property test over head counts and widths, exact.",
    ),
    Review(
        "Attention also does exactly one thing",
        "weakly tested",
        ("Measure how much of a trained head's output at t comes from position t itself (its mean "
         "diagonal weight, or the output with the off-diagonal weights zeroed): a large share means "
         "attention also computes within a position."),
        "claims/test_ladder.py::test_mlp_computes_within_a_position_and_attention_mixes_across",
        ("The test shows on an untrained layer that attention carries a change forward and never back, "
         "not that moving information between positions is the only thing it does."),
    ),
    Review(
        "Every operation in the code above is linear along the feature axis",
        "weakly tested",
        ("Check additivity of the Head itself, f(ax + by) against a f(x) + b f(y): a gap far above float"
         " noise (from q . k and the softmax) falsifies 'every operation is linear'."),
        "claims/test_ladder.py::test_head_with_its_weights_fixed_is_linear_in_its_input",
        ("The test checks linearity only with the attention weights computed once and frozen; its own "
         "contrast shows the head as written is not linear."),
    ),
    Review(
        "So each block also carries a small MLP",
        "tested",
        ("Inspect the block's MLP: widths d -> 4d -> d, an exact GELU, and one position's change moving "
         "only that position's output; any deviation falsifies it."),
        "claims/test_ladder.py::test_block_mlp_expands_the_width_with_a_gelu_at_each_position",
        "The test checks the layers, widths, activation, forward pass and per-position action.",
    ),
    Review(
        "The division of labour is worth memorising",
        "tested",
        ("Change one position's input: the MLP's outputs elsewhere must not move and attention's later "
         "outputs must; any cross-position dependence in the MLP falsifies it."),
        "claims/test_ladder.py::test_mlp_computes_within_a_position_and_attention_mixes_across",
        "A property test of both halves of the division on the project's modules.",
    ),
    Review(
        "Learned weights beat uniform ones by 14",
        "tested",
        ("Retrain the residual uniform and residual one-head rows on three seeds: a gain far from 14 "
         "points beyond the seed spread falsifies it."),
        "claims/test_ladder_trained.py::test_gain_in_perplexity_points",
        "The gain is decided over seeds on the prediction interval.",
    ),
    Review(
        "Four heads buy another 3",
        "tested",
        ("Retrain the one-head-added and four-head rows on three seeds and count their parameters: a "
         "gain far from 3 or a difference other than 16,512 parameters falsifies it."),
        "claims/test_ladder_trained.py::test_gain_in_perplexity_points",
        "The gain is decided over seeds and the 16,512 parameters (W_o) are counted exactly.",
    ),
    Review(
        "And the same head is worth 9 points more added",
        "tested",
        ("Retrain the one-head replacing and added rows on three seeds: a residual gain far from 9 "
         "points falsifies it."),
        "claims/test_ladder_trained.py::test_gain_in_perplexity_points",
        "The gain is decided over seeds.",
    ),
    Review(
        "Two thirds of every transformer block is the feed-forward network",
        "tested",
        ("Count the block's weight matrices at widths 8..4096 and its parameters with biases and norms: "
         "a split other than 4d^2 : 8d^2, or a share off 2/3 by more than 1 %, falsifies it."),
        "claims/test_ladder.py::test_mlp_holds_two_thirds_of_the_block_weights_at_every_width",
        "Exact matrix counts at every width plus the share with biases at 64..4096.",
    ),
    Review(
        "Whatever a model knows, most of the parameters",
        "tested",
        ("Count the MLP share of whole models, GPT-2 small and the chapter's one-block model: under one "
         "half falsifies 'most'."),
        "claims/test_params.py::test_most_of_a_models_parameters_are_in_its_mlps",
        "The test counts both whole models (not one block) against one half.",
    ),
    Review(
        "rows above are residual connections, worth 188",
        "tested",
        ("Retrain average against residual average and one head replacing against added, three seeds "
         "each: gains far from 188 and 9 points falsify it."),
        "claims/test_ladder_trained.py::test_gain_in_perplexity_points",
        "Both gains are decided over seeds; the recipes differ only in the residual flag.",
    ),
    Review(
        "LayerNorm⁷ normalises each example across its features",
        "tested",
        ("Normalise one row alone, in a batch, in sequences of 128 and 8, in train and eval mode: any "
         "difference or a buffer falsifies it."),
        "claims/test_ladder.py::test_layernorm_needs_no_batch_and_keeps_no_statistics",
        "The test checks every listed property, with BatchNorm as a contrast that fails them.",
    ),
    Review(
        "It costs 768 parameters",
        "tested",
        ("Count the parameter difference between the ladder rows with and without LayerNorm (must be "
         "768) and retrain both on three seeds: a gain far from 1.8 points falsifies it."),
        "claims/test_ladder.py::test_layernorm_parameter_count",
        "The count is exact and the gain is decided over seeds (test_ladder_trained.py).",
    ),
    Review(
        "Look at where the normalisation sits",
        "tested",
        ("Zero the last layer of attention and of the MLP in the pre-norm block: a block that is not "
         "exactly the identity falsifies 'the residual path is never normalised'."),
        "claims/test_norm.py::test_with_silent_sublayers_prenorm_is_the_identity_and_postnorm_normalises",
        "The test checks the identity bit for bit on the chapter's block.",
    ),
    Review(
        "The 2017 paper does the opposite",
        "tested",
        ("The same ablation on the post-norm block: an output other than LayerNorm applied to the "
         "residual path falsifies it."),
        "claims/test_norm.py::test_with_silent_sublayers_prenorm_is_the_identity_and_postnorm_normalises",
        "The test checks the post-norm block gives LN(LN(x)) exactly.",
    ),
    Review(
        "Xiong et al. explained the difference",
        "weakly tested",
        ("Per-block gradient norms at initialisation of the 12-block pre- and post-norm models over "
         "seeds: post-norm's last/first ratio within 2x of pre-norm's (the chapter's 1.65 against 1.32) "
         "shows no 'badly scaled with depth'."),
        "claims/test_norm.py::test_postnorm_gradient_is_worse_scaled_with_depth_than_prenorm",
        ("The test decides only that post-norm's ratio exceeds pre-norm's by two standard errors, not "
         "that it is badly scaled; the warmup half is tested by the trained post-norm runs."),
    ),
    Review(
        "Post-norm without warmup is eight times worse",
        "tested",
        ("Retrain the four 12-block runs on three seeds: a post-norm/pre-norm ratio far from 8, or post-"
         "norm with warmup apart from pre-norm, falsifies it."),
        "claims/test_norm_trained.py::test_postnorm_without_warmup_against_prenorm",
        "The ratio, the levels and the warmup rescue are each decided over seeds.",
    ),
    Review(
        "Warmup is not a general good practice here",
        "tested",
        ("Train pre-norm with and without a 200-step warmup on three seeds: a difference beyond the seed"
         " spread falsifies 'removes the need for it'."),
        "claims/test_norm_trained.py::test_difference_between_runs_is_the_chapters",
        "The pre-norm levels and their difference are decided at the chapter's learning rate.",
    ),
    Review(
        "Delete the position embeddings and the model still trains",
        "tested",
        ("Fit a linear probe for the index t on the hidden states of the trained no-position model: an "
         "R^2 well above 0 falsifies 'it simply cannot tell where anything is'."),
        "claims/test_positions_trained.py::test_without_positions_a_linear_probe_cannot_read_where_a_token_is",
        ("Since 2026-12-07 (positions.no_positions_cannot_tell_where, issue 56): 'cannot tell where "
         "anything is' is decided on the trained no-position model's block output by a linear probe for "
         "the position, its held-out R^2 against 0.1 over the positions group's 10 seeds (docs/choices.md); "
         "'still trains' on the trained model as before."),
    ),
    Review(
        "Nothing in the attention score mentions",
        "tested",
        ("Permute the input of unmasked attention without positions: an output that is not the permuted "
         "output falsifies 'permutation-equivariant'."),
        "claims/test_positions.py::test_unmasked_attention_permutes_its_output_with_its_input",
        "A property test of the equivariance, with the causal case tested at the last position.",
    ),
    Review(
        "It is the average's order-blindness in a better disguise",
        "tested",
        ("In a two-block model without positions permute tokens 0..t-1 and keep t: logits at t that move"
         " above float noise falsify 'within a prefix all orderings are alike'."),
        ("claims/test_positions.py::"
         "test_without_positions_every_prefix_ordering_gives_the_same_output_in_a_stack"),
        "The test decides it on a two-block stack, with one block beside it as the one-layer reading.",
    ),
    Review(
        "Learned absolute embeddings — one vector per position",
        "tested",
        ("Train the four position schemes on 64-token windows (three seeds) and compare the learned "
         "table's rows past 64 with their initial values: not best at 64, no cliff, or untrained rows "
         "that changed direction falsify it."),
        "claims/test_positions_trained.py::test_learned_positions_win_at_64_and_fall_off_a_cliff",
        "The cliff, the fall below no context and the untrained rows are each decided over seeds.",
    ),
    Review(
        "Sinusoids, the original choice, are computed rather than learned",
        "tested",
        ("Evaluate the trained sinusoid model at 128 and 256: perplexity better than the no-context "
         "baseline there falsifies 'does not extrapolate'."),
        "claims/test_positions_trained.py::test_extrapolation_class_at_the_longer_windows",
        "The class at 128 and 256 and the rising curve are decided over seeds.",
    ),
    Review(
        "RoPE⁹ adds nothing and instead rotates query and key",
        "tested",
        ("Rotate random q, k with the project's RoPE at (t, i) and (t + s, i + s): scores that differ "
         "beyond the float error of the angles falsify 'depends only on t - i'."),
        "claims/test_positions.py::test_rope_score_depends_only_on_t_minus_i",
        "A property test over positions and shifts up to 2000.",
    ),
    Review(
        "It degrades, but it degrades.",
        "tested",
        ("Evaluate the trained RoPE model at 64 and 256: not worse at 256, or degrading more than the "
         "learned or sinusoid model, falsifies it."),
        "claims/test_positions_trained.py::test_rope_degrades_less_than_the_absolute_schemes",
        "The graceful degradation and the class against no context are decided over seeds.",
    ),
    Review(
        "ALiBi¹⁰ is the simplest and the strangest result here",
        "tested",
        ("Inspect the ALiBi bias: not -slope_h (t - i), or slopes not geometric and distinct per head, "
         "falsify it."),
        "claims/test_positions.py::test_alibi_penalty_is_linear_in_distance_with_a_geometric_slope_per_head",
        "Exact checks for several head counts, including the paper's rule for counts not a power of two.",
    ),
    Review(
        "Its perplexity improves as the window grows",
        "tested",
        ("Evaluate the trained ALiBi model at 64, 128 and 256 on three seeds: a perplexity that does not"
         " fall from 64 to 256 falsifies it."),
        "claims/test_positions_trained.py::test_alibi_improves_as_the_window_grows",
        ("The ordering and both printed levels are decided over seeds (per-position loss, which would "
         "separate longer context from averaging, is not measured)."),
    ),
    Review(
        "Dropout is inherited the same way",
        "tested",
        ("Switch each dropout site to p = 1: the weights after the softmax, each sub-layer's output "
         "before the add and the embedding sum must be the ones dropped, and nothing else."),
        "claims/test_dropout.py::test_dropout_sites_are_where_the_chapter_puts_them",
        "Four tests check the sites by behaviour and the identity in eval mode.",
    ),
    Review(
        r"Two tensors in the layer have shape $n \times n$",
        "weakly tested",
        ("Record every float tensor of shape n x n that one forward of the explicit layer creates: more "
         "than two (q k^T, its scaling, the masked copy, the softmax) falsifies 'two tensors' for the "
         "code as written."),
        "claims/test_cost.py::test_n_by_n_tensors_alive_at_once_and_the_rest_linear_in_n",
        ("The test decides how many n x n storages are alive at once (at most two), not how many the "
         "layer makes, which it records but does not decide."),
    ),
    Review(
        "Everything else — every projection, the whole MLP — is linear",
        "tested",
        ("Time the projections over n = 1024..8192 and check the MLP acts per position: a log-log slope "
         "well above 1 falsifies it."),
        "claims/test_cost.py::test_projections_are_linear_in_n",
        ("The projections' slope is timed and judged on its interval, the largest non-square tensor "
         "doubles with n, and the MLP is tested position by position."),
    ),
    Review(
        "The megabyte columns are allocator byte counts and do not move.",
        "tested",
        ("Measure the layer's peak memory at each length with the allocator: values off the printed MB "
         "column at its rounding falsify it."),
        "claims/test_cost.py::test_peak_memory_is_the_chapters_byte_count",
        "Decided on CUDA (a reading on the CPU), and the attention-matrix column is exact arithmetic.",
    ),
    Review(
        "The x4 columns are the ratio to the row above",
        "tested",
        ("Divide the printed cells and count the layer's operations and bytes for n = 128..8192: x4 "
         "cells that are not the ratios, or counted ratios that do not approach 4, falsify it."),
        "claims/test_cost.py::test_a_doubling_of_n_converges_in_the_counts",
        "The printed ratios, the counted convergence and the timed ratios and slopes are each decided.",
    ),
    Review(
        "The projections column is the control",
        "tested",
        "Time the projections at 1024 and 8192 tokens with repeats: a factor far from ten falsifies it.",
        "claims/test_cost.py::test_projections_factor_for_eightfold_n",
        "The factor is timed and judged on its interval.",
    ),
    Review(
        "Linear, as advertised.",
        "tested",
        "Fit the projections' log-log slope over the last four lengths: outside 1 +- 0.15 falsifies it.",
        "claims/test_cost.py::test_projections_are_linear_in_n",
        "The slope is timed and judged on its bootstrap interval.",
    ),
    Review(
        "One attention layer, one sequence, no model around it",
        "tested",
        ("Run the explicit layer at 16,384 and at 8192 tokens under an 8 GiB cap: the long one fitting, "
         "or the short one failing, falsifies it."),
        "claims/test_cost.py::test_one_layer_runs_out_of_memory_in_8_gb_at_the_chapters_length",
        "A capped run at both lengths, with the score matrix's 8 GB counted exactly.",
    ),
    Review(
        "Not the model; one intermediate tensor in one layer.",
        "tested",
        ("Count the score tensor the layer keeps at 16,384 tokens: less than the 8 GB cap falsifies 'one"
         " intermediate tensor' as the cause."),
        "claims/test_cost.py::test_score_matrix_is_heads_times_n_squared_times_4_bytes",
        "The score tensor's bytes are read off the layer at every length.",
    ),
    Review(
        "It is why FlashAttention exists",
        "weakly tested",
        ("Compare the explicit layer with the fused kernel at n = 1024..8192 in peak memory and in time:"
         " a speed gain larger than the memory gain falsifies 'a memory optimisation before it is a "
         "speed one'."),
        "claims/test_cost.py::test_fused_kernel_peak_memory_is_linear_in_n",
        ("The tests check the fused kernel's result, that it runs at 16,384 tokens under 8 GiB and that "
         "its memory grows linearly; 'memory before speed' is never compared."),
    ),
    Review(
        "With the block defined, model size is arithmetic.",
        "tested",
        ("Build models of random width, depth, vocabulary and context and count their parameters: any "
         "difference from the formula falsifies it."),
        "claims/test_params.py::test_the_formula_is_the_built_models_count_for_any_size",
        "A property test of formula against built model, plus GPT-2's released sizes.",
    ),
    Review(
        "Per block, with width $d$ and a four-times expansion",
        "tested",
        ("Count attention, MLP and LayerNorms of a built block for d = 1..2048 against 4d^2 + 4d, 8d^2 +"
         " 5d and 4d, and the block against 12d^2 + 13d: any difference falsifies it."),
        "claims/test_params.py::test_each_part_of_a_block_has_the_chapters_count",
        "The sum, each sub-count (since 2026-12-07) and the 2,304 bias difference are counted exactly.",
    ),
    Review(
        "Which is the published size of that model.",
        "tested",
        ("Build transformers' GPT2LMHeadModel from its config on the meta device and count: not "
         "124,439,808 falsifies it."),
        "claims/test_params.py::test_released_gpt2_small_parameter_count",
        "The released implementation, the project's model and the chapter's total are compared exactly.",
    ),
    Review(
        "The formula is not an approximation; it is the model.",
        "tested",
        ("Compare the formula with built models and with GPT-2 medium, large and xl: a single off-by-d "
         "difference falsifies it."),
        "claims/test_params.py::test_the_formula_gives_the_larger_gpt2_sizes",
        "Exact equality at every size tried.",
    ),
    Review(
        "Note also that nearly a third of a small model",
        "tested",
        "Divide GPT-2 small's token table by its total: outside [0.30, 1/3) falsifies 'nearly a third'.",
        "claims/test_params.py::test_embedding_table_share_of_gpt2_small",
        "The share is counted on the built model.",
    ),
    Review(
        "What one head does is a different question",
        "tested",
        ("Count the parameters of the chapter's one-block Shakespeare model: outside 450,000..550,000 "
         "falsifies 'a 500,000-parameter model'."),
        "claims/test_ladder.py::test_one_block_model_size",
        "The count is exact on the default configuration.",
    ),
    Review(
        "They are also solvable by cheating",
        "tested",
        ("Train the uniform average on the animal/place task (ten seeds): held-out accuracy well below "
         "100 % falsifies the cheat."),
        "claims/test_winograd.py::test_uniform_average_solves_the_cheatable_task",
        "The uniform average's held-out accuracy is decided over ten seeds.",
    ),
    Review(
        "If the two candidates are an animal and a place",
        "tested",
        ("The same runs: an order-blind model that does not reach about 100 % on the cheatable task "
         "falsifies 'gets it right without knowing anything about order'."),
        "claims/test_winograd.py::test_uniform_average_solves_the_cheatable_task",
        "The uniform model is order-blind by construction and its accuracy is decided over seeds.",
    ),
    Review(
        "The bag of words beats the transformer.",
        "tested",
        ("Train the uniform average and one block on the animal/place task over ten seeds: the "
         "transformer at or above the bag of words on held-out accuracy falsifies it."),
        "claims/test_winograd.py::test_the_bag_of_words_beats_the_transformer",
        "The ordering is decided by a paired t test over the ten seeds.",
    ),
    Review(
        "Train as an ordinary next-token predictor",
        "tested",
        ("Check every held-out noun pair was trained only in reverse, and that the trained uniform model"
         " answers each held-out sentence as its training twin: a mismatch or the referent named more "
         "often than the other noun falsifies it."),
        "claims/test_winograd.py::test_the_order_blind_model_names_the_other_noun",
        "The split is checked exactly and the backwards answers over ten seeds.",
    ),
    Review(
        "Chance among the two nouns present is 50 %.",
        "tested",
        ("Count how often the referent is the first noun on the held-out set: anything but 50 % lets a "
         "fixed-slot guess beat chance."),
        "claims/test_winograd.py::test_hardened_task_chance_among_the_two_nouns",
        "Exact count on the held-out set.",
    ),
    Review(
        "The uniform average lands at 27.9 %",
        "tested",
        ("Train the uniform model on the hardened task over ten seeds: accuracy far from 27.9 % or a "
         "wrong-noun rate far from 50 % falsifies it."),
        "claims/test_winograd.py::test_how_often_the_uniform_average_names_the_wrong_noun",
        "Both rates are decided over ten seeds.",
    ),
    Review(
        "A uniform average would put 0.067",
        "tested",
        ("Count the tokens visible at the query position of the template (15) and read the averaging "
         "row: not 1/15 = 0.067 falsifies it."),
        "claims/test_winograd.py::test_uniform_average_weight_on_each_visible_token",
        "Exact on the task's template and vocabulary.",
    ),
    Review(
        "Block 1 is identical in both sentences",
        "weakly tested",
        ("In the trained two-block models compare block 1's row at the query position across the eight "
         "adjectives for the same noun pair: a change above 0.01 falsifies 'identical'."),
        "claims/test_winograd.py::test_block1_concentrates_on_the_first_noun_whatever_the_adjective",
        ("The test decides block 1's weight on the first noun averaged over adjectives (and each printed"
         " cell at a wide tolerance); its change across adjectives is recorded but not decided."),
    ),
    Review(
        "That is not a failure but a proof",
        "tested",
        ("Take a first-layer head with any weights and the two sentences: an identical query at position"
         " 14 but a different row (the adjective's key differs) falsifies the inference."),
        "claims/test_winograd.py::test_a_same_first_layer_query_does_not_make_the_same_row",
        "The test checks the premise bit for bit and decides whether the row is identical.",
    ),
    Review(
        "A first-layer head cannot condition on a word",
        "tested",
        ("The same construction: a block-1 row that changes with the adjective shows a first-layer head "
         "can condition on it through its key."),
        "claims/test_winograd.py::test_a_same_first_layer_query_does_not_make_the_same_row",
        "The test decides exactly that on three seeds.",
    ),
    Review(
        "So block 1 does the only useful thing",
        "tested",
        ("Read the residual stream after block 1 at the query through the unembedding, intact and with "
         "block 1's attention zeroed: no preference for the first noun falsifies 'drags the first noun "
         "forward'."),
        "claims/test_winograd.py::test_block1_puts_the_first_noun_in_the_residual_stream",
        ("The preference and its ablation are decided over ten seeds, with block 1's weight on the first"
         " noun beside it."),
    ),
    Review(
        "Block 2 is where the sentences part",
        "tested",
        ("Average block 2's weight on the adjective for crosser adjectives and on the second noun for "
         "crossed ones over all seeds: levels far from the printed 1.00 and 0.49 falsify the rule."),
        "claims/test_winograd.py::test_block2_reads_the_adjective_for_crosser_adjectives",
        "Both routings are decided over every adjective of their role and ten seeds.",
    ),
    Review(
        "For a crosser-adjective the second block",
        "tested",
        ("Block 2's weight on the adjective over all crosser adjectives, and the first noun's presence "
         "in the residual stream after block 1: a level far from 1.00 or no first noun falsifies it."),
        "claims/test_winograd.py::test_block2_reads_the_adjective_for_crosser_adjectives",
        "The level is decided over seeds and the 'block 1 put it there' part by the residual-stream test.",
    ),
    Review(
        "For a crossed-adjective it goes and fetches",
        "tested",
        ("Block 2's weight on the second noun over all crossed adjectives: a level far from 0.49 "
         "falsifies it."),
        "claims/test_winograd.py::test_block2_fetches_the_other_noun_for_crossed_adjectives",
        "The level is decided over seeds.",
    ),
    Review(
        "That is a two-hop circuit",
        "tested",
        ("Zero each block's attention output at the query position in the trained two-block models, and "
         "each head of each block alone: accuracy that survives either ablation, or stays well above "
         "chance with one head of a block removed, falsifies the two-hop circuit."),
        "claims/test_winograd.py::test_one_head_of_each_block_removed_leaves_chance",
        ("Since 2026-12-07 (winograd.two_hop_heads_near_chance, issue 56): one head of each block (the "
         "one whose removal leaves the lowest accuracy) and each whole block are removed at the query "
         "and decided against near chance (chance plus 10 points, docs/choices.md) over the ten seeds; "
         "the blocks against the intact model too (winograd.two_hop_ablation)."),
    ),
    Review(
        "Composition across layers is the mechanism",
        "tested",
        ("Train one and two blocks over ten seeds and ablate the two-block models: one block matching "
         "two, or two surviving the ablations, falsifies it."),
        "claims/test_winograd.py::test_two_blocks_beat_one_seed_by_seed",
        "The depth ordering, both accuracies and the ablations are decided over seeds.",
    ),
    Review(
        "The thirty lines above, with their weights copied",
        "tested",
        ("Copy the Head's weights into nn.MultiheadAttention and SDPA and compare outputs: a difference "
         "above float32 precision falsifies the match."),
        "claims/test_qkv.py::test_the_chapters_head_matches_torch_at_the_chapters_precision",
        "The chapter's Head against both references at the chapter's shapes, plus the four-head module.",
    ),
    Review(
        r"$1.8 \times 10^{-7}$ on outputs whose mean magnitude",
        "tested",
        ("The same comparison: a difference of another order of float32 precision, relative to the "
         "output's mean magnitude, falsifies it."),
        "claims/test_qkv.py::test_the_chapters_head_matches_torch_at_the_chapters_precision",
        ("The difference is decided in units of eps32 relative to the output; the magnitude 0.159 "
         "depends on inputs the chapter does not give and is recorded."),
    ),
    Review(
        "You have the architecture every model in the rest of this course",
        "tested",
        ("Count the block's LayerNorms and residual additions and its MLP share: not two, two and two "
         "thirds falsifies the summary."),
        "claims/test_ladder.py::test_block_residual_addition_count",
        "The norms, the additions (by graph and numerically) and the per-block MLP share are each tested.",
    ),
    Review(
        "What you do not have is a model that knows anything",
        "tested",
        ("Train one and two blocks on three seeds: two blocks better held-out than one falsifies "
         "'stacking will not fix it by itself'."),
        "claims/test_ladder_trained.py::test_two_blocks_fit_train_better_and_held_out_worse",
        "The overfitting ordering is decided seed by seed at the chapter's 3000 steps.",
    ),
    Review(
        "Two blocks on this corpus reach a training perplexity",
        "tested",
        ("Retrain one and two blocks on three seeds, recording train and held-out perplexity: levels far"
         " from the four printed ones, or the ordering reversed, falsify it."),
        "claims/test_ladder_trained.py::test_run_ends_at_the_chapters_perplexity",
        "All four levels and the ordering are decided over seeds.",
    ),
    Review(
        "Embedding table plus this average plus a linear layer",
        "tested",
        ("Write the average model (embedding, average, linear, forward) minimally and count its lines: "
         "well over fifteen falsifies it; the ladder's trained average row already shows it is a "
         "complete language model."),
        "claims/test_average.py::test_the_average_language_model_fits_in_the_lines_the_chapter_says",
        ("Since 2026-12-07 (average.model_fifteen_lines, issue 56): the minimal listing (model/average.py "
         "AverageLM, in the printed Head's form) is counted as the Head listing is, against 'at most "
         "fifteen' (docs/choices.md: an unprinted listing can be padded, so the count is a bound), and a "
         "second test gives the ladder's average model's logits with its weights copied in."),
    ),
    Review(
        "y = x[torch.randperm(T)]",
        "tested",
        ("Re-run the shuffle listing at T = 128, width 128: a difference not of float-noise size "
         "falsifies the printed 2.98e-8."),
        "claims/test_average.py::test_shuffled_window_gives_the_chapters_float_noise",
        "Declared code, but it prints a measured figure (average.shuffle_diff), which this test bounds.",
    ),
    Review(
        "loop = torch.stack([x[:t + 1].mean(0)",
        "tested",
        ("Re-run the loop/matmul/softmax listing and print the 6 x 6 matrix: diffs beyond float noise or"
         " entries other than 1/(i+1) falsify the printed output."),
        "claims/test_mask.py::test_the_three_ways_differ_by_float_noise_at_the_chapters_scale",
        "Declared code, but it prints measured diffs and a matrix (mask.*), each decided by the mask tests.",
    ),
    Review(
        "     d     Var(q.k)         std   sqrt(d)",
        "tested",
        ("Re-draw 20,000 pairs per width: a printed Var or std outside four standard errors of d and "
         "sqrt(d) falsifies the table."),
        "claims/test_scale.py::test_score_variance_is_d",
        "Declared code, but it is a table of measurements (scale.var_*, scale.std_*), each decided.",
    ),
    Review(
        "uniform causal average           held-out",
        "tested",
        ("Retrain both models on the animal/place task over ten seeds: accuracies far from 100.0 % and "
         "91.7 % falsify the printed rows."),
        "claims/test_winograd.py::test_one_block_accuracy_on_the_cheatable_task",
        "Declared code, but it prints the cheatable task's accuracies (winograd.cheatable_*), each decided.",
    ),
    Review(
        "the animal did not cross the street because it was too tired , so",
        "tested",
        ("Re-extract both blocks' rows at the query position from the trained two-block models: cells "
         "far from the printed weights falsify the map."),
        "claims/test_winograd.py::test_printed_attention_weight",
        "Declared code, but it is the attention map (winograd.map_*), every cell decided over ten seeds.",
    ),
    Review(
        "ours vs nn.MultiheadAttention",
        "tested",
        ("Re-run the comparison: differences of another order than 1.8e-7 relative to the outputs "
         "falsify the printed lines."),
        "claims/test_qkv.py::test_the_chapters_head_matches_torch_at_the_chapters_precision",
        "Declared code, but it prints measured diffs (qkv.diff_*), each decided.",
    ),
    Review(
        "  tokens   ms total    ms x4",
        "tested",
        ("Recompute the ratio columns from the printed cells and re-measure the layer's times, peaks and"
         " score matrix: cells that do not follow falsify the table."),
        "claims/test_cost.py::test_printed_x4_cell_is_the_ratio_of_the_printed_cells",
        ("Declared code, but it is the cost measurement (cost.*): ratios, matrix bytes and peaks are "
         "decided (the millisecond columns on CUDA only)."),
    ),
    Review(
        "  token embeddings     50,257 x 768",
        "tested",
        ("Recompute each line of the accounting on a built GPT-2 small: any line that does not match "
         "falsifies it."),
        "claims/test_params.py::test_gpt2_small_table",
        "Declared code, but it is the parameter accounting (params.*), each row counted exactly.",
    ),
    Review(
        "gradient norm per block at initialisation, before any step",
        "tested",
        ("Re-run the initial gradient profile over seeds and retrain the four 12-block runs: figures "
         "outside their rounding plus the seed spread falsify the table."),
        "claims/test_norm.py::test_gradient_profile_figures",
        "Declared code, but it prints the profile and the warmup table (norm.*), each figure decided.",
    ),
]
