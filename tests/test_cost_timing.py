"""The cost timings refuse to decide on a machine with no core free for the timing thread."""
from fixtures import cost


def test_timings_on_a_machine_with_every_core_taken_decide_nothing():
    t = cost.Timings([16, 32]).more(3)
    assert len(t.others) == 3                          # sampled once per repeat
    t.others = [cost.cores()] * 3                      # every core busy with something else
    assert "the machine is busy" in t.busy()
    t.others = [0, cost.cores() - 1, 0]                # a core left for us: decide
    assert t.busy() is None
    assert cost.others_runnable() >= 0
