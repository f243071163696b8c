/* SPDX-License-Identifier: Apache-2.0 */
#include "errors.h"

#include <bloom/bloom.h>
#include <stdio.h>
#include <stdlib.h>

/* Per-environment data: worker threads each load the addon into their own
 * environment, so the class reference cannot be a global. */
typedef struct bk_instance {
  napi_ref error_ctor;
} bk_instance;

static void free_instance(napi_env env, void *data, void *hint) {
  (void)hint;
  bk_instance *inst = data;
  if (inst->error_ctor) napi_delete_reference(env, inst->error_ctor);
  free(inst);
}

napi_status bk_set_error_class(napi_env env, napi_value ctor) {
  bk_instance *inst = NULL;
  if (napi_get_instance_data(env, (void **)&inst) != napi_ok || inst == NULL) {
    inst = calloc(1, sizeof *inst);
    if (!inst) return napi_generic_failure;
    napi_status s = napi_set_instance_data(env, inst, free_instance, NULL);
    if (s != napi_ok) {
      free(inst);
      return s;
    }
  }
  if (inst->error_ctor) napi_delete_reference(env, inst->error_ctor);
  inst->error_ctor = NULL;
  return napi_create_reference(env, ctor, 1, &inst->error_ctor);
}

napi_value bk_throw_status(napi_env env, int status, const char *operation) {
  /* The library's detail names the call already ("bloom_load: ..."); only
   * a bare status gets the operation's name. */
  const char *detail = bloom_last_error();
  char message[1024];
  if (detail && *detail)
    snprintf(message, sizeof message, "%s", detail);
  else
    snprintf(message, sizeof message, "%s: %s", operation, bloom_strerror(status));

  bk_instance *inst = NULL;
  napi_value ctor = NULL;
  if (napi_get_instance_data(env, (void **)&inst) == napi_ok && inst && inst->error_ctor)
    napi_get_reference_value(env, inst->error_ctor, &ctor);
  if (!ctor) {  // the JS layer always registers it; an Error beats no error
    napi_throw_error(env, NULL, message);
    return NULL;
  }
  napi_value args[2], error;
  napi_create_int32(env, status, &args[0]);
  napi_create_string_utf8(env, message, NAPI_AUTO_LENGTH, &args[1]);
  if (napi_new_instance(env, ctor, 2, args, &error) == napi_ok) napi_throw(env, error);
  return NULL;
}

napi_value bk_throw_type(napi_env env, const char *message) {
  napi_throw_type_error(env, NULL, message);
  return NULL;
}

napi_value bk_throw_error(napi_env env, const char *message) {
  napi_throw_error(env, NULL, message);
  return NULL;
}
