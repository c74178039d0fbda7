/*
 * The json-c calls our code makes, wrapped at link time (-Wl,--wrap, see
 * JSON_WRAP in the Makefile) so that running out of memory while building
 * an answer is noticed in one place: lib/json.h, "Out of memory while
 * building JSON".
 */
#include <stdint.h>

#include "json.h"
#include "banned.h"

json_object *__real_json_object_new_object(void);
json_object *__real_json_object_new_array(void);
json_object *__real_json_object_new_string(const char *s);
json_object *__real_json_object_new_string_len(const char *s, int len);
json_object *__real_json_object_new_int(int32_t i);
json_object *__real_json_object_new_int64(int64_t i);
json_object *__real_json_object_new_boolean(json_bool b);
json_object *__real_json_object_new_double_s(double d, const char *ds);
int __real_json_object_object_add(json_object *o, const char *key, json_object *val);
int __real_json_object_object_add_ex(json_object *o, const char *key, json_object *val,
    unsigned opts);
int __real_json_object_array_add(json_object *a, json_object *val);
const char *__real_json_object_to_json_string_length(json_object *o, int flags, size_t *len);

json_object *__wrap_json_object_new_object(void);
json_object *__wrap_json_object_new_array(void);
json_object *__wrap_json_object_new_string(const char *s);
json_object *__wrap_json_object_new_string_len(const char *s, int len);
json_object *__wrap_json_object_new_int(int32_t i);
json_object *__wrap_json_object_new_int64(int64_t i);
json_object *__wrap_json_object_new_boolean(json_bool b);
json_object *__wrap_json_object_new_double_s(double d, const char *ds);
int __wrap_json_object_object_add(json_object *o, const char *key, json_object *val);
int __wrap_json_object_object_add_ex(json_object *o, const char *key, json_object *val,
    unsigned opts);
int __wrap_json_object_array_add(json_object *a, json_object *val);
const char *__wrap_json_object_to_json_string_length(json_object *o, int flags, size_t *len);

static json_object *
made(json_object *o)
{
	if (o == NULL)
		json_alloc_failed();
	return o;
}

json_object *
__wrap_json_object_new_object(void)
{
	return made(__real_json_object_new_object());
}

json_object *
__wrap_json_object_new_array(void)
{
	return made(__real_json_object_new_array());
}

json_object *
__wrap_json_object_new_string(const char *s)
{
	return made(__real_json_object_new_string(s));
}

json_object *
__wrap_json_object_new_string_len(const char *s, int len)
{
	return made(__real_json_object_new_string_len(s, len));
}

json_object *
__wrap_json_object_new_int(int32_t i)
{
	return made(__real_json_object_new_int(i));
}

json_object *
__wrap_json_object_new_int64(int64_t i)
{
	return made(__real_json_object_new_int64(i));
}

json_object *
__wrap_json_object_new_boolean(json_bool b)
{
	return made(__real_json_object_new_boolean(b));
}

json_object *
__wrap_json_object_new_double_s(double d, const char *ds)
{
	return made(__real_json_object_new_double_s(d, ds));
}

/* An add to a container that could not be made, or that failed: val is released. */
static int
not_taken(json_object *val)
{
	json_object_put(val);
	json_alloc_failed();
	return -1;
}

int
__wrap_json_object_object_add(json_object *o, const char *key, json_object *val)
{
	if (o == NULL)
		return not_taken(val);
	return __real_json_object_object_add(o, key, val) == 0 ? 0 : not_taken(val);
}

int
__wrap_json_object_object_add_ex(json_object *o, const char *key, json_object *val, unsigned opts)
{
	if (o == NULL)
		return not_taken(val);
	return __real_json_object_object_add_ex(o, key, val, opts) == 0 ? 0 : not_taken(val);
}

int
__wrap_json_object_array_add(json_object *a, json_object *val)
{
	if (a == NULL)
		return not_taken(val);
	return __real_json_object_array_add(a, val) == 0 ? 0 : not_taken(val);
}

const char *
__wrap_json_object_to_json_string_length(json_object *o, int flags, size_t *len)
{
	const char *s = __real_json_object_to_json_string_length(o, flags, len);

	if (s == NULL)
		json_alloc_failed();
	return s;
}
