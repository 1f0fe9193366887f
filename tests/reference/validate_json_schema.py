"""Validates a JSON document against a JSON Schema, with the jsonschema
package (an independent validator): exit 0 when valid, 1 with the errors
when not, 3 when jsonschema is not installed.

usage: validate_json_schema.py SCHEMA DOCUMENT
"""

import json
import sys

try:
    import jsonschema
except ImportError:
    sys.stderr.write("the jsonschema package is not installed\n")
    sys.exit(3)

with open(sys.argv[1]) as f:
    schema = json.load(f)
with open(sys.argv[2]) as f:
    document = json.load(f)
validator_class = jsonschema.validators.validator_for(schema)
validator_class.check_schema(schema)
errors = sorted(validator_class(schema).iter_errors(document), key=str)
for error in errors:
    sys.stderr.write(f"{list(error.absolute_path)}: {error.message}\n")
sys.exit(1 if errors else 0)
