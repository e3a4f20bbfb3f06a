#!/bin/sh
# The committed schema is what the generator prints (run by `make schema`).
#   sh tests/schema/generated.sh GENERATOR
set -u
gen=$1
here=$(dirname "$0")
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
if ! "$gen" >"$out"; then
	echo "schema: $gen failed" >&2
	exit 1
fi
if ! diff -u "$here/../../schema/profile.schema.json" "$out" >&2; then
	echo "schema: schema/profile.schema.json is not what the registry and key table give: run make schema-gen" >&2
	exit 1
fi
