#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: the mdprofile authors
# GNU General Public License v2.0 or later (see COPYING or https://www.gnu.org/licenses/gpl-2.0.txt)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
---
module: status
short_description: The md arrays, their RAID operation and the active mdprofile profile, as facts
version_added: "0.1.0"
description:
  - Runs C(mdprofile status --json) and returns its document (mdprofile's docs/output.md,
    section status) as C(status) and as the fact C(mdprofile_status), so that playbooks
    can wait for a resync, rebuild or reshape to finish (C(until)) or pick a profile by
    RAM, level or the operation under way.
  - Adds C(busy_arrays), the names of the arrays whose C(sync_action) is not C(idle), and
    C(idle), true when there is none.
  - Changes nothing; supports check mode.
  - Works with Python 2.7 (DSM 6) and Python 3 (DSM 7) on the target.
author:
  - mdprofile authors (!UNKNOWN)
extends_documentation_fragment:
  - mdprofile.nas.common
  - ansible.builtin.action_common_attributes
  - ansible.builtin.action_common_attributes.facts
seealso:
  - module: mdprofile.nas.profile
attributes:
  check_mode:
    support: full
  diff_mode:
    support: none
  facts:
    support: full
  platform:
    support: full
    platforms: posix
"""

EXAMPLES = r"""
- name: Read the arrays
  mdprofile.nas.status:
  register: md

- name: Wait until no array resyncs, rebuilds or reshapes (checks every 10 minutes)
  mdprofile.nas.status:
  register: md
  until: md.idle
  retries: 1000
  delay: 600

- name: Pick a profile by RAM
  mdprofile.nas.profile:
    name: "{{ 'low-ram' if ansible_facts.mdprofile_status.mem_total_kib < 1048576 else 'reshape-fast' }}"
"""

RETURN = r"""
status:
  description:
    - The document of C(mdprofile status --json), as docs/output.md describes it.
    - Among its keys C(arrays) (each with C(name), C(level), C(sync_action), C(sync_state),
      C(progress_permille), C(eta_seconds), C(members) and the tunables),
      C(active_profile), C(profile_state), C(paused_services), C(drift_values),
      C(mem_total_kib) and C(mem_available_kib).
  returned: always
  type: dict
  sample:
    arrays:
      - name: md2
        level: raid5
        sync_action: reshape
        sync_state: running
        progress_permille: 251
        eta_seconds: 311975
    active_profile: null
    profile_state: none
    mem_total_kib: 8061828
busy_arrays:
  description: The arrays whose C(sync_action) is not C(idle) (a resync, recovery, reshape,
    check, repair or frozen operation).
  returned: always
  type: list
  elements: str
  sample: [md2]
idle:
  description: True when no array has an operation (C(busy_arrays) is empty).
  returned: always
  type: bool
  sample: false
ansible_facts:
  description: Facts set by the module.
  returned: always
  type: complex
  contains:
    mdprofile_status:
      description: The same document as C(status), with C(busy_arrays) and C(idle) added.
      returned: always
      type: dict
rc:
  description: mdprofile's exit code.
  returned: always
  type: int
cmd:
  description: The command run.
  returned: always
  type: list
  elements: str
"""

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.mdprofile.nas.plugins.module_utils.mdprofile import COMMON_ARGS, run


def main():
    module = AnsibleModule(argument_spec=dict(COMMON_ARGS), supports_check_mode=True)
    rc, doc, err, cmd = run(module, ["status"])
    if not isinstance(doc, dict):
        module.fail_json(msg="mdprofile status --json: expected a JSON object", rc=rc, cmd=cmd)
    busy = [a.get("name") for a in doc.get("arrays", []) if a.get("sync_action", "idle") != "idle"]
    facts = dict(doc)
    facts.update(busy_arrays=busy, idle=not busy)
    module.exit_json(
        changed=False,
        rc=rc,
        cmd=cmd,
        status=doc,
        busy_arrays=busy,
        idle=not busy,
        ansible_facts=dict(mdprofile_status=facts),
    )


if __name__ == "__main__":
    main()
