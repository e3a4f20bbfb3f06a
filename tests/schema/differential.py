#!/usr/bin/env python3
"""The loader and the JSON Schema agree (run by `make schema`).

    python3 tests/schema/differential.py BINARY

1. Keys: for every mapping of a profile, the keys the built binary accepts
   there (it lists them for an unknown key) are the keys the schema has.
2. Values: every file of tests/schema/corpus/ goes through `BINARY check`
   and through the schema. A profile is valid to the schema when YAML 1.1
   (PyYAML) and YAML 1.2 (the core schema) read the same data from it and
   that data validates: where the two YAML versions disagree the profile
   is ambiguous, and mdprofile refuses it. The binary must accept exactly
   the files the schema does, except the ones in EXCEPTIONS, which the
   schema accepts for a reason it cannot see; those must still differ, so
   the list stays accurate.
3. Tunables: every tunable of the schema (generated from the registry) set
   alone is listed by `BINARY show` and makes `BINARY diff` on the
   server-raid6-raid10 fixture report a pending change.
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml
from jsonschema import Draft202012Validator

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.path.join(ROOT, "tests", "schema", "corpus")

NOTATION = "the schema sees only the number YAML made of it; mdprofile wants plain digits"
# Corpus file stem (without the number) -> why the schema accepts what mdprofile refuses.
EXCEPTIONS = {
    "float-speed": NOTATION,
    "exponent-speed": NOTATION,
    "plus-speed": NOTATION,
    "hex-speed": NOTATION,
    "hex-timeout": NOTATION,
    "float-stripe-cache": NOTATION,
    "float-level": NOTATION,
    "int-tag": "an explicit !!int tag: the schema sees the tagged number",
    "alias": "YAML resolves the alias before the schema sees it",
    "duplicate-key": "YAML keeps the last duplicate key",
    "speed-min-above-max": "compares two values",
    "sync-min-above-max": "compares two values",
    "preread-above-stripe": "compares two values",
    "missing-parent": "needs the profile directories",
    "budget-huge": "the byte count of a size needs arithmetic across units",
    "maint-window-same": "compares two values (a window's start and end)",
    "maint-heat-reversed": "compares two values",
}


class Yaml12Loader(yaml.SafeLoader):
    """PyYAML with the YAML 1.2 core schema's implicit types instead of 1.1's."""


Yaml12Loader.yaml_implicit_resolvers = {}
for tag, pattern, first in [
    ("bool", r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
    ("int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", "-+0123456789"),
    ("float", r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
              r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$", "-+0123456789."),
    ("null", r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
]:
    Yaml12Loader.add_implicit_resolver("tag:yaml.org,2002:" + tag, re.compile(pattern),
                                       list(first))


def construct_int12(loader, node):
    text = loader.construct_scalar(node)
    if text.startswith(("0o", "0x")):
        return int(text[2:], 8 if text[1] == "o" else 16)
    return int(text, 10)  # 0100 is 100 here, not octal


Yaml12Loader.add_constructor("tag:yaml.org,2002:int", construct_int12)


def load(path, loader):
    """The one document of path as loader reads it, or None."""
    with open(path, "rb") as f:
        try:
            docs = list(yaml.load_all(f, Loader=loader))
        except yaml.YAMLError:
            return None
    return docs[0] if len(docs) == 1 else None


def same(a, b):
    def canon(x):
        return json.dumps(x, sort_keys=True, default=repr)
    try:
        return canon(a) == canon(b)
    except TypeError:  # keys of mixed types (a YAML 1.1 boolean key)
        return False


def schema_verdict(validator, path):
    """(valid, why) for the schema under both YAML versions."""
    d11, d12 = load(path, yaml.SafeLoader), load(path, Yaml12Loader)
    if d11 is None or d12 is None:
        return False, "yaml: not one loadable document"
    if not same(d11, d12):
        return False, "yaml 1.1 and 1.2 read different data"
    errors = list(validator.iter_errors(d11))
    if errors:
        return False, "schema: " + errors[0].message
    return True, ""


def check(binary, path):
    r = subprocess.run([binary, "check", path], capture_output=True, text=True, cwd=ROOT)
    return r.returncode == 0, (r.stderr.splitlines() or [""])[0]


# Where a mapping sits: a profile with an unknown key there, and the schema path to it.
PLACES = [
    ("top", "zzzzzzzzzz: 1\n", ["properties"]),
    ("raid", "raid:\n  zzzzzzzzzz: 1\n", ["properties", "raid", "properties"]),
    ("rule", "arrays:\n  - match: all\n    zzzzzzzzzz: 1\n", ["$defs", "rule", "properties"]),
    ("match", "arrays:\n  - match: {zzzzzzzzzz: 1}\n",
     ["$defs", "match", "anyOf", 1, "properties"]),
    ("services", "services:\n  zzzzzzzzzz: 1\n",
     ["properties", "services", "properties"]),
    ("service", "services:\n  pause:\n    - {name: a, zzzzzzzzzz: 1}\n",
     ["properties", "services", "properties", "pause", "items", "anyOf", 1, "properties"]),
    ("bound", "raid:\n  speed_limit_max: {zzzzzzzzzz: 1}\n",
     ["properties", "raid", "properties", "speed_limit_max", "oneOf"]),
]


def check_keys(binary, schema, tmp):
    failures = []
    for name, text, where in PLACES:
        path = os.path.join(tmp, "keys-%s.yaml" % name)
        with open(path, "w") as f:
            f.write(text)
        _, err = check(binary, path)
        m = re.search(r"\(valid here: ([^)]*)\)", err)
        node = schema
        for step in where:
            node = node[step]
        if name == "bound":  # {at_least: V} | {at_most: V}: the keys of every alternative
            node = [k for alt in node[1:] for k in alt["properties"]]
        if not m:
            failures.append("keys %s: no 'valid here' list in: %s" % (name, err))
        elif set(m.group(1).split(", ")) != set(node):
            failures.append("keys %s: mdprofile has %s, the schema %s"
                            % (name, m.group(1), ", ".join(sorted(node))))
    return failures


def tunable_values(prop):
    """Two values the schema allows for a tunable: the fixture holds at most one of them."""
    prop = prop["oneOf"][0] if "oneOf" in prop else prop  # the plain value, not a bound
    if prop.get("$ref") == "#/$defs/read_ahead":
        return ["8KiB", "12KiB"]
    rule = prop["anyOf"][0] if "anyOf" in prop else prop
    return [str(min(rule["minimum"] + d, rule["maximum"])) for d in (2, 3)]


def check_tunables_shown(binary, schema, tmp):
    """Every tunable of the schema (the registry's) is shown by show and changed by diff."""
    failures = []
    root = os.path.join(tmp, "root")
    shutil.copytree(os.path.join(ROOT, "tests", "fixtures", "server-raid6-raid10"), root,
                    symlinks=True)
    places = [("raid:\n  %s: %s\n", schema["properties"]["raid"]["properties"]),
              ("arrays:\n  - match: all\n    %s: %s\n", schema["$defs"]["rule"]["properties"])]
    n = 0
    for text, props in places:
        for key, prop in props.items():
            if key == "match":
                continue
            n += 1
            path = os.path.join(tmp, "tunable-%s.yaml" % key)
            pending = []
            for value in tunable_values(prop):
                with open(path, "w") as f:
                    f.write(text % (key, value))
                show = subprocess.run([binary, "show", path], capture_output=True, text=True)
                if show.returncode != 0 or not re.search(r"\b%s: " % key, show.stdout):
                    failures.append("tunable %s: show exits %d without it: %s%s"
                                    % (key, show.returncode, show.stdout, show.stderr))
                diff = subprocess.run([binary, "--root", root, "diff", path],
                                      capture_output=True, text=True)
                pending.append(diff.returncode == 1 and "pending" in diff.stdout)
            if not any(pending):
                failures.append("tunable %s: diff exits %d with no change pending: %s%s"
                                % (key, diff.returncode, diff.stdout, diff.stderr))
    if n < 2:
        failures.append("tunables: only %d in the schema" % n)
    return failures, n


def main():
    binary = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.join(ROOT, "mdprofile")
    with open(os.path.join(ROOT, "schema", "profile.schema.json")) as f:
        schema = json.load(f)
    validator = Draft202012Validator(schema)
    with tempfile.TemporaryDirectory() as tmp:
        failures = check_keys(binary, schema, tmp)
        shown, n_tunables = check_tunables_shown(binary, schema, tmp)
        failures += shown
    files = sorted(glob.glob(os.path.join(CORPUS, "*.yaml")))
    stems = set()
    agreed = 0
    for path in files:
        stem = os.path.basename(path)[4:-5]
        stems.add(stem)
        rel = os.path.relpath(path, ROOT)
        ok, err = check(binary, path)
        valid, why = schema_verdict(validator, path)
        if stem in EXCEPTIONS:
            if ok or not valid:
                failures.append("%s: listed as an exception (%s) but mdprofile %s and the "
                                "schema %s; update EXCEPTIONS" % (
                                    rel, EXCEPTIONS[stem], "accepts" if ok else "refuses",
                                    "accepts" if valid else "refuses (%s)" % why))
        elif ok != valid:
            failures.append("%s: mdprofile %s, the schema %s" % (
                rel, "accepts" if ok else "refuses (%s)" % err,
                "accepts" if valid else "refuses (%s)" % why))
        else:
            agreed += 1
    for stem in sorted(set(EXCEPTIONS) - stems):
        failures.append("EXCEPTIONS names %s, which is not in the corpus" % stem)
    if len(files) < 100:
        failures.append("only %d corpus files" % len(files))
    if not failures:
        print("ok   %d keys places; %d tunables shown and diffed; %d corpus profiles agree, "
              "%d listed exceptions" % (len(PLACES), n_tunables, agreed, len(EXCEPTIONS)))
    for f in failures:
        print("FAIL " + f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
