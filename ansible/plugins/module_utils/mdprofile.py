# -*- coding: utf-8 -*-
# Copyright: the mdprofile authors
# GNU General Public License v2.0 or later (see COPYING or https://www.gnu.org/licenses/gpl-2.0.txt)
"""Run mdprofile with --json and map its exit codes (docs/output.md) to results.

Shared by the profile and status modules. Only the JSON document on stdout is
read; stderr is passed on to the user as it is, never parsed. Python 2.7 and 3.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import glob
import json
import os

# mdprofile's exit codes (man/mdprofile.8, EXIT STATUS).
EXIT_OK = 0
EXIT_PENDING = 1
EXIT_USAGE = 2
EXIT_ROLLED_BACK = 3
EXIT_INCOMPLETE = 4

# Where the install role puts the binary when it is not in PATH: on a DSM
# volume (roles/install) and under /usr/local elsewhere.
INSTALL_DIRS = ["/usr/local/bin", "/usr/local/sbin"]
DSM_INSTALL_GLOB = "/volume*/@mdprofile"

COMMON_ARGS = dict(
    binary=dict(type="path"),
    root=dict(type="path"),
    profiles_dir=dict(type="path"),
    services_backend=dict(type="str", choices=["dsm6", "dsm7", "systemd", "none"]),
    service_timeout=dict(type="int"),
    package_timeout=dict(type="int"),
    wait=dict(type="bool", default=False),
)


def find_binary(module):
    """The binary option, else mdprofile in PATH or where the install role puts it."""
    binary = module.params.get("binary")
    if binary:
        if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
            module.fail_json(msg="binary %s: not an executable file" % binary)
        return binary
    opt_dirs = INSTALL_DIRS + sorted(glob.glob(DSM_INSTALL_GLOB))
    found = module.get_bin_path("mdprofile", required=False, opt_dirs=opt_dirs)
    if not found:
        module.fail_json(
            msg="mdprofile not found in PATH, %s or %s: install it (role "
            "mdprofile.nas.install) or set binary" % (", ".join(INSTALL_DIRS), DSM_INSTALL_GLOB)
        )
    return found


def option_args(params, options):
    """The options, in order, for the params that are set: options holds (param, option)
    pairs; a number is set when it is not None (0 is), a string when it is not empty."""
    args = []
    for name, option in options:
        value = params.get(name)
        if value is not None and value != "":
            args += [option, str(value)]
    return args


def base_command(module):
    """The binary and the global options, always with --json."""
    p = module.params
    cmd = [find_binary(module), "--json"] + option_args(p, (
        ("root", "--root"), ("profiles_dir", "--profiles"),
        ("services_backend", "--services-backend"),
        ("service_timeout", "--service-timeout"), ("package_timeout", "--package-timeout")))
    if p.get("wait"):
        cmd.append("--wait")
    return cmd


def stderr_lines(err):
    return [line for line in (err or "").splitlines() if line.strip()]


def run(module, args, ok_codes=(EXIT_OK,)):
    """Run mdprofile ARGS; return (rc, document, stderr, cmd).

    Fails the task on an error object (exit 2), on an exit code outside
    ok_codes that has no document of the apply shape, and on anything that
    is not one JSON document. Exit codes 3 and 4 return their document: the
    caller reports them with what the document says.
    """
    cmd = base_command(module) + list(args)
    # LC_ALL=C: the same output on every box; mdprofile's JSON has no locale anyway.
    rc, out, err = module.run_command(cmd, environ_update={"LC_ALL": "C"})
    common = dict(rc=rc, cmd=cmd, stdout=out, stderr=err, stderr_lines=stderr_lines(err))
    try:
        doc = json.loads(out)
    except ValueError:
        doc = None
    if not isinstance(doc, (dict, list)):
        module.fail_json(
            msg="mdprofile exited %d without a JSON document on stdout%s"
            % (rc, (": " + "; ".join(stderr_lines(err))) if err else ""),
            **common
        )
    if isinstance(doc, dict) and "error" in doc:
        error = doc["error"] or {}
        messages = error.get("messages") or []
        kind = "usage or profile error" if rc == EXIT_USAGE else "error"
        module.fail_json(
            msg="mdprofile %s (exit %d), nothing was changed: %s" % (kind, rc, "; ".join(messages)),
            error=error,
            **common
        )
    if rc not in ok_codes and rc not in (EXIT_ROLLED_BACK, EXIT_INCOMPLETE):
        module.fail_json(msg="mdprofile exited %d: %s" % (rc, "; ".join(stderr_lines(err))), **common)
    return rc, doc, err, cmd
