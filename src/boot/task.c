/*
 * task: DSM's Task Scheduler task through esynoscheduler (task.h).
 *
 * Every call runs the tool through exec.h (found in /usr/syno/sbin under
 * the root, a fixed environment, a time limit) and reads what it printed:
 * "save ok" after --create, "jOut={...}" or "jOut=null" after --get,
 * "delete task ok" after --delete. The task's JSON is read only for the
 * three keys that say it is the task asked for: operation, enable, event.
 */
#include "task.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot.h"
#include "mdp_base.h"
#include "boot_int.h"

#define TASK_TIMEOUT_MS 30000

static void said(struct mdp_diags *d, const char *verb, const struct mdp_exec_result *res,
		 const char *what)
{
	char line[256], shown[320];

	mdp_exec_first_line(res, line, sizeof(line));
	mdp_diags_add(d, NULL, 0, 0, "esynoscheduler %s %s: %s", verb, what,
		      line[0] ? mdp_text_safe(shown, sizeof(shown), line) : "(nothing)");
}

/* Run esynoscheduler VERB ARGS; 0 when it ran and did not crash. */
static int scheduler(const struct mdp_root *r, const char *const argv[],
		     struct mdp_exec_result *res, struct mdp_diags *d)
{
	int err = mdp_exec_run(r, argv, TASK_TIMEOUT_MS, res, d);

	if (err == -ENOENT)
		return -ENOSYS;
	if (err == -ETIMEDOUT) {
		mdp_diags_add(d, NULL, 0, 0, "esynoscheduler %s did not answer within %d s",
			      argv[1], TASK_TIMEOUT_MS / 1000);
		return -EPROTO;
	}
	if (err) {
		if (err != -EPERM)
			mdp_diags_add(d, NULL, 0, 0, "cannot run esynoscheduler: %s",
				      strerror(-err));
		return err;
	}
	if (res->term_sig || res->exit_code != 0) {
		mdp_diags_add(d, NULL, 0, 0, "esynoscheduler %s crashed (%s %d)", argv[1],
			      res->term_sig ? "signal" : "exit code",
			      res->term_sig ? res->term_sig : res->exit_code);
		return -EPROTO;
	}
	return 0;
}

/* Where the value of "key" begins in a JSON text (after the colon), or NULL. */
static const char *json_value(const char *js, const char *key)
{
	char k[64];
	const char *p;

	snprintf(k, sizeof(k), "\"%s\"", key);
	if (!(p = strstr(js, k)))
		return NULL;
	p += strlen(k);
	p += strspn(p, " \t\r\n");
	if (*p != ':')
		return NULL;
	p++;
	return p + strspn(p, " \t\r\n");
}

/* The JSON string at p into buf: 0, or -EPROTO for one that is not a plain string. */
static int json_string(const char *p, char *buf, size_t cap);

/* "owner" : { "UID" : "NAME" }: the uid and the name, or "" when it is not so. */
static void json_owner(const char *js, char *uid, size_t ucap, char *buf, size_t cap)
{
	const char *p = json_value(js, "owner");

	buf[0] = uid[0] = '\0';
	if (!p || *p++ != '{')
		return;
	p += strspn(p, " \t\r\n");
	if (json_string(p, uid, ucap) || !(p = strchr(p + 1, '"')))
		return;
	p++;
	p += strspn(p, " \t\r\n");
	if (*p++ != ':')
		return;
	p += strspn(p, " \t\r\n");
	if (json_string(p, buf, cap))
		buf[0] = '\0';
}

static int json_string(const char *p, char *buf, size_t cap)
{
	size_t n = 0;

	if (!p || *p++ != '"')
		return -EPROTO;
	for (; *p && *p != '"'; p++) {
		char c = *p;
		if (c == '\\') {
			c = *++p;
			if (c == 'n')
				c = '\n';
			else if (c == 't')
				c = '\t';
			else if (c != '"' && c != '\\' && c != '/')
				return -EPROTO;
		}
		if (n + 1 >= cap)
			return -EPROTO;
		buf[n++] = c;
	}
	buf[n] = '\0';
	return *p == '"' ? 0 : -EPROTO;
}

int mdp_task_get(const struct mdp_root *r, const char *name, struct mdp_task *t,
		 struct mdp_diags *d)
{
	char arg[128];
	const char *argv[] = {mdp_boot_dsm.scheduler, "--get", arg, NULL}, *js, *en;
	struct mdp_exec_result *res = malloc(sizeof(*res));
	int err;

	if (!res)
		return -ENOMEM;
	snprintf(arg, sizeof(arg), "task_name=%s", name);
	if ((err = scheduler(r, argv, res, d)))
		goto out;
	err = -EPROTO;
	if (!(js = strstr(res->out, "jOut="))) {
		said(d, "--get", res, "answered without jOut");
		goto out;
	}
	js += 5;
	if (!strncmp(js, "null", 4)) {
		err = -ENOENT;
		goto out;
	}
	memset(t, 0, sizeof(*t));
	en = json_value(js, "enable");
	if (*js != '{' || !en ||
	    json_string(json_value(js, "operation"), t->operation, sizeof(t->operation)) ||
	    json_string(json_value(js, "event"), t->event, sizeof(t->event))) {
		said(d, "--get", res, "answered with a task it does not describe");
		goto out;
	}
	t->enabled = !strncmp(en, "true", 4);
	json_owner(js, t->owner_uid, sizeof(t->owner_uid), t->owner, sizeof(t->owner));
	if (json_string(json_value(js, "description"), t->description, sizeof(t->description)))
		t->description[0] = '\0';
	err = 0;
out:
	free(res);
	return err;
}

