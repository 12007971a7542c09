"""This chapter's bookkeeping checks, beside its tables: the figure table (test_chapter_figures),
the accounting of its numbers (test_accounting), its sentence table (test_sentences), its setup
(test_chapter_setup) and the anchor index of every list of quotes (test_anchor_index)."""
