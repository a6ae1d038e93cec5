"""The log reader as it was before issue 37's fast reading (commit 5805bb3's
``_audit/_logs.py`` and ``_audit/_formats.py``, imports made absolute, nothing else
changed): the reference the fast reader is compared with, line by line and count by
count, in ``tests/audit/test_reading_differential.py``. Never imported by the library."""
