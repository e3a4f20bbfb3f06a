#!/usr/bin/env python3
"""Check schema/profile.schema.json against the profiles (run by `make schema`).

1. The schema itself is valid draft 2020-12.
2. Every shipped profiles/*.yaml validates.
3. Every malformed profile in tests/profiles/bad/ (those with a .err) is
   rejected by YAML parsing or by the schema, except the ones listed in
   SCHEMA_BLIND: errors only mdprofile itself can see. A blind case that the
   schema starts rejecting is reported too, so the list stays accurate.
"""
import glob
import json
import os
import sys

import yaml
from jsonschema import Draft202012Validator

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Case file stem -> why JSON Schema cannot reject it.
SCHEMA_BLIND = {
    "07-sync-min-above-max": "compares two values",
    "08-speed-limit-min-above-max": "compares two values",
    "47-preread-above-stripe-cache": "compares two values",
    "71-maint-heat": "compares two values",
    "48-inherited-min-above-max": "needs the parent profile",
    "15-duplicate-key": "PyYAML keeps the last duplicate key",
    "16-extends-cycle": "needs the parent profiles",
    "17-extends-self": "needs the parent profiles",
    "18-missing-parent": "needs the profile directories",
    "44-error-in-parent": "needs the parent profile",
    "40-duplicate-service": "uniqueness of names inside objects",
    "41-alias": "PyYAML resolves aliases",
}


def load_docs(path):
    with open(path, "rb") as f:
        return list(yaml.safe_load_all(f))


def rejected(validator, path):
    """Return a reason string if YAML or the schema rejects path, else None."""
    try:
        docs = load_docs(path)
    except yaml.YAMLError as e:
        return "yaml: %s" % str(e).splitlines()[0]
    if len(docs) != 1:
        return "yaml: %d documents" % len(docs)
    errors = sorted(validator.iter_errors(docs[0]), key=lambda e: list(e.path))
    if errors:
        return "schema: %s" % errors[0].message
    return None


def main():
    with open(os.path.join(ROOT, "schema", "profile.schema.json")) as f:
        schema = json.load(f)
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema)
    failures = []

    shipped = sorted(glob.glob(os.path.join(ROOT, "profiles", "*.yaml")))
    if not shipped:
        failures.append("no profiles/*.yaml found")
    for path in shipped:
        rel = os.path.relpath(path, ROOT)
        try:
            docs = load_docs(path)
        except yaml.YAMLError as e:
            failures.append("%s: yaml error: %s" % (rel, e))
            continue
        errs = list(validator.iter_errors(docs[0] if docs else None))
        for err in errs:
            where = "/".join(str(p) for p in err.absolute_path) or "(top)"
            failures.append("%s: %s: %s" % (rel, where, err.message))
        if len(docs) != 1:
            failures.append("%s: expected one yaml document" % rel)
        elif not errs:
            print("ok   %s" % rel)

    bad = sorted(glob.glob(os.path.join(ROOT, "tests", "profiles", "bad", "*.yaml")))
    checked = 0
    for path in bad:
        stem = os.path.basename(path)[:-5]
        if not os.path.exists(path[:-5] + ".err"):
            continue
        checked += 1
        rel = os.path.relpath(path, ROOT)
        why = rejected(validator, path)
        if why and stem in SCHEMA_BLIND:
            failures.append("%s: listed as schema-blind but rejected (%s); update "
                            "SCHEMA_BLIND" % (rel, why))
        elif not why and stem not in SCHEMA_BLIND:
            failures.append("%s: accepted by the schema, but mdprofile rejects it" % rel)
    if checked < 30:
        failures.append("only %d malformed profiles with .err files" % checked)
    if not failures:
        print("ok   %d malformed profiles rejected (%d of them only by mdprofile)"
              % (checked, len(SCHEMA_BLIND)))

    for f in failures:
        print("FAIL " + f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
