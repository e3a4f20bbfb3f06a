# -*- coding: utf-8 -*-
# Copyright: the mdprofile authors
# GNU General Public License v2.0 or later (see COPYING or https://www.gnu.org/licenses/gpl-2.0.txt)
"""The options every module of mdprofile.nas passes to mdprofile (module_utils COMMON_ARGS)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type


class ModuleDocFragment(object):
    DOCUMENTATION = r"""
options:
  binary:
    description:
      - Path of the mdprofile binary on the target.
      - Default is mdprofile in C(PATH), then /usr/local/bin, /usr/local/sbin and
        /volume*/@mdprofile, the directories the mdprofile.nas.install role installs to.
    type: path
  profiles_dir:
    description: Look for profiles by name in this directory first (C(--profiles)).
    type: path
  services_backend:
    description: Pause services with this service manager instead of the detected one
      (C(--services-backend)).
    type: str
    choices: [dsm6, dsm7, systemd, none]
  service_timeout:
    description: Seconds a service may take to stop or start, 1 to 3600 (C(--service-timeout)).
      A profile entry's own C(timeout) wins over it.
    type: int
  package_timeout:
    description: Seconds a DSM package may take to stop or start, 1 to 3600
      (C(--package-timeout)). A profile entry's own C(timeout) wins over it.
    type: int
  wait:
    description: Wait for another mdprofile that is changing the system instead of failing
      (C(--wait)).
    type: bool
    default: false
  root:
    description:
      - Read and write every system path beneath this directory instead of C(/)
        (C(--root)). For tests against a copy of a machine's /proc and /sys.
    type: path
"""
