"""Where this project uses each setup value the chapter states (claims/chapter_setup.py, its other
side): for an entry of its table, every place that claims to use the value, as "file, recipe,
field" -> what it holds there.  The chapter recipes' fields (fixtures/recipes.py CHAPTER_GROUPS),
what a built model holds (its LayerNorms, its projections' biases, its MLP's expansion), the data's
tokenizer, split and Winograd words, the cost layer, GPT-2 small's shape, and the sizes the claims'
test modules measure at, read from their source without importing them (`constant`).
"""
from __future__ import annotations

import ast
import itertools
import re
from collections.abc import Callable


def chapter_recipes() -> list[tuple[str, object]]:
    from fixtures.recipes import CHAPTER_GROUPS
    return [(group.upper(), r) for group, rs in CHAPTER_GROUPS.items() for r in rs]


def recipe_field(what: str, names: str = ".", elsewhere: dict[str, str] | None = None,
           where: Callable | None = None) -> Callable[[], dict[str, object]]:
    """Every chapter recipe whose name matches `names` (and none that `elsewhere` leaves to a
    more specific sentence): its `what` ("model.d_model", "train.steps"), or where(recipe)."""
    def ours() -> dict[str, object]:
        out = {}
        for group, r in chapter_recipes():
            if not re.search(names, r.name) or any(re.search(p, r.name) for p in elsewhere or {}):
                continue
            part, _, name = what.partition(".")
            value = where(r) if where else getattr(getattr(r, part), name)
            out[f"fixtures/recipes.py {group} {r.name!r}: {what}"] = value
        return out
    return ours


def head_width(r) -> int:
    return r.model.d_head or r.model.d_model // r.model.n_heads


def layernorms(r) -> int:
    from torch import nn

    from model import LanguageModel
    return sum(isinstance(m, nn.LayerNorm) for m in LanguageModel(r.model).modules())


def unbiased_projections(r) -> int:
    """W_q, W_k, W_v, W_o of the recipe's first attention layer built without a bias."""
    from model import LanguageModel
    att = LanguageModel(r.model).attention[0]
    return 3 * (att.qkv.bias is None) + (getattr(att.out, "bias", None) is None)


def ratio(ns) -> object:
    ratios = {b / a for a, b in itertools.pairwise(ns)}
    return ratios.pop() if len(ratios) == 1 else tuple(sorted(ratios))


def mlp_expansion(r) -> int:
    from model import LanguageModel
    block = LanguageModel(r.model).blocks[0]
    return block.ff.up.out_features // r.model.d_model


def bpe_vocabulary() -> dict[str, object]:
    from data.bpe import VOCAB_SIZE
    return {"data/bpe.py VOCAB_SIZE (the tokenizer trained on the corpus)": VOCAB_SIZE}


def split_shares() -> tuple[float, float]:
    """data/batches.py split, on 1000 token ids: the share of each side, in per cent."""
    import numpy as np

    from data.batches import split
    train, held = split(np.arange(1000))
    return 100 * len(train) / 1000, 100 * len(held) / 1000


def _literal(node: ast.AST):
    """A constant expression of source code: a literal, arithmetic on literals (`8 * 2**30`), or a
    call with literal keywords (`Scale(ns=(...), fits_n=8192)`, as a dict of its keywords)."""
    if isinstance(node, ast.Call):
        return {k.arg: _literal(k.value) for k in node.keywords}
    allowed = (ast.Expression, ast.Constant, ast.BinOp, ast.UnaryOp, ast.Tuple, ast.List, ast.operator, ast.unaryop,
               ast.Load)
    if not all(isinstance(n, allowed) for n in ast.walk(node)):
        raise ValueError(f"not a constant expression: {ast.unparse(node)}")
    return eval(compile(ast.Expression(node), "<constant>", "eval"), {"__builtins__": {}})


def constant(path: str, name: str):
    """A module-level constant of a source file, read without importing it (`A = 1`, `A, B = 1, 2`):
    the claims' test modules hold the sizes they measure at, and no module imports a test module
    (tests/unit/test_layout.py); tests/docs/test_docs_numbers.py reads them the same way."""
    from data.paths import PROJECT_ROOT
    for node in ast.parse((PROJECT_ROOT / path).read_text(encoding="utf-8")).body:
        if not isinstance(node, ast.Assign):
            continue
        for target in node.targets:
            if isinstance(target, ast.Name) and target.id == name:
                return _literal(node.value)
            if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
                names = [e.id for e in target.elts if isinstance(e, ast.Name)]
                if name in names:
                    return _literal(node.value.elts[names.index(name)])
    raise LookupError(f"{path}: no module constant {name}")


def module_constant(path: str, name: str, what: str = "") -> Callable[[], dict[str, object]]:
    return lambda: {f"{path} {name}{what}": constant(path, name)}


def cost_module():
    from fixtures import cost
    return cost


def cost_scale() -> dict:
    return constant("claims/test_cost.py", "CHAPTER_SCALE")


def recipes_module():
    from fixtures import recipes
    return recipes


def winograd_module():
    from data import winograd
    return winograd


def hardened_words(position: int) -> list[str]:
    """The words at one position of the hardened data set's sentences, training and held out."""
    t = winograd_module().hardened()
    return sorted({s[position] for s in t.train + t.test})


def gpt2_shape(config_field: str, small_field: str) -> Callable[[], dict[str, object]]:
    """GPT-2 small's shape: the config the released-size test builds (claims/test_params.py GPT2)
    and the arithmetic of the chapter's table (model/params.py GPT2Small)."""
    def ours():
        from model.params import GPT2Small
        return {f"claims/test_params.py GPT2.{config_field}": constant("claims/test_params.py", "GPT2")[config_field],
                f"model/params.py GPT2Small.{small_field}": getattr(GPT2Small(), small_field)}
    return ours


def gpt2_layernorm_vectors() -> int:
    from model.params import GPT2Small
    small = GPT2Small()
    return small.rows()["final LayerNorm"] // small.d


def attention_heads(names: str) -> Callable[[], dict[str, object]]:
    return recipe_field("model.n_heads", names, where=lambda r: r.model.n_heads if r.model.mixer == "attention" else None)
