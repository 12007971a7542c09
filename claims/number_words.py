"""The chapter's numbers written as words (claims/accounting.py WORD) that are not a figure,
each declared with its reason, as claims/accounting.py DECLARED declares digits.  A word that
reports a result (a count, a measurement, a ratio of printed numbers) is a figure in
claims/chapter_figures.py instead, with a test.  Pure: no torch, no pytest."""
from __future__ import annotations

from textcheck import Declared

# Patterns, each a reason for every number word inside each of its matches
WORD_PATTERNS: list[tuple[str, str, str]] = [
    (r"\b(?:[Tt]he|this|that last|every|a busy|a speed|a preprocessing) one\b|\bfrom one that\b", "not a number",
     "the pronoun one ('the one whose', 'a busy one', 'every one of which'), not a count"),
]

DECLARED_WORDS: list[Declared] = [
    # "zero" and "nothing" where they are not a figure
    Declared("can do nothing with that", "not a number", "an idiom: no use at all"),
    Declared("contributes nothing at all", "context",
             "stated by the two figures that follow it (ladder.residual_average_val against ladder.baseline)"),
    Declared("zero on and below the diagonal", "notation", "the causal mask M's entries"),
    Declared("explains nothing", "not a number", "an idiom"),
    Declared("chosen by nothing but", "not a number", "an idiom"),
    Declared("and nothing pulls it back", "not a number", "an idiom"),
    Declared("Nothing in the attention score mentions", "not a number",
             "no term of the score: the sentence's claim is positions.permutation_equivariant"),
    Declared("RoPE⁹ adds nothing", "context", "adds no vector to the token: what RoPE is"),
    Declared("often set to zero", "context", "practice in large pretraining runs, outside this chapter"),
    Declared("proves nothing about attention", "not a number", "an idiom"),
    Declared("and nothing about their order", "not a number", "an idiom: no knowledge of order"),
    # restatements of a figure, each checked against it (tests/integration/test_accounting.py)
    Declared("The thirty lines above", "repeat", "the Head listing's length, restated", repeats="qkv.listing_lines"),
    Declared("holding two thirds of the parameters", "repeat", "the MLP's share of a block, restated",
             repeats="ladder.mlp_share"),
    Declared("9 for one head", "context", "the ladder's one-head row the 9 points belong to"),
    # the history and the course around the chapter
    Declared("It failed in three ways", "context", "the three failures the paragraph enumerates"),
    Declared("architecture answers all three", "context", "the same three failures"),
    Declared("from tens of steps to hundreds", "context", "history: the LSTM's reach, as told, not measured"),
    Declared("had to fit in one vector", "context", "the recurrent state: a single vector"),
    Declared("a GPU with ten thousand cores", "context", "an order of magnitude for a GPU, not a measurement"),
    Declared("slide one small filter", "context", "what a convolution is"),
    Declared("returns one vector is the average", "context", "the function's output: a single vector"),
    # the average and why it fails
    Declared("Read the second row twice", "not a number", "an idiom: read it again"),
    Declared("Two reasons, both provable", "context", "the two reasons the section gives"),
    Declared("the two summaries are the same vector", "context", "the original and the shuffled summary"),
    Declared("Row three proves", "cross-reference", "a row of the chapter's ladder table, which the text does not print"),
    Declared("row four is what it does", "cross-reference", "a row of the ladder table, which the text does not print"),
    Declared("It is one multiplication", "context", "the loop as a single matrix product"),
    Declared("Three named components", "context", "the mask, the softmax, the scores, enumerated"),
    Declared("are one operation", "context", "masking and normalising as a single step"),
    Declared("is one question", "context", "the chapter's question"),
    # queries, keys, values
    Declared('"look four tokens back"', "example", "a pattern a fixed T x T matrix could encode"),
    Declared("function of two vectors", "context", "a dot product's two arguments"),
    Declared("in two ways that force", "context", "the two flaws the paragraph enumerates"),
    Declared("two roles, as two learned linear maps", "context", "query and key"),
    Declared("advertise one thing", "context", "a token's key against its query"),
    Declared("One thing is still wrong", "context", "the flaw the paragraph names"),
    Declared("learn a third map", "context", "the value, after the query and the key"),
    Declared('"""One head of causal self-attention."""', "code", "the listing's docstring"),
    # dividing by sqrt(d_k)
    Declared("The argument is two lines", "context", "the length of the derivation the chapter displays, not a result"),
    Declared("mean zero and variance one, each product", "setup",
             "the assumption of the derivation (and of the measurement's random draws)"),
    Declared("twenty thousand random pairs", "setup", "the sample the variance table is measured over"),
    Declared("committed to one entry", "context", "a saturated softmax row"),
    Declared("two thousand random rows", "setup", "the sample scale.frozen_seven is measured over"),
    Declared("rows in ten are frozen", "setup", "the fraction's denominator of scale.frozen_seven"),
    Declared("at four head widths", "setup", "the rows of the scale ablation table, which the chapter does not print"),
    Declared("The first two rows", "setup", "the rows of the scale ablation table that use the main recipe"),
    Declared("one head, no normalisation", "setup", "the shorter run's recipe (fixtures/recipes.py SCALE)"),
    # heads, the MLP, the ladder
    Declared("One head is one softmax row per position, so it holds one answer", "context",
             "what a single head is"),
    Declared("and one probability distribution", "context", "a single head's weights"),
    Declared("in three places", "context", "the slot, the subject, the previous token, enumerated"),
    Declared("mix with one more matrix", "context", "the output projection W_o"),
    Declared("also does exactly one thing", "context", "what attention does"),
    Declared("adding one piece", "context", "how the ladder is built"),
    Declared("argument in one row", "context", "a row of the ladder table"),
    Declared("Four heads buy", "setup", "the head count of the ladder's row"),
    # LayerNorm, the residual, positions
    Declared("generate one token at a time for one user", "context", "inference as Chapter 13 runs it"),
    Declared("Four ways to inject position", "setup", "the four encodings the positions table compares"),
    Declared("one vector per position", "context", "what a learned absolute embedding is"),
    Declared("in two-dimensional slices", "context", "how RoPE rotates (notation as much as a count)"),
    # the cost of attention
    Declared("batch of one", "setup", "the cost layer's batch (fixtures/cost.py)"),
    Declared("Read the two millisecond columns", "context", "the table's ms columns, named"),
    Declared("seven to ten times faster", "device-specific context",
             "the chapter's laptop card, cold against hot; not asserted"),
    Declared("last four rows", "setup", "the rows the exponent is fitted on"),
    Declared("a doubling of $n$", "setup", "the table's step from row to row"),
    Declared("One attention layer, one sequence", "setup", "the cost layer and its batch"),
    Declared("one intermediate tensor in one layer", "context", "the score matrix of the cost layer"),
    Declared("underneath three later chapters", "cross-reference",
             "the three consequences the paragraph goes on to list (a context limit, FlashAttention, the price of a "
             "long prompt); two of their chapters are named by number (16, 24)"),
    # the encoder-decoder and the decoder-only half
    Declared("one stack reading the source", "context", "history: the encoder of the 2017 paper"),
    Declared("a third kind of attention", "context", "history: the cross-attention of the 2017 paper"),
    Declared("output are two sequences", "context", "history: translation's source and target"),
    Declared("decoder-only half — one stack, causal throughout", "context", "history: the architecture that won"),
    Declared("that one task", "context", "history: next-token prediction as the only task"),
    Declared("one sees the whole input", "context", "history: what an encoder does"),
    # parameter arithmetic
    Declared("a four-times expansion", "setup", "the MLP's expansion of the formula"),
    Declared("biases on all four", "context", "the four projections W_q, W_k, W_v, W_o, enumerated"),
    Declared("leaves the bias off three of them", "setup", "the chapter's block: q, k, v without bias"),
    Declared("\n  one block   ", "setup", "the GPT-2 table's row label"),
    # the Winograd schemas
    Declared("What one head does", "context", "a single head's attention map"),
    Declared("where one word moves", "context", "the word that differs in a Winograd pair"),
    Declared("identical but for one word", "context", "what a Winograd pair is"),
    Declared("If the two candidates", "context", "the two nouns of a sentence"),
    Declared("\none transformer block ", "setup", "the Winograd table's row label"),
    Declared("one pool of sixteen nouns", "setup", "the hardened task's nouns (data/winograd.py)"),
    Declared("four making it the crosser", "setup", "the crosser adjectives, listed"),
    Declared("four making it the crossed", "setup", "the crossed adjectives, listed"),
    Declared("score one position", "setup", "where the hardened task is read"),
    Declared("which two nouns", "context", "the sentence's two nouns"),
    Declared("among the two nouns", "context", "the sentence's two nouns"),
    Declared("three sections ago", "cross-reference", "the shuffle test, earlier in the chapter"),
    Declared("the four heads of each block", "setup", "the Winograd model's head count"),
    Declared("the two sentences that differ by one word", "context", "the printed pair of maps"),
    Declared("all eight adjectives", "setup", "the hardened task's adjectives, four and four"),
    Declared("two-hop circuit: one head moves", "context", "the circuit the maps show"),
    Declared("why one block reached", "setup", "the depth of the row whose accuracy is asserted"),
    Declared("and two reached", "setup", "the depth of the row whose accuracy is asserted"),
    # what comes next
    Declared("Two blocks on this corpus", "setup", "the depth of the run whose perplexities are printed"),
    Declared("against one block's", "setup", "the depth of the run whose perplexities are printed"),
    Declared("Chapter 10 answers all three", "context", "the three questions the paragraph asks"),
    Declared("Three explanations", "context", "the three references the paragraph lists"),
    Declared("live in two hours", "context", "the length of a video the chapter recommends"),
]
