"""This chapter's bookkeeping checks, beside its tables: the engine's check of every figure,
number, sentence and claim (test_bookkeeping), the figure table (test_chapter_figures) and its
setup (test_chapter_setup).  The engine's walks on this chapter in detail are the machinery's tests
(tests/integration/test_accounting.py, test_sentences.py, test_anchor_index.py)."""
