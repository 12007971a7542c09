"""The chapter's printed tables, line by line as it prints them, each cell a figure of
claims/chapter_figures.py (anchored by the table's text up to it)."""

MASK_ROWS = ["  1.000 0.000 0.000 0.000 0.000 0.000", "  0.500 0.500 0.000 0.000 0.000 0.000",
             "  0.333 0.333 0.333 0.000 0.000 0.000", "  0.250 0.250 0.250 0.250 0.000 0.000",
             "  0.200 0.200 0.200 0.200 0.200 0.000", "  0.167 0.167 0.167 0.167 0.167 0.167"]
VARIANCE_ROWS = ["     4        3.975       1.994     2.000", "    16       16.071       4.009     4.000",
                 "    64       64.249       8.016     8.000", "   256      253.065      15.908    16.000",
                 "  1024     1015.562      31.868    32.000"]
VARIANCE_D = (4, 16, 64, 256, 1024)
COST_ROWS = ["     128      2.246        -            1.324              0.5       14.6        -",
             "     256      2.855     1.27            2.113              2.0       19.2     1.31",
             "     512      5.761     2.02            3.105              8.0       34.4     1.79",
             "    1024     16.414     2.85            4.008             32.0       89.1     2.59",
             "    2048     51.573     3.14            9.989            128.0      296.1     3.32",
             "    4096    225.432     4.37           20.176            512.0     1100.1     3.72",
             "    8192    832.838     3.69           40.106           2048.0     4300.1     3.91",
             "   16384   OUT OF MEMORY                                 8192.0"]
COST_N = (128, 256, 512, 1024, 2048, 4096, 8192, 16384)
GPT2_ROWS = {"token_embeddings": "  token embeddings     50,257 x 768 = 38,597,376",
             "position_embeddings": "  position embeddings   1,024 x 768 =    786,432",
             "one_block": "  one block                             7,087,872",
             "blocks_12": "  12 blocks                            85,054,464",
             "final_layernorm": "  final LayerNorm         2 x 768 =        1,536",
             "total": "  total (weights tied)                124,439,808"}
# The Winograd map: per sentence, per block, the weight on each of the 15 visible words
MAP_SENTENCES = {
    "tired": ("the animal did not cross the street because it was too tired , so the animal waited .\n", [
        "  blk 1  the:0.00 animal:0.70 did:0.00 not:0.00 cross:0.00 the:0.00 street:0.06",
        "         because:0.00 it:0.00 was:0.00 too:0.00 tired:0.00 ,:0.05 so:0.00 the:0.19",
        "  blk 2  the:0.00 animal:0.00 did:0.00 not:0.00 cross:0.00 the:0.00 street:0.00",
        "         because:0.00 it:0.00 was:0.00 too:0.00 tired:1.00 ,:0.00 so:0.00 the:0.00"]),
    "wet": ("the animal did not cross the street because it was too wet , so the street waited .\n", [
        "  blk 1  the:0.00 animal:0.70 did:0.00 not:0.00 cross:0.00 the:0.00 street:0.06",
        "         because:0.00 it:0.00 was:0.00 too:0.00   wet:0.00 ,:0.05 so:0.00 the:0.19",
        "  blk 2  the:0.00 animal:0.00 did:0.00 not:0.00 cross:0.03 the:0.00 street:0.49",
        "         because:0.00 it:0.00 was:0.00 too:0.20   wet:0.03 ,:0.00 so:0.00 the:0.25"]),
}
