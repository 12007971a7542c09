"""What attention costs: the n x n score matrix, measured as the tensor our layer builds.
(Timing and memory scaling are measured in the slow tier.)"""
import torch
import pytest

from model import MultiHeadAttention

# The chapter's layer: 512 wide, 8 heads, batch 1, float32.  Its "attn matrix MB" column.
TABLE_MB = {128: 0.5, 256: 2.0, 512: 8.0, 1024: 32.0, 2048: 128.0, 4096: 512.0,
            8192: 2048.0, 16384: 8192.0}
MiB = 2 ** 20


def score_matrix_bytes(n: int) -> int:
    """Build the layer on the meta device (shapes only, nothing allocated), run the explicit
    path, and read the size of the score tensor it kept."""
    with torch.device("meta"):
        att = MultiHeadAttention(512, 8)
        att.capture = True
        att(torch.empty(1, n, 512))
    assert att.scores.shape == (1, 8, n, n) and att.scores.dtype == torch.float32
    return att.scores.nelement() * att.scores.element_size()


@pytest.mark.fast
@pytest.mark.claim("cost.matrix_bytes")
@pytest.mark.parametrize("n", list(TABLE_MB))
def test_score_matrix_is_heads_times_n_squared_times_4_bytes(n, claim_record):
    nbytes = score_matrix_bytes(n)
    claim_record(stated=TABLE_MB[n], measured=nbytes / MiB, tolerance="exact (MB = 2^20 bytes)", n=n)
    assert nbytes == 8 * n * n * 4
    assert nbytes / MiB == TABLE_MB[n]