int mdp_task_delete(const struct mdp_root *r, const char *name, struct mdp_diags *d)
{
	char arg[128];
	const char *argv[] = {mdp_boot_dsm.scheduler, "--delete", arg, NULL};
	struct mdp_exec_result *res = malloc(sizeof(*res));
	struct mdp_task t;
	int err;

	if (!res)
		return -ENOMEM;
	snprintf(arg, sizeof(arg), "task_name=%s", name);
	if (!(err = scheduler(r, argv, res, d)) && !strstr(res->out, "delete task ok")) {
		said(d, "--delete", res, "answered without 'delete task ok'");
		err = -EPROTO;
	}
	free(res);
	if (err)
		return err;
	/* "delete task ok" comes whether a task went or not: look. */
	err = mdp_task_get(r, name, &t, d);
	if (!err) {
		mdp_diags_add(d, NULL, 0, 0,
			      "esynoscheduler --delete said 'delete task ok' but task %s is still "
			      "there",
			      name);
		return -EPROTO;
	}
	return err == -ENOENT ? 0 : err;
}

bool mdp_task_ours(const struct mdp_task *t)
{
	size_t sh = strlen(mdp_boot_dsm.task_shell), dl = strlen(t->description),
	       ml = strlen(MDP_TASK_MARK);
	char owner[96];

	/* the owner as enable gives it, {"UID":"NAME"} */
	snprintf(owner, sizeof(owner), "{\"%s\":\"%s\"}", t->owner_uid, t->owner);
	return t->owner[0] && !strcmp(owner, mdp_boot_dsm.task_owner) &&
	       !strncmp(t->operation, mdp_boot_dsm.task_shell, sh) && t->operation[sh] == ' ' &&
	       dl >= ml && !strcmp(t->description + dl - ml, MDP_TASK_MARK);
}

/* The task as read back is the one asked for. */
static int verify(const struct mdp_root *r, const char *name, const char *operation,
		  struct mdp_diags *d)
{
	struct mdp_task t;
	int err = mdp_task_get(r, name, &t, d);

	if (err == -ENOENT) {
		mdp_diags_add(d, NULL, 0, 0,
			      "esynoscheduler --create said 'save ok' but --get finds no task %s",
			      name);
		return -EPROTO;
	}
	if (err)
		return err;
	if (strcmp(t.operation, operation) || !t.enabled || strcmp(t.event, "bootup")) {
		mdp_diags_add(d, NULL, 0, 0,
			      "task %s as DSM stored it is not the one asked for (%s, event %s, "
			      "operation differs: %s)",
			      name, t.enabled ? "enabled" : "disabled", t.event,
			      strcmp(t.operation, operation) ? "yes" : "no");
		return -EPROTO;
	}
	return 0;
}

/* No task called name, or one enable made, deleted: 0. One it did not make: -EEXIST, named. */
static int make_room(const struct mdp_root *r, const char *name, struct mdp_diags *d)
{
	struct mdp_task *t = malloc(sizeof(*t));
	char op[200];
	int err;

	if (!t)
		return -ENOMEM;
	err = mdp_task_get(r, name, t, d);
	if (!err && !mdp_task_ours(t)) {
		mdp_diags_add(
		    d, NULL, 0, 0,
		    "a Task Scheduler task named %s is there that mdprofile enable did not "
		    "create (owner %s, runs '%s'): it is left as it is",
		    name, t->owner[0] ? t->owner : "unknown",
		    mdp_text_safe(op, sizeof(op), t->operation));
		err = -EEXIST;
	} else if (!err) {
		err = mdp_task_delete(r, name, d);
	}
	free(t);
	return err == -ENOENT ? 0 : err;
}

int mdp_task_create(const struct mdp_root *r, const char *name, const char *operation,
		    const char *description, struct mdp_diags *d)
{
	char a_name[128], a_owner[64], a_op[4200], a_desc[512];
	const char *argv[] = {mdp_boot_dsm.scheduler,
			      "--create",
			      a_name,
			      "event=bootup",
			      "enable=true",
			      a_owner,
			      "operation_type=script",
			      a_op,
			      a_desc,
			      NULL};
	struct mdp_exec_result *res;
	int err;

	snprintf(a_name, sizeof(a_name), "task_name=%s", name);
	snprintf(a_owner, sizeof(a_owner), "owner=%s", mdp_boot_dsm.task_owner);
	snprintf(a_op, sizeof(a_op), "operation=%s", operation);
	snprintf(a_desc, sizeof(a_desc), "description=%s", description);
	for (size_t i = 1; argv[i]; i++)
		if (strchr(argv[i], '%')) {
			mdp_diags_add(
			    d, NULL, 0, 0,
			    "cannot give esynoscheduler '%s': a '%%' makes it save nothing "
			    "or crash",
			    argv[i]);
			return -EINVAL;
		}
	/* A second --create of a name fails and keeps the old task: replace it, if it is ours. */
	if ((err = make_room(r, name, d)))
		return err;
	if (!(res = malloc(sizeof(*res))))
		return -ENOMEM;
	if (!(err = scheduler(r, argv, res, d)) && !strstr(res->out, "save ok")) {
		said(d, "--create", res, "answered without 'save ok'");
		err = -EPROTO;
	}
	free(res);
	if (!err)
		err = verify(r, name, operation, d);
	/* Nothing half-made: a task that is not the one asked for goes again. */
	if (err == -EPROTO)
		(void)mdp_task_delete(r, name, d);
	return err;
}
