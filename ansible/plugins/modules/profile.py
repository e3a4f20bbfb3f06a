#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: the mdprofile authors
# GNU General Public License v2.0 or later (see COPYING or https://www.gnu.org/licenses/gpl-2.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
---
module: profile
short_description: Apply or revert an mdprofile md RAID tuning profile
version_added: "0.1.0"
description:
  - Applies a profile of md RAID tunables (resync and rebuild speed limits, stripe cache,
    read-ahead, services to pause) with C(mdprofile apply), or puts the values from before
    back with C(mdprofile revert).
  - Runs mdprofile with C(--json) only and reads the JSON document it writes
    (mdprofile's docs/output.md); its text output is never parsed.
  - In check mode it runs C(mdprofile diff --json) and changes nothing; the task reports
    C(changed) when a value is pending or a running service would be paused.
  - Idempotent. A second run of the same profile changes nothing and reports C(changed=false).
  - mdprofile's exit codes become failures. 2, a usage or profile error, where nothing
    was touched. 3, a failure on the system that mdprofile rolled back. 4, a rollback left
    incomplete; C(msg) then holds the commands that fix what is left, and C(left) holds
    the entries themselves.
  - Works with Python 2.7 (DSM 6) and Python 3 (DSM 7) on the target.
author:
  - mdprofile authors (!UNKNOWN)
options:
  name:
    description:
      - The profile, a name (looked up in I(profiles_dir), /etc/mdprofile/profiles, the
        shipped profiles and the built-in ones) or a path on the target (contains a C(/) or
        ends in C(.yaml)).
      - Required with I(state=applied), unless I(enabled=false), which without I(name)
        only undoes an earlier enable.
      - With I(state=reverted), revert only when this profile is the active one; a path
        is compared by the name mdprofile gives it, its file name without C(.yaml).
    type: str
  state:
    description:
      - C(applied) applies the profile. C(reverted) restores the values from before the
        first apply of this boot and resumes the paused services.
    type: str
    choices: [applied, reverted]
    default: applied
  enabled:
    description:
      - C(true) makes the profile the box's own with C(mdprofile enable), with
        I(state=applied) only. It is applied now and at every boot (on DSM by the Task
        Scheduler boot-up task C(mdprofile), else by rc.d or systemd units).
      - C(false) undoes an earlier enable with C(mdprofile disable) (which reverts) first,
        when something is enabled (C(changed)); then applies or reverts as I(name) and
        I(state) say. Without I(name), nothing else runs.
      - Unset leaves boot persistence alone.
      - Judged by C(status --json) (its C(enabled) object) and C(diff --json). Nothing runs
        when the same profile, watcher, target and boot binary are enabled, every piece is
        intact and no value is pending.
    type: bool
  auto:
    description:
      - With I(enabled=true), the profile the boot's watcher applies while md resyncs,
        recovers or reshapes (C(enable --auto)).
    type: str
  target:
    description: With I(enabled=true), where the boot persistence goes; default detected
      (dsm on DSM, systemd where systemd runs, else rc.d).
    type: str
    choices: [dsm, systemd, rc.d]
  boot_binary:
    description:
      - With I(enabled=true), the path of mdprofile as the boot runs it (C(enable --binary)),
        on a volume on DSM. Default I(binary) as found.
      - Required with I(root), where it is the path as the system in the tree sees it.
    type: path
extends_documentation_fragment:
  - mdprofile.nas.common
  - ansible.builtin.action_common_attributes
notes:
  - Check mode of I(state=reverted) reads C(status --json) and reports C(changed) when a
    profile is active; the values a revert would restore are known only to mdprofile's
    journal, so the diff shows the active profile, not the values.
  - Kernel settings do not survive a reboot; I(enabled=true) makes them (the
    mdprofile.nas.install role uses it).
  - C(enable) exits 1 when all is done but the DSM task or the systemd units, whose steps
    it prints (esynoscheduler or systemctl missing or failing); the task then fails with
    those steps in C(msg).
seealso:
  - module: mdprofile.nas.status
attributes:
  check_mode:
    support: full
  diff_mode:
    support: full
  platform:
    support: full
    platforms: posix
"""

EXAMPLES = r"""
- name: Speed up the reshape
  mdprofile.nas.profile:
    name: reshape-fast

- name: A profile of our own, kept on the volume
  mdprofile.nas.profile:
    name: /volume1/@mdprofile/profiles/nightly.yaml
    services_backend: dsm7

- name: Balanced from now on, reshape-fast while md rebuilds
  mdprofile.nas.profile:
    name: balanced
    enabled: true
    auto: reshape-fast

- name: Back to the values from before
  mdprofile.nas.profile:
    state: reverted

- name: Revert only if reshape-fast is the active profile
  mdprofile.nas.profile:
    name: reshape-fast
    state: reverted
"""

RETURN = r"""
profile:
  description: The profile applied or reverted, null when there was none to revert.
  returned: always
  type: str
  sample: reshape-fast
result:
  description: mdprofile's result, C(ok), C(rolled-back) or C(rollback-incomplete).
  returned: when mdprofile applied or reverted (not in check mode)
  type: str
  sample: ok
changes:
  description:
    - Each value changed (apply) or put back (revert), in the order written.
    - In check mode, each value that would change.
  returned: always
  type: list
  elements: dict
  sample:
    - target: md2
      tunable: read_ahead
      path: /sys/block/md2/queue/read_ahead_kb
      before: 192
      after: 32768
      unit: KiB
  contains:
    target:
      description: The array (C(md2)), member disk (C(sda)) or C(dev.raid).
      type: str
    tunable:
      description: The profile key.
      type: str
    path:
      description: The file written, relative to the system root.
      type: str
    before:
      description: The value before, null if it could not be read.
      type: raw
    after:
      description: The value after (in check mode, the desired one).
      type: raw
    unit:
      description: The unit of before and after.
      type: str
    reason:
      description: Check mode only, which part of the profile asked for the value.
      type: str
services:
  description: Each service the run considered, with C(name), C(action) and C(result).
  returned: always
  type: list
  elements: dict
  sample:
    - name: synoindexd
      action: pause
      result: done
notes:
  description: Sentences for people from mdprofile.
  returned: always
  type: list
  elements: str
left:
  description: Exit 4 only, what is not back; each entry has C(message) and C(fix).
  returned: on a rollback left incomplete
  type: list
  elements: dict
pending:
  description: Check mode of I(state=applied), the number of values not yet in sync.
  returned: in check mode
  type: int
  sample: 5
memory:
  description: Check mode of I(state=applied), the stripe cache memory now and after.
  returned: in check mode
  type: dict
enabled:
  description:
    - With I(enabled) set, what is enabled at boot after the task (C(status --json)'s
      C(enabled)), null when nothing is. In check mode, what is enabled now.
  returned: when I(enabled) is set
  type: dict
rc:
  description: mdprofile's exit code.
  returned: always
  type: int
  sample: 0
cmd:
  description: The command run.
  returned: always
  type: list
  elements: str
"""

import json
import numbers

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.mdprofile.nas.plugins.module_utils.mdprofile import (
    COMMON_ARGS,
    base_command,
    EXIT_INCOMPLETE,
    EXIT_OK,
    EXIT_PENDING,
    EXIT_ROLLED_BACK,
    option_args,
    run,
    stderr_lines,
)


def show(value, unit):
    """A value as the diff shows it: JSON for null and strings, the unit after numbers."""
    if isinstance(value, bool) or not isinstance(value, numbers.Number):
        return json.dumps(value)
    return "%s %s" % (value, unit)


def value_diffs(changes):
    """Ansible's diff, one before/after pair per value."""
    diffs = []
    for c in changes:
        where = "%s %s (%s)" % (c.get("target"), c.get("tunable"), c.get("path"))
        diffs.append(
            dict(
                before_header=where,
                after_header=where,
                before=show(c.get("before"), c.get("unit")) + "\n",
                after=show(c.get("after"), c.get("unit")) + "\n",
            )
        )
    return diffs


def service_diffs(services, would):
    diffs = []
    for s in services:
        if s.get("result") == would:
            where = "service %s" % s.get("name")
            diffs.append(
                dict(before_header=where, after_header=where, before="running\n", after="paused\n")
            )
    return diffs


def report_failure(module, rc, doc, err, cmd, what):
    """Exit 3 and 4: the documented failures, with what mdprofile said."""
    said = "; ".join(stderr_lines(err))
    res = txn_result(rc, doc, cmd)
    del res["changed"]
    res.update(stderr=err, stderr_lines=stderr_lines(err))
    if rc == EXIT_ROLLED_BACK:
        module.fail_json(
            msg="mdprofile %s failed and was rolled back; nothing it did stays done: %s"
            % (what, said),
            **res
        )
    fixes = []
    for entry in doc.get("left", []):
        fix = entry.get("fix")
        fixes.append(
            "%s (fix: %s)" % (entry.get("message"), fix if fix else "none known, see mdprofile status")
        )
    module.fail_json(
        msg="mdprofile %s failed and its rollback is INCOMPLETE; left to fix as root: %s%s"
        % (what, " | ".join(fixes) if fixes else "nothing listed", (" -- mdprofile: " + said) if said else ""),
        **res
    )


def check_applied(module):
    rc, doc, err, cmd = run(module, ["diff", "--", module.params["name"]], ok_codes=(EXIT_OK, EXIT_PENDING))
    pending = [c for c in doc.get("changes", []) if c.get("pending")]
    changes = [
        dict(
            target=c.get("target"),
            tunable=c.get("tunable"),
            path=c.get("path"),
            before=c.get("current"),
            after=c.get("desired"),
            unit=c.get("unit"),
            reason=c.get("reason"),
        )
        for c in pending
    ]
    services = doc.get("services", [])
    pausing = [s for s in services if s.get("result") == "would-pause"]
    res = dict(
        changed=bool(changes or pausing),
        # diff exits 1 when values are pending: not a failure here.
        failed=False,
        rc=rc,
        cmd=cmd,
        profile=doc.get("profile"),
        changes=changes,
        services=services,
        notes=doc.get("notes", []),
        pending=doc.get("pending", len(changes)),
        memory=doc.get("memory"),
    )
    if module._diff:
        res["diff"] = value_diffs(changes) + service_diffs(services, "would-pause")
    module.exit_json(**res)


def txn_result(rc, doc, cmd):
    """The module's result from an apply or revert document (docs/output.md)."""
    return dict(
        changed=bool(doc.get("changed")),
        rc=rc,
        cmd=cmd,
        profile=doc.get("profile"),
        result=doc.get("result"),
        changes=doc.get("changes", []),
        services=doc.get("services", []),
        notes=doc.get("notes", []),
        left=doc.get("left", []),
    )


def applied(module):
    name = module.params["name"]
    rc, doc, err, cmd = run(module, ["apply", "--", name])
    if rc in (EXIT_ROLLED_BACK, EXIT_INCOMPLETE):
        report_failure(module, rc, doc, err, cmd, "apply of %s" % name)
    res = txn_result(rc, doc, cmd)
    changes, services = res["changes"], res["services"]
    if module._diff:
        res["diff"] = value_diffs(changes) + service_diffs(
            [s for s in services if s.get("action") == "pause"], "done"
        )
    module.exit_json(**res)


def profile_name(arg):
    """The name mdprofile gives the profile arg names: a path's file name without .yaml."""
    if "/" not in arg and not arg.endswith(".yaml"):
        return arg
    base = arg.rsplit("/", 1)[-1]
    return base[:-5] if len(base) > 5 and base.endswith(".yaml") else base


def reverted(module):
    name = module.params["name"]
    if name or module.check_mode:
        rc, status, err, cmd = run(module, ["status"])
        active = status.get("active_profile")
        # The journal keeps the name, not the path: a path applied is the name it gives.
        if name and active != profile_name(name):
            module.exit_json(
                changed=False,
                rc=rc,
                cmd=cmd,
                profile=active,
                changes=[],
                services=[],
                notes=["profile %s is not the active one (%s): nothing reverted" % (name, active)],
            )
        if module.check_mode:
            res = dict(
                changed=active is not None,
                rc=rc,
                cmd=cmd,
                profile=active,
                changes=[],
                services=[],
                notes=[],
            )
            if module._diff and active is not None:
                res["diff"] = dict(
                    before_header="active profile",
                    after_header="active profile",
                    before=active + "\n",
                    after="(none: the values from before it)\n",
                )
            module.exit_json(**res)
    rc, doc, err, cmd = run(module, ["revert"])
    if rc in (EXIT_ROLLED_BACK, EXIT_INCOMPLETE):
        report_failure(module, rc, doc, err, cmd, "revert")
    res = txn_result(rc, doc, cmd)
    changes, services = res["changes"], res["services"]
    if module._diff:
        res["diff"] = value_diffs(changes) + [
            dict(
                before_header="service %s" % s.get("name"),
                after_header="service %s" % s.get("name"),
                before="paused\n",
                after="running\n",
            )
            for s in services
            if s.get("action") == "resume" and s.get("result") == "done"
        ]
    module.exit_json(**res)


def enabled_now(module):
    """What is enabled at boot (status --json's "enabled"), or None."""
    rc, st, err, cmd = run(module, ["status"])
    return st.get("enabled")


def enable_args(module):
    return option_args(module.params, (
        ("auto", "--auto"), ("target", "--target"), ("boot_binary", "--binary")))


def enabled_matches(module, en):
    p = module.params
    return bool(
        en
        and en.get("intact")
        and en.get("profile") == profile_name(p["name"])
        and (en.get("auto") or None) == (p.get("auto") or None)
        and (not p.get("target") or en.get("target") == p["target"])
        and (not p.get("boot_binary") or en.get("binary") == p["boot_binary"])
    )


def describe(en):
    if not en:
        return "nothing enabled\n"
    lines = ["profile %s at every boot, target %s%s" % (
        en.get("profile"), en.get("target"), (", watcher " + en["auto"]) if en.get("auto") else "")]
    lines += ["%s %s" % (pc.get("what"), pc.get("where")) for pc in en.get("pieces", [])]
    return "\n".join(lines) + "\n"


def run_text(module, args):
    """mdprofile ARGS without --json (enable and disable report as text): rc, out, err, cmd."""
    cmd = [c for c in base_command(module) if c != "--json"] + list(args)
    rc, out, err = module.run_command(cmd, environ_update={"LC_ALL": "C"})
    return rc, out, err, cmd


def fail_text(module, rc, out, err, cmd, what):
    """enable or disable did not finish: what it said on stderr, and for exit 1 the steps left."""
    said = [ln[len("mdprofile: "):] if ln.startswith("mdprofile: ") else ln for ln in stderr_lines(err)]
    lines = stderr_lines(out)
    steps = [i for i, ln in enumerate(lines) if ln.startswith("to ")]
    if rc == EXIT_PENDING and steps:
        said += lines[steps[0]:]
    said = "; ".join(said)
    if rc == EXIT_PENDING:
        msg = "mdprofile %s did all but one step, left to do by hand: %s" % (what, said)
    else:
        msg = "mdprofile %s failed (exit %d): %s" % (what, rc, said)
    module.fail_json(msg=msg, rc=rc, cmd=cmd, stdout=out, stderr=err, stderr_lines=stderr_lines(err))


def enable(module):
    """enabled=true: mdprofile enable, unless it is enabled as asked and in sync."""
    name = module.params["name"]
    before = enabled_now(module)
    rc, doc, err, cmd = run(module, ["diff", "--", name], ok_codes=(EXIT_OK, EXIT_PENDING))
    pending = [c for c in doc.get("changes", []) if c.get("pending")]
    # diff exits 1 when values are pending: not a failure here.
    res = dict(rc=rc, cmd=cmd, profile=profile_name(name), changes=[], services=[], notes=[],
               enabled=before, failed=False)
    if enabled_matches(module, before) and not pending:
        module.exit_json(changed=False, **res)
    if module._diff:
        res["diff"] = [dict(before_header="enabled at boot", after_header="enabled at boot",
                            before=describe(before),
                            after="profile %s at every boot%s (mdprofile enable)\n" % (
                                profile_name(name),
                                (", watcher " + module.params["auto"]) if module.params.get("auto") else ""))]
    if module.check_mode:
        module.exit_json(changed=True, **res)
    rc, out, err, cmd = run_text(module, ["enable"] + enable_args(module) + ["--", name])
    if rc != EXIT_OK:
        fail_text(module, rc, out, err, cmd, "enable %s" % name)
    res.update(rc=rc, cmd=cmd, enabled=enabled_now(module), notes=stderr_lines(out))
    del res["failed"]
    module.exit_json(changed=True, **res)


def disable(module, then):
    """enabled=false: mdprofile disable when something is enabled; then the rest (then).

    Whatever the rest reports, the task is changed when disable ran, and returns
    what is enabled after it. Without a name there is no rest: the task ends here.
    """
    before = enabled_now(module)
    if before and module.check_mode:
        res = dict(changed=True, rc=0, cmd=[], profile=before.get("profile"), changes=[],
                   services=[], notes=[], enabled=before)
        if module._diff:
            res["diff"] = [dict(before_header="enabled at boot", after_header="enabled at boot",
                                before=describe(before), after=describe(None))]
        module.exit_json(**res)
    if not before:
        notes, res = [], dict(changed=False, rc=0, cmd=[], profile=None)
    else:
        rc, out, err, cmd = run_text(module, ["disable"])
        if rc != EXIT_OK:
            fail_text(module, rc, out, err, cmd, "disable")
        notes, res = stderr_lines(out), dict(changed=True, rc=rc, cmd=cmd, profile=before.get("profile"))
    if not module.params["name"]:
        module.exit_json(changes=[], services=[], notes=notes,
                         enabled=enabled_now(module) if before else None, **res)
    exit_json = module.exit_json

    def exit_disabled(**rest):
        if before:
            rest.update(changed=True, notes=notes + rest.get("notes", []), enabled=enabled_now(module))
        else:
            rest.update(enabled=None)
        exit_json(**rest)

    module.exit_json = exit_disabled
    return then()


def main():
    argument_spec = dict(
        name=dict(type="str"),
        state=dict(type="str", default="applied", choices=["applied", "reverted"]),
        enabled=dict(type="bool"),
        auto=dict(type="str"),
        target=dict(type="str", choices=["dsm", "systemd", "rc.d"]),
        boot_binary=dict(type="path"),
    )
    argument_spec.update(COMMON_ARGS)
    module = AnsibleModule(
        argument_spec=argument_spec,
        supports_check_mode=True,
    )
    p = module.params
    # enabled: false alone only disables; otherwise applied needs the profile.
    if p["state"] == "applied" and not p["name"] and p["enabled"] is not False:
        module.fail_json(msg="state is applied but all of the following are missing: name")
    if p["enabled"] is not True and (p.get("auto") or p.get("target") or p.get("boot_binary")):
        module.fail_json(msg="auto, target and boot_binary go with enabled: true")
    if p["enabled"] and p["state"] == "reverted":
        module.fail_json(msg="enabled: true and state: reverted contradict each other")
    if p["enabled"]:
        enable(module)

    def rest():
        if p["state"] == "applied":
            if module.check_mode:
                check_applied(module)
            applied(module)
        reverted(module)

    if p["enabled"] is False:
        disable(module, rest)
    rest()


if __name__ == "__main__":
    main()
