#!/bin/sh
# One SHA-256 over a fixture root: the type, mode and path of everything in it (and
# where symlinks point), then every file's content. mdprofile's lock file and the fake
# service managers' call log are left out, as tests/cli/lib.sh leaves them out: they
# are not system state; so are the directories mdprofile makes for its lock.
# Usage: tree-digest.sh ROOT
set -eu
cd "$1"
{
	find . ! -path ./run/mdprofile/lock ! -path ./var/log/fake-services.log \
		! -path ./run/mdprofile ! -path ./run -printf '%y %m %p %l\n' | LC_ALL=C sort
	find . -type f ! -path ./run/mdprofile/lock ! -path ./var/log/fake-services.log -print0 |
		LC_ALL=C sort -z | xargs -0r sha256sum
} | sha256sum | cut -d' ' -f1
