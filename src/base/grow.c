/* grow: the one way an array grows by an element (see grow.h). */
#include "grow.h"

#include <errno.h>
#include <stdint.h>
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

int mdp_grow_cap(void *vp, size_t n, size_t *cap, size_t size)
{
	void *v, *nv;
	size_t nc;

	if (n < *cap)
		return 0;
	if (n == (size_t)-1)
		return -ENOMEM;
	nc = !*cap ? 16 : *cap > SIZE_MAX / 2 ? n + 1 : *cap * 2;
	if (nc <= n)
		nc = n + 1;
	if (size && nc > SIZE_MAX / size)
		return -ENOMEM;
	memcpy(&v, vp, sizeof(v));
	if (!(nv = reallocarray(v, nc, size)))
		return -ENOMEM;
	memcpy(vp, &nv, sizeof(nv));
	*cap = nc;
	return 0;
}

void mdp_strs_free(char **v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}
