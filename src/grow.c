/* grow: the one way an array grows by an element (see grow.h). */
#include "grow.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int mdp_grow(void *vp, size_t n, size_t size)
{
	void *v, *nv;

	memcpy(&v, vp, sizeof(v));
	if (n == (size_t)-1 || !(nv = reallocarray(v, n + 1, size)))
		return -ENOMEM;
	memcpy(vp, &nv, sizeof(nv));
	return 0;
}

void *mdp_push(void *vp, size_t *n, size_t size)
{
	char *v;

	if (mdp_grow(vp, *n, size))
		return NULL;
	memcpy(&v, vp, sizeof(v));
	v += *n * size;
	memset(v, 0, size);
	(*n)++;
	return v;
}
