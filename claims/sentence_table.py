"""The chapter's sentences, each accounted for (claims/sentences.py explains the walk): the
claim IDs a sentence asserts, or the reason it asserts nothing.  One entry per sentence or
block, in the chapter's order; the anchor is a verbatim quote from it, unique in the chapter."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Sentence:
    anchor: str                   # verbatim, unique in the chapter, inside one unit
    claims: tuple[str, ...] = ()  # the claim IDs it asserts (claims/registry.py)
    reason: str = ""              # or why it asserts nothing: a reason of claims/sentences.py REASONS
    why: str = ""                 # the reason's detail, where one helps


S = Sentence

SENTENCES: list[S] = [
    S("Attention and the Transformer Block, Derived", reason="context", why="the chapter's title"),
    # the recurrent state, and why it lost
    S("From 1997 to about 2017 the summary", reason="history", why="recurrent networks as the summary of a sequence"),
    S("Fixed size, variable input, exactly the right shape.", reason="context", why="what a summary of a sequence must be"),
    S("It failed in three ways", reason="rhetoric", why="announces the three failures"),
    S("Backpropagating through $T$ steps multiplies", reason="context",
      why="vanishing gradients in recurrent networks, measured in Chapter 5; no recurrent network is built here"),
    S("The LSTM¹ was designed against exactly that", claims=("recurrence.sequential_updates",)),
    S("The whole source had to fit in one vector", reason="history", why="sequence-to-sequence translation"),
    S("Bahdanau, Cho and Bengio named that bottleneck", claims=("recurrence.three_years_before",)),
    S("Everything below is that idea, applied by a sequence to itself", reason="context",
      why="self-attention as Bahdanau attention without recurrence"),
    S("And the update is sequential by construction", reason="context",
      why="why recurrence cannot use a GPU's parallelism; nothing here measures it"),
    S("The architecture that won is not obviously smarter", reason="rhetoric"),
    S("The other classical inductive bias, convolution", reason="context", why="a scope note: convolution is not built"),
    S("Neither recurrence nor convolution reappears", reason="cross-reference", why="Chapter 1's promise of declared omissions"),
    # the average
    S("The most obvious function of a variable number of vectors", reason="caption",
      why="introduces the average's formula, omitted from the text"),
    S("Any number of inputs, fixed output size, differentiable, free.", reason="context",
      why="the average's properties as a summary, by definition"),
    S("Embedding table plus this average plus a linear layer", reason="context",
      why="the average model (the ladder's second row); its fifteen lines are not printed"),
    S("It is also terrible, and how it is terrible", reason="rhetoric",
      why="the verdict is measured in the next paragraph (average.worse_than_baseline)"),
    S("The corpus below is one megabyte of Shakespeare",
      claims=("corpus.chars", "corpus.tokens", "corpus.chars_per_token", "corpus.split")),
    S("Every model is 128 wide, sees 128 tokens", reason="setup", why="the common recipe (fixtures/recipes.py)"),
    S("Perplexity is on the held-out split.", reason="setup", why="what every perplexity is measured on"),
    S("Read the second row twice.", reason="rhetoric", why="points at the ladder's average row (table omitted)"),
    S("Averaging the context does not help a little", claims=("average.worse_than_baseline",)),
    S("Two reasons, both provable rather than empirical.", reason="rhetoric"),
    S("The average cannot see order.", claims=("average.permutation_invariant",)),
    S("Addition commutes, so shuffling the window", claims=("average.permutation_invariant",)),
    S("y = x[torch.randperm(T)]", reason="code", why="the shuffle listing and its output (average.shuffle_diff)"),
    S("Floating-point noise on a reordered sum", claims=("average.permutation_invariant",)),
    S("A model whose only view of the context is an average", claims=("average.permutation_invariant",)),
    S("Row three proves this is not fixable", claims=("average.positions_dont_help", "ladder.residual_average")),
    S("The positions go into the sum, and the sum forgets them.",
      claims=("average.positions_dont_help", "average.positions_still_invariant")),
    S("And the average drowns the present.", claims=("average.dilution",)),
    S("At position 100 the current token is one hundredth", claims=("average.dilution",)),
    S("That has a cheap fix you already own", reason="context",
      why="introduces the residual row of the ladder (Chapter 6's residual connection)"),
    S("With the dilution repaired, the uniform average", claims=("average.residual_matches_baseline",)),
    S("Every token is in there, weighted equally", claims=("average.residual_matches_baseline",)),
    S("The problem is not the averaging.", reason="rhetoric"),
    S("It is the weights.", reason="rhetoric", why="the thesis; measured as ladder.attention_beats_uniform"),
    # the mask
    S("Averaging over a growing prefix looks like a loop.", reason="context"),
    S("It is one multiplication by a lower-triangular matrix",
      claims=("mask.loop_matmul_softmax", "mask.averaging_matrix")),
    S("loop = torch.stack([x[:t + 1].mean(0)", reason="code",
      why="the loop/matmul/softmax listing, its output and the printed matrix (mask.*)"),
    S("Three named components of a transformer are now on screen.", reason="rhetoric"),
    S("The triangle is the causal mask, forced by the objective", claims=("mask.causal_no_future_leak",)),
    S("The softmax is how the mask is implemented", claims=("mask.neg_inf_float16",)),
    S(r"(Use $-\infty$, not -1e9", claims=("mask.neg_inf_float16",)),
    S("And the scores are the free parameter.", reason="context"),
    S("The uniform average is what you get when every allowed score", claims=("mask.any_scores_valid_weights",)),
    S("The rest of this chapter is one question", reason="rhetoric"),
    # queries, keys and values
    S("They cannot be plain parameters.", reason="context", why="the argument for content-dependent weights"),
    S(r"A learned $T \times T$ matrix would be identical", reason="context",
      why="a fixed matrix is the same for every input, by definition"),
    S("The weight linking position $t$ to position $i$ must depend", reason="context"),
    S("The cheapest function of two vectors returning a number", reason="context", why="the dot product (Chapter 1)"),
    S(r"Score position $i$ for position $t$ as", reason="context", why="introduces the two failures that follow"),
    S("A vector's dot product with itself is its squared norm", claims=("qkv.self_attention_dominates",)),
    S("And the relation would be symmetric", claims=("qkv.raw_scores_symmetric",)),
    S("So give each token two roles", reason="context", why="defines the query and the key"),
    S(r"and the symmetry is gone, because $W_q \neq W_k$", claims=("qkv.raw_scores_symmetric",)),
    S("One thing is still wrong.", reason="rhetoric"),
    S("The weighted sum was over the $\\mathbf{x}_i$ themselves", reason="context", why="motivates the value map"),
    S("Matching wants the features that identify a token", reason="context"),
    S("So learn a third map", reason="context", why="defines the value"),
    S("The formula is now bookkeeping:", reason="caption", why="introduces the attention formula, omitted from the text"),
    S("with $M$ the causal mask, zero on and below the diagonal", reason="context", why="defines M in the omitted formula"),
    S("In code it is thirty lines, twenty of which are shapes:", claims=("qkv.head_thirty_lines",)),
    S("class Head(nn.Module):", reason="code", why="the head listing"),
    S("Score, mask, normalise, mix.", reason="context", why="names the listing's last four lines"),
    S("Everything else is a projection.", reason="context", why="the listing's q, k, v maps"),
    # dividing by sqrt(d_k)
    S("Almost every explanation of", reason="rhetoric"),
    S("The argument is two lines of the variance from Chapter 2.", reason="cross-reference"),
    S("If the entries of $\\mathbf{q}$ and $\\mathbf{k}$ are independent", claims=("scale.variance_is_d",)),
    S("So the scores have standard deviation", claims=("scale.std_is_sqrt_d",)),
    S("Measured over twenty thousand random pairs:", reason="caption", why="introduces the variance table"),
    S("     d     Var(q.k)         std   sqrt(d)", reason="code", why="the variance table (scale.var_*, scale.std_*)"),
    S("Why that matters: the softmax is scale-sensitive", claims=("scale.softmax_scale_sensitive",)),
    S("Doubling a linear layer's input doubles its output", claims=("scale.softmax_scale_sensitive",)),
    S("One row of 64 scores, with and without the division:", reason="caption", why="introduces a table omitted from the text"),
    S("\"Effective tokens\" is the exponential of the entropy", reason="setup", why="defines the effective-token count"),
    S("Undivided, at $d_k = 256$, a freshly initialised head", claims=("scale.effective_tokens",)),
    S("That is bad forward and worse backward", reason="context", why="points to Chapter 5's saturated tanh"),
    S("A softmax committed to one entry has almost no derivative", claims=("scale.softmax_jacobian_diagonal",)),
    S("Over two thousand random rows:", reason="caption", why="introduces a table omitted from the text"),
    S("At $d_k = 1024$, seven rows in ten are frozen", claims=("scale.frozen_rows",)),
    S("Divided, the quantity is flat at 0.96", claims=("scale.divided_flat", "scale.divided_never_saturates")),
    S("Now the part nobody publishes", reason="rhetoric"),
    S("Delete the division and train, at four head widths:", reason="caption", why="introduces a table omitted from the text"),
    S("The first two rows come from the 3000-step budget above", reason="setup", why="the two training budgets of the division table"),
    S("At $d_k = 32$ the division is worth nothing", claims=("scale.no_effect_at_32",)),
    S("That is not a licence to drop it", claims=("scale.matters_at_256",)),
    S("The mechanism is visible in the scores themselves:", reason="caption", why="introduces a table omitted from the text"),
    S("The undivided head does not recover.", claims=("scale.runaway",)),
    S("It runs away: the standard deviation of its scores", claims=("scale.runaway",)),
    S("Once a head is a hard selector its gradient is nearly zero",
      claims=("scale.runaway", "scale.softmax_jacobian_diagonal")),
    S("The divided head sits at a score standard deviation", claims=("scale.runaway",)),
    S("Vaswani et al. say exactly this and no more", reason="history", why="what the 2017 paper says about the division"),
    S("The word large is load-bearing", claims=("scale.no_effect_at_32", "scale.matters_at_256")),
    # heads, residuals, MLP, LayerNorm
    S("One head is one softmax row per position", reason="context", why="motivates several heads"),
    S("Predicting the word after the in the animal", reason="context", why="an example of three things to attend to at once"),
    S("So run several heads in parallel", claims=("ladder.heads_partition_width",)),
    S("Attention also does exactly one thing", claims=("ladder.ffn_is_positionwise",)),
    S("Every operation in the code above is linear along the feature axis", claims=("ladder.head_linear_along_features",)),
    S("So each block also carries a small MLP", claims=("ladder.ffn_is_positionwise", "ladder.mlp_expands_four_gelu")),
    S("The division of labour is worth memorising", claims=("ladder.ffn_is_positionwise",)),
    S("The full ladder, each row adding one piece", reason="caption", why="introduces the ladder table, omitted from the text"),
    S("Learned weights beat uniform ones by 14", claims=("ladder.attention_beats_uniform",)),
    S("Four heads buy another 3", claims=("ladder.four_heads",)),
    S("And the same head is worth 9 points more added", claims=("ladder.residual_head",)),
    S("Now where the parameters actually sit", reason="caption", why="introduces a table omitted from the text"),
    S("Two thirds of every transformer block is the feed-forward network",
      claims=("ladder.mlp_two_thirds", "ladder.attention_four_mlp_eight")),
    S("Whatever a model knows, most of the parameters", claims=("ladder.mlp_two_thirds",)),
    S("LayerNorm was built and measured in Chapter 6", reason="cross-reference"),
    S("rows above are residual connections, worth 188", claims=("ladder.residual_average", "ladder.residual_head")),
    S("LayerNorm⁷ normalises each example across its features", claims=("ladder.layernorm_per_example",)),
    S("It costs 768 parameters", claims=("ladder.layernorm",)),
    S("class Block(nn.Module):", reason="code", why="the pre-norm block listing"),
    # pre-norm and post-norm
    S("Look at where the normalisation sits", claims=("norm.residual_path_identity",)),
    S("That is pre-norm.", reason="context", why="names the arrangement"),
    S("The 2017 paper does the opposite", claims=("norm.residual_path_identity",)),
    S("Xiong et al. explained the difference",
      claims=("norm.postnorm_grad_badly_scaled", "norm.grad_profile", "norm.postnorm_diverges")),
    S(r"Twelve blocks, 1000 steps, learning rate $3 \times 10^{-3}$:", reason="setup",
      why="the twelve-block recipe; introduces the table"),
    S("gradient norm per block at initialisation, before any step", reason="code",
      why="the gradient profile and the warmup table (norm.*)"),
    S("Post-norm without warmup is eight times worse",
      claims=("norm.postnorm_diverges", "norm.warmup_rescues_postnorm")),
    S("Warmup is not a general good practice here", claims=("norm.prenorm_needs_no_warmup",)),
    S("That is why essentially every model since 2019 is pre-norm", reason="history"),
    # positions
    S("Delete the position embeddings and the model still trains",
      claims=("positions.no_positions_still_trains", "positions.permutation_equivariant")),
    S("Nothing in the attention score mentions", claims=("positions.permutation_equivariant",)),
    S("It is the average's order-blindness in a better disguise", claims=("positions.prefix_orderings_stack",)),
    S("Four ways to inject position, trained on 64-token windows", reason="caption",
      why="introduces the positions table (omitted); the windows are the setup"),
    S("Learned absolute embeddings — one vector per position",
      claims=("positions.learned_cliff", "positions.untrained_rows_random")),
    S("Sinusoids, the original choice, are computed rather than learned",
      claims=("positions.sinusoid_no_extrapolation",)),
    S("RoPE⁹ adds nothing and instead rotates query and key", claims=("positions.rope_relative",)),
    S("It degrades, but it degrades.", claims=("positions.rope_degrades",)),
    S("ALiBi¹⁰ is the simplest and the strangest result here", claims=("positions.alibi_slopes",)),
    S("Its perplexity improves as the window grows", claims=("positions.alibi_improves",)),
    S("The lesson outlasts the table", reason="rhetoric"),
    S("we extended the context to 128K", reason="cross-reference", why="rotary re-scalings; Chapter 16"),
    # dropout
    S("Dropout is inherited the same way", claims=("dropout.placement",)),
    S("In large pretraining runs it is often set to zero", reason="context", why="practice outside this chapter"),
    # cost
    S(r"Two tensors in the layer have shape $n \times n$", claims=("cost.two_nxn_tensors",)),
    S("Everything else — every projection, the whole MLP — is linear", claims=("cost.projections_linear",)),
    S("One attention layer, 512 wide, 8 heads, batch of one", reason="setup", why="the cost measurement's layer"),
    S("Read the two millisecond columns for their ratios only", reason="setup",
      why="the laptop card the timings come from (device-specific)"),
    S("The megabyte columns are allocator byte counts and do not move.", claims=("cost.peak_memory", "cost.matrix_bytes")),
    S("  tokens   ms total    ms x4", reason="code", why="the cost table (cost.*)"),
    S("The x4 columns are the ratio to the row above", claims=("cost.x4_columns", "cost.time_quadratic", "cost.memory_quadratic")),
    S("The projections column is the control", claims=("cost.projections_linear",)),
    S("Linear, as advertised.", claims=("cost.projections_linear",)),
    S("Then the last row.", reason="rhetoric"),
    S("One attention layer, one sequence, no model around it", claims=("cost.oom_16k", "cost.matrix_bytes")),
    S("Not the model; one intermediate tensor in one layer.", reason="context",
      why="restates the previous sentence's byte count (cost.matrix_bytes)"),
    S("That is the physical fact underneath three later chapters.", reason="cross-reference"),
    S("It is why a context window has a limit at all", reason="cross-reference", why="Chapter 16"),
    S("It is why FlashAttention exists", claims=("cost.fused_kernel_avoids_matrix",)),
    S("And it is the arithmetic behind the price of a long prompt", reason="cross-reference", why="Chapter 24"),
    # encoder-decoder
    S("The 2017 paper describes an encoder-decoder", reason="history"),
    S("That is right for translation", reason="context"),
    S("What won was the decoder-only half", reason="history"),
    S("\"Predict the next token\" runs on any text", reason="context", why="why decoder-only models won"),
    S("Chapter 11 is about how that last one is manufactured.", reason="cross-reference"),
    S("Encoders did not disappear", reason="cross-reference", why="Chapter 19's retrieval embeddings"),
    # parameter arithmetic
    S("With the block defined, model size is arithmetic.", claims=("params.formula_is_the_model",)),
    S("Per block, with width $d$ and a four-times expansion", claims=("params.block_formula", "params.bias_difference")),
    S("For the shape of GPT-2 small", reason="caption", why="introduces the GPT-2 small accounting; the shape is setup"),
    S("  token embeddings     50,257 x 768", reason="code", why="the GPT-2 small accounting (params.*)"),
    S("Which is the published size of that model.", claims=("params.published_size", "params.gpt2_small")),
    S("The formula is not an approximation; it is the model.", claims=("params.formula_is_the_model",)),
    S("Note also that nearly a third of a small model", claims=("params.embedding_third",)),
    # the Winograd referent task
    S("Perplexity is a number about a corpus.", reason="rhetoric"),
    S("What one head does is a different question", claims=("ladder.model_size",)),
    S("So: a language where the question has a right answer.", reason="context"),
    S("The classic illustration is the animal did not cross", reason="context", why="the example the task is built on"),
    S("These are Winograd schemas", reason="context", why="defines the term (footnote 14)"),
    S("They are also solvable by cheating", claims=("winograd.category_cheat",)),
    S("If the two candidates are an animal and a place", claims=("winograd.category_cheat",)),
    S("Measured on that version of the task", reason="caption", why="introduces the cheatable task's accuracies"),
    S("uniform causal average           held-out", reason="code", why="the cheatable task's accuracies (winograd.cheatable_*)"),
    S("The bag of words beats the transformer.", claims=("winograd.category_cheat",)),
    S("Any demonstration built on that sentence proves nothing", reason="rhetoric"),
    S("So close the hole: draw both candidates", reason="setup", why="the hardened task's nouns and adjectives"),
    S("the {x} did not cross the {y}", reason="code", why="the task's sentence template"),
    S("Train as an ordinary next-token predictor", claims=("winograd.heldout_reversed_in_training",)),
    S("Chance among the two nouns present is 50 %.", claims=("winograd.hard_chance",)),
    S("The uniform average lands at 27.9 %", claims=("winograd.uniform_fails", "average.permutation_invariant")),
    S("Now the map: the attention at the position", reason="caption", why="introduces the attention map"),
    S("A uniform average would put 0.067", claims=("winograd.uniform_weight",)),
    S("the animal did not cross the street because it was too tired , so", reason="code",
      why="the attention map (winograd.map_*)"),
    S("Block 1 is identical in both sentences", claims=("winograd.block1_first_noun",)),
    S("That is not a failure but a proof", claims=("winograd.block1_same_row_argument", "qkv.first_layer_query_own_token")),
    S("A first-layer head cannot condition on a word", claims=("winograd.block1_same_row_argument",)),
    S("So block 1 does the only useful thing", claims=("winograd.block1_first_noun",)),
    S("Block 2 is where the sentences part", claims=("winograd.block2_routing",)),
    S("For a crosser-adjective the second block", claims=("winograd.block2_routing",)),
    S("For a crossed-adjective it goes and fetches", claims=("winograd.block2_routing",)),
    S("That is a two-hop circuit", claims=("winograd.block1_first_noun", "winograd.block2_routing")),
    S("Composition across layers is the mechanism", claims=("winograd.one_block", "winograd.two_blocks")),
    S("It is also the shape of the best-documented circuit", reason="history", why="induction heads in real models"),
    S("Induction heads — a previous-token head", reason="history", why="Anthropic's interpretability work"),
    S("This chapter does not attempt that analysis", reason="cross-reference", why="delegated to the references"),
    # the implementation against PyTorch's
    S("Finally, the implementation.", reason="rhetoric"),
    S("The thirty lines above, with their weights copied", claims=("qkv.head_thirty_lines", "qkv.head_matches_torch")),
    S("ours vs nn.MultiheadAttention", reason="code", why="the comparison's output (qkv.diff_*)"),
    S(r"$1.8 \times 10^{-7}$ on outputs whose mean magnitude", claims=("qkv.head_matches_torch",)),
    # depth, and what comes next
    S("You have the architecture every model in the rest of this course",
      claims=("ladder.mlp_two_thirds", "ladder.block_two_norms_two_adds")),
    S("What you do not have is a model that knows anything", claims=("depth.two_blocks_overfit",)),
    S("Two blocks on this corpus reach a training perplexity", claims=("depth.two_blocks_overfit",)),
    S("The distance between this model and the ones Chapters 14 to 30", reason="cross-reference"),
    S("It is the same block, repeated more times", reason="context", why="scale, not architecture, separates this model from large ones"),
    S("Which makes it an accounting problem", reason="rhetoric"),
    S("How much text, and where does anyone get it?", reason="rhetoric", why="a question Chapter 10 answers"),
    S("How much arithmetic, and how do you estimate it", reason="rhetoric", why="a question Chapter 10 answers"),
    S("Given a fixed budget, is it better to make the model bigger", reason="rhetoric", why="a question Chapter 10 answers"),
    S("Chapter 10 answers all three by measurement", reason="cross-reference"),
    # further reading
    S("Three explanations of this material are better", reason="cross-reference"),
    S("Jay Alammar's The Illustrated Transformer", reason="cross-reference"),
    S("Harvard NLP's The Annotated Transformer", reason="cross-reference"),
    S("Andrej Karpathy's Let's build GPT", reason="cross-reference"),
    S("For the interpretability question this chapter only touches", reason="cross-reference"),
]


# New claims found by reading: ID -> (the claim in our words, how a test can check it, tier: fast|slow|gpu)
PROPOSED = {
    "average.positions_still_invariant": (
        "Position embeddings added before averaging do not make the average order-aware: the average of "
        "(token + position) over a window is unchanged when the tokens are shuffled with the positions left in place.",
        "Random x and p (T x d); compare A[-1] @ (x + p) with A[-1] @ (x[perm] + p); the difference is float noise "
        "(the position term is the same sum for every ordering).",
        "fast"),
    "mask.causal_no_future_leak": (
        "With the causal mask a position's output does not depend on any later token; without the mask it does, "
        "so the next token would be in the input.",
        "Run the Head (or MultiHeadAttention) on x and on x with positions > t altered; outputs at <= t are "
        "identical with the mask and differ without it.",
        "fast"),
    "mask.any_scores_valid_weights": (
        "Under the causal mask the softmax of any finite scores is a valid weight matrix (non-negative, rows "
        "summing to 1, zero above the diagonal), and any constant score gives exactly the uniform average.",
        "Random and constant (e.g. 0, 3.7, -50) score matrices, masked with -inf: check the row sums, the zero upper "
        "triangle, and that a constant gives the averaging matrix A.",
        "fast"),
    "qkv.head_thirty_lines": (
        "The printed Head listing is thirty lines long, twenty of which are shapes.",
        "Count the lines of the chapter's `class Head` listing (data/chapter.py); it prints 18 lines (16 "
        "non-blank), so the test decides whether 'thirty' holds.",
        "fast"),
    "scale.softmax_scale_sensitive": (
        "A linear layer is homogeneous (doubling the input doubles the output), but multiplying scores by ten "
        "before a softmax turns a soft blend into a near one-hot choice.",
        "Check Linear without bias on 2x; for rows of 64 unit-variance scores, effective tokens (exp entropy) "
        "drop from tens to about one and the max weight rises toward 1 when the scores are multiplied by ten.",
        "fast"),
    "scale.softmax_jacobian_diagonal": (
        "The softmax Jacobian's diagonal is w_i(1 - w_i), zero at w_i = 0 and w_i = 1, so a row committed to one "
        "entry has almost no derivative.",
        "torch.autograd.functional.jacobian of softmax on random rows: diagonal equals w(1 - w); for a "
        "saturated row (scores x 100) the whole Jacobian's norm is near zero.",
        "fast"),
    "ladder.head_linear_along_features": (
        "Given its attention weights, every operation of the head is linear along the feature axis: with the "
        "weights held fixed the head is a linear map of its input, so stacked heads alone add no feature "
        "nonlinearity.",
        "Detach w computed on x; check head(a x1 + b x2) = a head(x1) + b head(x2) with that w, and that the "
        "only non-linear operation in Head.forward is the softmax across positions.",
        "fast"),
    "ladder.mlp_expands_four_gelu": (
        "The block's MLP is applied to each position independently, expanding the width by four and coming back, "
        "with a GELU in the middle.",
        "Inspect the built block's feed-forward module: Linear(d, 4d), GELU, Linear(4d, d).",
        "fast"),
    "ladder.attention_four_mlp_eight": (
        "Attention has four d x d weight matrices and the MLP the equivalent of eight (two d x 4d), which is why "
        "the MLP is two thirds of a block.",
        "Count the built block's weight-matrix parameters (biases and LayerNorms aside): attention 4 d^2, MLP "
        "8 d^2, for several d.",
        "fast"),
    "ladder.layernorm_per_example": (
        "LayerNorm normalises each example (each position) across its features: no dependence on the rest of the "
        "batch, no running statistics, identical in training and inference, indifferent to sequence length.",
        "Compare LayerNorm outputs of one row alone and inside a batch/longer sequence, in train() and eval(); "
        "check it has no buffers; contrast BatchNorm1d which differs on all three.",
        "fast"),
    "norm.residual_path_identity": (
        "In the pre-norm block the residual path from input to output is never normalised (with the sub-layers "
        "zeroed the block is the identity); post-norm puts a LayerNorm on that path.",
        "Zero the attention and MLP output projections: the pre-norm block returns x exactly, the post-norm block "
        "returns LayerNorm(x).",
        "fast"),
    "positions.no_positions_still_trains": (
        "Without position embeddings the model still trains: its held-out perplexity falls well below the "
        "no-context baseline; it only cannot use order.",
        "Train the one-block recipe with positions removed; check it beats the baseline (59.71) and that permuting "
        "its input permutes its outputs.",
        "gpu"),
    "positions.prefix_orderings_stack": (
        "Without positions, one causal attention layer's output at t is unchanged by any reordering of the tokens "
        "before t; in a stack of causal layers it is not, since later positions read earlier ones that saw "
        "different prefixes, so 'within a prefix all orderings are alike' holds for one layer only.",
        "Permute tokens 0..t-1 and compare the output at t: equal for one layer, different for two stacked "
        "causal layers (no positions, random weights).",
        "fast"),
    "positions.untrained_rows_random": (
        "A learned position table trained on 64-token windows never updates rows 64 and above from gradients: "
        "they keep the random direction they started with, shrunk only by AdamW's weight decay "
        "((1 - lr * 0.01) per step, about 0.97 after 3000 steps).",
        "Train the learned-positions model (or a few AdamW steps of it) on 64-token windows; compare rows >= 64 "
        "with their initial values: cosine 1, ratio (1 - lr*wd)^steps, i.e. not exactly the random vector.",
        "fast"),
    "winograd.heldout_reversed_in_training": (
        "The hardened task's held-out set uses noun pairs whose reversed order was in training (and never the "
        "same ordered pair), so a bag-of-words model must answer backwards.",
        "Build the task's split; for every held-out (x, y) check (y, x) is among the training pairs and (x, y) "
        "is not.",
        "fast"),
}
