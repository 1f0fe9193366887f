"""Validates an SBOM with the formats' own reference tools.

Usage: validate_sbom.py cyclonedx|spdx FILE

CycloneDX: cyclonedx-python-lib's strict JSON validator, which ships the
1.6 schema. SPDX: spdx-tools' parser and validator (what `pyspdxtools -i`
runs). Exits 0 when valid; 1 with the problems on stderr; 3 when the tool
is not installed (the test then skips, loudly, unless under CI).
"""

import sys


def main() -> int:
    kind, path = sys.argv[1], sys.argv[2]
    if kind == "cyclonedx":
        try:
            from cyclonedx.schema import SchemaVersion
            from cyclonedx.validation.json import JsonStrictValidator
        except ImportError:
            print("cyclonedx-python-lib[json-validation] is not installed", file=sys.stderr)
            return 3
        with open(path, encoding="utf-8") as f:
            error = JsonStrictValidator(SchemaVersion.V1_6).validate_str(f.read())
        if error is not None:
            print(error, file=sys.stderr)
            return 1
        return 0
    if kind == "spdx":
        try:
            from spdx_tools.spdx.parser.parse_anything import parse_file
            from spdx_tools.spdx.validation.document_validator import (
                validate_full_spdx_document,
            )
        except ImportError:
            print("spdx-tools is not installed", file=sys.stderr)
            return 3
        messages = validate_full_spdx_document(parse_file(path), "SPDX-2.3")
        for message in messages:
            print(message.validation_message, file=sys.stderr)
        return 1 if messages else 0
    print(f"unknown format {kind}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
