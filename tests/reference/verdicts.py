"""Reference verdicts for the differential tests.

Reads skill directory paths, one per line, on stdin and prints one JSON
object per line: {"path": ..., "valid": bool, "errors": [...]}, using the
specification's reference validator (PyPI `skills-ref`). A crash of the
reference (e.g. a file that is not UTF-8) counts as invalid, as the
reference CLI exits 1 on it.
"""

import json
import sys

from skills_ref.validator import validate

for line in sys.stdin:
    path = line.rstrip("\n")
    if not path:
        continue
    try:
        errors = validate(path)
    except Exception as e:  # the reference CLI crashes with exit 1 here
        errors = [f"crash: {type(e).__name__}: {e}"]
    print(json.dumps({"path": path, "valid": not errors, "errors": errors}))
